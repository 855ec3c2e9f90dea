//! README's "How it is built" names every folder of `src/` (as `src/NAME/`), so the tree and its
//! description cannot drift apart.

use std::fs;

#[test]
fn how_it_is_built_names_every_folder_of_src() {
    let readme = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README.md");
    let start = readme.find("## How it is built").expect("a \"How it is built\" section");
    let section = &readme[start..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |end| end + 3)];
    let mut missing = Vec::new();
    for entry in fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/src")).expect("src/") {
        let entry = entry.expect("an entry of src/");
        if entry.file_type().expect("its type").is_dir() {
            let name = format!("`src/{}/`", entry.file_name().to_string_lossy());
            if !section.contains(&name) {
                missing.push(name);
            }
        }
    }
    missing.sort();
    assert!(missing.is_empty(), "README's \"How it is built\" does not name {missing:?}");
}

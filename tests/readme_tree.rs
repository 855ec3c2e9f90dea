//! README's "How it is built" names every folder of `src/` (as `src/NAME/`), and its code map
//! lists `src/lib.rs`'s layers in their order, each with its modules, so the tree and its
//! description cannot drift apart.

use std::fs;

fn section() -> String {
    let readme = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README.md");
    let start = readme.find("## How it is built").expect("a \"How it is built\" section");
    let section = &readme[start..];
    section[..section[3..].find("\n## ").map_or(section.len(), |end| end + 3)].to_string()
}

#[test]
fn how_it_is_built_names_every_folder_of_src() {
    let section = section();
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

/// `src/lib.rs`'s layers, bottom up: each block of `mod` lines' name (its first comment line,
/// up to a full stop or a parenthesis) and modules.
fn layers() -> Vec<(String, Vec<String>)> {
    let lib = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/lib.rs")).expect("src/lib.rs");
    let module = |line: &str| {
        let line = line.trim().trim_start_matches("pub ").trim_start_matches("pub(crate) ");
        line.strip_prefix("mod ")?.strip_suffix(';').map(str::to_string)
    };
    lib.split("\n\n")
        .filter_map(|block| {
            let mods: Vec<String> = block.lines().filter_map(module).collect();
            let name = block.lines().find_map(|l| l.trim().strip_prefix("// "))?;
            let name = name.split(" (").next()?.trim_end_matches('.').to_string();
            (!mods.is_empty()).then_some((name, mods))
        })
        .collect()
}

#[test]
fn the_code_map_lists_the_layers_of_lib_rs_in_order_with_their_modules() {
    let section = section();
    let map = &section[section.find("### Code map").expect("a code map")..];
    let layers = layers();
    assert!(layers.len() >= 10, "{layers:?}");
    for (i, (name, mods)) in layers.iter().enumerate() {
        let head = format!("\n{}. **{name}**", i + 1);
        let at = map.find(&head).unwrap_or_else(|| panic!("the code map's layer {}: no {head:?}", i + 1));
        let next = format!("\n{}. **", i + 2);
        let item = &map[at..map[at + 1..].find(&next).map_or(map.len(), |end| at + 1 + end)];
        for module in mods {
            let named = [format!("`src/{module}/`"), format!("`src/{module}.rs`")];
            assert!(
                named.iter().any(|n| item.contains(n.as_str())),
                "the code map's layer \"{name}\" does not name module {module}"
            );
        }
    }
}

//! The files on disk: read every file at or below the paths given (a `.log`, a `.checkpoint`, a
//! `__cluster_metadata-0` directory, nodes' directories), and write them. The decoder itself
//! never touches the file system, so the page can feed it bytes.

use std::path::Path;

use super::writer::KafkaFile;

/// Folders below a given path that are read (a node's `__cluster_metadata-0` is two below a
/// parent of several nodes' directories).
const MAX_DEPTH: usize = 3;
/// Files read at most, over every path given.
const MAX_FILES: usize = 10_000;

/// Every file at or below `paths` (three folders deep at most), each named by its path as
/// given joined with its place below it, in a fixed order: several nodes' directories.
pub fn read_tree(paths: &[&Path]) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut files = Vec::new();
    for path in paths {
        if !path.exists() {
            return Err(format!("{} does not exist", path.display()));
        }
        walk(path, 0, &mut files)?;
    }
    if files.is_empty() {
        let given: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(format!("no files in {}", given.join(", ")));
    }
    crate::util::sort::sort(&mut files);
    Ok(files)
}

fn walk(path: &Path, depth: usize, files: &mut Vec<(String, Vec<u8>)>) -> Result<(), String> {
    if path.is_file() {
        if files.len() >= MAX_FILES {
            return Err(format!("more than {MAX_FILES} files: give the nodes' directories themselves"));
        }
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        files.push((path.display().to_string().replace('\\', "/"), bytes));
        return Ok(());
    }
    if depth > MAX_DEPTH || !path.is_dir() {
        return Ok(());
    }
    let entries = std::fs::read_dir(path).map_err(|e| format!("cannot list {}: {e}", path.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot list {}: {e}", path.display()))?;
        walk(&entry.path(), depth + 1, files)?;
    }
    Ok(())
}

/// Write `files` into `dir` (a name may hold folders: `n1/meta.properties`), creating it.
pub fn write_files(dir: &Path, files: &[KafkaFile]) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for file in files {
        let path = dir.join(&file.name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        std::fs::write(&path, &file.bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

//! The files on disk: read a `.log`, a `.checkpoint` or a `__cluster_metadata-0` directory (its
//! segments and snapshots; indexes, `quorum-state` and the rest are not records), and write
//! one. The decoder itself never touches the file system, so the page can feed it bytes.

use std::path::Path;

use super::writer::KafkaFile;

/// Whether a file name is one of the log's record files.
fn is_record_file(name: &str) -> bool {
    name.ends_with(".log") || name.ends_with(".checkpoint")
}

/// The record files at `path` (one file, or a directory's), with their names and bytes.
pub fn read_path(path: &Path) -> Result<Vec<(String, Vec<u8>)>, String> {
    let read = |p: &Path| std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()));
    if !path.is_dir() {
        return Ok(vec![(path.display().to_string(), read(path)?)]);
    }
    let entries = std::fs::read_dir(path).map_err(|e| format!("cannot list {}: {e}", path.display()))?;
    let mut files = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot list {}: {e}", path.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if is_record_file(&name) && entry.path().is_file() {
            files.push((entry.path().display().to_string(), read(&entry.path())?));
        }
    }
    if files.is_empty() {
        return Err(format!("{} has no .log or .checkpoint files", path.display()));
    }
    crate::util::sort::sort(&mut files);
    Ok(files)
}

/// Write `files` into `dir`, creating it.
pub fn write_files(dir: &Path, files: &[KafkaFile]) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for file in files {
        let path = dir.join(&file.name);
        std::fs::write(&path, &file.bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

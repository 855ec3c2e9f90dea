//! The files of folders dropped on the page: each dropped item's entry
//! (`DataTransferItem.webkitGetAsEntry`), folders read entry by entry
//! (`FileSystemDirectoryReader.readEntries`, called until it answers with none), each file named
//! by its path below the drop (`FileSystemEntry.fullPath`). The browser answers every read
//! later; the walk counts the reads under way and hands over what it found when the last one
//! answers.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{
    DataTransfer, FileSystemDirectoryEntry, FileSystemDirectoryReader, FileSystemEntry, FileSystemFileEntry,
};
use yew::Callback;

use super::log_reader::described;

/// Files read from one drop at most.
const MAX_FILES: usize = 10_000;

/// A file found: its path below what was dropped, and the file or why it could not be had.
pub type Found = (String, Result<web_sys::File, String>);

/// The entries of the items dropped, when at least one is a folder (else the drop's files are
/// read as they are).
pub fn dropped_folders(data: &DataTransfer) -> Option<Vec<FileSystemEntry>> {
    let items = data.items();
    let entries: Vec<FileSystemEntry> =
        (0..items.length()).filter_map(|i| items.get(i)?.webkit_get_as_entry().ok().flatten()).collect();
    entries.iter().any(FileSystemEntry::is_directory).then_some(entries)
}

/// What a walk has found, and how many reads are under way.
struct Walk {
    pending: usize,
    found: Vec<Found>,
    /// Entries past [`MAX_FILES`] were left out.
    overflow: bool,
    done: Option<Callback<Vec<Found>>>,
}

type Shared = Rc<RefCell<Walk>>;

/// Read every file below `entries`, then hand them to `done` (in the order found).
pub fn walk(entries: Vec<FileSystemEntry>, done: Callback<Vec<Found>>) {
    let walk =
        Rc::new(RefCell::new(Walk { pending: 1, found: Vec::new(), overflow: false, done: Some(done) }));
    for entry in entries {
        visit(&walk, entry);
    }
    settle(&walk, None);
}

fn visit(walk: &Shared, entry: FileSystemEntry) {
    {
        let mut state = walk.borrow_mut();
        if state.found.len() + state.pending >= MAX_FILES {
            state.overflow = true;
            return;
        }
    }
    let path = entry.full_path().trim_start_matches('/').to_string();
    if entry.is_directory() {
        read(walk, entry.unchecked_into::<FileSystemDirectoryEntry>().create_reader(), path);
    } else if entry.is_file() {
        walk.borrow_mut().pending += 1;
        let (ok_walk, error_walk, error_path) = (walk.clone(), walk.clone(), path.clone());
        let ok = Closure::once_into_js(move |file: web_sys::File| settle(&ok_walk, Some((path, Ok(file)))));
        let error = Closure::once_into_js(move |error: JsValue| {
            settle(&error_walk, Some((error_path, Err(described(&error)))))
        });
        entry
            .unchecked_into::<FileSystemFileEntry>()
            .file_with_callback_and_callback(ok.unchecked_ref(), error.unchecked_ref());
    }
}

/// Read the folder at `path` a batch of entries at a time, until a read answers with none.
fn read(walk: &Shared, reader: FileSystemDirectoryReader, path: String) {
    walk.borrow_mut().pending += 1;
    let (ok_walk, error_walk, next, error_path) = (walk.clone(), walk.clone(), reader.clone(), path.clone());
    let ok = Closure::once_into_js(move |entries: js_sys::Array| {
        if entries.length() > 0 {
            for entry in entries.iter() {
                visit(&ok_walk, entry.unchecked_into());
            }
            read(&ok_walk, next, path);
        }
        settle(&ok_walk, None);
    });
    let error = Closure::once_into_js(move |error: JsValue| {
        settle(&error_walk, Some((error_path, Err(described(&error)))))
    });
    if let Err(error) =
        reader.read_entries_with_callback_and_callback(ok.unchecked_ref(), error.unchecked_ref())
    {
        settle(walk, Some((String::new(), Err(described(&error)))));
    }
}

/// One read answered (with what it found, if anything); the last one hands the files over.
fn settle(walk: &Shared, found: Option<Found>) {
    let mut state = walk.borrow_mut();
    state.found.extend(found);
    state.pending -= 1;
    if state.pending > 0 {
        return;
    }
    let mut found = std::mem::take(&mut state.found);
    if state.overflow {
        found.push((
            "the folder dropped".into(),
            Err(format!("more than {MAX_FILES} files: drop the nodes' directories themselves")),
        ));
    }
    if let Some(done) = state.done.take() {
        drop(state);
        done.emit(found);
    }
}

//! What the viewer does to the metadata log view: picks or drops files (their bytes read by
//! the browser), scrubs the timeline, drags files over the drop zone; and the log reader's
//! answers.

use crate::log_reader::OpenedLog;

/// The metadata log view's actions.
#[derive(Clone, Debug, PartialEq)]
pub enum MetadataLogAction {
    /// The viewer picked or dropped this many files: their bytes follow, one `Read` each.
    Reading(usize),
    /// A file's bytes, or why the browser could not read it.
    Read { name: String, bytes: Result<Vec<u8>, String> },
    /// Show the image after this many records.
    Seek(usize),
    /// Files are dragged over the drop zone, or no longer.
    Drag(bool),
    /// The log reader's view of the log after an open or a seek, or why it failed.
    Answered(Result<Box<OpenedLog>, String>),
}

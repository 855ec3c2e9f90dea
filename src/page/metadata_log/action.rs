//! What the viewer does to the metadata log view: picks or drops files (handed by the web layer
//! to the log reader's worker, which reads and decodes them: their bytes never pass through
//! here), scrubs the timeline, drags files over the drop zone; and the log reader's answers.

use super::history::HistoryAction;
use crate::log_reader::OpenedLog;

/// The metadata log view's actions.
#[derive(Clone, Debug, PartialEq)]
pub enum MetadataLogAction {
    /// The viewer picked or dropped this many files, handed to the log reader, which reads and
    /// decodes them.
    Opening(usize),
    /// One of them could not be read (what the browser said): none is opened.
    Unreadable(String),
    /// Show the image after this many records.
    Seek(usize),
    /// Play, pause or move the opened log's history.
    History(HistoryAction),
    /// Files are dragged over the drop zone, or no longer.
    Drag(bool),
    /// The log reader's view of the log after an open or a seek, or why it failed.
    Answered(Result<Box<OpenedLog>, String>),
}

//! What the viewer does to the metadata log view: picks or drops files (read by the browser,
//! whose bytes go from the web layer to the log reader's worker without passing through here),
//! scrubs the timeline, drags files over the drop zone; and the log reader's answers.

use super::history::HistoryAction;
use crate::log_reader::OpenedLog;

/// The metadata log view's actions.
#[derive(Clone, Debug, PartialEq)]
pub enum MetadataLogAction {
    /// The viewer picked or dropped this many files; the browser reads them.
    Reading(usize),
    /// The browser could not read one of them (what it said): the batch is abandoned.
    Unreadable(String),
    /// All are read and handed to the log reader, which decodes them.
    Decoding,
    /// Show the image after this many records.
    Seek(usize),
    /// Play, pause or move the opened log's history.
    History(HistoryAction),
    /// Files are dragged over the drop zone, or no longer.
    Drag(bool),
    /// The log reader's view of the log after an open or a seek, or why it failed.
    Answered(Result<Box<OpenedLog>, String>),
}

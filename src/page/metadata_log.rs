//! The "Open a metadata log" view's state: the files being read (their bytes arrive one
//! [`MetadataLogAction::Read`] each), then decoded by the log reader (a Web Worker in the page,
//! [`crate::log_reader::LogReader`]), the opened log as the reader last described it, how long opening
//! took, what went wrong, and whether files are dragged over the drop zone.

pub mod action;

pub use action::MetadataLogAction;

use super::clock::Clock;
use crate::log_reader::{LogRequest, OpenedLog};

/// The metadata log view.
#[derive(Default)]
pub struct MetadataLogView {
    /// Files still being read, and those read so far.
    pending: usize,
    loaded: Vec<(String, Vec<u8>)>,
    /// Whether the reader is decoding the files read.
    decoding: bool,
    /// When reading began, on the page's clock.
    started_ms: f64,
    /// How long reading and decoding the last opened files took.
    open_ms: Option<f64>,
    opened: Option<OpenedLog>,
    error: Option<String>,
    dragging: bool,
}

impl MetadataLogView {
    /// Whether files are being read or decoded.
    pub fn reading(&self) -> bool {
        self.pending > 0 || self.decoding
    }

    /// Whether the files are read and the reader is decoding them.
    pub fn decoding(&self) -> bool {
        self.decoding
    }

    /// How long opening the last files took (real milliseconds).
    pub fn open_ms(&self) -> Option<f64> {
        self.open_ms
    }

    /// The opened log.
    pub fn opened(&self) -> Option<&OpenedLog> {
        self.opened.as_ref()
    }

    /// What went wrong reading or decoding the last files.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Whether files are dragged over the drop zone.
    pub fn dragging(&self) -> bool {
        self.dragging
    }

    /// Apply one action; `clock` times the opening. Returns what to ask the log reader.
    pub(crate) fn reduce(&mut self, action: MetadataLogAction, clock: Clock) -> Option<LogRequest> {
        match action {
            MetadataLogAction::Reading(0) => {}
            MetadataLogAction::Reading(files) => {
                self.started_ms = clock();
                self.pending = files;
                self.loaded.clear();
                self.error = None;
            }
            // A file of an abandoned batch (after another one failed) is not opened.
            MetadataLogAction::Read { .. } if self.pending == 0 => {}
            MetadataLogAction::Read { name, bytes: Ok(bytes) } => {
                self.loaded.push((name, bytes));
                self.pending -= 1;
                if self.pending == 0 {
                    self.decoding = true;
                    return Some(LogRequest::Open(std::mem::take(&mut self.loaded)));
                }
            }
            MetadataLogAction::Read { name, bytes: Err(error) } => {
                self.pending = 0;
                self.loaded.clear();
                self.error = Some(format!("Cannot read {name}: {error}"));
            }
            // Scrubbing waits until the files are decoded.
            MetadataLogAction::Seek(count) if self.opened.is_some() && !self.decoding => {
                return Some(LogRequest::Seek(count));
            }
            MetadataLogAction::Seek(_) => {}
            MetadataLogAction::Answered(Ok(opened)) => {
                if self.decoding {
                    self.decoding = false;
                    self.open_ms = Some(clock() - self.started_ms);
                }
                self.error = opened.error.clone();
                self.opened = Some(*opened);
            }
            MetadataLogAction::Answered(Err(error)) => {
                self.decoding = false;
                self.error = Some(format!("The log reader failed: {error}"));
            }
            MetadataLogAction::Drag(over) => self.dragging = over,
        }
        None
    }
}

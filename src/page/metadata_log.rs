//! The "Open a metadata log" view's state: whether files are being read and decoded (by the log
//! reader, [`crate::log_reader::LogReader`], in the page's Web Worker), the opened log as the
//! reader last described it, how long opening took, what went wrong, and whether files are
//! dragged over the drop zone. The files go from the web layer to the worker, which reads them;
//! this state sees only what the reader answers.

pub mod action;
pub mod history;

pub use action::MetadataLogAction;
use history::HistoryPlayer;

use super::clock::Clock;
use crate::log_reader::{LogQuery, OpenedLog};

/// The metadata log view.
#[derive(Default)]
pub struct MetadataLogView {
    /// Whether the reader is reading and decoding the files picked or dropped.
    decoding: bool,
    /// When opening began, on the page's clock.
    started_ms: f64,
    /// How long reading and decoding the last opened files took.
    open_ms: Option<f64>,
    opened: Option<OpenedLog>,
    /// The opened log's history, played on its own clock.
    history: Option<HistoryPlayer>,
    error: Option<String>,
    dragging: bool,
}

impl MetadataLogView {
    /// Whether the reader is reading and decoding the files picked or dropped.
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

    /// The opened log's history.
    pub fn history(&self) -> Option<&HistoryPlayer> {
        self.history.as_ref()
    }

    /// Whether the history plays (animation frames are wanted).
    pub fn playing(&self) -> bool {
        self.history.as_ref().is_some_and(HistoryPlayer::playing)
    }

    /// An animation frame, `elapsed` real ms after the last.
    pub(crate) fn frame(&mut self, elapsed: f64) {
        if let Some(history) = &mut self.history {
            history.frame(elapsed);
        }
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
    pub(crate) fn reduce(&mut self, action: MetadataLogAction, clock: Clock) -> Option<LogQuery> {
        match action {
            MetadataLogAction::Opening(0) => {}
            MetadataLogAction::Opening(_) => {
                self.started_ms = clock();
                self.decoding = true;
                self.error = None;
                self.history = None;
            }
            MetadataLogAction::Unreadable(error) => {
                self.decoding = false;
                self.error = Some(error);
            }
            // Scrubbing waits until the files are decoded.
            MetadataLogAction::Seek(count) if self.opened.is_some() && !self.decoding => {
                return Some(LogQuery::Seek(count));
            }
            MetadataLogAction::Seek(_) => {}
            MetadataLogAction::Answered(Ok(mut opened)) => {
                if let Some(track) = opened.history.take() {
                    self.history = Some(HistoryPlayer::new(track));
                }
                self.error = opened.error.clone();
                self.opened = Some(*opened);
                if self.decoding {
                    self.decoding = false;
                    self.open_ms = Some(clock() - self.started_ms);
                    // The history is worked out once the log is shown.
                    return self.opened.as_ref().is_some_and(|o| o.len > 0).then_some(LogQuery::History);
                }
            }
            MetadataLogAction::History(action) => {
                if let Some(history) = &mut self.history {
                    history.reduce(action);
                }
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

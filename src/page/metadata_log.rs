//! The "Open a metadata log" view's state: the files being read (their bytes arrive one
//! [`MetadataLogAction::Read`] each), the opened log's timeline and the record it stands at, how
//! long opening took, what went wrong, and whether files are dragged over the drop zone.

pub mod action;

pub use action::MetadataLogAction;

use super::clock::Clock;
use crate::kafka_log::timeline::LogTimeline;

/// The metadata log view.
#[derive(Default)]
pub struct MetadataLogView {
    /// Files still being read, and those read so far.
    pending: usize,
    loaded: Vec<(String, Vec<u8>)>,
    /// When reading began, on the page's clock.
    started_ms: f64,
    /// How long reading and decoding the last opened files took.
    open_ms: Option<f64>,
    timeline: Option<LogTimeline>,
    error: Option<String>,
    dragging: bool,
}

impl MetadataLogView {
    /// Whether files are being read.
    pub fn reading(&self) -> bool {
        self.pending > 0
    }

    /// How long opening the last files took (real milliseconds).
    pub fn open_ms(&self) -> Option<f64> {
        self.open_ms
    }

    /// The opened log.
    pub fn timeline(&self) -> Option<&LogTimeline> {
        self.timeline.as_ref()
    }

    /// What went wrong reading or decoding the last files.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Whether files are dragged over the drop zone.
    pub fn dragging(&self) -> bool {
        self.dragging
    }

    /// Apply one action; `clock` times the opening.
    pub(crate) fn reduce(&mut self, action: MetadataLogAction, clock: Clock) {
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
                    self.open(clock);
                }
            }
            MetadataLogAction::Read { name, bytes: Err(error) } => {
                self.pending = 0;
                self.loaded.clear();
                self.error = Some(format!("Cannot read {name}: {error}"));
            }
            MetadataLogAction::Seek(count) => {
                if let Some(timeline) = &mut self.timeline {
                    timeline.seek(count);
                }
            }
            MetadataLogAction::Drag(over) => self.dragging = over,
        }
    }

    /// Every file is read: decode them into a timeline.
    fn open(&mut self, clock: Clock) {
        let timeline = LogTimeline::open(std::mem::take(&mut self.loaded));
        self.open_ms = Some(clock() - self.started_ms);
        self.error = timeline.is_empty().then(|| {
            let inspection = &timeline.inspection;
            let first = inspection.problems.first().or(inspection.crc_failures.first());
            format!("No metadata records could be read. {}", first.map_or("", String::as_str))
        });
        self.timeline = Some(timeline);
    }
}

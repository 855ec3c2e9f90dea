//! Lost messages shown falling for a moment where they were lost.

use crate::quorum::Micros;
use crate::session::Session;
use crate::sim::{TraceKind, TraceLine};

/// How long a lost message is shown falling, in real milliseconds.
const FALL_MS: f64 = 900.0;
/// Most lost messages shown falling at once (the newest): at high speed a cut link loses
/// hundreds a frame.
const MAX_FALLING: usize = 40;

/// The lost messages falling now, each with the real time it started falling.
#[derive(Clone, Debug, Default)]
pub struct Falling {
    lines: Vec<(f64, TraceLine)>,
}

impl Falling {
    /// After a frame at real time `ts` that played the session on from `since`: start the
    /// messages it lost falling, and drop those that have fallen long enough.
    pub fn update(&mut self, session: &Session, since: Micros, ts: f64) {
        let lost = session
            .log()
            .iter()
            .rev()
            .take_while(|l| l.at > since)
            .filter(|l| matches!(l.kind, TraceKind::Lost { .. }));
        self.lines.extend(lost.cloned().map(|l| (ts, l)).collect::<Vec<_>>());
        self.lines.retain(|(shown, _)| ts - *shown < FALL_MS);
        self.lines.drain(..self.lines.len().saturating_sub(MAX_FALLING));
    }

    pub fn clear(&mut self) {
        self.lines.clear();
    }

    /// The messages falling now.
    pub fn lines(&self) -> Vec<TraceLine> {
        self.lines.iter().map(|(_, l)| l.clone()).collect()
    }
}

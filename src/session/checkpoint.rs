//! Time travel with bounded memory: a copy of the whole session state every [`EVERY`] of
//! simulated time, in a ring of [`KEPT`], so a seek restores the nearest copy and replays at
//! most [`EVERY`] forward, however long the page has been running. The oldest copy kept is
//! where the reachable window starts.

use std::collections::VecDeque;
use std::fmt;

use super::{SeenViolation, WINDOW};
use crate::harness::{MS, Micros};
use crate::invariants::Checker;
use crate::sim::{Simulation, TraceLine};

/// Simulated time between two checkpoints: the most a seek replays.
pub const EVERY: Micros = 30_000 * MS;
/// Checkpoints kept: the newest, and enough behind it to reach [`WINDOW`] back.
pub const KEPT: usize = (WINDOW / EVERY) as usize + 2;

/// The session's state at one moment, from which running on gives what the session gave.
#[derive(Clone)]
pub(super) struct Checkpoint {
    pub sim: Simulation,
    pub checker: Checker,
    pub applied: usize,
    pub topics_created: u32,
    pub log: VecDeque<TraceLine>,
    pub violation: Option<SeenViolation>,
}

impl Checkpoint {
    /// Its moment: time and events processed.
    pub(crate) fn position(&self) -> (Micros, u64) {
        (self.sim.now(), self.sim.events_processed())
    }
}

/// The ring of checkpoints, oldest first, at strictly increasing positions.
#[derive(Default)]
pub(super) struct Checkpoints {
    ring: VecDeque<Checkpoint>,
}

impl Checkpoints {
    /// Whether a checkpoint is due at time `now`: [`EVERY`] after the newest (a moment ahead of
    /// the newest one, not one revisited after a seek back).
    pub(crate) fn due(&self, now: Micros) -> bool {
        self.ring.back().is_none_or(|newest| now >= newest.sim.now() + EVERY)
    }

    /// Keep `checkpoint` as the newest, dropping the oldest beyond [`KEPT`].
    pub(crate) fn push(&mut self, checkpoint: Checkpoint) {
        if self.ring.len() == KEPT {
            self.ring.pop_front();
        }
        self.ring.push_back(checkpoint);
    }

    /// The time of the oldest checkpoint: the start of the reachable window.
    pub(crate) fn oldest_at(&self) -> Micros {
        self.ring.front().map_or(0, |oldest| oldest.sim.now())
    }

    /// The latest checkpoint at or before time `t`.
    pub(crate) fn latest_at_or_before(&self, t: Micros) -> Option<&Checkpoint> {
        self.ring.iter().rev().find(|c| c.sim.now() <= t)
    }

    /// Drop the checkpoints after `position`: the timeline forked there.
    pub(crate) fn forget_after(&mut self, position: (Micros, u64)) {
        while self.ring.back().is_some_and(|newest| newest.position() > position) {
            self.ring.pop_back();
        }
    }

    /// How many are kept.
    pub(crate) fn len(&self) -> usize {
        self.ring.len()
    }
}

/// A seek that cannot be carried out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeekError {
    /// The moment lies before the oldest checkpoint kept.
    BeforeWindow { asked: Micros, starts: Micros },
}

impl fmt::Display for SeekError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeekError::BeforeWindow { asked, starts } => write!(
                f,
                "{} is before the reachable window, which starts at {} (a timeline keeps the last {} simulated minutes)",
                crate::util::format::seconds(*asked),
                crate::util::format::seconds(*starts),
                WINDOW / (60_000 * MS)
            ),
        }
    }
}

impl std::error::Error for SeekError {}

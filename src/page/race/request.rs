//! What the page asks the failover view to show: the race's size; how long after the kill a
//! tour step or a still (`t=`, `at=`) opens it, and whether it plays on from there (a tour step,
//! which also names the moment to report) or stays paused (a still); or, opened from its start,
//! whether it kills and plays by itself once the healthy clusters were shown (`autoplay`); and
//! the question a tour step asks before the kill.

use crate::harness::{MS, Micros};
use crate::race::RaceMoment;
use crate::teaching::predictions::RacePrediction;

/// The race the page asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct RaceRequest {
    pub partitions: u64,
    pub shown_after_kill_ms: Option<u64>,
    pub plays_on: bool,
    pub key: Option<RaceMoment>,
    /// From its start: kill both controllers and play, after showing the healthy clusters for
    /// [`HEALTHY_HOLD_MS`] of real time.
    pub autoplay: bool,
    /// A tour step's question, asked before the kill (the race holds until it is answered).
    pub question: Option<&'static RacePrediction>,
}

/// Real milliseconds an autoplaying race shows its two healthy clusters before the kill.
pub const HEALTHY_HOLD_MS: f64 = 1_500.0;

impl RaceRequest {
    /// The race of `partitions` partitions, waiting for the kill.
    pub(crate) fn idle(partitions: u64) -> RaceRequest {
        RaceRequest {
            partitions,
            shown_after_kill_ms: None,
            plays_on: false,
            key: None,
            autoplay: false,
            question: None,
        }
    }

    /// How long after the kill the race opens, if it is opened mid-race.
    pub(crate) fn script(&self) -> Option<Micros> {
        self.shown_after_kill_ms.map(|ms| ms * MS)
    }
}

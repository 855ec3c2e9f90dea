//! The race's work within one animation frame: preparing both clusters and fast-forwarding the
//! race run in small pieces until the frame's share of real time is used, so the page keeps its
//! frame rate at a million partitions.

use super::super::clock::Clock;
use crate::harness::Micros;
use crate::race::{FailoverRace, RaceError, RaceStage};

/// Records of image building per call to prepare; a frame calls it until its time budget is used.
const PREPARE_BUDGET: usize = 5_000;
/// Real milliseconds a frame may spend preparing.
const PREPARE_BUDGET_MS: f64 = 6.0;
/// Simulated time one fast-forward slice covers.
const FAST_FORWARD_SLICE: Micros = 100_000;
/// Real milliseconds a frame may spend fast-forwarding.
const FAST_FORWARD_BUDGET_MS: f64 = 5.0;

/// Prepare the race in small pieces until the frame's time budget is used.
pub(crate) fn prepare(race: &mut FailoverRace, clock: Clock) -> Result<(), RaceError> {
    let started = clock();
    while matches!(race.stage(), RaceStage::Preparing { .. }) && clock() - started < PREPARE_BUDGET_MS {
        race.prepare(PREPARE_BUDGET)?;
    }
    Ok(())
}

/// Run the race in small slices until `target` (or the end) or the frame's time budget is used.
pub(crate) fn fast_forward(race: &mut FailoverRace, target: Option<Micros>, clock: Clock) {
    let started = clock();
    while clock() - started < FAST_FORWARD_BUDGET_MS && !race.finished() {
        let RaceStage::Running { elapsed } = race.stage() else { return };
        let slice = target.map_or(FAST_FORWARD_SLICE, |t| t.saturating_sub(elapsed).min(FAST_FORWARD_SLICE));
        if slice == 0 {
            return;
        }
        race.advance(slice);
    }
}

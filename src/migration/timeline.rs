//! A migration the page can scrub: a scenario's run recorded once (its inputs and where it
//! ends), with a copy of the whole simulation every [`EVERY`] of simulated time along it, so
//! that going to any moment, forwards or back, restores the nearest copy before it and replays
//! less than [`EVERY`] (as the live session's checkpoints do).

use crate::harness::{MS, Micros};

use super::scenarios::Scenario;
use super::sim::{ActionError, Input, MigrationConfig, MigrationSim};

/// Simulated time between two copies: the most a seek replays.
pub const EVERY: Micros = 2_000 * MS;

/// One recorded run of a migration and its copies.
pub struct Timeline {
    inputs: Vec<Input>,
    end: Micros,
    /// Copies at 0, [`EVERY`], 2 x [`EVERY`], ... up to the end.
    checkpoints: Vec<MigrationSim>,
    /// The simulation at the moment last gone to.
    at: MigrationSim,
}

impl Timeline {
    /// Runs `scenario` with `seed` at `config`'s size, then plays it again from the start taking
    /// its copies; the timeline stands at its end.
    pub fn record(scenario: &Scenario, config: MigrationConfig, seed: u64) -> Result<Timeline, ActionError> {
        let run = scenario.run_with(config.clone(), seed)?;
        let (inputs, end) = (run.inputs().to_vec(), run.now());
        let mut sim = MigrationSim::new(config, seed).map_err(ActionError)?;
        let mut checkpoints = vec![sim.clone()];
        for k in 1..=end / EVERY {
            sim.replay(&inputs, k * EVERY);
            checkpoints.push(sim.clone());
        }
        sim.replay(&inputs, end);
        Ok(Timeline { inputs, end, checkpoints, at: sim })
    }

    /// Where the run ends.
    pub fn end(&self) -> Micros {
        self.end
    }

    /// The simulation at the moment last gone to.
    pub fn sim(&self) -> &MigrationSim {
        &self.at
    }

    /// Goes to time `t` (within 0 and the end): from where it stands if `t` is ahead and no copy
    /// lies between, else from the latest copy at or before `t`.
    pub fn seek(&mut self, t: Micros) {
        let t = t.min(self.end);
        let copy = &self.checkpoints[(t / EVERY) as usize];
        if t < self.at.now() || copy.now() > self.at.now() {
            self.at = copy.clone();
        }
        self.at.replay(&self.inputs, t);
    }
}

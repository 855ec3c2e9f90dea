//! A migration the page can scrub: a scenario's run recorded once (its inputs and where it
//! ends), with a copy of the whole simulation every [`EVERY`] of simulated time along it, so
//! that going to any moment, forwards or back, restores the nearest copy before it and replays
//! less than [`EVERY`] (as the live session's checkpoints do). It plays on past the recorded
//! end, taking copies as it goes, and an operator's step or fault taken at any moment forks it
//! there: what was recorded after that moment is forgotten.

use crate::harness::{MS, Micros};

use super::scenarios::Scenario;
use super::sim::{Action, ActionError, Input, MigrationConfig, MigrationSim};

/// Simulated time between two copies: the most a seek replays.
pub const EVERY: Micros = 2_000 * MS;

/// One recorded run of a migration and its copies.
pub struct Timeline {
    inputs: Vec<Input>,
    /// The furthest moment reached.
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

    /// Plays on to `t` past the end, taking copies on the way (a `t` within the timeline is a
    /// seek).
    pub fn play_to(&mut self, t: Micros) {
        if t <= self.end {
            return self.seek(t);
        }
        self.seek(self.end);
        while let Some(next) = Some(self.checkpoints.len() as Micros * EVERY).filter(|at| *at <= t) {
            self.at.replay(&self.inputs, next);
            self.checkpoints.push(self.at.clone());
        }
        self.at.replay(&self.inputs, t);
        self.end = t;
    }

    /// The operator's `action` (a step or a fault) now: what the timeline held after this
    /// moment is forgotten, and the action is its last input. A refusal changes nothing.
    pub fn act(&mut self, action: Action) -> Result<(), ActionError> {
        self.at.act(action)?;
        let now = self.at.now();
        let given = self.at.inputs().len();
        self.inputs.truncate(given - 1);
        self.inputs.push(self.at.inputs()[given - 1].clone());
        self.checkpoints.truncate((now / EVERY) as usize + 1);
        self.end = now;
        Ok(())
    }

    /// The inputs of the timeline, in order.
    pub fn inputs(&self) -> &[Input] {
        &self.inputs
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

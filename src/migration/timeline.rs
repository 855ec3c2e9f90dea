//! A migration the page can scrub: a scenario's run recorded once (its inputs and where it
//! ends; in slices, for a large cluster's run takes many frames), with a copy of the whole
//! simulation every [`EVERY`] of simulated time along it (further apart on a large cluster), so
//! that going to any moment, forwards or back, restores the nearest copy before it and replays
//! less than that (as the live session's checkpoints do). It plays on past the recorded
//! end, taking copies as it goes, and an operator's step or fault taken at any moment forks it
//! there: what was recorded after that moment is forgotten.

use crate::harness::{MS, Micros};

use super::scenarios::{Scenario, ScriptRun};
use super::sim::{Action, ActionError, Input, MigrationConfig, MigrationSim};

/// Simulated time between two copies: the most a seek replays.
pub const EVERY: Micros = 2_000 * MS;
/// Partitions summed over a recorded run's copies, at most: a large cluster's run keeps fewer
/// copies, further apart (100,000 partitions: 10), for each holds the whole cluster.
pub const COPIED_PARTITIONS: u64 = 1_000_000;
/// The fewest copies a recorded run keeps.
const FEWEST_COPIES: u64 = 4;
/// What taking a copy costs of a slice's budget, in events: on a large cluster, where a slice is
/// a hundred events, a copy ends its slice (it clones the whole cluster, as long as those events
/// take); a small cluster's slices hardly notice.
const COPY_WEIGHT: u64 = 100;

/// One recorded run of a migration and its copies.
pub struct Timeline {
    inputs: Vec<Input>,
    /// The furthest moment reached.
    end: Micros,
    /// Simulated time between two copies ([`EVERY`], or more on a large cluster).
    every: Micros,
    /// Copies at 0, `every`, 2 x `every`, ... up to the end.
    checkpoints: Vec<MigrationSim>,
    /// The simulation at the moment last gone to.
    at: MigrationSim,
}

/// A timeline being recorded, in slices: the scenario's script runs, then the run is played
/// again from its start, taking its copies.
pub struct Recording {
    seed: u64,
    stage: Stage,
}

enum Stage {
    Script(Box<ScriptRun>),
    /// The timeline, its copies taken up to where its simulation stands.
    Copies(Box<Timeline>),
}

impl Recording {
    /// `scenario` with `seed` at `config`'s size, to record.
    pub fn new(scenario: &Scenario, config: MigrationConfig, seed: u64) -> Result<Recording, ActionError> {
        let run = ScriptRun::new(scenario, config, seed)?;
        Ok(Recording { seed, stage: Stage::Script(Box::new(run)) })
    }

    /// Records on, at most `budget` events (what it runs is taken from it): whether it is done.
    pub fn advance(&mut self, budget: &mut u64) -> Result<bool, ActionError> {
        if let Stage::Script(run) = &mut self.stage {
            if !run.advance(budget)? {
                return Ok(false);
            }
            let config = run.sim().config().clone();
            let (inputs, end) = (run.sim().inputs().to_vec(), run.sim().now());
            let copies = (COPIED_PARTITIONS / u64::from(config.partitions()).max(1)).max(FEWEST_COPIES);
            let every = EVERY.max(end.div_ceil(copies));
            let sim = MigrationSim::new(config, self.seed).map_err(ActionError)?;
            let checkpoints = vec![sim.clone()];
            self.stage = Stage::Copies(Box::new(Timeline { inputs, end, every, checkpoints, at: sim }));
            *budget = budget.saturating_sub(COPY_WEIGHT);
        }
        let Stage::Copies(timeline) = &mut self.stage else { return Ok(false) };
        loop {
            let next = timeline.checkpoints.len() as Micros * timeline.every;
            let until = next.min(timeline.end);
            if !timeline.at.replay_some(&timeline.inputs, until, budget) {
                return Ok(false);
            }
            if next > timeline.end {
                return Ok(true);
            }
            timeline.checkpoints.push(timeline.at.clone());
            *budget = budget.saturating_sub(COPY_WEIGHT);
        }
    }

    /// How far it has got: the simulated time run, and (once the script has run) the run's end.
    pub fn progress(&self) -> (Micros, Option<Micros>) {
        match &self.stage {
            Stage::Script(run) => (run.sim().now(), None),
            Stage::Copies(timeline) => (timeline.at.now(), Some(timeline.end)),
        }
    }

    /// The timeline, standing at its end, once [`Recording::advance`] is done.
    pub fn finish(self) -> Option<Timeline> {
        match self.stage {
            Stage::Copies(timeline) if timeline.at.now() >= timeline.end => Some(*timeline),
            _ => None,
        }
    }
}

impl Timeline {
    /// Runs `scenario` with `seed` at `config`'s size, then plays it again from the start taking
    /// its copies; the timeline stands at its end.
    pub fn record(scenario: &Scenario, config: MigrationConfig, seed: u64) -> Result<Timeline, ActionError> {
        let mut recording = Recording::new(scenario, config, seed)?;
        let mut unlimited = u64::MAX;
        recording.advance(&mut unlimited)?;
        recording.finish().ok_or_else(|| ActionError("the recording stopped before its end".into()))
    }

    /// Plays on to `t` past the end, taking copies on the way (a `t` within the timeline is a
    /// seek).
    pub fn play_to(&mut self, t: Micros) {
        if t <= self.end {
            return self.seek(t);
        }
        self.seek(self.end);
        while let Some(next) = Some(self.checkpoints.len() as Micros * self.every).filter(|at| *at <= t) {
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
        self.checkpoints.truncate((now / self.every) as usize + 1);
        self.end = now;
        Ok(())
    }

    /// The inputs of the timeline, in order.
    pub fn inputs(&self) -> &[Input] {
        &self.inputs
    }

    /// Simulated time between two of its copies: the most a seek replays.
    pub fn every(&self) -> Micros {
        self.every
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
        let copy = &self.checkpoints[(t / self.every) as usize];
        if t < self.at.now() || copy.now() > self.at.now() {
            self.at = copy.clone();
        }
        self.at.replay(&self.inputs, t);
    }
}

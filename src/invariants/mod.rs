//! Safety properties of KRaft checked after every simulated event, one file per property,
//! after Kafka's `RaftEventSimulationTest` invariants and the KRaft TLA+ specification.

mod committed;
mod completeness;
mod epochs;
mod high_watermark;
mod metadata;
pub mod names;
mod single_leader;
mod snapshots;
mod voter_sets;
mod votes;

use std::fmt;

use crate::metadata::state::MetadataNode;
use crate::quorum::QuorumError;
use crate::sim::Simulation;

pub use committed::CommittedLog;

/// A broken invariant: which one, and what was seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub invariant: &'static str,
    pub detail: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.invariant, self.detail)
    }
}

pub(crate) fn violation(invariant: &'static str, detail: String) -> Result<(), Violation> {
    Err(Violation { invariant, detail })
}

/// The history the checkers need across events.
#[derive(Clone, Default)]
pub struct Checker {
    committed: CommittedLog,
    leaders: single_leader::LeaderPerEpoch,
    epochs: epochs::EpochHistory,
    votes: votes::VotesPerEpoch,
    high_watermark: high_watermark::NewestLeaderHighWatermark,
    images: metadata::ImageChecks,
    voter_sets: voter_sets::VoterSetChecks,
    /// Report only this invariant (and keep checking past others), to show that a sabotage
    /// breaks the invariant it targets.
    watch: Option<&'static str>,
}

/// The first violation seen in one round of checks, among those being reported.
struct FirstViolation {
    watch: Option<&'static str>,
    first: Option<Violation>,
}

impl FirstViolation {
    fn add(&mut self, result: Result<(), Violation>) {
        if let Err(violation) = result
            && self.first.is_none()
            && self.watch.is_none_or(|name| name == violation.invariant)
        {
            self.first = Some(violation);
        }
    }

    fn result(self) -> Result<(), Violation> {
        self.first.map_or(Ok(()), Err)
    }
}

impl Checker {
    /// A checker that reports only `invariant` and checks every other one without stopping.
    pub fn watching(invariant: &'static str) -> Checker {
        Checker { watch: Some(invariant), ..Checker::default() }
    }

    /// Check every per-event invariant against the simulation's current state.
    pub fn after_event(&mut self, sim: &Simulation) -> Result<(), Violation> {
        let mut found = FirstViolation { watch: self.watch, first: None };
        for node in sim.running_nodes() {
            if let Some(error) = node.fatal_error() {
                found.add(violation(invariant_of(error), format!("n{}: {error}", node.id())));
            }
        }
        found.add(self.leaders.check(sim));
        found.add(self.epochs.check(sim));
        found.add(self.votes.check(sim));
        found.add(self.high_watermark.check(sim));
        self.committed.extend(sim);
        found.add(high_watermark::majority_holds_committed(sim, &self.committed));
        found.add(completeness::leader_completeness(sim, &self.committed));
        found.add(self.committed.check_applied_states(sim));
        found.add(snapshots::log_start_at_snapshot(sim));
        found.add(snapshots::snapshots_equal_replay(sim, &self.committed));
        found.add(self.images.check(sim, &self.committed));
        found.add(voter_sets::one_uncommitted_change(sim));
        found.add(self.voter_sets.consecutive_sets_overlap(sim));
        found.add(self.voter_sets.elected_by_its_voter_set(sim));
        found.result()
    }

    /// Check, at the end of a run, that every node agrees with the committed log on every
    /// offset it has committed (log matching up to each node's high watermark).
    pub(crate) fn at_end(&mut self, sim: &Simulation) -> Result<(), Violation> {
        self.after_event(sim)?;
        let mut found = FirstViolation { watch: self.watch, first: None };
        found.add(self.committed.check_full_agreement(sim));
        found.result()
    }
}

/// The invariant a protocol error a node refused to go past would have broken.
fn invariant_of(error: &QuorumError) -> &'static str {
    match error {
        QuorumError::ConflictingLeaders { .. } => names::SINGLE_LEADER,
        QuorumError::TruncationBelowHighWatermark { .. } | QuorumError::StaleSnapshot { .. } => {
            names::NO_TRUNCATION_BELOW_HIGH_WATERMARK
        }
        QuorumError::IllegalTransition { .. } => names::LEGAL_TRANSITIONS,
    }
}

/// Running leaders.
pub(crate) fn running_leaders(sim: &Simulation) -> impl Iterator<Item = &MetadataNode> {
    sim.running_nodes().filter(|n| n.role() == crate::quorum::RoleKind::Leader)
}

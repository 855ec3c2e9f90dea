//! The voter set across changes (KIP-853): a leader's log holds at most one voter change that
//! is not committed (`AddVoterHandler` and `RemoveVoterHandler` refuse a second), every two
//! consecutive voter sets of any log have overlapping majorities (`VoterSet
//! .hasOverlappingMajority`: one voter in or out at a time), and every election was won by a
//! majority of the voter set the winner's log held (its LeaderChange's granting voters).

use super::names;
use super::{Violation, running_leaders, violation};
use crate::quorum::Record;
use crate::sim::Simulation;

/// A running leader's log holds at most one VotersRecord at or above its high watermark.
pub fn one_uncommitted_change(sim: &Simulation) -> Result<(), Violation> {
    for leader in running_leaders(sim) {
        // A new leader learns its high watermark only once its epoch's first record commits,
        // and until then refuses every change (`AddVoterHandler`: no high watermark yet).
        let Some(hw) = leader.high_watermark() else { continue };
        let pending = leader.log().control().voter_sets().filter(|(o, _)| o.is_some_and(|o| o >= hw)).count();
        if pending > 1 {
            return violation(
                names::ONE_VOTER_CHANGE_AT_A_TIME,
                format!("n{}'s log holds {pending} voter changes above its high watermark {hw}", leader.id()),
            );
        }
    }
    Ok(())
}

/// In every controller's log, each voter set differs from the one before by at most one voter
/// in and one out.
pub fn consecutive_sets_overlap(sim: &Simulation) -> Result<(), Violation> {
    for (key, log) in sim.controller_logs() {
        let sets: Vec<_> = log.control().voter_sets().collect();
        for pair in sets.windows(2) {
            let ((_, before), (at, after)) = (pair[0], pair[1]);
            if !before.has_overlapping_majority(after) {
                return violation(
                    names::VOTER_SETS_OVERLAP,
                    format!(
                        "n{}'s log changes the voters from {before} to {after} at offset {}",
                        key.id,
                        at.unwrap_or(0)
                    ),
                );
            }
        }
    }
    Ok(())
}

/// Every LeaderChange of a running leader's current epoch names granting voters that are a
/// majority of the voter set its log held at that offset.
pub fn elected_by_its_voter_set(sim: &Simulation) -> Result<(), Violation> {
    for leader in running_leaders(sim) {
        let Some(start) = leader.epoch_start_offset() else { continue };
        let Some(entry) = leader.log().get(start) else { continue };
        let Record::LeaderChange(change) = &entry.record else { continue };
        let voters = leader.voter_set_at(start);
        let counted = change.granting.iter().filter(|id| voters.has_id(**id)).count();
        if counted < voters.majority() {
            return violation(
                names::ELECTED_BY_ITS_VOTERS,
                format!(
                    "n{} leads epoch {} with votes from {:?}, {counted} of the {} voters of its log {voters}",
                    leader.id(),
                    leader.epoch(),
                    change.granting,
                    voters.len()
                ),
            );
        }
    }
    Ok(())
}

//! The voter set across changes (KIP-853): a leader's log holds at most one voter change that
//! is not committed (`AddVoterHandler` and `RemoveVoterHandler` refuse a second), every two
//! consecutive voter sets of any log have overlapping majorities (`VoterSet
//! .hasOverlappingMajority`: one voter in or out at a time), and every election was won by a
//! majority of the voter set the winner's log held (its LeaderChange's granting voters).

use super::names;
use super::{Violation, running_leaders, violation};
use crate::quorum::voters::ReplicaKey;
use crate::quorum::{Epoch, NodeId, Offset, Record};
use crate::sim::Simulation;
use crate::util::small_map::{SmallMap, SmallSet};

/// A running leader's log holds at most one VotersRecord at or above its high watermark.
pub(crate) fn one_uncommitted_change(sim: &Simulation) -> Result<(), Violation> {
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

/// What the voter-set checks have already seen, so that each event checks only what changed:
/// a log's voter-set history (by its length and last offset) and a leader's election (by node
/// and epoch). Without it the dynamic quorum's checks cost a fifth of the sweep's speed.
#[derive(Clone, Default)]
pub struct VoterSetChecks {
    histories: SmallMap<ReplicaKey, (usize, Option<Offset>)>,
    elections: SmallSet<(NodeId, Epoch)>,
}

impl VoterSetChecks {
    /// In every controller's log, each voter set differs from the one before by at most one
    /// voter in and one out.
    pub(crate) fn consecutive_sets_overlap(&mut self, sim: &Simulation) -> Result<(), Violation> {
        for (key, log) in sim.controller_logs() {
            let control = log.control();
            let shape = (control.voter_sets().count(), control.voter_sets().last().and_then(|(o, _)| o));
            if self.histories.get(&key) == Some(&shape) {
                continue;
            }
            let mut sets = control.voter_sets();
            let Some(mut before) = sets.next().map(|(_, set)| set) else { continue };
            for (at, after) in sets {
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
                before = after;
            }
            self.histories.insert(key, shape);
        }
        Ok(())
    }

    /// Every LeaderChange of a running leader's current epoch names granting voters that are a
    /// majority of the voter set its log held at that offset (checked once per leader and epoch).
    pub(crate) fn elected_by_its_voter_set(&mut self, sim: &Simulation) -> Result<(), Violation> {
        for leader in running_leaders(sim) {
            if self.elections.contains(&(leader.id(), leader.epoch())) {
                continue;
            }
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
            self.elections.insert((leader.id(), leader.epoch()));
        }
        Ok(())
    }
}

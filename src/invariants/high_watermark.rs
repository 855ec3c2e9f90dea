//! The high watermark: the newest leader's never decreases (Kafka's `MonotonicHighWatermark`),
//! and a majority of voters holds every offset below it (what makes it "committed").

use super::names;
use super::{CommittedLog, Violation, running_leaders, violation};
use crate::quorum::voters::{ReplicaKey, VoterSet};
use crate::quorum::{Epoch, Offset};
use crate::sim::Simulation;

/// The (epoch, high watermark) of the newest leader seen.
#[derive(Clone, Default)]
pub struct NewestLeaderHighWatermark {
    newest: (Epoch, Offset),
}

impl NewestLeaderHighWatermark {
    pub(crate) fn check(&mut self, sim: &Simulation) -> Result<(), Violation> {
        for leader in running_leaders(sim) {
            let Some(hw) = leader.high_watermark() else {
                continue;
            };
            let (epoch, best) = self.newest;
            if leader.epoch() < epoch {
                continue;
            }
            if hw < best {
                return violation(
                    names::HIGH_WATERMARK_MONOTONIC,
                    format!(
                        "n{} (epoch {}) has high watermark {hw}, below {best} reached in epoch {epoch}",
                        leader.id(),
                        leader.epoch()
                    ),
                );
            }
            self.newest = (leader.epoch(), hw);
        }
        Ok(())
    }
}

/// Every offset below a leader's high watermark is held by a majority of voters (as a record
/// with the committed epoch, or inside a snapshot), under a voter set of the leader's own log in
/// force from that offset on: a node counts toward the high watermark only under the voter set
/// the leader's log holds (KIP-853). A voter entry whose directory is not the node's disk any
/// more (the disk was wiped) is counted as the leader counts it, from its old progress.
pub(crate) fn majority_holds_committed(sim: &Simulation, committed: &CommittedLog) -> Result<(), Violation> {
    for leader in running_leaders(sim) {
        let Some(hw) = leader.high_watermark().filter(|hw| *hw > 0 && *hw <= committed.len()) else {
            continue;
        };
        let Some(last) = committed.get(hw - 1) else {
            continue;
        };
        let holds = |log: &crate::metadata::state::MetadataLog| {
            log.start_offset() >= hw
                || (log.end_offset() >= hw && log.get(hw - 1).is_some_and(|e| e.epoch == last.epoch))
        };
        let logs: Vec<_> = sim.controller_logs().collect();
        let holders = |voters: &VoterSet| {
            let holding = |key: &ReplicaKey| {
                logs.iter().any(|(disk, log)| {
                    disk.id == key.id && (key.dir.is_some_and(|d| disk.dir != Some(d)) || holds(log))
                })
            };
            voters.keys().iter().filter(|k| holding(k)).count()
        };
        let control = leader.log().control();
        let fallback = leader.voter_set();
        let in_force = std::iter::once(control.voters_at(hw - 1).map_or(fallback, |v| v))
            .chain(control.voter_sets().filter(|(o, _)| o.is_some_and(|o| o >= hw)).map(|(_, v)| &**v));
        let mut best = (0, fallback.len());
        for voters in in_force {
            let count = holders(voters);
            if count >= voters.majority() {
                best = (usize::MAX, 0);
                break;
            }
            best = best.max((count, voters.len()));
        }
        if best.0 != usize::MAX {
            return violation(
                names::MAJORITY_HOLDS_COMMITTED,
                format!(
                    "n{} has high watermark {hw} but only {} of {} voters hold offset {}",
                    leader.id(),
                    best.0,
                    best.1,
                    hw - 1
                ),
            );
        }
    }
    Ok(())
}

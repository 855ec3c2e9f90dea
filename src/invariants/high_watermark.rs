//! The high watermark: the newest leader's never decreases (Kafka's `MonotonicHighWatermark`),
//! and a majority of voters holds every offset below it (what makes it "committed").

use super::names;
use super::{CommittedLog, Violation, running_leaders, violation};
use crate::quorum::{Epoch, Offset};
use crate::sim::Simulation;

/// The (epoch, high watermark) of the newest leader seen.
#[derive(Clone, Default)]
pub struct NewestLeaderHighWatermark {
    newest: (Epoch, Offset),
}

impl NewestLeaderHighWatermark {
    pub fn check(&mut self, sim: &Simulation) -> Result<(), Violation> {
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
/// with the committed epoch, or inside a snapshot).
pub fn majority_holds_committed(sim: &Simulation, committed: &CommittedLog) -> Result<(), Violation> {
    let voters = sim.voter_ids();
    for leader in running_leaders(sim) {
        let Some(hw) = leader.high_watermark().filter(|hw| *hw > 0 && *hw <= committed.len()) else {
            continue;
        };
        let Some(last) = committed.get(hw - 1) else {
            continue;
        };
        let holders = sim
            .voter_logs()
            .filter(|(_, log)| {
                log.start_offset() >= hw
                    || (log.end_offset() >= hw && log.get(hw - 1).is_some_and(|e| e.epoch == last.epoch))
            })
            .count();
        if holders < voters.len() / 2 + 1 {
            return violation(
                names::MAJORITY_HOLDS_COMMITTED,
                format!(
                    "n{} has high watermark {hw} but only {holders} of {} voters hold offset {}",
                    leader.id(),
                    voters.len(),
                    hw - 1
                ),
            );
        }
    }
    Ok(())
}

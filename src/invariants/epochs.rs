//! Epochs never decrease, and the persisted quorum state equals what the node holds in memory
//! (Kafka's `MonotonicEpoch`; the quorum-state file is written before acting).

use super::names;
use super::{Violation, violation};
use crate::quorum::Epoch;
use crate::quorum::voters::DirectoryId;
use crate::sim::Simulation;

/// The highest epoch each node has been seen in, by the node's slot, with the directory id of
/// the disk it was seen on: a wiped and re-formatted disk starts a new history.
#[derive(Clone, Default)]
pub struct EpochHistory {
    seen: Vec<(Option<DirectoryId>, Epoch)>,
}

impl EpochHistory {
    pub(crate) fn check(&mut self, sim: &Simulation) -> Result<(), Violation> {
        self.seen.resize(sim.slot_count(), (None, 0));
        for (slot, node) in sim.running_nodes_in_slots() {
            let file = node.quorum_state_file();
            if file.leader_epoch != node.epoch() || file.voted_id != node.voted_for() {
                return violation(
                    names::PERSISTED_STATE,
                    format!(
                        "n{} holds epoch {} voted {:?}, its quorum-state file says {file}",
                        node.id(),
                        node.epoch(),
                        node.voted_for()
                    ),
                );
            }
            let (dir, seen) = &mut self.seen[slot];
            if *dir != node.key().dir {
                *dir = node.key().dir;
                *seen = 0;
            }
            if node.epoch() < *seen {
                return violation(
                    names::EPOCHS_NEVER_DECREASE,
                    format!("n{} went from epoch {} to {}", node.id(), seen, node.epoch()),
                );
            }
            *seen = node.epoch();
        }
        Ok(())
    }
}

//! Epochs never decrease, and the persisted quorum state equals what the node holds in memory
//! (Kafka's `MonotonicEpoch`; the quorum-state file is written before acting).

use super::names;
use super::{Violation, violation};
use crate::quorum::{Epoch, NodeId};
use crate::sim::Simulation;
use crate::small_map::SmallMap;

/// The highest epoch each node has been seen in.
#[derive(Default)]
pub struct EpochHistory {
    seen: SmallMap<NodeId, Epoch>,
}

impl EpochHistory {
    pub fn check(&mut self, sim: &Simulation) -> Result<(), Violation> {
        for node in sim.running_nodes() {
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
            let seen = self.seen.get_or_insert_with(node.id(), || 0);
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

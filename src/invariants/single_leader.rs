//! At most one leader per epoch (Raft's Election Safety, §5.2; Kafka's `SingleLeader`).

use super::names;
use super::{Violation, running_leaders, violation};
use crate::quorum::{Epoch, NodeId};
use crate::sim::Simulation;
use crate::util::small_map::SmallMap;

/// Every epoch's leader, as first seen.
#[derive(Clone, Default)]
pub struct LeaderPerEpoch {
    leaders: SmallMap<Epoch, NodeId>,
}

impl LeaderPerEpoch {
    pub(crate) fn check(&mut self, sim: &Simulation) -> Result<(), Violation> {
        for leader in running_leaders(sim) {
            let first = *self.leaders.get_or_insert_with(leader.epoch(), || leader.id());
            if first != leader.id() {
                return violation(
                    names::SINGLE_LEADER,
                    format!("n{first} and n{} both led epoch {}", leader.id(), leader.epoch()),
                );
            }
        }
        Ok(())
    }
}

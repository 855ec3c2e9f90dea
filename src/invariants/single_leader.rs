//! At most one leader per epoch (Raft's Election Safety, §5.2; Kafka's `SingleLeader`).

use std::collections::BTreeMap;

use super::names;
use super::{Violation, running_leaders, violation};
use crate::quorum::{Epoch, NodeId};
use crate::sim::Simulation;

/// Every epoch's leader, as first seen.
#[derive(Default)]
pub struct LeaderPerEpoch {
    leaders: BTreeMap<Epoch, NodeId>,
}

impl LeaderPerEpoch {
    pub fn check(&mut self, sim: &Simulation) -> Result<(), Violation> {
        for leader in running_leaders(sim) {
            let first = *self.leaders.entry(leader.epoch()).or_insert(leader.id());
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

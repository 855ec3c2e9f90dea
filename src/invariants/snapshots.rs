//! Snapshots (KIP-630): the log start sits at the snapshot, and a leader never loads one.

use std::collections::BTreeMap;

use super::names;
use super::{Violation, all_logs, violation};
use crate::quorum::{NodeId, RoleKind};
use crate::sim::Simulation;

/// The log start offset of every node is the end of its snapshot (or 0 without one).
pub fn log_start_at_snapshot(sim: &Simulation) -> Result<(), Violation> {
    for (id, log) in all_logs(sim) {
        let expected = log.snapshot_id().map_or(0, |s| s.end_offset);
        if log.start_offset() != expected {
            return violation(
                names::LOG_START_AT_SNAPSHOT,
                format!("n{id} starts its log at {} but its snapshot ends at {expected}", log.start_offset()),
            );
        }
    }
    Ok(())
}

/// How many snapshots each node had loaded, and whether it led, at the previous check.
#[derive(Default)]
pub struct SnapshotLoads {
    previous: BTreeMap<NodeId, (u64, bool)>,
}

impl SnapshotLoads {
    pub fn check(&mut self, sim: &Simulation) -> Result<(), Violation> {
        for node in sim.running_nodes() {
            let loaded = node.snapshots_loaded();
            let leading = node.role() == RoleKind::Leader;
            let (before, was_leading) =
                self.previous.insert(node.id(), (loaded, leading)).unwrap_or((0, false));
            if leading && was_leading && loaded > before {
                return violation(
                    names::LEADER_NEVER_LOADS_SNAPSHOT,
                    format!("n{} loaded a snapshot while leading epoch {}", node.id(), node.epoch()),
                );
            }
        }
        Ok(())
    }
}

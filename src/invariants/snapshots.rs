//! Snapshots (KIP-630): the log start sits at the oldest snapshot once the cleaner has moved
//! it, and every snapshot holds exactly the state the committed log builds up to its end offset.

use super::committed::CommittedLog;
use super::names;
use super::{Violation, violation};
use crate::sim::Simulation;

/// The log start offset of every node is 0 or the end of its oldest snapshot
/// (`KafkaRaftLog.deleteBeforeSnapshot` moves it only up to a snapshot).
pub(crate) fn log_start_at_snapshot(sim: &Simulation) -> Result<(), Violation> {
    for (id, log) in sim.logs() {
        let start = log.start_offset();
        let oldest = log.snapshots().first().map(|s| s.id.end_offset);
        if start != 0 && oldest != Some(start) {
            return violation(
                names::LOG_START_AT_SNAPSHOT,
                format!("n{id} starts its log at {start} but its oldest snapshot ends at {oldest:?}"),
            );
        }
    }
    Ok(())
}

/// Every snapshot a node holds, taken or fetched, equals the replay of the committed log up to
/// the snapshot's end offset.
pub(crate) fn snapshots_equal_replay(sim: &Simulation, committed: &CommittedLog) -> Result<(), Violation> {
    for (id, log) in sim.logs() {
        for snapshot in log.snapshots() {
            let end = snapshot.id.end_offset;
            let Some(expected) = committed.digest_at(end) else { continue };
            if snapshot.state.applied_offset != end || snapshot.state.digest != expected {
                return violation(
                    names::SNAPSHOT_EQUALS_REPLAY,
                    format!(
                        "n{id}'s snapshot {} holds state applied to offset {} that differs from replaying the committed log to {end}",
                        snapshot.id, snapshot.state.applied_offset
                    ),
                );
            }
        }
    }
    Ok(())
}

//! Leader completeness (Raft §5.4): a leader holds every record committed in earlier epochs.

use super::names;
use super::{CommittedLog, Violation, running_leaders, violation};
use crate::sim::Simulation;

pub(crate) fn leader_completeness(sim: &Simulation, committed: &CommittedLog) -> Result<(), Violation> {
    for leader in running_leaders(sim) {
        let needed = committed.committed_before_epoch(leader.epoch());
        let Some(last) = needed.checked_sub(1).and_then(|o| committed.get(o)) else {
            continue;
        };
        let log = leader.log();
        let holds =
            log.start_offset() >= needed || log.get(needed - 1).is_some_and(|e| e.epoch == last.epoch);
        if !holds {
            return violation(
                names::LEADER_COMPLETENESS,
                format!(
                    "n{} leads epoch {} without committed offset {} (its log ends at {})",
                    leader.id(),
                    leader.epoch(),
                    needed - 1,
                    log.end_offset()
                ),
            );
        }
    }
    Ok(())
}

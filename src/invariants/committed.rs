//! The committed log as observed from the outside: each offset is recorded the first time some
//! leader's high watermark covers it, and must never change afterwards (Raft's state machine
//! safety; Kafka's names::AGREEMENT).

use super::names;
use super::{Violation, running_leaders, violation};
use crate::metadata::state::AppliedMetadata;
use crate::quorum::{Epoch, Offset};
use crate::sim::Simulation;

/// One committed offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommittedRecord {
    /// The epoch the record was appended in.
    pub epoch: Epoch,
    /// The epoch of the leader whose high watermark first covered it.
    pub committed_in: Epoch,
    pub fingerprint: u64,
}

/// Every committed record seen so far from offset `base` on, with the state digest after each.
/// Offsets below what any node still holds (its log start, its oldest snapshot, its applied
/// offset) can no longer be compared with anything, and are dropped in chunks of
/// [`DROP_CHUNK`], so a simulation that runs for days keeps a bounded history.
#[derive(Clone, Default)]
pub struct CommittedLog {
    /// The first offset `records` holds.
    base: Offset,
    records: Vec<CommittedRecord>,
    /// `digests[i]` is the applied-state digest after applying offsets `0..base + i`.
    digests: Vec<u64>,
    /// `committed_in` of the last record dropped (they ascend with the offset).
    dropped_committed_in: Option<Epoch>,
    /// How many records `records` holds when it is next worth looking for some to drop: the
    /// lowest offset held is not looked up after every event.
    next_drop_check: usize,
    state: AppliedMetadata,
}

/// Committed records dropped at a time, once that many lie below every node's log.
const DROP_CHUNK: usize = 4_096;
/// New committed records between two looks for records to drop.
const DROP_CHECK_EVERY: usize = 256;

impl CommittedLog {
    /// How many offsets are known committed.
    pub(crate) fn len(&self) -> Offset {
        self.base + self.records.len() as Offset
    }

    /// The committed record at `offset`, unless it was dropped.
    pub(crate) fn get(&self, offset: Offset) -> Option<&CommittedRecord> {
        self.records.get(usize::try_from(offset.checked_sub(self.base)?).ok()?)
    }

    /// The applied-state digest after replaying the committed log up to `offset`, if known.
    pub(crate) fn digest_at(&self, offset: Offset) -> Option<u64> {
        self.digests.get(usize::try_from(offset.checked_sub(self.base)?).ok()?).copied()
    }

    /// Drop the records no node can be compared with any more: one below the lowest offset any
    /// node holds or has applied (that one record stays for the checks that look one back).
    fn drop_unreachable(&mut self, sim: &Simulation) {
        if self.records.len() < (2 * DROP_CHUNK).max(self.next_drop_check) {
            return;
        }
        self.next_drop_check = self.records.len() + DROP_CHECK_EVERY;
        let held = sim.logs().map(|(_, log)| {
            let oldest_snapshot = log.snapshots().first().map_or(Offset::MAX, |s| s.id.end_offset);
            log.start_offset().min(oldest_snapshot)
        });
        let applied = sim.running_nodes().map(|n| n.applied().applied_offset);
        let lowest = held.chain(applied).min().unwrap_or(0);
        let drop = lowest.saturating_sub(1).saturating_sub(self.base) as usize;
        if drop >= DROP_CHUNK {
            self.dropped_committed_in = Some(self.records[drop - 1].committed_in);
            self.records.drain(..drop);
            self.digests.drain(..drop);
            self.base += drop as Offset;
        }
    }

    /// The image the committed log builds up to `offset`, when that is the committed tip.
    pub(crate) fn image_at(&self, offset: Offset) -> Option<&crate::metadata::image::MetadataImage> {
        (offset == self.len()).then_some(&self.state.state.image)
    }

    /// The number of committed offsets that leaders of epochs below `epoch` committed; at most
    /// the first offset still held when some dropped record was committed in `epoch` or later
    /// (no node holds the offsets below it, so the checks have nothing to compare there).
    pub(crate) fn committed_before_epoch(&self, epoch: Epoch) -> Offset {
        if self.dropped_committed_in.is_some_and(|dropped| dropped >= epoch) {
            return self.base;
        }
        self.base + self.records.partition_point(|r| r.committed_in < epoch) as Offset
    }

    /// Record offsets newly covered by a leader's high watermark, reading them from any node
    /// that still holds them (the history the agreement checks compare against).
    pub(super) fn extend(&mut self, sim: &Simulation) {
        if self.digests.is_empty() {
            self.digests.push(self.state.digest);
        }
        for leader in running_leaders(sim) {
            let Some(hw) = leader.high_watermark() else {
                continue;
            };
            while self.len() < hw {
                let offset = self.len();
                let committed_elsewhere = || {
                    sim.running_nodes()
                        .filter(|n| n.high_watermark().is_some_and(|h| h > offset))
                        .find_map(|n| n.log().get(offset))
                };
                let Some(entry) = leader.log().get(offset).or_else(committed_elsewhere) else {
                    break;
                };
                self.records.push(CommittedRecord {
                    epoch: entry.epoch,
                    committed_in: leader.epoch(),
                    fingerprint: entry.record.fingerprint(),
                });
                self.state.apply(entry.epoch, &entry.record);
                self.digests.push(self.state.digest);
            }
        }
        self.drop_unreachable(sim);
    }

    /// Each node's committed tail, and its applied state, must match the committed log.
    pub(super) fn check_applied_states(&self, sim: &Simulation) -> Result<(), Violation> {
        for node in sim.running_nodes() {
            let applied = node.applied();
            if let Some(expected) = self.digest_at(applied.applied_offset)
                && expected != applied.digest
            {
                return violation(
                    names::APPLIED_EQUALS_REPLAY,
                    format!(
                        "n{} at offset {} has digest {:x}, the committed log gives {:x}",
                        node.id(),
                        applied.applied_offset,
                        applied.digest,
                        expected
                    ),
                );
            }
            let Some(hw) = node.high_watermark() else {
                continue;
            };
            let last = hw.min(self.len()).checked_sub(1);
            if let Some((offset, entry, committed)) =
                last.and_then(|o| Some((o, node.log().get(o)?, self.get(o)?)))
                && committed.epoch != entry.epoch
            {
                return violation(
                    names::AGREEMENT,
                    format!(
                        "n{} holds epoch {} at committed offset {offset}, committed was epoch {}",
                        node.id(),
                        entry.epoch,
                        committed.epoch
                    ),
                );
            }
        }
        Ok(())
    }

    /// At the end of a run: every record each node holds below its high watermark matches.
    pub(super) fn check_full_agreement(&self, sim: &Simulation) -> Result<(), Violation> {
        for node in sim.running_nodes() {
            let log = node.log();
            let end = node.high_watermark().unwrap_or(0).min(log.end_offset()).min(self.len());
            for offset in log.start_offset()..end {
                let (Some(entry), Some(committed)) = (log.get(offset), self.get(offset)) else {
                    continue;
                };
                if entry.epoch != committed.epoch || entry.record.fingerprint() != committed.fingerprint {
                    return violation(
                        names::AGREEMENT,
                        format!("n{} differs from the committed log at offset {offset}", node.id()),
                    );
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{CommittedLog, DROP_CHUNK};
    use crate::harness::MS;
    use crate::quorum::QuorumConfig;
    use crate::sim::{ClusterConfig, Simulation};

    /// With snapshots every 4 KiB of records (as the page takes them) and the log cleaned every
    /// second, the committed history keeps a bounded tail however long the cluster runs, and the
    /// offsets it keeps can still be looked up.
    #[test]
    fn the_committed_history_drops_what_no_node_holds() {
        let quorum = QuorumConfig {
            max_record_bytes_between_snapshots: 4_096,
            max_retention_bytes: 4 * 4_096,
            log_clean_interval: 1_000 * MS,
            ..QuorumConfig::default()
        };
        let mut sim = Simulation::new(ClusterConfig { observers: 3, quorum, ..ClusterConfig::default() }, 1);
        let mut committed = CommittedLog::default();
        let mut longest = 0;
        while sim.now() < 6 * 3_600_000 * MS && sim.step() {
            committed.extend(&sim);
            longest = longest.max(committed.records.len());
        }
        assert!(committed.len() > 40_000, "{} offsets committed in 6 h", committed.len());
        assert!(committed.base > 0 && longest <= 3 * DROP_CHUNK, "it held up to {longest} records");
        let tip = committed.len();
        assert!(committed.get(tip - 1).is_some() && committed.digest_at(tip).is_some());
        assert!(committed.get(committed.base - 1).is_none(), "dropped offsets are gone");
    }
}

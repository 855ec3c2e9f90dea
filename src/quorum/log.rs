//! The replicated log of one node: records with their epochs, the epoch cache used to validate
//! fetches and find divergence, and the snapshots that may stand in for the log's prefix (Kafka's
//! `KafkaRaftLog`).

use std::sync::Arc;

use super::entries::{Entries, Records};
use super::record::Record;
use super::snapshot::{Snapshot, SnapshotId};
use super::state_machine::StateMachine;
use super::voters::{KRaftVersion, VoterSet};
use super::{Epoch, Offset};
use crate::harness::Micros;

/// One log entry: a record, the leader epoch it was appended in, when the leader appended it
/// (a batch's `baseTimestamp`, which `BatchAccumulator` takes from the leader's clock), and
/// whether it closes its batch (the records a leader appended together; a fetch never splits a
/// batch, so a follower holds whole batches, as Kafka's record batches are).
#[derive(Clone, Debug, PartialEq)]
pub struct Entry<P> {
    pub epoch: Epoch,
    pub record: Record<P>,
    pub appended_at: Micros,
    pub last_in_batch: bool,
}

/// A node's replicated log: records `[start_offset, end_offset)` plus the snapshots it holds,
/// oldest first. Taking a snapshot does not move the log start; the cleaner does, once the log
/// outgrows its retention (KIP-630).
#[derive(Clone, Debug)]
pub struct Log<S: StateMachine> {
    start_offset: Offset,
    entries: Entries<S::Entry>,
    /// (epoch, first offset of that epoch), ascending; Kafka's leader-epoch cache.
    epoch_starts: Vec<(Epoch, Offset)>,
    /// Snapshots by ascending end offset; the first one ends at the log start once the cleaner
    /// has moved it.
    snapshots: Vec<Arc<Snapshot<S>>>,
    /// The voter sets and kraft.version this log holds, by offset.
    control: ControlHistory,
    /// The first offset not yet flushed to the disk (`UnifiedLog`'s recovery point, the
    /// `firstUnflushedOffset` of Kafka's `MockLog`): what a power loss keeps is below it.
    flushed_end: Offset,
    /// Batches written since the log was created, a count that only grows (how a torn write
    /// finds the write it tears).
    batches_written: u64,
}

/// What a power loss took from a log: the records written but not flushed, and whether the
/// log then started again at its latest snapshot (`KafkaRaftLog.truncateToLatestSnapshot`,
/// which `KafkaRaftLog.createLog` runs when the snapshot is past the log end).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LostWrites {
    pub records: u64,
    pub flushed_end: Offset,
    pub to_snapshot: Option<Offset>,
}

/// The batch a power failure tore in the middle of its write: part of it reached the disk, so
/// its CRC fails when the log is next read (`LogSegment.recover` truncates it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TornBatch {
    pub base_offset: Offset,
    pub records: u64,
}

/// Kafka's `KRaftControlRecordStateMachine` with its `VoterSetHistory`: every VotersRecord and
/// KRaftVersionRecord of the log at its offset, committed or not, over a base from the snapshot
/// the log starts at or from the bootstrap checkpoint (`0-0.checkpoint`) that a dynamic
/// `kafka-storage format` writes.
#[derive(Clone, Debug, Default)]
pub struct ControlHistory {
    /// The set below every offset of `voters` (`None`: the static `controller.quorum.voters`).
    base_voters: Option<Arc<VoterSet>>,
    /// Whether `base_voters` came from the bootstrap checkpoint rather than a snapshot.
    from_bootstrap: bool,
    /// Where a snapshot's VotersRecord counts: its `lastContainedLogOffset`
    /// (`KRaftControlRecordStateMachine.maybeLoadSnapshot` reads it at that offset), so a leader
    /// whose set came from an installed snapshot sees it committed.
    base_offset: Option<Offset>,
    base_kraft_version: KRaftVersion,
    voters: Vec<(Offset, Arc<VoterSet>)>,
    kraft_versions: Vec<(Offset, KRaftVersion)>,
}

impl ControlHistory {
    /// The latest voter set (`lastVoterSet`), `None` when the log holds none.
    pub(crate) fn last_voters(&self) -> Option<&Arc<VoterSet>> {
        self.voters.last().map(|(_, v)| v).or(self.base_voters.as_ref())
    }

    /// The offset of the latest VotersRecord (`lastVoterSetEntry`), if the log or the snapshot
    /// it starts at holds one.
    pub(crate) fn last_voters_offset(&self) -> Option<Offset> {
        self.voters.last().map(|(o, _)| *o).or(self.base_offset)
    }

    /// The voter set in force at `offset` (the latest one at or below it).
    pub(crate) fn voters_at(&self, offset: Offset) -> Option<&Arc<VoterSet>> {
        self.voters_below(offset + 1)
    }

    /// The voter set in force once every record below `end` is in: the latest one of a
    /// VotersRecord below `end`, else the base.
    pub(crate) fn voters_below(&self, end: Offset) -> Option<&Arc<VoterSet>> {
        match self.voters.partition_point(|(o, _)| *o < end) {
            0 => self.base_voters.as_ref(),
            i => Some(&self.voters[i - 1].1),
        }
    }

    /// Every voter set of the log in offset order, the base first.
    pub(crate) fn voter_sets(&self) -> impl Iterator<Item = (Option<Offset>, &Arc<VoterSet>)> {
        let base = self.base_voters.iter().map(|v| (None, v));
        base.chain(self.voters.iter().map(|(o, v)| (Some(*o), v)))
    }

    /// The latest `kraft.version` (`lastKraftVersion`; 0 when the log never held one).
    pub(crate) fn kraft_version(&self) -> KRaftVersion {
        self.kraft_versions.last().map_or(self.base_kraft_version, |(_, v)| *v)
    }

    /// Whether the voter set still comes from the bootstrap checkpoint: a leader then writes it
    /// into the log at the start of its epoch (`LeaderState.appendStartOfEpochControlRecords`).
    pub(crate) fn voters_from_bootstrap(&self) -> bool {
        self.from_bootstrap && self.voters.is_empty()
    }

    fn truncate(&mut self, end: Offset) {
        self.voters.retain(|(o, _)| *o < end);
        self.kraft_versions.retain(|(o, _)| *o < end);
    }
}

impl<S: StateMachine> Default for Log<S> {
    fn default() -> Self {
        Log {
            start_offset: 0,
            entries: Entries::default(),
            epoch_starts: Vec::new(),
            snapshots: Vec::new(),
            control: ControlHistory::default(),
            flushed_end: 0,
            batches_written: 0,
        }
    }
}

impl<S: StateMachine> Log<S> {
    /// The empty log a dynamic `kafka-storage format` leaves (`--standalone` or
    /// `--initial-controllers`): only the bootstrap checkpoint, with KRaftVersionRecord(1) and
    /// the initial voters (`Formatter.writeDynamicQuorumSnapshot`). It is never served to a
    /// fetcher; a leader copies it into the log instead.
    pub(crate) fn bootstrapped(voters: VoterSet) -> Log<S> {
        let mut log = Log::default();
        log.control.base_voters = Some(Arc::new(voters));
        log.control.base_kraft_version = 1;
        log.control.from_bootstrap = true;
        log
    }

    /// The voter sets and kraft.version this log holds.
    pub(crate) fn control(&self) -> &ControlHistory {
        &self.control
    }

    /// The first offset held as a record (everything below is only in a snapshot).
    pub fn start_offset(&self) -> Offset {
        self.start_offset
    }

    /// The offset the next appended record gets.
    pub fn end_offset(&self) -> Offset {
        self.start_offset + self.entries.len() as Offset
    }

    /// The latest snapshot, if any (the one a far-behind fetcher is sent).
    pub(crate) fn snapshot(&self) -> Option<&Arc<Snapshot<S>>> {
        self.snapshots.last()
    }

    /// Every snapshot held, oldest first.
    pub fn snapshots(&self) -> &[Arc<Snapshot<S>>] {
        &self.snapshots
    }

    /// The epoch of the last record, or of the snapshot at the log start when the log holds no
    /// record.
    pub(crate) fn last_epoch(&self) -> Epoch {
        match self.entries.last() {
            Some(entry) => entry.epoch,
            None => self.start_epoch(),
        }
    }

    /// The epoch of the record just below the log start (the snapshot ending there).
    fn start_epoch(&self) -> Epoch {
        self.snapshots.iter().find(|s| s.id.end_offset == self.start_offset).map_or(0, |s| s.id.epoch)
    }

    /// The record at `offset`, if it is held as a record.
    pub fn get(&self, offset: Offset) -> Option<&Entry<S::Entry>> {
        let index = offset.checked_sub(self.start_offset)?;
        self.entries.get(usize::try_from(index).ok()?)
    }

    /// The epoch of the record at `offset - 1`, i.e. the "last fetched epoch" a fetcher at
    /// `offset` would send; covers the snapshot boundary.
    pub(crate) fn epoch_before(&self, offset: Offset) -> Option<Epoch> {
        if offset == self.start_offset {
            return Some(self.start_epoch());
        }
        self.get(offset.checked_sub(1)?).map(|e| e.epoch)
    }

    /// Whole batches from `offset` within `max_bytes`, the first one whatever its size
    /// (`KafkaRaftLog.read` with minOneMessage: `LogSegment.read` reads at most the larger of
    /// the limit and the first batch, and a batch cut at the end of the read is dropped).
    pub fn read(&self, offset: Offset, max_bytes: u64) -> Records<S::Entry> {
        let Some(from) = offset.checked_sub(self.start_offset) else {
            return Records::default();
        };
        let from = (from as usize).min(self.entries.len());
        let fits = self.entries.fitting(from, max_bytes);
        let batch_ends_at =
            |i: usize| i == self.entries.len() || self.entries.get(i - 1).is_some_and(|e| e.last_in_batch);
        let to = (from + 1..=fits)
            .rev()
            .find(|&i| batch_ends_at(i))
            .or_else(|| (from + 1..=self.entries.len()).find(|&i| batch_ends_at(i)))
            .unwrap_or(from);
        self.entries.slice(from, to)
    }

    /// The first offset not flushed: a power loss keeps the records below it.
    pub fn flushed_end(&self) -> Offset {
        self.flushed_end
    }

    /// Batches written since the log was created.
    pub(crate) fn batches_written(&self) -> u64 {
        self.batches_written
    }

    /// fsync what was written (`KafkaRaftLog.flush`, `UnifiedLog.flush`).
    pub(crate) fn flush(&mut self) {
        self.flushed_end = self.end_offset();
    }

    /// The power failed: the records written but not flushed are gone. When the latest
    /// snapshot (its file is fsynced as it is frozen, `FileRawSnapshotWriter.freeze`) ends past
    /// what is left, the log starts again there (`KafkaRaftLog.truncateToLatestSnapshot`).
    pub(crate) fn lose_unflushed(&mut self) -> LostWrites {
        let flushed_end = self.flushed_end.max(self.start_offset);
        let records = self.end_offset().saturating_sub(flushed_end);
        self.drop_from(flushed_end);
        let to_snapshot = self.snapshot().map(|s| s.id.end_offset).filter(|end| *end > self.end_offset());
        if let Some(end) = to_snapshot {
            self.clear_records();
            self.start_offset = end;
            self.snapshots.retain(|s| s.id.end_offset >= end);
            self.control.truncate(end);
        }
        self.flushed_end = self.end_offset();
        LostWrites { records, flushed_end, to_snapshot }
    }

    /// The power failed in the middle of writing the last batch: the batches before it are on
    /// the disk, the last one only in part. Returns that batch (none when the log holds no
    /// record); the log keeps the whole batches before it, all flushed.
    pub(crate) fn tear_last_batch(&mut self) -> Option<TornBatch> {
        let end = self.end_offset();
        let last = self.entries.len().checked_sub(1)?;
        let closed = |i: &usize| self.entries.get(*i).is_some_and(|e| e.last_in_batch);
        let base = (0..last).rev().find(closed).map_or(0, |i| i + 1);
        let base_offset = self.start_offset + base as Offset;
        self.drop_from(base_offset);
        self.flushed_end = base_offset;
        Some(TornBatch { base_offset, records: end - base_offset })
    }

    /// Forget every record (the log then starts at a snapshot).
    fn clear_records(&mut self) {
        self.entries.clear();
        self.epoch_starts.clear();
    }

    /// Drop the records at and after `offset`, keeping the snapshots.
    fn drop_from(&mut self, offset: Offset) {
        let keep = offset.saturating_sub(self.start_offset) as usize;
        self.entries.truncate(keep);
        let end = self.end_offset();
        self.epoch_starts.retain(|(_, start)| *start < end);
        self.control.truncate(end);
        self.flushed_end = self.flushed_end.min(end);
    }

    /// Append one record.
    pub fn append(&mut self, entry: Entry<S::Entry>) {
        match &entry.record {
            Record::Voters(voters) => self.control.voters.push((self.end_offset(), voters.clone())),
            Record::KRaftVersion(version) => self.control.kraft_versions.push((self.end_offset(), *version)),
            Record::LeaderChange(_) | Record::Data(_) => {}
        }
        if self.epoch_starts.last().is_none_or(|(e, _)| *e < entry.epoch) {
            self.epoch_starts.push((entry.epoch, self.end_offset()));
        }
        if entry.last_in_batch {
            self.batches_written += 1;
        }
        let bytes = entry.record.size_bytes();
        self.entries.push(entry, bytes);
    }

    /// Kafka's `endOffsetForEpoch`: the largest epoch `<= epoch` this log knows, and the offset
    /// where that epoch ends (the start of the next epoch, or the log end).
    pub(crate) fn end_offset_for_epoch(&self, epoch: Epoch) -> (Epoch, Offset) {
        let Some(index) = self.epoch_starts.iter().rposition(|(e, _)| *e <= epoch) else {
            let start_epoch = self.start_epoch();
            let known = if start_epoch <= epoch { start_epoch } else { 0 };
            return (known, self.start_offset);
        };
        let end = match self.epoch_starts.get(index + 1) {
            Some((_, next_start)) => *next_start,
            None => self.end_offset(),
        };
        (self.epoch_starts[index].0, end)
    }

    /// Remove every record at or after `offset`, and the snapshots past the new end.
    pub(crate) fn truncate_to(&mut self, offset: Offset) {
        self.drop_from(offset);
        let end = self.end_offset();
        self.snapshots.retain(|s| s.id.end_offset <= end);
    }

    /// Kafka's `truncateToEndOffset`: the last offset this log shares with a leader that
    /// answered `DivergingEpoch{epoch, end_offset}`, where it must be cut back to.
    pub(crate) fn diverging_end(&self, epoch: Epoch, end_offset: Offset) -> Offset {
        let target = if epoch == 0 {
            end_offset.min(self.end_offset())
        } else {
            let (local_epoch, local_end) = self.end_offset_for_epoch(epoch);
            if local_epoch == epoch { local_end.min(end_offset) } else { local_end }
        };
        target.max(self.start_offset)
    }

    /// Keep a snapshot of this log's own committed prefix (`onSnapshotFrozen`); the records
    /// stay until the cleaner removes them.
    pub(crate) fn add_snapshot(&mut self, snapshot: Arc<Snapshot<S>>) {
        self.snapshots.push(snapshot);
    }

    /// Bytes of records and snapshots together, what `metadata.max.retention.bytes` limits.
    pub fn retained_bytes(&self) -> u64 {
        self.entries.bytes() + self.snapshots.iter().map(|s| s.size_bytes()).sum::<u64>()
    }

    /// Kafka's `KafkaRaftLog.maybeClean` by size: while the log and snapshots hold more than
    /// `retention_bytes` and there are at least two snapshots, move the log start up to the
    /// second-oldest snapshot and forget the oldest. Returns the new log start when it moved.
    pub(crate) fn clean(&mut self, retention_bytes: u64) -> Option<Offset> {
        let before = self.start_offset;
        while self.snapshots.len() >= 2 && self.retained_bytes() > retention_bytes {
            let next = self.snapshots[1].id.end_offset;
            self.move_start_to(next);
            self.snapshots.remove(0);
        }
        (self.start_offset != before).then_some(self.start_offset)
    }

    /// Drop the records below `offset` (at most up to the log end).
    pub(super) fn move_start_to(&mut self, offset: Offset) {
        let drop = (offset.min(self.end_offset()) - self.start_offset) as usize;
        self.entries.drop_front(drop);
        self.start_offset += drop as Offset;
        let start = self.start_offset;
        self.flushed_end = self.flushed_end.max(start);
        self.epoch_starts.retain(|(_, s)| *s > start);
        if let Some(first) = self.entries.get(0) {
            self.epoch_starts.insert(0, (first.epoch, start));
        }
    }

    /// Replace the whole log by a snapshot fetched from the leader (FetchSnapshot, then
    /// `truncateToLatestSnapshot`).
    pub fn install_snapshot(&mut self, snapshot: Arc<Snapshot<S>>) {
        self.clear_records();
        self.start_offset = snapshot.id.end_offset;
        self.flushed_end = self.start_offset;
        let applied = &snapshot.state;
        if applied.voters.is_some() {
            self.control = ControlHistory {
                base_voters: applied.voters.clone(),
                from_bootstrap: false,
                base_offset: snapshot.id.end_offset.checked_sub(1),
                base_kraft_version: applied.kraft_version,
                voters: Vec::new(),
                kraft_versions: Vec::new(),
            };
        } else {
            self.control.truncate(0);
        }
        self.snapshots = vec![snapshot];
    }

    /// The id of the latest snapshot, if any.
    pub(crate) fn snapshot_id(&self) -> Option<SnapshotId> {
        self.snapshot().map(|s| s.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metadata::state::MetadataState;
    use crate::quorum::record::LeaderChange;
    use crate::quorum::snapshot::SnapshotId;

    /// A log of `batches` batches of `size` LeaderChange records each, in epoch 1.
    fn log_of(batches: usize, size: usize) -> Log<MetadataState> {
        let mut log = Log::default();
        let change = Arc::new(LeaderChange { leader: 1, voters: Arc::from([1]), granting: Arc::from([1]) });
        for _ in 0..batches {
            for i in 0..size {
                let record = Record::LeaderChange(change.clone());
                log.append(Entry { epoch: 1, record, appended_at: 0, last_in_batch: i + 1 == size });
            }
        }
        log
    }

    #[test]
    fn a_power_loss_takes_what_was_written_after_the_last_flush() {
        let mut log = log_of(2, 3);
        log.flush();
        let more = log_of(1, 2);
        for offset in 0..2 {
            log.append(more.get(offset).expect("held").clone());
        }
        assert_eq!((log.flushed_end(), log.end_offset()), (6, 8));
        let lost = log.lose_unflushed();
        assert_eq!(lost, LostWrites { records: 2, flushed_end: 6, to_snapshot: None });
        assert_eq!(log.end_offset(), 6);
        assert_eq!(log.lose_unflushed().records, 0, "what was flushed stays");
    }

    #[test]
    fn a_power_loss_past_the_log_restarts_it_at_the_latest_snapshot() {
        let mut log = log_of(3, 2);
        let state = Default::default();
        log.add_snapshot(Arc::new(Snapshot { id: SnapshotId { end_offset: 4, epoch: 1 }, state }));
        let lost = log.lose_unflushed();
        assert_eq!(lost, LostWrites { records: 6, flushed_end: 0, to_snapshot: Some(4) });
        assert_eq!((log.start_offset(), log.end_offset(), log.snapshots().len()), (4, 4, 1));
    }

    #[test]
    fn a_torn_write_tears_the_last_batch_and_keeps_the_ones_before() {
        let mut log = log_of(2, 3);
        assert_eq!(log.batches_written(), 2);
        assert_eq!(log.tear_last_batch(), Some(TornBatch { base_offset: 3, records: 3 }));
        assert_eq!((log.end_offset(), log.flushed_end()), (3, 3));
        assert_eq!(Log::<MetadataState>::default().tear_last_batch(), None);
    }
}

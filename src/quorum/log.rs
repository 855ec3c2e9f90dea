//! The replicated log of one node: records with their epochs, the epoch cache used to validate
//! fetches and find divergence, and the snapshot that stands in for the log's prefix.

use std::sync::Arc;

use super::record::Record;
use super::snapshot::{Snapshot, SnapshotId};
use super::state_machine::StateMachine;
use super::{Epoch, Offset};

/// One log entry: a record and the leader epoch it was appended in.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry<P> {
    pub epoch: Epoch,
    pub record: Record<P>,
}

/// A node's `__cluster_metadata` log: `[start_offset, end_offset)` plus an optional snapshot
/// covering everything before `start_offset`.
#[derive(Clone, Debug)]
pub struct Log<S: StateMachine> {
    start_offset: Offset,
    entries: Vec<Entry<S::Entry>>,
    /// (epoch, first offset of that epoch), ascending; Kafka's leader-epoch cache.
    epoch_starts: Vec<(Epoch, Offset)>,
    snapshot: Option<Arc<Snapshot<S>>>,
}

impl<S: StateMachine> Default for Log<S> {
    fn default() -> Self {
        Log { start_offset: 0, entries: Vec::new(), epoch_starts: Vec::new(), snapshot: None }
    }
}

impl<S: StateMachine> Log<S> {
    /// The first offset held as a record (everything below is in the snapshot).
    pub fn start_offset(&self) -> Offset {
        self.start_offset
    }

    /// The offset the next appended record gets.
    pub fn end_offset(&self) -> Offset {
        self.start_offset + self.entries.len() as Offset
    }

    /// The latest snapshot, if any.
    pub fn snapshot(&self) -> Option<&Arc<Snapshot<S>>> {
        self.snapshot.as_ref()
    }

    /// The epoch of the last record, or of the snapshot when the log holds no record.
    pub fn last_epoch(&self) -> Epoch {
        match self.entries.last() {
            Some(entry) => entry.epoch,
            None => self.snapshot_epoch(),
        }
    }

    fn snapshot_epoch(&self) -> Epoch {
        self.snapshot.as_ref().map_or(0, |s| s.id.epoch)
    }

    /// The record at `offset`, if it is held as a record.
    pub fn get(&self, offset: Offset) -> Option<&Entry<S::Entry>> {
        let index = offset.checked_sub(self.start_offset)?;
        self.entries.get(usize::try_from(index).ok()?)
    }

    /// The epoch of the record at `offset - 1`, i.e. the "last fetched epoch" a fetcher at
    /// `offset` would send; covers the snapshot boundary.
    pub fn epoch_before(&self, offset: Offset) -> Option<Epoch> {
        if offset == self.start_offset {
            return Some(self.snapshot_epoch());
        }
        self.get(offset.checked_sub(1)?).map(|e| e.epoch)
    }

    /// Up to `max` records starting at `offset`.
    pub fn read(&self, offset: Offset, max: usize) -> &[Entry<S::Entry>] {
        let Some(from) = offset.checked_sub(self.start_offset) else {
            return &[];
        };
        let from = (from as usize).min(self.entries.len());
        let to = from.saturating_add(max).min(self.entries.len());
        &self.entries[from..to]
    }

    /// Append one record.
    pub fn append(&mut self, entry: Entry<S::Entry>) {
        if self.epoch_starts.last().is_none_or(|(e, _)| *e < entry.epoch) {
            self.epoch_starts.push((entry.epoch, self.end_offset()));
        }
        self.entries.push(entry);
    }

    /// Kafka's `endOffsetForEpoch`: the largest epoch `<= epoch` this log knows, and the offset
    /// where that epoch ends (the start of the next epoch, or the log end).
    pub fn end_offset_for_epoch(&self, epoch: Epoch) -> (Epoch, Offset) {
        let Some(index) = self.epoch_starts.iter().rposition(|(e, _)| *e <= epoch) else {
            let snapshot_epoch = self.snapshot_epoch();
            let known = if snapshot_epoch <= epoch { snapshot_epoch } else { 0 };
            return (known, self.start_offset);
        };
        let end = match self.epoch_starts.get(index + 1) {
            Some((_, next_start)) => *next_start,
            None => self.end_offset(),
        };
        (self.epoch_starts[index].0, end)
    }

    /// Remove every record at or after `offset`.
    pub fn truncate_to(&mut self, offset: Offset) {
        let keep = offset.saturating_sub(self.start_offset) as usize;
        self.entries.truncate(keep);
        let end = self.end_offset();
        self.epoch_starts.retain(|(_, start)| *start < end);
    }

    /// Kafka's `truncateToEndOffset`: the last offset this log shares with a leader that
    /// answered `DivergingEpoch{epoch, end_offset}`, where it must be cut back to.
    pub fn diverging_end(&self, epoch: Epoch, end_offset: Offset) -> Offset {
        let target = if epoch == 0 {
            end_offset.min(self.end_offset())
        } else {
            let (local_epoch, local_end) = self.end_offset_for_epoch(epoch);
            if local_epoch == epoch { local_end.min(end_offset) } else { local_end }
        };
        target.max(self.start_offset)
    }

    /// Record a snapshot taken from this log's own committed prefix and drop the records it
    /// covers: the log start moves up to the snapshot.
    pub fn compact_to(&mut self, snapshot: Arc<Snapshot<S>>) {
        let end = snapshot.id.end_offset;
        debug_assert!(end >= self.start_offset && end <= self.end_offset());
        let drop = (end - self.start_offset) as usize;
        self.entries.drain(..drop);
        self.start_offset = end;
        self.epoch_starts.retain(|(_, start)| *start > end);
        if let Some(first) = self.entries.first() {
            self.epoch_starts.insert(0, (first.epoch, end));
        }
        self.snapshot = Some(snapshot);
    }

    /// Replace the whole log by a snapshot fetched from the leader (FetchSnapshot).
    pub fn install_snapshot(&mut self, snapshot: Arc<Snapshot<S>>) {
        self.entries.clear();
        self.epoch_starts.clear();
        self.start_offset = snapshot.id.end_offset;
        self.snapshot = Some(snapshot);
    }

    /// The id of the latest snapshot, if any.
    pub fn snapshot_id(&self) -> Option<SnapshotId> {
        self.snapshot.as_ref().map(|s| s.id)
    }
}

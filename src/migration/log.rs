//! The 3.9 quorum's `__cluster_metadata` as the migration sees it: the records a migration
//! writes, appended by the active controller and committed a commit latency later, and the image
//! the committed records build, with a metadata transaction's records held back until its
//! `EndTransactionRecord` and dropped at its `AbortTransactionRecord`
//! (`MetadataBatchLoader`, KIP-868).
//!
//! Simplified: the quorum's replication is one commit latency (a Fetch round to a majority), and
//! a new leader holds exactly the committed records (what the old leader appended past the high
//! watermark is truncated). The Raft protocol itself is the 4.3.1 model's (`crate::quorum`).

use std::collections::BTreeMap;
use std::fmt;

use crate::harness::Micros;
use crate::zk::BrokerSet;
use crate::zk::partition::BrokerId;

use super::state::{OffsetAndEpoch, ZkMigrationState};

/// A partition as the image holds it (`PartitionRegistration`, less the replicas, which the
/// assignment fixes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartitionImage {
    pub leader: i32,
    pub leader_epoch: u32,
    pub isr: BrokerSet,
    pub partition_epoch: u32,
}

/// A record of the metadata log, named as Kafka names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MetaRecord {
    /// The bootstrap records (`FeatureLevelRecord` metadata.version 3.9-IV0).
    Bootstrap,
    /// `RegisterControllerRecord` with `ZkMigrationReady`.
    RegisterController {
        id: i32,
        zk_migration_ready: bool,
    },
    /// `RegisterBrokerRecord`, fenced, with `IsMigratingZkBroker`.
    RegisterBroker {
        id: BrokerId,
        migrating_zk_broker: bool,
    },
    /// `BrokerRegistrationChangeRecord`: fenced or unfenced.
    BrokerFencing {
        id: BrokerId,
        fenced: bool,
    },
    BeginTransaction {
        name: &'static str,
    },
    EndTransaction,
    AbortTransaction,
    /// `TopicRecord`.
    Topic {
        topic: u32,
    },
    /// `PartitionRecord` (from the copy) or `PartitionChangeRecord`, by global partition index.
    Partition {
        index: u32,
        state: PartitionImage,
    },
    /// `ZkMigrationStateRecord`.
    MigrationState(ZkMigrationState),
}

/// One appended record: where, in which leader epoch, and when it commits (if it does).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub epoch: i32,
    pub record: MetaRecord,
    pub commits_at: Micros,
}

/// A broker as the image holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BrokerImage {
    pub migrating_zk_broker: bool,
    pub fenced: bool,
}

/// What committed records build (`MetadataImage`), and what the last publish changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    pub migration: ZkMigrationState,
    pub highest: OffsetAndEpoch,
    pub brokers: BTreeMap<BrokerId, BrokerImage>,
    pub ready_controllers: BTreeMap<i32, bool>,
    pub topics: u32,
    pub partitions: Vec<Option<PartitionImage>>,
}

/// What one publish changed (`MetadataDelta`): the partitions, whether brokers changed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    /// Each partition changed, as the change left it (the image at this publish).
    pub partitions: PartitionChanges,
    pub topics: bool,
    pub cluster: bool,
    /// A transaction ended: its records were applied all at once.
    pub transaction: bool,
}

/// The partitions a publish changed, each as the change left it, in index order: a sorted list
/// rather than a map, as a copy's delta holds every partition (a million of them) and the driver
/// clones and merges it. It prints as a map does.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct PartitionChanges(Vec<(u32, PartitionImage)>);

impl PartitionChanges {
    /// Partition `index` changed to `state` (a later change of it wins once settled).
    fn record(&mut self, index: u32, state: PartitionImage) {
        self.0.push((index, state));
    }

    /// In index order, each partition's last change kept.
    fn settle(&mut self) {
        if self.0.is_sorted_by(|a, b| a.0 < b.0) {
            return;
        }
        // A stable sort keeps each partition's changes in the order they came.
        self.0.sort_by_key(|(index, _)| *index);
        let mut settled: Vec<(u32, PartitionImage)> = Vec::with_capacity(self.0.len());
        for (index, state) in self.0.drain(..) {
            match settled.last_mut() {
                Some(last) if last.0 == index => last.1 = state,
                _ => settled.push((index, state)),
            }
        }
        self.0 = settled;
    }

    /// `newer`'s changes over these: where both changed a partition, `newer`'s state.
    pub(crate) fn merge(&mut self, newer: &PartitionChanges) {
        let (old, new) = (&self.0, &newer.0);
        let mut merged = Vec::with_capacity(old.len() + new.len());
        let (mut i, mut j) = (0, 0);
        while i < old.len() && j < new.len() {
            match old[i].0.cmp(&new[j].0) {
                std::cmp::Ordering::Less => (merged.push(old[i]), i += 1),
                std::cmp::Ordering::Greater => (merged.push(new[j]), j += 1),
                std::cmp::Ordering::Equal => (merged.push(new[j]), (i, j) = (i + 1, j + 1)),
            };
        }
        merged.extend_from_slice(&old[i..]);
        merged.extend_from_slice(&new[j..]);
        self.0 = merged;
    }

    /// Each partition changed and its state, in index order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (u32, PartitionImage)> + '_ {
        self.0.iter().copied()
    }

    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }
}

impl fmt::Debug for PartitionChanges {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.0.iter().map(|(index, state)| (index, state))).finish()
    }
}

/// The log as the active controller has it.
#[derive(Clone, Debug)]
pub struct MetadataLog {
    entries: Vec<Entry>,
    /// Records below it are committed.
    high_watermark: usize,
    /// Records below it are applied to the image (a transaction's only at its end).
    applied: usize,
    /// Where an open transaction began, if one is open (committed or not).
    open_transaction: Option<usize>,
    image: Image,
    /// The records of an open transaction, committed but held back.
    pending: Vec<usize>,
    /// Applying inside a transaction.
    applying_transaction: bool,
}

impl MetadataLog {
    /// An empty log for a cluster of `partitions` partitions.
    pub(crate) fn new(partitions: u32) -> MetadataLog {
        MetadataLog {
            entries: Vec::new(),
            high_watermark: 0,
            applied: 0,
            open_transaction: None,
            image: Image {
                migration: ZkMigrationState::None,
                highest: OffsetAndEpoch { offset: -1, epoch: -1 },
                brokers: BTreeMap::new(),
                ready_controllers: BTreeMap::new(),
                topics: 0,
                partitions: vec![None; partitions as usize],
            },
            pending: Vec::new(),
            applying_transaction: false,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub(crate) fn high_watermark(&self) -> usize {
        self.high_watermark
    }

    pub fn image(&self) -> &Image {
        &self.image
    }

    pub fn entry(&self, offset: usize) -> Option<&Entry> {
        self.entries.get(offset)
    }

    /// Where an unfinished transaction began (`OffsetControlManager.transactionStartOffset`).
    pub(crate) fn open_transaction(&self) -> Option<i64> {
        self.open_transaction.map(|at| at as i64)
    }

    /// Appends `record` in `epoch`, to commit at `commits_at`; its offset.
    pub(crate) fn append(&mut self, epoch: i32, record: MetaRecord, commits_at: Micros) -> usize {
        match record {
            MetaRecord::BeginTransaction { .. } => self.open_transaction = Some(self.entries.len()),
            MetaRecord::EndTransaction | MetaRecord::AbortTransaction => self.open_transaction = None,
            _ => {}
        }
        self.entries.push(Entry { epoch, record, commits_at });
        self.entries.len() - 1
    }

    /// A new leader: what was not committed is gone, and so is the transaction it opened.
    pub(crate) fn truncate_uncommitted(&mut self) -> usize {
        let dropped = self.entries.len() - self.high_watermark;
        self.entries.truncate(self.high_watermark);
        self.open_transaction = None;
        let mut open = None;
        for (offset, entry) in self.entries.iter().enumerate() {
            match entry.record {
                MetaRecord::BeginTransaction { .. } => open = Some(offset),
                MetaRecord::EndTransaction | MetaRecord::AbortTransaction => open = None,
                _ => {}
            }
        }
        self.open_transaction = open;
        dropped
    }

    /// Commits every record due by `now` and applies what is committed; what changed, or `None`
    /// when nothing was published.
    pub(crate) fn commit_until(&mut self, now: Micros) -> Option<Delta> {
        while self.entries.get(self.high_watermark).is_some_and(|e| e.commits_at <= now) {
            self.high_watermark += 1;
        }
        if self.applied == self.high_watermark {
            return None;
        }
        let mut delta = Delta::default();
        while self.applied < self.high_watermark {
            let offset = self.applied;
            self.applied += 1;
            match self.entries[offset].record {
                MetaRecord::BeginTransaction { .. } | MetaRecord::AbortTransaction => {
                    self.applying_transaction =
                        matches!(self.entries[offset].record, MetaRecord::BeginTransaction { .. });
                    self.pending.clear();
                }
                MetaRecord::EndTransaction => {
                    self.applying_transaction = false;
                    delta.transaction = true;
                    for held in std::mem::take(&mut self.pending) {
                        self.apply(held, &mut delta);
                    }
                }
                _ if self.applying_transaction => self.pending.push(offset),
                _ => self.apply(offset, &mut delta),
            }
            let epoch = self.entries[offset].epoch;
            self.image.highest = OffsetAndEpoch { offset: offset as i64, epoch };
        }
        delta.partitions.settle();
        Some(delta)
    }

    fn apply(&mut self, offset: usize, delta: &mut Delta) {
        let image = &mut self.image;
        match &self.entries[offset].record {
            MetaRecord::Bootstrap
            | MetaRecord::BeginTransaction { .. }
            | MetaRecord::EndTransaction
            | MetaRecord::AbortTransaction => {}
            MetaRecord::RegisterController { id, zk_migration_ready } => {
                image.ready_controllers.insert(*id, *zk_migration_ready);
            }
            MetaRecord::RegisterBroker { id, migrating_zk_broker } => {
                let broker = BrokerImage { migrating_zk_broker: *migrating_zk_broker, fenced: true };
                image.brokers.insert(*id, broker);
                delta.cluster = true;
            }
            MetaRecord::BrokerFencing { id, fenced } => {
                if let Some(broker) = image.brokers.get_mut(id) {
                    broker.fenced = *fenced;
                }
                delta.cluster = true;
            }
            MetaRecord::Topic { .. } => {
                image.topics += 1;
                delta.topics = true;
            }
            MetaRecord::Partition { index, state } => {
                if let Some(slot) = image.partitions.get_mut(*index as usize) {
                    *slot = Some(*state);
                }
                delta.partitions.record(*index, *state);
                delta.topics = true;
            }
            MetaRecord::MigrationState(state) => image.migration = *state,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn partition(leader: i32, leader_epoch: u32) -> MetaRecord {
        let state = PartitionImage { leader, leader_epoch, isr: BrokerSet::EMPTY, partition_epoch: 0 };
        MetaRecord::Partition { index: 0, state }
    }

    #[test]
    fn a_transaction_applies_at_its_end_and_an_aborted_one_never() {
        let mut log = MetadataLog::new(1);
        log.append(1, MetaRecord::BeginTransaction { name: "ZK Migration" }, 10);
        log.append(1, partition(0, 3), 20);
        let delta = log.commit_until(20).expect("published");
        assert!(delta.partitions.len() == 0, "held back inside the transaction");
        assert_eq!(log.image().partitions[0], None);
        assert_eq!(log.open_transaction(), Some(0));
        log.append(1, MetaRecord::MigrationState(ZkMigrationState::Migration), 30);
        log.append(1, MetaRecord::EndTransaction, 30);
        let delta = log.commit_until(30).expect("published");
        assert!(delta.transaction);
        assert_eq!(delta.partitions.iter().map(|(index, _)| index).collect::<Vec<_>>(), [0]);
        assert_eq!(log.image().migration, ZkMigrationState::Migration);
        assert_eq!(log.image().highest, OffsetAndEpoch { offset: 3, epoch: 1 });

        let mut log = MetadataLog::new(1);
        log.append(1, MetaRecord::BeginTransaction { name: "ZK Migration" }, 10);
        log.append(1, partition(0, 3), 10);
        log.append(1, partition(0, 4), 50);
        log.commit_until(10);
        assert_eq!(log.truncate_uncommitted(), 1, "the uncommitted record goes with the old leader");
        assert_eq!(log.open_transaction(), Some(0), "its transaction stays open");
        log.append(2, MetaRecord::AbortTransaction, 60);
        log.append(2, partition(0, 0), 60);
        let delta = log.commit_until(60).expect("published");
        assert_eq!(log.open_transaction(), None);
        assert_eq!(
            delta.partitions.iter().map(|(_, p)| p.leader_epoch).collect::<Vec<_>>(),
            [0],
            "only after the abort"
        );
        assert_eq!(log.image().partitions[0].map(|p| p.leader_epoch), Some(0));
    }

    #[test]
    fn partition_changes_keep_each_last_change_in_index_order_and_merge_newer_over_older() {
        let state = |leader_epoch| PartitionImage {
            leader: 0,
            leader_epoch,
            isr: BrokerSet::EMPTY,
            partition_epoch: 0,
        };
        let mut changes = PartitionChanges::default();
        for (index, epoch) in [(3, 1), (1, 1), (3, 2)] {
            changes.record(index, state(epoch));
        }
        changes.settle();
        let epochs = |c: &PartitionChanges| c.iter().map(|(i, s)| (i, s.leader_epoch)).collect::<Vec<_>>();
        assert_eq!(epochs(&changes), [(1, 1), (3, 2)]);
        let mut newer = PartitionChanges::default();
        for (index, epoch) in [(2, 5), (3, 5), (9, 5)] {
            newer.record(index, state(epoch));
        }
        changes.merge(&newer);
        assert_eq!(epochs(&changes), [(1, 1), (2, 5), (3, 5), (9, 5)]);
        // It prints as the map it replaced did (the whole-state fingerprint hashes that text).
        let map: BTreeMap<u32, PartitionImage> = changes.iter().collect();
        assert_eq!(format!("{changes:?}"), format!("{map:?}"));
    }
}

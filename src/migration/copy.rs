//! The one-time copy's reading of ZooKeeper, as Kafka 3.9 reads it (`MigrateMetadataEvent` →
//! `ZkMigrationClient.readAllMetadata` → `migrateTopics` → `ZkTopicMigrationClient.iterateTopics`),
//! and its batching (`BufferingBatchConsumer`): what it reads in which order, how long the reads
//! take on the ensemble's clock, and the batches it hands the controller, each waited on until
//! committed before the next read (`acceptBatch` blocks).
//!
//! The order: `/brokers/topics`' children and the pending deletions (`/admin/delete_topics`),
//! every topic znode at once (pipelined, `zookeeper.max.in.flight.requests` in flight), then topic
//! by topic: its config znode (one read on its own), then its partitions' `/state` znodes at once.
//! Each topic becomes a TopicRecord and a PartitionRecord per partition (the state znode's version
//! its partition epoch); the buffer hands them on once it holds at least
//! `zookeeper.metadata.migration.min.batch.size` records. This model's ZooKeeper holds no topic
//! configs, broker configs, quotas, producer-id block, ACLs or delegation tokens: each of those
//! reads finds nothing.

use crate::harness::Micros;
use crate::zk::ZnodePath;
use crate::zk::partition::{BrokerSet, ReplicaAssignment};
use crate::zk::store::{ZkRequestKind, ZkStore};

/// `zookeeper.metadata.migration.min.batch.size` (default 200): the fewest records a batch
/// handed to the controller holds (but the last).
pub const MIN_BATCH_SIZE: usize = 200;
/// `zookeeper.max.in.flight.requests` (default 10): reads pipelined at once.
pub const MAX_IN_FLIGHT: u32 = 10;

/// A record the copy writes, in ZooKeeper's terms (broker ids as ZooKeeper has them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CopiedRecord {
    /// `TopicRecord`: (here) the topic's index for its id and its name (`topic-N`).
    Topic { topic: u32 },
    /// `PartitionRecord` from the partition's `/state` znode.
    Partition {
        topic: u32,
        partition: u32,
        /// The assignment's replicas (a set: its order, the preferred leader first, is the
        /// assignment's), kept without allocating, as a copy reads a million of them.
        replicas: BrokerSet,
        isr: BrokerSet,
        leader: i32,
        leader_epoch: u32,
        /// The `/state` znode's version (`LeaderAndIsr.partitionEpoch`).
        partition_epoch: u32,
    },
}

/// What the copy did: the records and batches, the reads and when the reads and waits ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopyReport {
    pub records: usize,
    /// Each batch's size, in the order handed on.
    pub batches: Vec<usize>,
    /// Read requests sent (pipelined or not).
    pub reads: u64,
    /// Time spent reading, and waiting for batches to commit.
    pub reading: Micros,
    pub committing: Micros,
    pub done_at: Micros,
    /// Every broker a replica list names (`brokerIdConsumer`).
    pub brokers: BrokerSet,
}

/// Read every topic of `zk` (replicas placed by `assignment`) starting at `start`, handing each
/// batch to `commit`, which answers when it committed.
pub(crate) fn migrate_topics(
    zk: &mut ZkStore,
    assignment: &ReplicaAssignment,
    start: Micros,
    mut commit: impl FnMut(Vec<CopiedRecord>, Micros) -> Micros,
) -> CopyReport {
    let layout = zk.topic_layout();
    let mut report = CopyReport {
        records: 0,
        batches: Vec::new(),
        reads: 0,
        reading: 0,
        committing: 0,
        done_at: start,
        brokers: BrokerSet::EMPTY,
    };
    let mut now = start;
    let read = |zk: &mut ZkStore, report: &mut CopyReport, now: &mut Micros, count: u64, in_flight: u32| {
        let done = zk.submit(*now, ZkRequestKind::Read, count, in_flight);
        report.reads += count;
        report.reading += done - *now;
        *now = done;
    };
    // getAllTopicsInCluster, readPendingTopicDeletions: one read each.
    let topics = zk.count_children(ZnodePath::Topics, None).unwrap_or(0) as u32;
    zk.count_absent_reads(1);
    read(zk, &mut report, &mut now, 2, 1);
    // getReplicaAssignmentAndTopicIdForTopics: every topic znode, pipelined.
    for topic in 0..topics {
        let _ = zk.get_data(ZnodePath::Topic(topic), None);
    }
    read(zk, &mut report, &mut now, u64::from(topics), MAX_IN_FLIGHT);
    let mut buffer: Vec<CopiedRecord> = Vec::new();
    let mut flush = |buffer: &mut Vec<CopiedRecord>, report: &mut CopyReport, now: &mut Micros| {
        if buffer.is_empty() {
            return;
        }
        report.batches.push(buffer.len());
        report.records += buffer.len();
        let done = commit(std::mem::take(buffer), *now);
        report.committing += done - *now;
        *now = done;
    };
    for topic in 0..topics {
        let per_topic = layout.partitions_in(topic);
        // visitTopic: the previous topic's records go to the buffer, then this one's config read.
        if buffer.len() >= MIN_BATCH_SIZE {
            flush(&mut buffer, &mut report, &mut now);
        }
        buffer.push(CopiedRecord::Topic { topic });
        zk.count_absent_reads(1);
        read(zk, &mut report, &mut now, 1, 1);
        // getTopicPartitionStates: this topic's state znodes, pipelined.
        for partition in 0..per_topic {
            let index = layout.index(topic, partition).unwrap_or_default() as u32;
            let replicas = assignment.replica_set(index);
            report.brokers = report.brokers.union(replicas);
            let node = zk.get_data(ZnodePath::PartitionState { topic, partition }, None).ok();
            let record = match node.and_then(|n| n.partition_state().map(|s| (s, n.version))) {
                Some((state, version)) => CopiedRecord::Partition {
                    topic,
                    partition,
                    replicas,
                    isr: state.isr,
                    leader: state.leader,
                    leader_epoch: state.leader_epoch,
                    partition_epoch: version,
                },
                // No state znode: ISR = replicas, the first one leading, epoch 0.
                None => CopiedRecord::Partition {
                    topic,
                    partition,
                    leader: assignment.replicas(index).next().map_or(-1, |b| b as i32),
                    isr: replicas,
                    replicas,
                    leader_epoch: 0,
                    partition_epoch: 0,
                },
            };
            buffer.push(record);
        }
        read(zk, &mut report, &mut now, u64::from(per_topic), MAX_IN_FLIGHT);
    }
    // The last topic's records go to the buffer (handed on if enough), then the rest is read.
    if buffer.len() >= MIN_BATCH_SIZE {
        flush(&mut buffer, &mut report, &mut now);
    }
    // migrateBrokerConfigs, migrateClientQuotas (users, clients, ips), migrateProducerId,
    // migrateAcls (literal and prefixed), migrateDelegationTokens: nothing there to read.
    zk.count_absent_reads(7);
    read(zk, &mut report, &mut now, 7, 1);
    flush(&mut buffer, &mut report, &mut now);
    report.done_at = now;
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::MS;
    use crate::zk::store::{test_store, test_store_of};

    #[test]
    fn every_topic_and_partition_is_read_topic_by_topic_and_batched_by_at_least_200_records() {
        // 4 topics of 2 partitions over 3 brokers: 12 records, one batch (fewer than 200).
        let mut zk = test_store();
        let assignment = ReplicaAssignment::new(3, 2, 0);
        let mut committed: Vec<Vec<CopiedRecord>> = Vec::new();
        let report = migrate_topics(&mut zk, &assignment, 0, |batch, now| {
            committed.push(batch);
            now + 5 * MS
        });
        assert_eq!((report.records, report.batches.clone()), (12, vec![12]));
        let first: Vec<&CopiedRecord> = committed[0].iter().take(3).collect();
        assert!(matches!(first[0], CopiedRecord::Topic { topic: 0 }));
        assert!(matches!(first[1], CopiedRecord::Partition { topic: 0, partition: 0, leader: 0, .. }));
        assert!(matches!(first[2], CopiedRecord::Partition { topic: 0, partition: 1, leader: 1, .. }));
        assert_eq!(report.brokers, BrokerSet::from_iter([0, 1, 2]));
        // Reads: 2, then 4 topics at once, then per topic 1 config + 2 states, then 7 absent.
        assert_eq!(report.reads, 2 + 4 + 4 * 3 + 7);
        assert_eq!(report.committing, 5 * MS);
        assert_eq!(report.done_at, report.reading + report.committing);
    }

    #[test]
    fn many_small_topics_cost_two_sequential_reads_each() {
        let mut zk = test_store();
        let assignment = ReplicaAssignment::new(3, 2, 0);
        let report = migrate_topics(&mut zk, &assignment, 0, |_, now| now);
        let read = crate::zk::costs::ZkCosts::sync_reads_2017().zk_read_latency;
        // 2 sequential + 1 pipelined round for 4 topics + per topic 2 rounds + 7 sequential.
        assert_eq!(report.reading, read * (2 + 1 + 4 * 2 + 7));
    }

    #[test]
    fn a_batch_is_handed_on_once_it_holds_200_records_and_each_waits_for_its_commit() {
        // 150 topics of 3 partitions: 4 records a topic, 600 in all.
        let mut zk = test_store_of(150, 3);
        let assignment = ReplicaAssignment::new(3, 2, 0);
        let mut waits = Vec::new();
        let report = migrate_topics(&mut zk, &assignment, 0, |batch, now| {
            waits.push((batch.len(), now));
            now + 20 * MS
        });
        assert_eq!(report.batches, [200, 200, 200]);
        assert_eq!(report.committing, 3 * 20 * MS, "each batch waited on, not overlapped with the reads");
        // The second batch is handed on after the first one's commit and 50 more topics' reads.
        let read = crate::zk::costs::ZkCosts::sync_reads_2017().zk_read_latency;
        assert_eq!(waits[1].1 - waits[0].1, 20 * MS + 50 * 2 * read);
    }
}

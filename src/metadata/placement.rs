//! Partition leadership decisions the controller makes: replica placement for new topics and
//! the PartitionChangeRecords that fencing, controlled shutdown and unfencing require.

use super::config::MetadataSabotage;
use crate::broker_set::{BrokerId, BrokerSet};

use super::image::MetadataImage;
use super::record::{
    LEADER_UNCHANGED, MetadataRecord, NO_LEADER, PartitionChangeRecord, PartitionRecord, Replicas, TopicId,
    broker_bit,
};

/// Round-robin placement over `brokers` (sorted ids) starting at `start`: partition `p` gets
/// brokers `start + p`, `start + p + 1`, ... (Kafka's rack-unaware assignment, simplified).
pub fn place_replicas(
    brokers: &[BrokerId],
    partition: u32,
    replication_factor: usize,
    start: usize,
) -> Replicas {
    let n = brokers.len();
    let ids: Vec<BrokerId> =
        (0..replication_factor).map(|j| brokers[(start + partition as usize + j) % n]).collect();
    Replicas::new(&ids)
}

/// A new partition: every replica in sync, led by the preferred (first) replica.
pub fn new_partition(topic_id: TopicId, partition: u32, replicas: Replicas) -> PartitionRecord {
    let leader = replicas.iter().next().map_or(NO_LEADER, |b| b as i32);
    let isr = super::record::broker_set(replicas.iter());
    PartitionRecord { topic_id, partition, replicas, isr, leader, leader_epoch: 0, partition_epoch: 0 }
}

/// The first replica, in preference order, that is in `isr` and `eligible`.
fn elect_leader(replicas: Replicas, isr: BrokerSet, eligible: BrokerSet, sabotage: MetadataSabotage) -> i32 {
    let allowed = if sabotage.leader_outside_isr { eligible } else { isr.intersection(eligible) };
    replicas.iter().find(|r| allowed.contains(broker_bit(*r))).map_or(NO_LEADER, |r| r as i32)
}

/// Take `broker` out of every ISR and leadership (fencing or controlled shutdown): a partition
/// it led moves to another ISR member, or goes offline; a partition whose ISR would become empty
/// keeps the broker as its last ISR member, as Kafka does.
pub fn move_away_from(
    image: &MetadataImage,
    broker: BrokerId,
    sabotage: MetadataSabotage,
) -> Vec<MetadataRecord> {
    let bit = broker_bit(broker);
    let eligible = image.active_brokers().without(bit);
    let mut records = Vec::new();
    for (topic_id, partition, p) in image.partitions() {
        if !p.isr.contains(bit) && p.leader != broker as i32 {
            continue;
        }
        let shrunk = p.isr.without(bit);
        let isr = if shrunk.is_empty() { p.isr } else { shrunk };
        let leader = if p.leader == broker as i32 && !sabotage.fence_keeps_leaders {
            elect_leader(p.replicas, isr, eligible, sabotage)
        } else {
            LEADER_UNCHANGED
        };
        if leader == LEADER_UNCHANGED && isr == p.isr {
            continue;
        }
        let isr = (isr != p.isr).then_some(isr);
        records.push(MetadataRecord::PartitionChange(PartitionChangeRecord {
            topic_id,
            partition,
            leader,
            isr,
        }));
    }
    records
}

/// Give leaderless partitions whose ISR holds `broker` a leader again once it is unfenced.
pub fn lead_offline_partitions(
    image: &MetadataImage,
    broker: BrokerId,
    sabotage: MetadataSabotage,
) -> Vec<MetadataRecord> {
    let bit = broker_bit(broker);
    let may_lead = |p: &super::partitions::Partition| {
        p.isr.contains(bit) || (sabotage.leader_outside_isr && p.replicas.set().contains(bit))
    };
    image
        .partitions()
        .filter(|(_, _, p)| p.leader == NO_LEADER && may_lead(p))
        .map(|(topic_id, partition, _)| {
            let change = PartitionChangeRecord { topic_id, partition, leader: broker as i32, isr: None };
            MetadataRecord::PartitionChange(change)
        })
        .collect()
}

/// Whether `new_isr` may replace the ISR of a partition (KIP-497 AlterPartition): it keeps the
/// leader, stays within the replicas, and every member is active: registered, unfenced and not
/// in controlled shutdown (`ReplicationControlManager.ineligibleReplicasForIsr`).
pub fn valid_isr_change(
    image: &MetadataImage,
    topic_id: TopicId,
    partition: u32,
    new_isr: BrokerSet,
) -> bool {
    let Some(p) = image.partition(topic_id, partition) else { return false };
    p.leader >= 0
        && new_isr.contains(broker_bit(p.leader as BrokerId))
        && new_isr.difference(p.replicas.set()).is_empty()
        && new_isr.difference(image.active_brokers()).is_empty()
}

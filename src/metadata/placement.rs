//! Partition leadership decisions the controller makes: replica placement for new topics and
//! the PartitionChangeRecords that fencing, controlled shutdown and unfencing require.

use super::config::MetadataSabotage;
use crate::util::broker_set::{BrokerId, BrokerSet};

use super::image::MetadataImage;
use super::partitions::Partition;
use super::record::{
    LEADER_UNCHANGED, MetadataRecord, NO_LEADER, PartitionChangeRecord, PartitionRecord, Replicas, TopicId,
    broker_bit, broker_ids,
};

/// Round-robin placement over `brokers` (sorted ids) starting at `start`: partition `p` gets
/// brokers `start + p`, `start + p + 1`, ... (Kafka's rack-unaware assignment, simplified).
pub(crate) fn place_replicas(
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
pub(crate) fn new_partition(topic_id: TopicId, partition: u32, replicas: Replicas) -> PartitionRecord {
    let leader = replicas.iter().next().map_or(NO_LEADER, |b| b as i32);
    let isr = super::record::broker_set(replicas.iter());
    PartitionRecord { topic_id, partition, replicas, isr, leader, leader_epoch: 0, partition_epoch: 0 }
}

/// Whether eligible leader replicas are on (`FeatureControlManager.isElrFeatureEnabled`: the
/// finalized `eligible.leader.replicas.version` is at least 1, as in a new 4.3 cluster) and the
/// effective `min.insync.replicas` (the cluster's, written at bootstrap; 1 by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ElrRules {
    enabled: bool,
    min_isr: u32,
}

impl ElrRules {
    fn of(image: &MetadataImage) -> ElrRules {
        let enabled =
            image.features().get("eligible.leader.replicas.version").is_some_and(|level| *level >= 1);
        let min_isr =
            image.config("cluster", "min.insync.replicas").and_then(|v| v.parse().ok()).unwrap_or(1);
        ElrRules { enabled, min_isr }
    }
}

/// The set of broker `id` alone.
fn only(id: BrokerId) -> BrokerSet {
    BrokerSet::EMPTY.with(broker_bit(id))
}

/// What one request asks of a partition (`ReplicationControlManager.generateLeaderAndIsrUpdates`):
/// the ISR it should have, which brokers may lead, and a broker that shut down uncleanly (out
/// of the ISR and the ELR, never leader).
#[derive(Clone, Copy, Debug)]
struct Target {
    isr: BrokerSet,
    acceptable: BrokerSet,
    unclean: BrokerSet,
}

/// Kafka 4.3.1's `PartitionChangeBuilder.build` for the changes this controller makes (an online
/// election, no reassignment, the last known leader used in a balanced recovery):
/// - `maybePopulateTargetElr`: an ISR of at least min ISR clears the ELR; a smaller one keeps
///   in the ELR whoever leaves the ISR (and was in the ELR), less an unclean shutdown.
/// - `electAnyLeader`: the current leader if still valid, else the first replica that is in
///   the target ISR, or in the ELR when the ISR is empty, and acceptable; else, with ISR and ELR
///   both empty, the single last known leader if acceptable (`canElectLastKnownLeader`, an
///   unclean election: the ISR becomes it alone); else no leader. A leader from the ELR leaves
///   it and becomes the ISR.
/// - the ISR may be written empty when the ELR is on; `maybeUpdateLastKnownLeader` records the
///   leader a partition had when it first goes leaderless, and clears it once it has a leader.
///
/// The leader recovery state of an unclean election (RECOVERING) is not modelled.
fn build_change(
    (topic_id, partition): (TopicId, u32),
    p: &Partition,
    target: Target,
    rules: ElrRules,
    sabotage: MetadataSabotage,
) -> Option<PartitionChangeRecord> {
    let mut isr = target.isr;
    let mut elr = p.elr;
    if rules.enabled {
        elr = if isr.len() >= rules.min_isr {
            BrokerSet::EMPTY
        } else {
            p.elr.union(p.isr).difference(isr).difference(target.unclean)
        };
    }
    let valid = |r: BrokerId, isr: BrokerSet, elr: BrokerSet| {
        let bit = broker_bit(r);
        (isr.contains(bit) || (isr.is_empty() && elr.contains(bit)) || sabotage.leader_outside_isr)
            && target.acceptable.contains(bit)
    };
    let current = (p.leader >= 0).then_some(p.leader as BrokerId);
    let (chosen, unclean) = match current.filter(|&l| valid(l, isr, elr)) {
        Some(leader) => (leader as i32, false),
        None => match p.replicas.iter().find(|&r| valid(r, isr, elr)) {
            Some(r) => (r as i32, false),
            None => {
                let last_known: Vec<BrokerId> = broker_ids(p.last_known_elr).collect();
                let recovers = rules.enabled
                    && elr.is_empty()
                    && isr.is_empty()
                    && last_known.len() == 1
                    && target.acceptable.contains(broker_bit(last_known[0]));
                if recovers { (last_known[0] as i32, true) } else { (NO_LEADER, false) }
            }
        },
    };
    let mut record = PartitionChangeRecord {
        topic_id,
        partition,
        leader: LEADER_UNCHANGED,
        isr: None,
        elr: None,
        last_known_elr: None,
    };
    if chosen != p.leader && !sabotage.fence_keeps_leaders {
        if chosen >= 0 && elr.contains(broker_bit(chosen as BrokerId)) {
            isr = only(chosen as BrokerId);
            elr = elr.without(broker_bit(chosen as BrokerId));
        }
        record.leader = chosen;
        if unclean {
            record.isr = Some(only(chosen as BrokerId));
        }
    }
    // `maybeUpdateRecordElr`: an unclean election (or ELR off) clears the ELR.
    if record.isr.is_some() || !rules.enabled {
        elr = BrokerSet::EMPTY;
    }
    if elr != p.elr {
        record.elr = Some(elr);
    }
    if record.isr.is_none() && (!isr.is_empty() || rules.enabled) && isr != p.isr {
        record.isr = Some(isr);
    }
    if rules.enabled {
        if record.leader == NO_LEADER && p.last_known_elr.is_empty() {
            record.last_known_elr = Some(only(p.leader as BrokerId));
        } else if record.leader >= 0 && !p.last_known_elr.is_empty() {
            record.last_known_elr = Some(BrokerSet::EMPTY);
        }
    }
    let unchanged = record.leader == LEADER_UNCHANGED
        && record.isr.is_none()
        && record.elr.is_none()
        && record.last_known_elr.is_none();
    (!unchanged).then_some(record)
}

/// Take `broker` out of every ISR and leadership (fencing or controlled shutdown:
/// `handleBrokerFenced`, `enterControlledShutdown`): a partition it led moves to another ISR
/// member, or goes offline. When it was the last ISR member, with ELR on the ISR is written
/// empty and the broker stays eligible in the ELR; with ELR off it stays the last ISR member.
pub(crate) fn move_away_from(
    image: &MetadataImage,
    broker: BrokerId,
    sabotage: MetadataSabotage,
) -> Vec<MetadataRecord> {
    let bit = broker_bit(broker);
    let (rules, active) = (ElrRules::of(image), image.active_brokers());
    let target = |p: &Partition| Target {
        isr: p.isr.without(bit),
        acceptable: active.without(bit),
        unclean: BrokerSet::EMPTY,
    };
    image
        .partitions()
        .filter(|(_, _, p)| p.isr.contains(bit) || p.leader == broker as i32)
        .filter_map(|(t, i, p)| build_change((t, i), &p, target(&p), rules, sabotage))
        .map(MetadataRecord::PartitionChange)
        .collect()
}

/// Give leaderless partitions a leader again now that `broker` is unfenced
/// (`handleBrokerUnfenced` over `partitionsWithNoLeader`): from the ISR, from the ELR when the
/// ISR is empty, or the last known leader in a balanced recovery.
pub(crate) fn lead_offline_partitions(
    image: &MetadataImage,
    broker: BrokerId,
    sabotage: MetadataSabotage,
) -> Vec<MetadataRecord> {
    let (rules, acceptable) = (ElrRules::of(image), image.active_brokers().with(broker_bit(broker)));
    image
        .partitions()
        .filter(|(_, _, p)| p.leader == NO_LEADER)
        .filter_map(|(t, i, p)| {
            build_change(
                (t, i),
                &p,
                Target { isr: p.isr, acceptable, unclean: BrokerSet::EMPTY },
                rules,
                sabotage,
            )
        })
        .map(MetadataRecord::PartitionChange)
        .collect()
}

/// The records for the old incarnation of `broker` when a new one registers
/// (`ReplicationControlManager.handleBrokerShutdown`): after a clean shutdown, or with ELR off,
/// as a fencing; after an unclean one, with ELR on, it may have lost data, so it leaves every
/// ISR and ELR and leads nothing.
pub(crate) fn records_for_shutdown(
    image: &MetadataImage,
    broker: BrokerId,
    clean: bool,
    sabotage: MetadataSabotage,
) -> Vec<MetadataRecord> {
    let (rules, active) = (ElrRules::of(image), image.active_brokers());
    if clean || !rules.enabled {
        return move_away_from(image, broker, sabotage);
    }
    let bit = broker_bit(broker);
    let target = |p: &Partition| Target {
        isr: p.isr.without(bit),
        acceptable: active.without(bit),
        unclean: only(broker),
    };
    image
        .partitions()
        .filter(|(_, _, p)| p.isr.contains(bit) || p.elr.contains(bit))
        .filter_map(|(t, i, p)| build_change((t, i), &p, target(&p), rules, sabotage))
        .map(MetadataRecord::PartitionChange)
        .collect()
}

/// Whether `new_isr` may replace the ISR of a partition (KIP-497 AlterPartition): it keeps the
/// leader, stays within the replicas, and every member is active: registered, unfenced and not
/// in controlled shutdown (`ReplicationControlManager.ineligibleReplicasForIsr`).
pub(crate) fn valid_isr_change(
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

//! A synthetic metadata snapshot of any size: registered brokers and topics of up to 1,000
//! partitions each, for the failover experiment and the image benchmarks.

use std::sync::Arc;

use super::placement::{new_partition, place_replicas};
use super::record::{FIRST_BROKER_ID, MetadataRecord};
use crate::util::broker_set::BrokerId;

/// Partitions per synthetic topic.
pub const PARTITIONS_PER_TOPIC: u64 = 1_000;

use super::bootstrap;
use super::broker::incarnation;

/// The ids of `brokers` dedicated brokers.
pub fn dedicated_brokers(brokers: u32) -> Vec<BrokerId> {
    (0..brokers).map(|i| FIRST_BROKER_ID + i).collect()
}

/// The records of a snapshot holding the unfenced brokers `ids` and `partitions` partitions with
/// replication factor `min(3, brokers)`, in replay order.
pub fn snapshot_records(partitions: u64, ids: &[BrokerId]) -> impl Iterator<Item = MetadataRecord> + use<> {
    let ids = ids.to_vec();
    let rf = ids.len().min(3);
    let registrations = ids.clone().into_iter().flat_map(|broker_id| {
        [
            MetadataRecord::RegisterBroker {
                broker_id,
                broker_epoch: 0,
                incarnation: incarnation(broker_id, 0),
                fenced: true,
                in_controlled_shutdown: false,
            },
            MetadataRecord::UnfenceBroker { broker_id, broker_epoch: 0 },
        ]
    });
    let topics = partitions.div_ceil(PARTITIONS_PER_TOPIC);
    let topic_records = (0..topics).flat_map(move |t| {
        let topic_id = t as u32 + 1;
        let count = PARTITIONS_PER_TOPIC.min(partitions - t * PARTITIONS_PER_TOPIC) as u32;
        let ids = ids.clone();
        let topic = MetadataRecord::Topic { name: Arc::from(format!("topic-{topic_id}")), topic_id };
        std::iter::once(topic).chain((0..count).map(move |partition| {
            let replicas = place_replicas(&ids, partition, rf, topic_id as usize);
            MetadataRecord::Partition(new_partition(topic_id, partition, replicas))
        }))
    });
    let features = std::iter::once(("metadata.version", bootstrap::METADATA_VERSION))
        .chain(bootstrap::FEATURES)
        .map(|(name, level)| MetadataRecord::FeatureLevel { name: Arc::from(name), level });
    features.chain(registrations).chain(topic_records)
}

/// How many records [`snapshot_records`] yields.
pub(crate) fn snapshot_record_count(partitions: u64, brokers: u32) -> u64 {
    1 + bootstrap::FEATURES.len() as u64
        + 2 * u64::from(brokers)
        + partitions.div_ceil(PARTITIONS_PER_TOPIC)
        + partitions
}

#[cfg(test)]
mod tests {
    use super::{dedicated_brokers, snapshot_record_count, snapshot_records};

    #[test]
    fn the_record_count_is_exact() {
        for (partitions, brokers) in [(1, 1), (999, 3), (1_000, 5), (2_501, 4)] {
            assert_eq!(
                snapshot_records(partitions, &dedicated_brokers(brokers)).count() as u64,
                snapshot_record_count(partitions, brokers)
            );
        }
    }
}

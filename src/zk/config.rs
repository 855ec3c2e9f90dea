//! The shape of a simulated ZooKeeper-mode cluster (brokers, topics, replication, costs) and the
//! errors a caller can get back for a shape the simulation cannot run.

use std::fmt;

use super::costs::ZkCosts;
use super::partition::MAX_BROKERS;
use super::path::TopicLayout;
use super::store::ZkError;
use crate::harness::Micros;

/// Partitions per controller step: the cold load, the state-znode writes and the push are
/// processed in chunks of this many partitions, one simulated event per chunk.
pub const DEFAULT_CHUNK_PARTITIONS: u32 = 5_000;

/// Largest cluster the simulation accepts (memory grows with partitions x brokers).
pub const MAX_PARTITIONS: u64 = 20_000_000;

/// A ZooKeeper-mode cluster to simulate.
#[derive(Clone, Debug, PartialEq)]
pub struct ZkClusterConfig {
    /// Number of brokers, ids `0..brokers`.
    pub brokers: u32,
    pub partitions: u32,
    /// Partitions in every topic but the last, which holds the rest.
    pub partitions_per_topic: u32,
    pub replication_factor: u32,
    pub costs: ZkCosts,
    /// Partitions handled per simulated controller event.
    pub chunk_partitions: u32,
}

impl ZkClusterConfig {
    /// `partitions` single-partition topics (the layout of Kafka PR #3765's measurement) with
    /// replication factor `min(3, brokers)`.
    pub fn single_partition_topics(partitions: u32, brokers: u32, costs: ZkCosts) -> Self {
        ZkClusterConfig::topics_of(partitions, 1, brokers, costs)
    }

    /// `partitions` partitions in topics of `partitions_per_topic` (the last holding the rest)
    /// with replication factor `min(3, brokers)`.
    pub fn topics_of(partitions: u32, partitions_per_topic: u32, brokers: u32, costs: ZkCosts) -> Self {
        ZkClusterConfig {
            brokers,
            partitions,
            partitions_per_topic,
            replication_factor: brokers.min(3),
            costs,
            chunk_partitions: DEFAULT_CHUNK_PARTITIONS,
        }
    }

    /// Checks the shape and returns its topic layout.
    pub(crate) fn validate(&self) -> Result<TopicLayout, ZkClusterError> {
        if self.brokers == 0 || self.brokers > MAX_BROKERS {
            return Err(ZkClusterError::BrokerCount(self.brokers));
        }
        if self.replication_factor == 0 || self.replication_factor > self.brokers {
            return Err(ZkClusterError::ReplicationFactor {
                replication_factor: self.replication_factor,
                brokers: self.brokers,
            });
        }
        if self.chunk_partitions == 0 {
            return Err(ZkClusterError::ZeroChunk);
        }
        let partitions = u64::from(self.partitions);
        TopicLayout::up_to(self.partitions, self.partitions_per_topic)
            .filter(|_| partitions <= MAX_PARTITIONS)
            .ok_or(ZkClusterError::PartitionCount(partitions))
    }
}

/// Why a cluster could not be built or a run could not finish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ZkClusterError {
    /// Brokers must be `1..=32`.
    BrokerCount(u32),
    /// The replication factor must be `1..=brokers`.
    ReplicationFactor { replication_factor: u32, brokers: u32 },
    /// Partitions must be at most [`MAX_PARTITIONS`] and topics need at least one partition.
    PartitionCount(u64),
    /// `chunk_partitions` must be positive.
    ZeroChunk,
    /// No broker has this id.
    UnknownBroker(u32),
    /// [`ZkClusterBuilder::finish`](super::ZkClusterBuilder::finish) was called after only
    /// `built` of the `total` partitions had been built.
    Unfinished { built: u64, total: u64 },
    /// The failover did not complete by this virtual time.
    FailoverStalled { at: Micros },
    /// The ensemble refused a request while the cluster was being set up.
    ZooKeeper(ZkError),
}

impl fmt::Display for ZkClusterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ZkClusterError::BrokerCount(n) => {
                write!(f, "{n} brokers: a cluster needs 1 to {MAX_BROKERS} brokers")
            }
            ZkClusterError::ReplicationFactor { replication_factor, brokers } => write!(
                f,
                "replication factor {replication_factor} must be between 1 and the {brokers} brokers"
            ),
            ZkClusterError::PartitionCount(n) => write!(
                f,
                "{n} partitions: need at least one partition per topic and at most {MAX_PARTITIONS}"
            ),
            ZkClusterError::ZeroChunk => write!(f, "chunk_partitions must be at least 1"),
            ZkClusterError::UnknownBroker(id) => write!(f, "no broker with id {id}"),
            ZkClusterError::Unfinished { built, total } => {
                write!(f, "the cluster is not built yet: {built} of {total} partitions")
            }
            ZkClusterError::FailoverStalled { at } => {
                write!(f, "the failover had not completed at t={at}us")
            }
            ZkClusterError::ZooKeeper(e) => write!(f, "ZooKeeper refused the setup: {e}"),
        }
    }
}

impl std::error::Error for ZkClusterError {}

impl From<ZkError> for ZkClusterError {
    fn from(e: ZkError) -> Self {
        ZkClusterError::ZooKeeper(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_shapes_the_simulation_cannot_run() {
        let ok = ZkClusterConfig::single_partition_topics(10, 3, ZkCosts::async_reads());
        assert!(ok.validate().is_ok());
        let none = ZkClusterConfig { brokers: 0, ..ok.clone() };
        assert_eq!(none.validate(), Err(ZkClusterError::BrokerCount(0)));
        let rf = ZkClusterConfig { replication_factor: 4, ..ok.clone() };
        assert!(matches!(rf.validate(), Err(ZkClusterError::ReplicationFactor { .. })));
        let huge = ZkClusterConfig { partitions: u32::MAX, ..ok };
        assert!(matches!(huge.validate(), Err(ZkClusterError::PartitionCount(_))));
    }
}

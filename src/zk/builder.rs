//! Building a [`ZkCluster`] a slice at a time: the initial partition states are the only work
//! that grows with the cluster, so a caller with a frame budget (the browser's main thread) can
//! build millions of partitions over many short calls and get the same cluster as
//! [`ZkCluster::new`].

use super::cluster::{FIRST_EPOCH, ZkCluster};
use super::column::ColumnBuilder;
use super::config::{ZkClusterConfig, ZkClusterError};
use super::partition::{PartitionState, ReplicaAssignment};
use super::path::TopicLayout;
use crate::util::rng::Rng;

/// A [`ZkCluster`] under construction: call [`step`](Self::step) until
/// [`is_done`](Self::is_done), then [`finish`](Self::finish).
#[derive(Clone)]
pub struct ZkClusterBuilder {
    config: ZkClusterConfig,
    layout: TopicLayout,
    assignment: ReplicaAssignment,
    rng: Rng,
    initial: ColumnBuilder<PartitionState>,
}

impl ZkClusterBuilder {
    /// Checks `config` and draws the replica placement from `seed`; builds no partitions yet.
    pub(crate) fn new(config: ZkClusterConfig, seed: u64) -> Result<Self, ZkClusterError> {
        let layout = config.validate()?;
        let mut rng = Rng::new(seed);
        let start = rng.below(u64::from(config.brokers)) as u32;
        let assignment = ReplicaAssignment::new(config.brokers, config.replication_factor, start);
        Ok(ZkClusterBuilder { config, layout, assignment, rng, initial: ColumnBuilder::new() })
    }

    /// Builds the initial state of at most `budget_partitions` more partitions; returns how many
    /// are built and the total.
    pub(crate) fn step(&mut self, budget_partitions: u64) -> (u64, u64) {
        let (built, total) = self.progress();
        let end = built.saturating_add(budget_partitions).min(total);
        for partition in built..end {
            self.initial.push(self.assignment.initial_state(partition as u32, FIRST_EPOCH));
        }
        self.progress()
    }

    /// Whether every partition is built, so [`finish`](Self::finish) will succeed.
    pub fn is_done(&self) -> bool {
        let (built, total) = self.progress();
        built == total
    }

    /// The cluster, once every partition is built: registers the brokers and the controller
    /// (cheap, independent of the partition count).
    pub(crate) fn finish(self) -> Result<ZkCluster, ZkClusterError> {
        let (built, total) = self.progress();
        if built < total {
            return Err(ZkClusterError::Unfinished { built, total });
        }
        let initial = self.initial.finish();
        ZkCluster::assemble(self.config, self.layout, self.assignment, self.rng, initial)
    }

    pub(crate) fn progress(&self) -> (u64, u64) {
        (self.initial.len() as u64, u64::from(self.layout.partitions()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::zk::ZkCosts;

    fn config() -> ZkClusterConfig {
        ZkClusterConfig::single_partition_topics(10_000, 4, ZkCosts::async_reads())
    }

    #[test]
    fn steps_stay_within_their_budget_and_report_progress() {
        let mut builder = ZkClusterBuilder::new(config(), 1).expect("valid config");
        assert_eq!(builder.step(0), (0, 10_000));
        assert_eq!(builder.step(3_000), (3_000, 10_000));
        assert!(!builder.is_done());
        assert_eq!(builder.step(u64::MAX), (10_000, 10_000));
        assert!(builder.is_done());
        assert!(builder.finish().is_ok());
    }

    #[test]
    fn finishing_early_is_an_error() {
        let mut builder = ZkClusterBuilder::new(config(), 1).expect("valid config");
        builder.step(9_999);
        let early = builder.finish().err();
        assert_eq!(early, Some(ZkClusterError::Unfinished { built: 9_999, total: 10_000 }));
    }

    #[test]
    fn rejects_an_invalid_config_up_front() {
        let config = ZkClusterConfig { brokers: 0, ..config() };
        assert_eq!(ZkClusterBuilder::new(config, 1).err(), Some(ZkClusterError::BrokerCount(0)));
    }
}

//! The three copies of the truth in ZooKeeper mode (ZooKeeper, controller memory, each broker's
//! cache) compared partition by partition, and the two notions of broker liveness side by side.

use super::broker::BrokerLiveness;
use super::cluster::ZkCluster;
use super::config::ZkClusterError;
use super::partition::{BrokerId, PartitionState};
use super::path::ZnodePath;

/// A partition whose copies of the truth disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// Global partition index.
    pub partition: u32,
    /// What the state znode says.
    pub zookeeper: PartitionState,
    /// What the controller holds, if a controller with fully loaded memory exists.
    pub controller: Option<PartitionState>,
    /// Running brokers whose cache disagrees with ZooKeeper, with what they believe.
    pub stale_brokers: Vec<(BrokerId, PartitionState)>,
}

impl ZkCluster {
    /// Every partition where ZooKeeper, controller memory and the running brokers' caches do
    /// not all agree (expected while a change is in flight; lasting after a lost request).
    pub fn divergences(&self) -> Vec<Divergence> {
        (0..self.layout.partitions()).filter_map(|p| self.divergence(p)).collect()
    }

    fn divergence(&self, partition: u32) -> Option<Divergence> {
        let zookeeper = self.zookeeper_state(partition)?;
        let controller =
            self.controller.as_ref().filter(|c| c.loaded()).map(|c| c.memory[partition as usize]);
        let stale_brokers: Vec<(BrokerId, PartitionState)> = self
            .brokers
            .iter()
            .filter(|b| b.alive && b.cache[partition as usize] != zookeeper)
            .map(|b| (b.id, b.cache[partition as usize]))
            .collect();
        let controller_agrees = controller.is_none_or(|c| c == zookeeper);
        (!controller_agrees || !stale_brokers.is_empty()).then_some(Divergence {
            partition,
            zookeeper,
            controller,
            stale_brokers,
        })
    }

    /// What the active controller holds for `partition`, once its memory is loaded.
    pub(crate) fn controller_state(&self, partition: u32) -> Option<PartitionState> {
        self.controller
            .as_ref()
            .filter(|c| c.loaded())
            .and_then(|c| c.memory.get(partition as usize).copied())
    }

    /// What `partition`'s state znode says.
    pub(crate) fn zookeeper_state(&self, partition: u32) -> Option<PartitionState> {
        let path: ZnodePath = self.layout.state_path(partition);
        self.store.inspect(path)?.partition_state()
    }

    /// What `broker` answers a client's MetadataRequest about `partition` with, from its cache.
    pub(crate) fn metadata_for(&self, broker: BrokerId, partition: u32) -> Option<PartitionState> {
        let broker = self.brokers.get(broker as usize).filter(|b| b.alive)?;
        broker.cache.get(partition as usize).copied()
    }

    /// Whether `broker` is alive according to its process, ZooKeeper and the controller.
    pub fn liveness(&self, broker: BrokerId) -> Result<BrokerLiveness, ZkClusterError> {
        let b = self.brokers.get(broker as usize).ok_or(ZkClusterError::UnknownBroker(broker))?;
        Ok(BrokerLiveness {
            broker,
            process_alive: b.alive,
            registered_in_zookeeper: self.store.inspect(ZnodePath::BrokerId(broker)).is_some(),
            in_controller_live_set: self.controller.as_ref().is_some_and(|c| c.live.contains(broker)),
            reachable_from_controller: b.reachable_from_controller,
        })
    }
}

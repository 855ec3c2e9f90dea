//! The metadata layer's settings, named after Kafka's broker and controller configs.

use crate::harness::{MS, Micros};

/// Heartbeats and sessions of brokers.
#[derive(Clone, Debug, PartialEq)]
pub struct MetadataConfig {
    /// `broker.heartbeat.interval.ms` (default 2000).
    pub heartbeat_interval: Micros,
    /// `broker.session.timeout.ms` (default 9000): a broker without heartbeats this long is fenced.
    pub session_timeout: Micros,
    /// The most partitions one CreateTopics may create in the live simulation.
    pub max_partitions_per_topic: u32,
    /// `metadata.max.idle.interval.ms` (default 500, KIP-835): the active controller appends a
    /// NoOpRecord this often (0: never).
    pub max_idle_interval: Micros,
    /// Deliberate bugs, for proving that the invariant checkers catch them.
    pub sabotage: MetadataSabotage,
}

/// Bugs in the controller that can be switched on to show that the invariant checkers are able
/// to fail (the crate's `sabotage` module names them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MetadataSabotage {
    /// The controller fences a broker without moving its partitions' leadership away.
    pub fence_keeps_leaders: bool,
    /// The controller elects leaders among live replicas whether or not they are in the ISR.
    pub leader_outside_isr: bool,
    /// The fencing record names a broker id that never registered.
    pub fence_unregistered_broker: bool,
    /// A new partition's ISR holds every active broker, replicas or not.
    pub isr_beyond_replicas: bool,
}

impl Default for MetadataConfig {
    fn default() -> Self {
        MetadataConfig {
            heartbeat_interval: 2000 * MS,
            session_timeout: 9000 * MS,
            max_partitions_per_topic: 100_000,
            max_idle_interval: 500 * MS,
            sabotage: MetadataSabotage::default(),
        }
    }
}

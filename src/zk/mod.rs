//! ZooKeeper mode, the baseline kraftscope compares KRaft against: a znode store with sessions and
//! one-shot watches, a controller that cold-loads all partition state on failover and pushes it to
//! every broker, and the three copies of the truth (ZooKeeper, controller, broker caches).

pub mod acl;
pub mod broker;
pub mod builder;
pub mod cluster;
pub mod column;
pub mod config;
mod controller;
pub mod costs;
pub mod divergence;
pub mod failover;
mod isr;
pub mod pains;
pub mod partition;
pub mod path;
pub mod picture;
mod push;
pub mod store;
pub mod trace;

pub use acl::{AclCache, ZkAcl};
pub use broker::BrokerLiveness;
pub use builder::ZkClusterBuilder;
pub use cluster::{RequestCounters, ZkCluster};
pub use column::{ColumnBuilder, SharedColumn};
pub use config::{ZkClusterConfig, ZkClusterError};
pub use controller::StateChange;
pub use costs::{MILESTONE_SPEED, ZkCosts};
pub use divergence::Divergence;
pub use failover::{FailoverPhase, ZkFailoverReport, measure_failover, measure_failover_of};
pub use pains::{CopyRow, Pain, copies};
pub use partition::{BrokerId, BrokerSet, PartitionState, ReplicaAssignment};
pub use path::{TopicLayout, ZnodePath};
pub use picture::{
    Endpoint, PartitionGrid, ZkBrokerPicture, ZkClientPicture, ZkMessage, ZkMessageKind, ZkPicture,
    ZnodePanel,
};
pub use store::{
    SessionId, SessionStatus, WatchEvent, WatchFired, ZkError, ZkOp, ZkRequestKind, ZkStats, ZkStore, Znode,
    ZnodeData,
};
pub use trace::{TraceKind, TraceLine};

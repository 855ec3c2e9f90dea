//! The KRaft quorum (KIP-595 with pre-vote, KIP-996, and snapshots, KIP-630) as a pure,
//! deterministic state machine per node: no network, disk, clock or global randomness inside.

pub mod applied;
pub mod config;
pub mod disk;
mod election;
pub mod entries;
pub mod error;
mod follower;
pub mod leader;
pub mod log;
pub mod message;
pub mod node;
pub mod outbox;
pub mod reconfig;
pub mod record;
pub mod requests;
pub mod role;
pub mod snapshot;
pub mod state_machine;
pub mod voters;

/// A node id (Kafka's `node.id`).
pub type NodeId = u32;
/// A leader epoch (Raft's term).
pub type Epoch = u32;
/// A log offset.
pub type Offset = u64;

pub use config::{QuorumConfig, QuorumSabotage};
pub use error::QuorumError;
pub use message::{Envelope, Message};
pub use node::Node;
pub use outbox::{Note, NoteKind, Outbox};
pub use record::Record;
pub use role::RoleKind;
pub use state_machine::{Payload, StateMachine};

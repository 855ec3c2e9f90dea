//! The protocol errors a node refuses to go past (Kafka throws and the process exits); the node
//! records the first one and the invariant checkers report it.

use std::fmt;

use super::role::RoleKind;
use super::snapshot::SnapshotId;
use super::{Epoch, NodeId, Offset};

/// A protocol error seen by one node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuorumError {
    /// A second leader announced itself for an epoch whose leader this node already follows
    /// (`KafkaRaftClient.handleBeginQuorumEpochRequest` via `QuorumState.transitionToFollower`).
    ConflictingLeaders { epoch: Epoch, known: NodeId, other: NodeId },
    /// A DivergingEpoch answer asked to truncate below the high watermark
    /// (`KafkaRaftClient.handleFetchResponse`: "Attempt to truncate below the high watermark").
    TruncationBelowHighWatermark { to: Offset, high_watermark: Offset },
    /// A fetched snapshot is older than what the node has already applied.
    StaleSnapshot { snapshot: SnapshotId, applied: Offset },
    /// A message or timer asked for a role change `QuorumState` forbids.
    IllegalTransition { from: RoleKind, from_epoch: Epoch, to: RoleKind, to_epoch: Epoch },
}

impl fmt::Display for QuorumError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QuorumError::ConflictingLeaders { epoch, known, other } => {
                write!(f, "n{other} and n{known} both announced themselves for epoch {epoch}")
            }
            QuorumError::TruncationBelowHighWatermark { to, high_watermark } => {
                write!(f, "asked to truncate to {to}, below its high watermark {high_watermark}; refused")
            }
            QuorumError::StaleSnapshot { snapshot, applied } => {
                write!(f, "offered snapshot {snapshot}, older than its applied offset {applied}")
            }
            QuorumError::IllegalTransition { from, from_epoch, to, to_epoch } => {
                write!(f, "illegal transition {from}(epoch {from_epoch}) -> {to}(epoch {to_epoch})")
            }
        }
    }
}

impl std::error::Error for QuorumError {}

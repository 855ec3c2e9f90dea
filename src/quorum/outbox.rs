//! What a node hands back after each input: messages to send and notable changes for the
//! trace. The node itself never touches a network or a clock.

use std::fmt;

use super::message::{Envelope, Message};
use super::reconfig::{ChangeKind, ChangeStep, ReconfigError, VoterUpdate};
use super::role::RoleKind;
use super::snapshot::SnapshotId;
use super::state_machine::StateMachine;
use super::voters::{KRaftVersion, ReplicaKey};
use super::{Epoch, NodeId, Offset};

/// Outputs of one step of a node, in the order they happened.
#[derive(Clone, Debug)]
pub struct Outbox<S: StateMachine> {
    pub sends: Vec<Envelope<S>>,
    pub notes: Vec<Note>,
}

impl<S: StateMachine> Default for Outbox<S> {
    fn default() -> Self {
        Outbox { sends: Vec::new(), notes: Vec::new() }
    }
}

impl<S: StateMachine> Outbox<S> {
    /// Queue `message` from `from` to `to`, with its correlation id.
    pub(crate) fn send(&mut self, from: NodeId, to: NodeId, message: Message<S>, correlation: u64) {
        self.sends.push(Envelope { from, to, message, correlation });
    }

    /// Record a notable change of node `node`.
    pub(crate) fn note(&mut self, node: NodeId, what: NoteKind) {
        self.notes.push(Note { node, what });
    }
}

/// A notable change of one node.
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    pub node: NodeId,
    pub what: NoteKind,
}

/// The kinds of notable change the trace reports.
#[derive(Clone, Debug, PartialEq)]
pub enum NoteKind {
    Became {
        role: RoleKind,
        epoch: Epoch,
        leader: Option<NodeId>,
    },
    VoteGranted {
        candidate: NodeId,
        epoch: Epoch,
        pre_vote: bool,
    },
    Appended {
        records: usize,
        /// The kind of the first record appended.
        first: &'static str,
        end_offset: Offset,
    },
    HighWatermark(Offset),
    Truncated {
        to: Offset,
        epoch: Epoch,
        leader_end: Offset,
    },
    SnapshotTaken(SnapshotId),
    /// The log cleaner moved the log start up to a snapshot.
    LogStartMoved(Offset),
    SnapshotLoaded(SnapshotId),
    Resigned {
        reason: &'static str,
    },
    /// The leader moved an AddRaftVoter or RemoveRaftVoter on.
    VoterChange {
        kind: ChangeKind,
        voter: ReplicaKey,
        step: ChangeStep,
    },
    /// The leader answered a voter's UpdateRaftVoter.
    VoterUpdated {
        voter: ReplicaKey,
        answer: Result<VoterUpdate, ReconfigError>,
    },
    /// The leader carried out `kafka-features upgrade --feature kraft.version=1`.
    KRaftVersionUpgrade {
        step: UpgradeStep,
    },
}

/// What an upgrade of kraft.version did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UpgradeStep {
    /// The log already holds this version: nothing to write.
    AlreadyAt(KRaftVersion),
    /// KRaftVersionRecord and VotersRecord appended as one batch at this offset.
    Appended(Offset),
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.node;
        match &self.what {
            NoteKind::Became { role, epoch, leader: Some(l) } if *role == RoleKind::Follower => {
                write!(f, "n{n} became Follower of n{l} at epoch {epoch}")
            }
            NoteKind::Became { role, epoch, .. } => {
                write!(f, "n{n} became {role} at epoch {epoch}")
            }
            NoteKind::VoteGranted { candidate, epoch, pre_vote } => {
                let kind = if *pre_vote { "pre-vote" } else { "vote" };
                write!(f, "n{n} granted {kind} to n{candidate} for epoch {epoch}")
            }
            NoteKind::Appended { records, first, end_offset } => {
                let a = if first.starts_with(['A', 'E', 'I', 'O', 'U']) { "an" } else { "a" };
                match records {
                    1 => write!(f, "n{n} appended {a} {first}, log end {end_offset}"),
                    _ => write!(f, "n{n} appended {records} records from {a} {first}, log end {end_offset}"),
                }
            }
            NoteKind::HighWatermark(hw) => write!(f, "n{n} high watermark -> {hw}"),
            NoteKind::Truncated { to, epoch, leader_end } => write!(
                f,
                "n{n} truncated its log to {to} (DivergingEpoch: epoch {epoch} ends at {leader_end} on the leader)"
            ),
            NoteKind::SnapshotTaken(id) => write!(f, "n{n} took snapshot {}", id.file_name()),
            NoteKind::LogStartMoved(start) => write!(f, "n{n} log cleaner moved the log start to {start}"),
            NoteKind::SnapshotLoaded(id) => write!(f, "n{n} loaded snapshot {}", id.file_name()),
            NoteKind::Resigned { reason } => write!(f, "n{n} resigned ({reason})"),
            NoteKind::VoterChange { kind, voter, step } => {
                let rpc = kind.rpc();
                match step {
                    ChangeStep::AskedVersions => write!(f, "n{n} {rpc} {voter}: ApiVersions sent"),
                    ChangeStep::Appended(offset) => {
                        write!(
                            f,
                            "n{n} {rpc} {voter}: VotersRecord at offset {offset}, pending until committed"
                        )
                    }
                    ChangeStep::Committed => write!(f, "n{n} {rpc} {voter}: committed, answered NONE"),
                    ChangeStep::Failed(error) => write!(f, "n{n} {rpc} {voter}: answered {error}"),
                }
            }
            NoteKind::VoterUpdated { voter, answer } => match answer {
                Ok(VoterUpdate::InMemory) => {
                    write!(f, "n{n} UpdateRaftVoter {voter}: kept in memory (kraft.version 0), answered NONE")
                }
                Ok(VoterUpdate::Appended(offset)) => {
                    write!(f, "n{n} UpdateRaftVoter {voter}: VotersRecord at offset {offset}, answered NONE")
                }
                Err(error) => write!(f, "n{n} UpdateRaftVoter {voter}: answered {error}"),
            },
            NoteKind::KRaftVersionUpgrade { step: UpgradeStep::AlreadyAt(version) } => {
                write!(f, "n{n} kraft.version is already {version}: nothing to upgrade")
            }
            NoteKind::KRaftVersionUpgrade { step: UpgradeStep::Appended(offset) } => write!(
                f,
                "n{n} upgraded kraft.version to 1: KRaftVersionRecord at offset {offset}, the first VotersRecord at {}",
                offset + 1
            ),
        }
    }
}

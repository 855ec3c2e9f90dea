//! The moment a tour step is about: an event of the trace that the step opens a few seconds
//! before and plays at a followable pace, so the viewer sees it happen.

use crate::quorum::outbox::NoteKind;
use crate::quorum::reconfig::ChangeStep;
use crate::quorum::{NodeId, RoleKind};
use crate::sim::{TraceKind, TraceLine};

/// An event of the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyMoment {
    /// A controller becomes the leader at this epoch or a later one.
    Leader { from_epoch: u32 },
    /// A node enters this epoch or a later one.
    Epoch { from: u32 },
    /// A node takes on a role.
    Role { node: NodeId, role: RoleKind },
    /// A node truncates its log after a DivergingEpoch.
    Truncated,
    /// A node appends a batch (that starts with this kind of record, if given).
    Appended { node: NodeId, first: Option<&'static str> },
    /// A message of this kind reaches a node.
    Message { to: NodeId, kind: &'static str },
    /// Any node takes on a role.
    AnyRole(RoleKind),
    /// The active controller's AddRaftVoter or RemoveRaftVoter commits.
    VotersCommitted,
    /// A leader resigns.
    Resigned,
}

impl KeyMoment {
    /// Whether `line` is this moment.
    pub(crate) fn matches(&self, line: &TraceLine) -> bool {
        let note = match (*self, &line.kind) {
            (_, TraceKind::Note(note)) => note,
            (KeyMoment::Message { to, kind }, TraceKind::Deliver(packet, _)) => {
                return packet.to == to && packet.payload.kind() == kind;
            }
            _ => return false,
        };
        match (*self, &note.what) {
            (KeyMoment::Leader { from_epoch }, NoteKind::Became { role: RoleKind::Leader, epoch, .. }) => {
                *epoch >= from_epoch
            }
            (KeyMoment::Epoch { from }, NoteKind::Became { epoch, .. }) => *epoch >= from,
            (KeyMoment::Role { node, role }, NoteKind::Became { role: r, .. }) => {
                note.node == node && *r == role
            }
            (KeyMoment::Truncated, NoteKind::Truncated { .. }) => true,
            (KeyMoment::AnyRole(role), NoteKind::Became { role: r, .. }) => *r == role,
            (KeyMoment::VotersCommitted, NoteKind::VoterChange { step: ChangeStep::Committed, .. }) => true,
            (KeyMoment::Resigned, NoteKind::Resigned { .. }) => true,
            (KeyMoment::Appended { node, first }, NoteKind::Appended { first: f, .. }) => {
                note.node == node && first.is_none_or(|first| *f == first)
            }
            _ => false,
        }
    }
}

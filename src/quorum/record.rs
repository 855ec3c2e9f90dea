//! What the quorum's log carries: the control records the quorum writes itself (LeaderChange,
//! and for a dynamic quorum KRaftVersion and Voters) and opaque entries of the state machine
//! above it.

use std::fmt;
use std::sync::Arc;

use super::NodeId;
use super::state_machine::Payload;
use super::voters::{KRaftVersion, VoterSet};
use crate::util::hash::mix;

/// The body of a LeaderChange control record.
#[derive(Clone, Debug, PartialEq)]
pub struct LeaderChange {
    pub leader: NodeId,
    pub voters: Arc<[NodeId]>,
    pub granting: Arc<[NodeId]>,
}

/// One record of the replicated log.
#[derive(Clone, Debug, PartialEq)]
pub enum Record<P> {
    /// The control record a new leader appends at the start of its epoch (KIP-595); once it is
    /// on a majority the high watermark can move into the new epoch.
    LeaderChange(Arc<LeaderChange>),
    /// `KRaftVersionRecord` (control type 5): the `kraft.version` from this offset on.
    KRaftVersion(KRaftVersion),
    /// `VotersRecord` (control type 6): the voter set from this offset on, committed or not
    /// (`KRaftControlRecordStateMachine`).
    Voters(Arc<VoterSet>),
    /// An entry of the state machine, opaque to the quorum.
    Data(P),
}

impl<P: Payload> Record<P> {
    /// A stable 64-bit fingerprint of the record's content, folded into state digests.
    pub(crate) fn fingerprint(&self) -> u64 {
        match self {
            Record::LeaderChange(change) => {
                let mut h = 0x4C43_0000_0000_0000 ^ u64::from(change.leader);
                for v in change.voters.iter().chain(change.granting.iter()) {
                    h = mix(h ^ u64::from(*v));
                }
                h
            }
            Record::KRaftVersion(version) => mix(0x4B52_0000_0000_0000 ^ u64::from(*version)),
            Record::Voters(voters) => voters.fingerprint(),
            Record::Data(payload) => payload.fingerprint(),
        }
    }

    /// Approximate serialized size in bytes.
    pub fn size_bytes(&self) -> u64 {
        match self {
            Record::LeaderChange(change) => 16 + 4 * (change.voters.len() + change.granting.len()) as u64,
            Record::KRaftVersion(_) => 8,
            Record::Voters(voters) => voters.size_bytes(),
            Record::Data(payload) => payload.size_bytes(),
        }
    }

    /// A short name for traces and the UI.
    pub fn kind(&self) -> &'static str {
        match self {
            Record::LeaderChange(_) => "LeaderChange",
            Record::KRaftVersion(_) => "KRaftVersionRecord",
            Record::Voters(_) => "VotersRecord",
            Record::Data(payload) => payload.kind(),
        }
    }
}

impl<P: fmt::Display> fmt::Display for Record<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Record::LeaderChange(change) => write!(f, "LeaderChange(leader={})", change.leader),
            Record::KRaftVersion(version) => write!(f, "KRaftVersionRecord(kraft.version={version})"),
            Record::Voters(voters) => write!(f, "VotersRecord({voters})"),
            Record::Data(payload) => payload.fmt(f),
        }
    }
}

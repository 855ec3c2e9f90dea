//! The KRaft RPCs (KIP-595, KIP-996, KIP-630, KIP-853) as plain data: what one node sends another.

use std::fmt;
use std::sync::Arc;

use super::entries::Records;
use super::reconfig::{ChangeKind, ReconfigError};
use super::snapshot::{Snapshot, SnapshotId};
use super::state_machine::StateMachine;
use super::voters::{DirectoryId, KRaftVersion, ReplicaKey, short_dir};
use super::{Epoch, NodeId, Offset};

/// A message on the wire, from one node to another, with the correlation id of the request
/// header: new for a request, the request's for its response ([`super::requests`]).
#[derive(Clone, Debug)]
pub struct Envelope<S: StateMachine> {
    pub from: NodeId,
    pub to: NodeId,
    pub message: Message<S>,
    pub correlation: u64,
}

/// Every request and response of the quorum protocol.
#[derive(Clone, Debug)]
pub enum Message<S: StateMachine> {
    /// `Vote`: a candidate (or, with `pre_vote`, a prospective node) asks for a vote.
    Vote {
        candidate_epoch: Epoch,
        candidate: NodeId,
        last_offset_epoch: Epoch,
        last_offset: Offset,
        pre_vote: bool,
        /// The directory the candidate's voter set names for the receiver (`VoterDirectoryId`,
        /// Vote v2); `None` for a static voter entry.
        voter_dir: Option<DirectoryId>,
    },
    VoteResponse {
        epoch: Epoch,
        leader: Option<NodeId>,
        granted: bool,
        pre_vote: bool,
        /// INVALID_VOTER_KEY: the request named another directory of the receiver's id.
        invalid_voter_key: bool,
    },
    /// `BeginQuorumEpoch`: a new leader announces itself to the voters.
    BeginQuorumEpoch {
        epoch: Epoch,
        leader: NodeId,
        /// The receiver's directory as the leader's voter set names it (BeginQuorumEpoch v1).
        voter_dir: Option<DirectoryId>,
    },
    BeginQuorumEpochResponse {
        epoch: Epoch,
    },
    /// `EndQuorumEpoch`: a leader steps down and names its preferred successors, most caught-up
    /// first.
    EndQuorumEpoch {
        epoch: Epoch,
        leader: NodeId,
        preferred_successors: Arc<[NodeId]>,
    },
    EndQuorumEpochResponse {
        epoch: Epoch,
        leader: Option<NodeId>,
    },
    /// `Fetch`: pull replication; also how observers follow the log.
    Fetch {
        current_leader_epoch: Epoch,
        fetch_offset: Offset,
        last_fetched_epoch: Epoch,
        /// The fetcher's metadata log directory (`ReplicaDirectoryId`, Fetch v17): with its id,
        /// the key the leader tracks its progress under.
        replica_dir: DirectoryId,
        /// The fetcher's high watermark (`HighWatermark`, Fetch v18, KIP-1166; None: unknown,
        /// Kafka's -1): a leader whose own is higher answers at once rather than parking it.
        high_watermark: Option<Offset>,
    },
    FetchResponse {
        epoch: Epoch,
        leader: Option<NodeId>,
        /// The request's fetch offset and last fetched epoch, echoed: a response only applies
        /// to a log still in that position.
        fetch_offset: Offset,
        last_fetched_epoch: Epoch,
        high_watermark: Option<Offset>,
        result: FetchResult<S>,
    },
    /// `FetchSnapshot`: read a snapshot by position, chunk by chunk.
    FetchSnapshot {
        current_leader_epoch: Epoch,
        snapshot_id: SnapshotId,
        position: u64,
        /// The fetcher's metadata log directory (`ReplicaDirectoryId`, FetchSnapshot v1).
        replica_dir: DirectoryId,
    },
    FetchSnapshotResponse {
        epoch: Epoch,
        leader: Option<NodeId>,
        result: SnapshotChunk<S>,
    },
    /// `ApiVersions`: the leader asks a replica it is about to add which `kraft.version`
    /// range it supports (`AddVoterHandler.handleAddVoterRequest`).
    ApiVersions,
    ApiVersionsResponse {
        kraft_min: KRaftVersion,
        kraft_max: KRaftVersion,
    },
    /// `UpdateRaftVoter`: a follower voter tells its leader its directory id and supported
    /// `kraft.version` range (`KafkaRaftClient.maybeSendUpdateVoterRequest`). In a static quorum
    /// (kraft.version 0) it goes once to every new leader, which keeps it in memory only: what
    /// the upgrade to kraft.version 1 needs to write the first VotersRecord.
    UpdateRaftVoter {
        current_leader_epoch: Epoch,
        voter_dir: DirectoryId,
        kraft_min: KRaftVersion,
        kraft_max: KRaftVersion,
    },
    UpdateRaftVoterResponse {
        epoch: Epoch,
        leader: Option<NodeId>,
        /// `None` is NONE.
        error: Option<ReconfigError>,
    },
    /// `AddRaftVoter` from a controller that auto-joins (`controller.quorum.auto.join.enable`):
    /// add me, with this directory; answer once the VotersRecord is appended
    /// (`ackWhenCommitted=false`). The operator's `kafka-metadata-quorum add-controller` goes
    /// to the leader directly here (`Simulation::add_voter`).
    AddRaftVoter {
        voter_dir: DirectoryId,
    },
    /// `RemoveRaftVoter` from an auto-joining controller of an older voter entry of its own id
    /// (a wiped disk): answered once the removal commits.
    RemoveRaftVoter {
        voter: ReplicaKey,
    },
    /// The answer to either (`None` is NONE).
    VoterChangeResponse {
        kind: ChangeKind,
        error: Option<ReconfigError>,
    },
}

/// What a FetchResponse carries.
#[derive(Clone, Debug)]
pub enum FetchResult<S: StateMachine> {
    /// Records starting at the fetch offset (possibly none).
    Records(Records<S::Entry>),
    /// The fetcher's log diverges: truncate to the end of `epoch` at `end_offset`.
    DivergingEpoch { epoch: Epoch, end_offset: Offset },
    /// The fetch offset is below the log start: fetch this snapshot instead.
    SnapshotId(SnapshotId),
    /// The receiver is not the leader of that epoch (`NOT_LEADER_OR_FOLLOWER`,
    /// `FENCED_LEADER_EPOCH`); the response names the leader it knows.
    NotLeader,
}

/// What a FetchSnapshotResponse carries.
#[derive(Clone, Debug)]
pub enum SnapshotChunk<S: StateMachine> {
    /// Bytes `[position, position + len)` of a snapshot of `size` bytes. The content travels as a
    /// shared handle; the chunking models the transfer's size and number of round trips.
    Chunk { snapshot: Arc<Snapshot<S>>, position: u64, len: u64 },
    /// The snapshot (or the leadership) is gone.
    NotFound,
}

impl<S: StateMachine> Message<S> {
    /// Whether this answers a request (its correlation id says which).
    pub fn is_response(&self) -> bool {
        matches!(
            self,
            Message::VoteResponse { .. }
                | Message::BeginQuorumEpochResponse { .. }
                | Message::EndQuorumEpochResponse { .. }
                | Message::FetchResponse { .. }
                | Message::FetchSnapshotResponse { .. }
                | Message::ApiVersionsResponse { .. }
                | Message::UpdateRaftVoterResponse { .. }
                | Message::VoterChangeResponse { .. }
        )
    }

    /// The name traces and the UI show: Kafka's RPC name, with a pre-vote `Vote` shown as
    /// PreVote and a FetchResponse named by its outcome (DivergingEpoch, SnapshotId).
    pub fn kind(&self) -> &'static str {
        match self {
            Message::Vote { pre_vote: true, .. } => "PreVote",
            Message::Vote { .. } => "Vote",
            Message::VoteResponse { pre_vote: true, .. } => "PreVoteResponse",
            Message::VoteResponse { .. } => "VoteResponse",
            Message::BeginQuorumEpoch { .. } => "BeginQuorumEpoch",
            Message::BeginQuorumEpochResponse { .. } => "BeginQuorumEpochResponse",
            Message::EndQuorumEpoch { .. } => "EndQuorumEpoch",
            Message::EndQuorumEpochResponse { .. } => "EndQuorumEpochResponse",
            Message::Fetch { .. } => "Fetch",
            Message::FetchResponse { result: FetchResult::DivergingEpoch { .. }, .. } => "DivergingEpoch",
            Message::FetchResponse { result: FetchResult::SnapshotId(_), .. } => "SnapshotId",
            Message::FetchResponse { .. } => "FetchResponse",
            Message::FetchSnapshot { .. } => "FetchSnapshot",
            Message::FetchSnapshotResponse { .. } => "FetchSnapshotResponse",
            Message::ApiVersions => "ApiVersions",
            Message::ApiVersionsResponse { .. } => "ApiVersionsResponse",
            Message::UpdateRaftVoter { .. } => "UpdateRaftVoter",
            Message::UpdateRaftVoterResponse { .. } => "UpdateRaftVoterResponse",
            Message::AddRaftVoter { .. } => "AddRaftVoter",
            Message::RemoveRaftVoter { .. } => "RemoveRaftVoter",
            Message::VoterChangeResponse { kind: ChangeKind::Add, .. } => "AddRaftVoterResponse",
            Message::VoterChangeResponse { kind: ChangeKind::Remove, .. } => "RemoveRaftVoterResponse",
        }
    }
}

impl<S: StateMachine> fmt::Display for Message<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::Vote { candidate_epoch, last_offset_epoch, last_offset, .. } => {
                write!(f, "{}(epoch={candidate_epoch}, last={last_offset}@{last_offset_epoch})", self.kind())
            }
            Message::VoteResponse { epoch, granted, leader, .. } => {
                let leader = leader.map_or(String::new(), |l| format!(", leader=n{l}"));
                write!(f, "{}(epoch={epoch}, granted={granted}{leader})", self.kind())
            }
            Message::BeginQuorumEpoch { epoch, .. } | Message::BeginQuorumEpochResponse { epoch } => {
                write!(f, "{}(epoch={epoch})", self.kind())
            }
            Message::EndQuorumEpoch { epoch, preferred_successors, .. } => {
                write!(f, "EndQuorumEpoch(epoch={epoch}, preferred={preferred_successors:?})")
            }
            Message::EndQuorumEpochResponse { epoch, .. } => {
                write!(f, "EndQuorumEpochResponse(epoch={epoch})")
            }
            Message::Fetch { current_leader_epoch, fetch_offset, last_fetched_epoch, .. } => write!(
                f,
                "Fetch(epoch={current_leader_epoch}, offset={fetch_offset}, last_epoch={last_fetched_epoch})"
            ),
            Message::FetchResponse { epoch, high_watermark, result, .. } => {
                let hw = high_watermark.map_or("-".to_string(), |h| h.to_string());
                match result {
                    FetchResult::Records(entries) => {
                        write!(f, "FetchResponse(epoch={epoch}, records={}, hw={hw})", entries.len())
                    }
                    FetchResult::DivergingEpoch { epoch: e, end_offset } => {
                        write!(f, "DivergingEpoch(epoch={e}, end_offset={end_offset})")
                    }
                    FetchResult::SnapshotId(id) => write!(f, "SnapshotId({id})"),
                    FetchResult::NotLeader => write!(f, "FetchResponse(epoch={epoch}, NOT_LEADER)"),
                }
            }
            Message::FetchSnapshot { snapshot_id, position, .. } => {
                write!(f, "FetchSnapshot({snapshot_id}, position={position})")
            }
            Message::FetchSnapshotResponse { result, .. } => match result {
                SnapshotChunk::Chunk { snapshot, position, len } => write!(
                    f,
                    "FetchSnapshotResponse({}, bytes {}..{} of {})",
                    snapshot.id,
                    position,
                    position + len,
                    snapshot.size_bytes()
                ),
                SnapshotChunk::NotFound => write!(f, "FetchSnapshotResponse(NOT_FOUND)"),
            },
            Message::ApiVersions => f.write_str("ApiVersions"),
            Message::ApiVersionsResponse { kraft_min, kraft_max } => {
                write!(f, "ApiVersionsResponse(kraft.version {kraft_min}..{kraft_max})")
            }
            Message::UpdateRaftVoter { current_leader_epoch, voter_dir, kraft_min, kraft_max } => write!(
                f,
                "UpdateRaftVoter(epoch={current_leader_epoch}, dir {}, kraft.version {kraft_min}..{kraft_max})",
                short_dir(*voter_dir)
            ),
            Message::UpdateRaftVoterResponse { epoch, error, .. } => {
                let answer = error.map_or("NONE", ReconfigError::name);
                write!(f, "UpdateRaftVoterResponse(epoch={epoch}, {answer})")
            }
            Message::AddRaftVoter { voter_dir } => write!(f, "AddRaftVoter(dir {})", short_dir(*voter_dir)),
            Message::RemoveRaftVoter { voter } => write!(f, "RemoveRaftVoter({voter})"),
            Message::VoterChangeResponse { error, .. } => {
                write!(f, "{}({})", self.kind(), error.map_or("NONE", ReconfigError::name))
            }
        }
    }
}

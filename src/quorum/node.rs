//! One KRaft node as a pure state machine (Kafka 4.3's `KafkaRaftClient` with `QuorumState`):
//! inputs are messages, timer expiries and client writes, each with `now`; outputs go to an
//! [`Outbox`]. Role data lives in the [`Role`] enum and every change of role goes through
//! [`Node::transition`], which checks it against the transition table and persists first.

use crate::util::small_map::SmallSet;
use std::fmt;
use std::sync::Arc;

use super::applied::AppliedState;
use super::config::QuorumConfig;
use super::disk::{Disk, QuorumStateFile};
use super::error::QuorumError;
use super::leader::{FetchRequest, LeaderState, ReplicaState};
use super::log::Log;
use super::message::Message;
use super::outbox::{NoteKind, Outbox};
use super::reconfig::{ChangeKind, PendingChange, ReconfigError};
use super::record::Record;
use super::requests::Requests;
use super::role::{RoleKind, check_transition};
use super::snapshot::SnapshotId;
use super::state_machine::StateMachine;
use super::voters::{KRaftVersion, QuorumSetup, ReplicaKey, VoterSet};
use super::{Epoch, NodeId, Offset};
use crate::harness::Micros;
use crate::util::rng::Rng;

/// The `kraft.version` range every node of Kafka 4.3.1 supports (`KRaftVersion`: 0 static,
/// 1 reconfigurable), which it reports in ApiVersions.
pub const SUPPORTED_KRAFT_VERSIONS: (KRaftVersion, KRaftVersion) = (0, 1);

/// A role with the data only that role has.
#[derive(Clone, Debug)]
pub(super) enum Role<S: StateMachine> {
    Unattached(Unattached),
    Prospective(Election),
    Candidate(Election),
    Leader(Box<LeaderState<S>>),
    Follower(FollowerState),
    Resigned(Resigned),
}

/// Knows no leader. Voters wait for the election timeout; all ask a voter who leads.
#[derive(Clone, Debug)]
pub(super) struct Unattached {
    /// Voters: when the election timeout fires (observers never run).
    pub deadline: Micros,
    /// When the next Fetch to a bootstrap voter goes out to find the leader
    /// (`KafkaRaftClient.pollUnattachedCommon`).
    pub discovery_at: Micros,
}

/// A pre-vote (Prospective) or vote (Candidate) round: Kafka's `EpochElection`.
#[derive(Clone, Debug)]
pub(super) struct Election {
    pub granted: SmallSet<NodeId>,
    pub rejected: SmallSet<NodeId>,
    /// The election timeout.
    pub deadline: Micros,
    /// When requests go again to voters that have not answered (`request.timeout.ms`).
    pub resend_at: Micros,
    /// Prospective only: the leader of the current epoch it knew before the pre-vote.
    pub leader_hint: Option<NodeId>,
}

/// Following the leader of the current epoch by fetching from it.
#[derive(Clone, Debug)]
pub(super) struct FollowerState {
    pub leader: NodeId,
    /// Start an election when no fetch succeeded by then, if a voter (observers never do).
    pub fetch_deadline: Micros,
    /// When the request in flight is given up (`None`: nothing in flight).
    pub request_deadline: Option<Micros>,
    /// When a fetch from the leader last succeeded in this role (`hasFetchedFromLeader`).
    pub last_fetch_ok: Option<Micros>,
    /// A snapshot being fetched, and the next position to ask for.
    pub snapshot_fetch: Option<(SnapshotId, u64)>,
    /// When a voter next considers sending UpdateRaftVoter (`FollowerState.updateVoterSetPeriodTimer`,
    /// one fetch timeout, so that a few fetches go first).
    pub update_voter_at: Micros,
    /// This leader answered our UpdateRaftVoter (`FollowerState.hasUpdatedLeader`).
    pub has_updated_leader: bool,
    /// The request in flight is an UpdateRaftVoter, not a Fetch.
    pub updating_voter: bool,
}

/// A former leader of the current epoch, out of the running until its timeout.
#[derive(Clone, Debug)]
pub(super) struct Resigned {
    pub deadline: Micros,
    /// Voters that have not acknowledged EndQuorumEpoch yet.
    pub unacked: SmallSet<NodeId>,
    /// The successors named in EndQuorumEpoch, most caught-up first.
    pub preferred: Arc<[NodeId]>,
    /// When EndQuorumEpoch goes again to the voters that have not acknowledged it.
    pub resend_at: Micros,
}

impl Election {
    /// A round in which only this node has voted for itself so far; requests go out at once.
    pub(super) fn new(id: NodeId, now: Micros, deadline: Micros, leader_hint: Option<NodeId>) -> Election {
        Election {
            granted: SmallSet::from([id]),
            rejected: SmallSet::new(),
            deadline,
            resend_at: now,
            leader_hint,
        }
    }
}

impl<S: StateMachine> Role<S> {
    pub(super) fn kind(&self) -> RoleKind {
        match self {
            Role::Unattached(_) => RoleKind::Unattached,
            Role::Prospective(_) => RoleKind::Prospective,
            Role::Candidate(_) => RoleKind::Candidate,
            Role::Leader(_) => RoleKind::Leader,
            Role::Follower(_) => RoleKind::Follower,
            Role::Resigned(_) => RoleKind::Resigned,
        }
    }
}

/// One controller (voter) or broker (observer) of the metadata quorum.
#[derive(Clone, Debug)]
pub struct Node<S: StateMachine> {
    pub(super) id: NodeId,
    pub(super) setup: Arc<QuorumSetup>,
    pub(super) config: Arc<QuorumConfig>,
    pub(super) rng: Rng,
    pub(super) disk: Disk<S>,
    pub(super) epoch: Epoch,
    pub(super) voted: Option<NodeId>,
    pub(super) role: Role<S>,
    pub(super) high_watermark: Option<Offset>,
    pub(super) applied: AppliedState<S>,
    pub(super) snapshots_loaded: u64,
    pub(super) bytes_since_snapshot: u64,
    /// When the log cleaner next runs.
    pub(super) next_clean: Micros,
    /// The first protocol error the node refused to go past.
    pub(super) fatal: Option<QuorumError>,
    /// The requests it waits for an answer to.
    pub(super) requests: Requests,
    /// The correlation id of the request being handled, which its response echoes.
    pub(super) answering: u64,
}

/// A write was offered to a node that is not the leader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotLeader {
    pub leader: Option<NodeId>,
}

/// A graceful resignation was asked of a node that is not the leader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotLeading {
    pub node: NodeId,
    pub role: RoleKind,
}

impl fmt::Display for NotLeading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "node {} is {}, not the leader", self.node, self.role)
    }
}

impl std::error::Error for NotLeading {}

impl<S: StateMachine> Node<S> {
    /// Start (or restart) node `id` from what its disk holds (`QuorumState.initialize`): a
    /// former leader comes back Resigned with no preferred successors, a node that had voted for
    /// itself comes back Candidate, one that knew a leader follows it. The voter set is the
    /// latest one its log holds, else `setup`'s static one; a node not in it is an observer.
    pub fn start(
        id: NodeId,
        setup: Arc<QuorumSetup>,
        config: Arc<QuorumConfig>,
        rng: Rng,
        disk: Disk<S>,
        now: Micros,
    ) -> Node<S> {
        let state = disk.quorum_state;
        let mut applied = disk.log.snapshot().map(|s| s.state.clone()).unwrap_or_default();
        if config.sabotage.restart_skips_local_log {
            applied.applied_offset = disk.log.end_offset();
        }
        let next_clean = now + config.log_clean_interval;
        let epoch = if config.sabotage.restart_forgets_epoch { 0 } else { state.leader_epoch };
        let mut node = Node {
            id,
            setup,
            config,
            rng,
            disk,
            epoch,
            voted: state.voted_id,
            role: Role::Unattached(Unattached { deadline: now, discovery_at: now }),
            high_watermark: None,
            applied,
            snapshots_loaded: 0,
            bytes_since_snapshot: 0,
            next_clean,
            fatal: None,
            requests: Requests::default(),
            answering: 0,
        };
        let voter = node.is_voter();
        // `QuorumState.initialize`: a node whose quorum-state names itself the leader starts
        // Resigned in that epoch, a voter or not (it must not vote or write in it again).
        node.role = match (state.leader_id, state.voted_id) {
            (Some(leader), _) if leader == id => {
                let deadline = now + node.election_timeout();
                Role::Resigned(node.new_resigned(now, deadline, Arc::from([])))
            }
            (Some(leader), _) if leader != id => {
                let mut follower = node.new_follower_state(leader, now);
                follower.request_deadline = Some(now);
                Role::Follower(follower)
            }
            (None, Some(voted)) if voted == id && voter => {
                let deadline = now + node.election_timeout();
                Role::Candidate(Election::new(id, now, deadline, None))
            }
            _ => {
                let deadline = node.unattached_deadline(now);
                Role::Unattached(node.new_unattached(now, deadline))
            }
        };
        node
    }

    /// The node's id.
    pub fn id(&self) -> NodeId {
        self.id
    }

    /// The current epoch.
    pub fn epoch(&self) -> Epoch {
        self.epoch
    }

    /// The current role.
    pub fn role(&self) -> RoleKind {
        self.role.kind()
    }

    /// The node this one believes leads the current epoch.
    pub fn leader(&self) -> Option<NodeId> {
        match &self.role {
            Role::Leader(_) => Some(self.id),
            Role::Follower(f) => Some(f.leader),
            _ => None,
        }
    }

    /// The leader of the current epoch this node knows of, including the one a Prospective
    /// remembers from before its pre-vote (`QuorumState.leaderId`).
    pub(crate) fn known_leader(&self) -> Option<NodeId> {
        match &self.role {
            Role::Prospective(e) => e.leader_hint,
            _ => self.leader(),
        }
    }

    /// The leader its responses name (`QuorumState.leaderIdOrSentinel`, from the state's
    /// `election()`): besides a leader's and a follower's, the one a Prospective remembers, and
    /// a Resigned node itself, which led the epoch.
    pub(crate) fn election_leader(&self) -> Option<NodeId> {
        match &self.role {
            Role::Resigned(_) => Some(self.id),
            _ => self.known_leader(),
        }
    }

    /// The vote cast in the current epoch, if any.
    pub(crate) fn voted_for(&self) -> Option<NodeId> {
        self.voted
    }

    /// Every record below this offset is committed (as far as this node knows).
    pub fn high_watermark(&self) -> Option<Offset> {
        self.high_watermark
    }

    /// What a leader knows of each voter and each observer that fetched in its epoch
    /// (`LeaderState.voterStates`, `observerStates`); `None` unless it leads.
    pub fn replica_states(&self) -> Option<(&[ReplicaState], &[ReplicaState])> {
        match &self.role {
            Role::Leader(leader) => Some(leader.replica_states()),
            _ => None,
        }
    }

    /// The node's log.
    pub fn log(&self) -> &Log<S> {
        &self.disk.log
    }

    /// The persisted quorum state.
    pub fn quorum_state_file(&self) -> QuorumStateFile {
        self.disk.quorum_state
    }

    /// The state machine built from the committed records applied so far.
    pub fn applied(&self) -> &AppliedState<S> {
        &self.applied
    }

    /// How many snapshots this node installed from a leader since it started.
    pub fn snapshots_loaded(&self) -> u64 {
        self.snapshots_loaded
    }

    /// The first protocol error the node hit (for example truncating below its high watermark).
    pub(crate) fn fatal_error(&self) -> Option<&QuorumError> {
        self.fatal.as_ref()
    }

    /// Whether this node is a voter rather than an observer: its key (id and directory) is in
    /// the voter set its log holds (`QuorumState.isVoter`).
    pub fn is_voter(&self) -> bool {
        self.voter_set().is_voter(self.key())
    }

    /// The latest voter set of this node's log, committed or not, else the static one
    /// (`KRaftControlRecordStateMachine.lastVoterSet`).
    pub fn voter_set(&self) -> &VoterSet {
        self.disk.log.control().last_voters().map_or(&self.setup.static_voters, |v| v)
    }

    /// The voter set in force at this node's high watermark: the latest committed one (the
    /// latest one while the node knows no high watermark).
    pub(crate) fn committed_voter_set(&self) -> &VoterSet {
        let committed = self.high_watermark().map(|hw| self.disk.log.control().voters_below(hw));
        match committed {
            Some(Some(voters)) => voters,
            Some(None) => &self.setup.static_voters,
            None => self.voter_set(),
        }
    }

    /// The voter set in force at `offset` of this node's log: the latest VotersRecord at or
    /// below it, else the static one.
    pub(crate) fn voter_set_at(&self, offset: Offset) -> &VoterSet {
        self.disk.log.control().voters_at(offset).map_or(&self.setup.static_voters, |v| v)
    }

    /// This replica's id and metadata log directory id (`ReplicaKey`).
    pub fn key(&self) -> ReplicaKey {
        ReplicaKey { id: self.id, dir: Some(self.disk.directory_id) }
    }

    /// The voters' ids other than this node's: where vote requests and EndQuorumEpoch go.
    pub(super) fn other_voters(&self) -> Vec<NodeId> {
        self.voter_set().ids().filter(|v| *v != self.id).collect()
    }

    /// The offset where the current leader's epoch starts, while this node leads.
    pub(crate) fn epoch_start_offset(&self) -> Option<Offset> {
        match &self.role {
            Role::Leader(l) => Some(l.epoch_start),
            _ => None,
        }
    }

    /// When the node next needs a tick.
    pub fn next_deadline(&self) -> Micros {
        // An observer waits for no election or fetch timeout, whatever its role kept from when
        // it was a voter (`pollUnattached` and `pollFollower` check `isVoter` first).
        let voter = self.is_voter();
        let role = match &self.role {
            Role::Unattached(u) if voter => u.deadline.min(u.discovery_at),
            Role::Unattached(u) => u.discovery_at,
            Role::Prospective(e) | Role::Candidate(e) => e.deadline.min(e.resend_at),
            Role::Leader(l) => l.next_deadline(),
            Role::Follower(f) => {
                let fetch = if voter { f.fetch_deadline } else { Micros::MAX };
                f.request_deadline.map_or(fetch, |r| r.min(fetch))
            }
            Role::Resigned(r) => r.deadline.min(r.resend_at),
        };
        role.min(self.next_clean)
    }

    /// The timeout the node is waiting out, for display: its name and when it fires. Followers
    /// wait for the fetch timeout, the others for their election timeout; a leader for check
    /// quorum; observers for nothing.
    pub fn visible_timeout(&self) -> Option<(&'static str, Micros)> {
        if !self.is_voter() {
            return None;
        }
        Some(match &self.role {
            Role::Unattached(u) => ("election timeout", u.deadline),
            Role::Prospective(e) => ("pre-vote timeout", e.deadline),
            Role::Candidate(e) => ("election timeout", e.deadline),
            Role::Leader(l) => ("check quorum", l.check_quorum_deadline()),
            Role::Follower(f) => ("fetch timeout", f.fetch_deadline),
            Role::Resigned(r) => ("election timeout", r.deadline),
        })
    }

    /// Hand the disk back (the node crashed or stopped); memory is lost.
    pub(crate) fn into_disk(self) -> Disk<S> {
        self.disk
    }

    /// Offer a client write. The leader accumulates writes for `append.linger.ms` and then
    /// appends them as one batch.
    pub fn propose(&mut self, now: Micros, entry: S::Entry) -> Result<(), NotLeader> {
        match &mut self.role {
            Role::Leader(leader) => {
                leader.accumulate(now, Record::Data(entry), self.config.append_linger);
                Ok(())
            }
            _ => Err(NotLeader { leader: self.leader() }),
        }
    }

    /// The AddRaftVoter or RemoveRaftVoter this node carries out, while it leads.
    pub(crate) fn pending_change(&self) -> Option<&PendingChange> {
        match &self.role {
            Role::Leader(leader) => leader.change.as_ref(),
            _ => None,
        }
    }

    /// While this node leads at kraft.version 0: the static voter set with the directory of
    /// each voter that has sent it UpdateRaftVoter (and its own), what an upgrade would write.
    pub(crate) fn learned_voters(&self) -> Option<&VoterSet> {
        match &self.role {
            Role::Leader(leader) => leader.volatile_voters.as_ref(),
            _ => None,
        }
    }

    /// The offset the next proposed record will get, when this node leads.
    pub(crate) fn next_offset(&self) -> Option<Offset> {
        match &self.role {
            Role::Leader(leader) => Some(self.disk.log.end_offset() + leader.pending_records()),
            _ => None,
        }
    }

    /// Handle a message that arrived from `from`.
    /// Send request `message` to `to`, under a new correlation id (the one in flight there now).
    pub(super) fn request(&mut self, to: NodeId, message: Message<S>, out: &mut Outbox<S>) {
        let correlation = self.requests.sent(to);
        out.send(self.id, to, message, correlation);
    }

    /// Answer the request being handled, from `to`, with `message`.
    pub(super) fn respond(&self, to: NodeId, message: Message<S>, out: &mut Outbox<S>) {
        out.send(self.id, to, message, self.answering);
    }

    /// Whether a response from `from` carrying `correlation` answers the request in flight there
    /// (else it is dropped unread when it arrives).
    pub(crate) fn expects_response(&self, from: NodeId, correlation: u64) -> bool {
        self.requests.expects(from, correlation)
    }

    /// Handle `message` from `from`, carrying `correlation`: a response that answers no request
    /// in flight is dropped unread ([`super::requests`]).
    pub fn handle(
        &mut self,
        now: Micros,
        from: NodeId,
        message: Message<S>,
        correlation: u64,
        out: &mut Outbox<S>,
    ) {
        if message.is_response() {
            if !self.requests.answered(from, correlation) {
                return;
            }
        } else {
            self.answering = correlation;
        }
        match message {
            Message::Vote {
                candidate_epoch,
                candidate,
                last_offset_epoch,
                last_offset,
                pre_vote,
                voter_dir,
            } => {
                let last = (last_offset_epoch, last_offset);
                self.on_vote(now, candidate_epoch, candidate, last, pre_vote, voter_dir, out)
            }
            Message::VoteResponse { epoch, leader, granted, pre_vote, invalid_voter_key } => {
                self.on_vote_response(now, from, epoch, leader, granted, pre_vote, invalid_voter_key, out)
            }
            Message::BeginQuorumEpoch { epoch, leader, voter_dir } => {
                self.on_begin_quorum_epoch(now, from, epoch, leader, voter_dir, out)
            }
            Message::BeginQuorumEpochResponse { epoch } => self.observe_epoch(now, epoch, None, out),
            Message::EndQuorumEpoch { epoch, leader, preferred_successors } => {
                self.on_end_quorum_epoch(now, from, epoch, leader, &preferred_successors, out)
            }
            Message::EndQuorumEpochResponse { epoch, leader } => {
                self.on_end_quorum_epoch_response(now, from, epoch, leader, out)
            }
            Message::Fetch {
                current_leader_epoch,
                fetch_offset,
                last_fetched_epoch,
                replica_dir,
                high_watermark,
            } => {
                let replica = ReplicaKey { id: from, dir: Some(replica_dir) };
                let request = FetchRequest {
                    leader_epoch: current_leader_epoch,
                    fetch_offset,
                    last_fetched_epoch,
                    high_watermark,
                };
                self.on_fetch(now, replica, request, out)
            }
            Message::FetchResponse {
                epoch,
                leader,
                fetch_offset,
                last_fetched_epoch,
                high_watermark,
                result,
            } => {
                let request = (fetch_offset, last_fetched_epoch);
                self.on_fetch_response(now, from, epoch, leader, request, high_watermark, result, out)
            }
            Message::FetchSnapshot { current_leader_epoch, snapshot_id, position, replica_dir } => {
                let replica = ReplicaKey { id: from, dir: Some(replica_dir) };
                self.on_fetch_snapshot(now, replica, current_leader_epoch, snapshot_id, position, out)
            }
            Message::FetchSnapshotResponse { epoch, leader, result } => {
                self.on_fetch_snapshot_response(now, from, epoch, leader, result, out)
            }
            Message::ApiVersions => {
                let (min, max) = SUPPORTED_KRAFT_VERSIONS;
                self.respond(from, Message::ApiVersionsResponse { kraft_min: min, kraft_max: max }, out);
            }
            Message::ApiVersionsResponse { kraft_min, kraft_max } => {
                self.on_api_versions_response(now, from, (kraft_min, kraft_max), out)
            }
            Message::UpdateRaftVoter { current_leader_epoch, voter_dir, kraft_min, kraft_max } => {
                let voter = ReplicaKey { id: from, dir: Some(voter_dir) };
                self.on_update_voter(now, voter, current_leader_epoch, (kraft_min, kraft_max), out)
            }
            Message::UpdateRaftVoterResponse { epoch, leader, error } => {
                self.on_update_voter_response(now, from, epoch, leader, error, out)
            }
            Message::AddRaftVoter { voter_dir } => {
                let voter = ReplicaKey { id: from, dir: Some(voter_dir) };
                self.on_voter_change_request(now, from, ChangeKind::Add, voter, out)
            }
            Message::RemoveRaftVoter { voter } => {
                self.on_voter_change_request(now, from, ChangeKind::Remove, voter, out)
            }
            Message::VoterChangeResponse { kind, error } => {
                self.on_voter_change_response(now, from, kind, error, out)
            }
        }
    }

    /// Handle whatever timers have expired by `now` (Kafka's `poll` for the current role).
    pub fn tick(&mut self, now: Micros, out: &mut Outbox<S>) {
        if now >= self.next_clean {
            self.next_clean = now + self.config.log_clean_interval;
            self.clean_log(out);
        }
        match &self.role {
            Role::Unattached(u) if self.is_voter() && now >= u.deadline => self.start_election(now, out),
            Role::Unattached(u) if now >= u.discovery_at => self.send_discovery_fetch(now, out),
            Role::Prospective(_) | Role::Candidate(_) => self.election_timers(now, out),
            Role::Resigned(_) => self.resigned_timers(now, out),
            Role::Leader(_) => self.leader_timers(now, out),
            Role::Follower(_) => self.follower_timers(now, out),
            Role::Unattached(_) => {}
        }
    }

    /// The single place where the role changes: validate, persist, then switch. Prospective
    /// and Resigned are kept in memory only (`QuorumState.memoryTransitionTo`); every other
    /// role is written to the quorum-state file first, the leader with no vote. A transition
    /// the table forbids is recorded as the node's fatal error and not made.
    pub(super) fn transition(
        &mut self,
        now: Micros,
        role: Role<S>,
        epoch: Epoch,
        voted: Option<NodeId>,
        out: &mut Outbox<S>,
    ) {
        let (from, to) = (self.role.kind(), role.kind());
        // Only a voter reaches these roles; a leader that removed itself from the voter set
        // still leaves them as one (`pollLeader` -> `transitionToResigned` -> `pollResigned`).
        let voter_role = matches!(from, RoleKind::Leader | RoleKind::Resigned);
        if let Err(error) = check_transition(from, self.epoch, to, epoch, self.is_voter() || voter_role) {
            self.fatal.get_or_insert(error);
            return;
        }
        let leader = match &role {
            Role::Leader(_) | Role::Resigned(_) => Some(self.id),
            Role::Follower(f) => Some(f.leader),
            Role::Prospective(e) => e.leader_hint,
            _ => None,
        };
        let voted = if to == RoleKind::Leader { None } else { voted };
        let memory_only = to == RoleKind::Resigned || (to == RoleKind::Prospective && voted == self.voted);
        if !memory_only {
            let persisted_vote = if self.config.sabotage.forget_vote_on_restart { None } else { voted };
            // `FileQuorumStateStore.writeElectionStateToFile` fsyncs before the node answers;
            // the sabotage answers a Vote with the file written but not yet on the disk.
            let granting = voted.is_some_and(|v| v != self.id) && voted != self.voted;
            let fsync = !(granting && self.config.sabotage.vote_before_fsync);
            let file = QuorumStateFile { leader_epoch: epoch, voted_id: persisted_vote, leader_id: leader };
            self.disk.write_quorum_state(file, fsync);
        }
        if to != RoleKind::Leader {
            self.finish_change(Err(ReconfigError::NotLeaderOrFollower), out);
        }
        let changed = from != to || epoch != self.epoch;
        if changed {
            self.requests.reset();
        }
        self.epoch = epoch;
        self.voted = voted;
        self.role = role;
        if changed {
            out.note(self.id, NoteKind::Became { role: to, epoch, leader });
        }
        if to == RoleKind::Follower {
            self.send_fetch(now, out);
        }
    }

    /// React to an epoch and leader seen in a message (`KafkaRaftClient.maybeTransition`): a
    /// higher epoch makes this node follow the leader it names, or become unattached when no
    /// leader is named; the same epoch naming a leader this node does not know makes it follow.
    pub(super) fn observe_epoch(
        &mut self,
        now: Micros,
        epoch: Epoch,
        leader: Option<NodeId>,
        out: &mut Outbox<S>,
    ) {
        let unknown_leader =
            |l: NodeId| l != self.id && self.known_leader().is_none() && self.role.kind() != RoleKind::Leader;
        match leader {
            Some(l) if epoch > self.epoch && l != self.id => self.become_follower(now, epoch, l, out),
            Some(l) if epoch == self.epoch && unknown_leader(l) => self.become_follower(now, epoch, l, out),
            _ if epoch > self.epoch => self.become_unattached(now, epoch, None, out),
            _ => {}
        }
    }

    /// Become unattached (`QuorumState.transitionToUnattached`). A voter that was already
    /// waiting to run (unattached, a candidate, a prospective whose pre-vote was not rejected,
    /// or resigned) keeps its remaining election time unless it grants a vote, so a stream of
    /// hopeless candidacies cannot keep resetting its timer.
    pub(super) fn become_unattached(
        &mut self,
        now: Micros,
        epoch: Epoch,
        voted: Option<NodeId>,
        out: &mut Outbox<S>,
    ) {
        let (voters, majority) = (self.voter_set().len(), self.majority());
        let remaining = match &self.role {
            Role::Unattached(u) => Some(u.deadline),
            Role::Candidate(e) => Some(e.deadline),
            Role::Prospective(e) if !super::election::is_lost(e, voters, majority) => Some(e.deadline),
            Role::Resigned(r) => Some(r.deadline),
            _ => None,
        };
        let deadline = match remaining {
            Some(deadline) if voted.is_none() && self.is_voter() => deadline,
            _ => self.unattached_deadline(now),
        };
        self.become_unattached_until(now, epoch, voted, deadline, out);
    }

    /// Become unattached with the election timer set to `deadline`.
    pub(super) fn become_unattached_until(
        &mut self,
        now: Micros,
        epoch: Epoch,
        voted: Option<NodeId>,
        deadline: Micros,
        out: &mut Outbox<S>,
    ) {
        let unattached = self.new_unattached(now, deadline);
        self.transition(now, Role::Unattached(unattached), epoch, voted, out);
    }

    fn new_unattached(&self, now: Micros, deadline: Micros) -> Unattached {
        Unattached { deadline, discovery_at: now }
    }

    pub(super) fn become_follower(&mut self, now: Micros, epoch: Epoch, leader: NodeId, out: &mut Outbox<S>) {
        let voted = if epoch == self.epoch { self.voted } else { None };
        let state = self.new_follower_state(leader, now);
        self.transition(now, Role::Follower(state), epoch, voted, out);
    }

    /// When a follower that fetched successfully now starts an election: after the fetch
    /// timeout. The timer runs for observers too but only a voter acts on it (`pollFollower`
    /// asks `isVoter` at every poll), so an observer added as a voter by a record it just
    /// fetched times out like any voter if its leader then goes away.
    pub(super) fn fetch_deadline_from(&self, now: Micros) -> Micros {
        now + self.config.fetch_timeout
    }

    fn new_follower_state(&self, leader: NodeId, now: Micros) -> FollowerState {
        let fetch_deadline = self.fetch_deadline_from(now);
        FollowerState {
            leader,
            fetch_deadline,
            request_deadline: None,
            last_fetch_ok: None,
            snapshot_fetch: None,
            update_voter_at: now + self.config.fetch_timeout,
            has_updated_leader: false,
            updating_voter: false,
        }
    }

    pub(super) fn new_resigned(&self, now: Micros, deadline: Micros, preferred: Arc<[NodeId]>) -> Resigned {
        let unacked = self.other_voters().into_iter().collect();
        Resigned { deadline, unacked, preferred, resend_at: now }
    }

    /// A voter's election timer; an observer never runs for election, and a lone voter elects
    /// itself at once (`QuorumState.initialize`).
    fn unattached_deadline(&mut self, now: Micros) -> Micros {
        match (self.is_voter(), self.voter_set().len()) {
            (false, _) => Micros::MAX,
            (true, 1) => now,
            (true, _) => now + self.election_timeout(),
        }
    }

    /// A random election timeout in `[T, 2T)`.
    pub(super) fn election_timeout(&mut self) -> Micros {
        let t = self.config.election_timeout;
        self.rng.range(t, 2 * t)
    }

    /// Voters needed for a majority.
    pub(super) fn majority(&self) -> usize {
        self.voter_set().majority()
    }

    /// Apply committed records up to the high watermark, taking a snapshot when due.
    pub(super) fn apply_committed(&mut self, out: &mut Outbox<S>) {
        let Some(hw) = self.high_watermark else {
            return;
        };
        while self.applied.applied_offset < hw {
            let Some(entry) = self.disk.log.get(self.applied.applied_offset) else {
                break;
            };
            self.bytes_since_snapshot += entry.record.size_bytes();
            self.applied.apply(entry.epoch, &entry.record);
        }
        self.maybe_snapshot(out);
    }

    /// Take a snapshot of the applied state once enough bytes were applied since the last one
    /// (`metadata.log.max.record.bytes.between.snapshots`). The log start stays where it is.
    fn maybe_snapshot(&mut self, out: &mut Outbox<S>) {
        let every = self.config.max_record_bytes_between_snapshots;
        if every == 0 || self.bytes_since_snapshot < every {
            return;
        }
        self.bytes_since_snapshot = 0;
        let end_offset = self.applied.applied_offset;
        let Some(epoch) = self.disk.log.epoch_before(end_offset) else {
            return;
        };
        let label = end_offset + u64::from(self.config.sabotage.snapshot_off_by_one);
        let id = SnapshotId { end_offset: label.min(self.disk.log.end_offset()), epoch };
        let snapshot = super::snapshot::Snapshot { id, state: self.applied.clone() };
        self.disk.log.add_snapshot(Arc::new(snapshot));
        out.note(self.id, NoteKind::SnapshotTaken(id));
    }

    /// The log cleaner: move the log start up to a snapshot once the log outgrows
    /// `metadata.max.retention.bytes`.
    fn clean_log(&mut self, out: &mut Outbox<S>) {
        let moved = if self.config.sabotage.clean_past_snapshot {
            let to = self.high_watermark.unwrap_or(0).min(self.applied.applied_offset);
            (to > self.disk.log.start_offset()).then(|| {
                self.disk.log.move_start_to(to);
                to
            })
        } else {
            self.disk.log.clean(self.config.max_retention_bytes)
        };
        if let Some(start) = moved {
            out.note(self.id, NoteKind::LogStartMoved(start));
        }
    }

    /// Raise the high watermark (it never goes down while the node runs) and apply.
    pub(super) fn advance_high_watermark(&mut self, hw: Offset, out: &mut Outbox<S>) {
        if self.high_watermark.is_some_and(|old| old >= hw) {
            return;
        }
        self.high_watermark = Some(hw);
        out.note(self.id, NoteKind::HighWatermark(hw));
        self.apply_committed(out);
    }
}

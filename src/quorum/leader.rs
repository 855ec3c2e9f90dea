//! The leader's side of the quorum: replica progress, the high watermark by the voters'
//! median fetched offset, parked fetches (long poll), check quorum, BeginQuorumEpoch resends
//! and the write accumulator (`append.linger.ms`). The voters are those of the latest voter set
//! in the leader's log, committed or not (`LeaderState.updateVoterAndObserverStates`).

use std::sync::Arc;

use super::entries::Records;
use super::log::Entry;
use super::message::{FetchResult, Message, SnapshotChunk};
use super::node::{Node, Role};
use super::outbox::{NoteKind, Outbox};
use super::reconfig::PendingChange;
use super::record::Record;
use super::snapshot::SnapshotId;
use super::state_machine::StateMachine;
use crate::harness::{MS, Micros};

use super::voters::{ReplicaKey, VoterSet};
use super::{Epoch, NodeId, Offset};

/// What a Fetch asks of the leader, beside who asks.
#[derive(Clone, Copy, Debug)]
pub(super) struct FetchRequest {
    pub leader_epoch: Epoch,
    pub fetch_offset: Offset,
    pub last_fetched_epoch: Epoch,
    pub high_watermark: Option<Offset>,
}

/// What the leader knows of one replica (`LeaderState.ReplicaState`).
#[derive(Clone, Debug)]
pub struct ReplicaState {
    pub key: ReplicaKey,
    /// The replica holds every record below this offset (its last valid fetch offset).
    pub end_offset: Option<Offset>,
    /// When it last fetched in this epoch (BeginQuorumEpoch is resent to voters that have not
    /// fetched lately).
    pub last_fetch: Option<Micros>,
    /// When it last had everything the leader had (`lastCaughtUpTimestamp`).
    pub last_caught_up: Option<Micros>,
    /// The leader's log end at its last fetch (`lastFetchLeaderLogEndOffset`).
    last_fetch_leader_end: Option<Offset>,
}

impl ReplicaState {
    fn new(key: ReplicaKey) -> ReplicaState {
        ReplicaState {
            key,
            end_offset: None,
            last_fetch: None,
            last_caught_up: None,
            last_fetch_leader_end: None,
        }
    }

    /// `ReplicaState.updateFollowerState`: a fetch at `offset` when the leader's log ends at
    /// `leader_end`. Reaching the leader's end, or this fetch reaching where the leader's log
    /// ended at the previous one, counts as caught up (then, or at the previous fetch).
    fn fetched(&mut self, now: Micros, offset: Offset, leader_end: Offset) {
        if offset >= leader_end {
            self.last_caught_up = Some(now);
        } else if let (Some(previous_end), Some(previous_fetch)) =
            (self.last_fetch_leader_end, self.last_fetch)
            && previous_end > 0
            && offset >= previous_end
        {
            self.last_caught_up = Some(self.last_caught_up.map_or(previous_fetch, |t| t.max(previous_fetch)));
        }
        self.end_offset = Some(offset);
        self.last_fetch = Some(now);
        self.last_fetch_leader_end = Some(leader_end);
    }
}

/// How recently an observer must have fetched to be added as a voter
/// (`LeaderState.isReplicaCaughtUp`: an hour).
const CAUGHT_UP_WITHIN: Micros = 3_600_000 * MS;

/// A Fetch with nothing new to return, held until records arrive, the high watermark moves or
/// `fetch_max_wait` passes.
#[derive(Clone, Debug)]
struct ParkedFetch {
    replica: NodeId,
    fetch_offset: Offset,
    last_fetched_epoch: Epoch,
    /// The request's correlation id, which its response echoes.
    correlation: u64,
    expires: Micros,
}

/// The leader's role data.
#[derive(Clone, Debug)]
pub struct LeaderState<S: StateMachine> {
    pub epoch_start: Offset,
    voters: Vec<ReplicaState>,
    observers: Vec<ReplicaState>,
    check_quorum_deadline: Micros,
    fetched_since_check: Vec<NodeId>,
    begin_quorum_deadline: Micros,
    parked: Vec<ParkedFetch>,
    pending: Vec<Record<S::Entry>>,
    linger_deadline: Option<Micros>,
    /// The AddRaftVoter or RemoveRaftVoter under way (`LeaderState.isOperationPending`).
    pub(super) change: Option<PendingChange>,
    /// Set once a removal of the leader itself commits (`LeaderState.requestResign`).
    pub(super) resign_requested: bool,
    /// At kraft.version 0, the static voter set as this leader learned it from UpdateRaftVoter:
    /// itself and each voter that sent one, with their directory ids (`KRaftVersionUpgrade.Voters`,
    /// memory only). `None` at kraft.version 1, and once the upgrade is appended.
    pub(super) volatile_voters: Option<VoterSet>,
}

impl<S: StateMachine> LeaderState<S> {
    /// Its voters' states and its observers'.
    pub(super) fn replica_states(&self) -> (&[ReplicaState], &[ReplicaState]) {
        (&self.voters, &self.observers)
    }

    pub(super) fn new(node: &Node<S>, now: Micros, epoch_start: Offset) -> LeaderState<S> {
        let mut leader = LeaderState {
            epoch_start,
            voters: Vec::new(),
            observers: Vec::new(),
            check_quorum_deadline: now + node.config.check_quorum_timeout(),
            fetched_since_check: Vec::new(),
            begin_quorum_deadline: now + node.config.begin_quorum_epoch_interval(),
            parked: Vec::new(),
            pending: Vec::new(),
            linger_deadline: None,
            change: None,
            resign_requested: false,
            volatile_voters: (node.log().control().kraft_version() == 0)
                .then(|| node.voter_set().with_updated_voter(node.key(), true))
                .flatten(),
        };
        leader.update_voters(node.voter_set());
        leader
    }

    /// `LeaderState.updateVoterAndObserverStates`: the voters of `set` keep (or take over from
    /// an observer) their progress; voters no longer in it become observers.
    pub(super) fn update_voters(&mut self, set: &VoterSet) {
        let mut old = std::mem::take(&mut self.voters);
        for &key in set.keys() {
            let state = match old.iter().position(|r| key.matches(r.key)) {
                Some(i) => Some(old.remove(i)),
                None => {
                    self.observers.iter().position(|r| key.matches(r.key)).map(|i| self.observers.remove(i))
                }
            };
            let mut state = state.unwrap_or_else(|| ReplicaState::new(key));
            state.key = key;
            self.voters.push(state);
        }
        for state in old {
            if !self.observers.iter().any(|r| r.key == state.key) {
                self.observers.push(state);
            }
        }
    }

    /// `LeaderState.isReplicaCaughtUp`: the observer reached the leader's log end at least once
    /// in this epoch and fetched within the last hour.
    pub(super) fn is_caught_up(&self, key: ReplicaKey, now: Micros) -> bool {
        self.observers.iter().find(|r| r.key == key).is_some_and(|r| {
            r.last_caught_up.is_some() && r.last_fetch.is_some_and(|t| t + CAUGHT_UP_WITHIN > now)
        })
    }

    /// When check quorum fires unless a majority fetches.
    pub(crate) fn check_quorum_deadline(&self) -> Micros {
        self.check_quorum_deadline
    }

    pub(super) fn next_deadline(&self) -> Micros {
        let parked = self.parked.iter().map(|p| p.expires).min().unwrap_or(Micros::MAX);
        let linger = self.linger_deadline.unwrap_or(Micros::MAX);
        let change = self.change.as_ref().map_or(Micros::MAX, |c| c.deadline);
        let resign = if self.resign_requested { 0 } else { Micros::MAX };
        let timers = self.check_quorum_deadline.min(self.begin_quorum_deadline).min(change).min(resign);
        timers.min(parked).min(linger)
    }

    /// Records accepted but not yet appended.
    pub(super) fn pending_records(&self) -> u64 {
        self.pending.len() as u64
    }

    /// The writes accepted but not appended yet, taken to append now.
    pub(super) fn take_pending(&mut self) -> Vec<Record<S::Entry>> {
        self.linger_deadline = None;
        std::mem::take(&mut self.pending)
    }

    pub(super) fn accumulate(&mut self, now: Micros, record: Record<S::Entry>, linger: Micros) {
        self.pending.push(record);
        self.linger_deadline.get_or_insert(now + linger);
    }

    /// Voters other than `leader`, most caught-up first (ties by id): EndQuorumEpoch's
    /// preferred successors.
    pub(super) fn preferred_successors(&self, leader: NodeId) -> Arc<[NodeId]> {
        let mut others: Vec<&ReplicaState> = self.voters.iter().filter(|r| r.key.id != leader).collect();
        others.sort_by_key(|r| (std::cmp::Reverse(r.end_offset), r.key.id));
        others.iter().map(|r| r.key.id).collect()
    }

    /// `LeaderState.getOrCreateReplicaState`: the voter entry this replica matches, else its
    /// observer entry (a voter whose disk was re-formatted fetches as an observer).
    fn replica_mut(&mut self, key: ReplicaKey) -> &mut ReplicaState {
        if let Some(index) = self.voters.iter().position(|r| r.key.matches(key)) {
            return &mut self.voters[index];
        }
        let index = match self.observers.iter().position(|r| r.key == key) {
            Some(index) => index,
            None => {
                self.observers.push(ReplicaState::new(key));
                self.observers.len() - 1
            }
        };
        &mut self.observers[index]
    }

    /// Note a fetch from a voter for check quorum (`updateCheckQuorumForFollowingVoter`); once
    /// a majority, the leader included while it is a voter, has fetched since the last reset,
    /// the timer restarts.
    fn record_voter_fetch(&mut self, voter: NodeId, quorum: (usize, bool), now: Micros, timeout: Micros) {
        let (majority, leader_votes) = quorum;
        if !self.fetched_since_check.contains(&voter) {
            self.fetched_since_check.push(voter);
        }
        if self.fetched_since_check.len() + usize::from(leader_votes) >= majority {
            self.fetched_since_check.clear();
            self.check_quorum_deadline = now + timeout;
        }
    }

    /// The high watermark the voters' progress allows: sort the voters' end offsets
    /// descending and take the one at index voters/2 (a majority holds everything below).
    fn majority_end_offset(&self, leader_end: Offset, leader: NodeId, minority_bug: bool) -> Offset {
        let mut ends: Vec<Offset> = self
            .voters
            .iter()
            .map(|r| if r.key.id == leader { leader_end } else { r.end_offset.unwrap_or(0) })
            .collect();
        ends.sort_unstable_by(|a, b| b.cmp(a));
        let index = if minority_bug { 0 } else { ends.len() / 2 };
        ends.get(index).copied().unwrap_or(0)
    }
}

impl<S: StateMachine> Node<S> {
    fn leader_state(&mut self) -> Option<&mut LeaderState<S>> {
        match &mut self.role {
            Role::Leader(l) => Some(l),
            _ => None,
        }
    }

    /// Append records in the leader's epoch (they are flushed before the end offset counts),
    /// then move the high watermark and answer parked fetches.
    pub(super) fn append_as_leader(
        &mut self,
        now: Micros,
        records: Vec<Record<S::Entry>>,
        out: &mut Outbox<S>,
    ) {
        let (count, first) = (records.len(), records.first().map_or("record", Record::kind));
        let last = records.len().saturating_sub(1);
        let mut voters_changed = false;
        for (i, record) in records.into_iter().enumerate() {
            voters_changed |= matches!(record, Record::Voters(_));
            let epoch = self.epoch;
            self.disk.log.append(Entry { epoch, record, appended_at: now, last_in_batch: i == last });
        }
        // `KafkaRaftClient.flushLeaderLog`, before anything else runs on the raft thread.
        self.disk.log.flush();
        let end_offset = self.log().end_offset();
        out.note(self.id, NoteKind::Appended { records: count, first, end_offset });
        if voters_changed && !self.config.sabotage.stale_voter_states {
            let set = self.voter_set().clone();
            if let Some(leader) = self.leader_state() {
                leader.update_voters(&set);
            }
        }
        self.update_leader_high_watermark(out);
        self.complete_parked_fetches(now, true, out);
    }

    fn update_leader_high_watermark(&mut self, out: &mut Outbox<S>) {
        let leader_end = self.log().end_offset();
        let (id, bug) = (self.id, self.config.sabotage.high_watermark_on_minority);
        let Some(leader) = self.leader_state() else {
            return;
        };
        let candidate = leader.majority_end_offset(leader_end, id, bug);
        if candidate > leader.epoch_start || self.config.sabotage.hw_before_epoch_start {
            self.advance_high_watermark(candidate, out);
            self.voter_change_high_watermark(out);
        }
    }

    pub(super) fn leader_timers(&mut self, now: Micros, out: &mut Outbox<S>) {
        let config = self.config.clone();
        // `LeaderState.timeUntilCheckQuorumExpires`: a set of one voter never expires, even
        // when the leader is not that voter.
        let single_voter = self.voter_set().len() == 1;
        self.expire_voter_change(now, out);
        let Some(leader) = self.leader_state() else {
            return;
        };
        if leader.resign_requested {
            self.step_down(now, "removed from the voter set", out);
            return;
        }
        if now >= leader.check_quorum_deadline {
            if !single_voter {
                self.step_down(now, "check quorum: no fetches from a majority", out);
                return;
            }
            leader.check_quorum_deadline = now + config.check_quorum_timeout();
        }
        if leader.linger_deadline.is_some_and(|d| now >= d) {
            let records = leader.take_pending();
            self.append_as_leader(now, records, out);
        }
        let Some(leader) = self.leader_state() else {
            return;
        };
        if now >= leader.begin_quorum_deadline {
            self.send_begin_quorum_epoch(now, out);
        }
        self.complete_parked_fetches(now, false, out);
    }

    /// `KafkaRaftClient.maybeSendBeginQuorumEpochRequests`: BeginQuorumEpoch to every other
    /// voter that has not fetched in the last fetch.timeout/2 (all of them at election), then
    /// again after that interval.
    pub(super) fn send_begin_quorum_epoch(&mut self, now: Micros, out: &mut Outbox<S>) {
        let (id, epoch, interval) = (self.id, self.epoch, self.config.begin_quorum_epoch_interval());
        let Some(leader) = self.leader_state() else {
            return;
        };
        leader.begin_quorum_deadline = now + interval;
        let quiet = |r: &&ReplicaState| r.key.id != id && r.last_fetch.is_none_or(|t| now >= t + interval);
        let quiet: Vec<ReplicaKey> = leader.voters.iter().filter(quiet).map(|r| r.key).collect();
        for key in quiet {
            let message = Message::BeginQuorumEpoch { epoch, leader: id, voter_dir: key.dir };
            self.request(key.id, message, out);
        }
    }

    /// Answer parked fetches: all of them when `all` (new records or a new high watermark),
    /// else only the expired ones.
    fn complete_parked_fetches(&mut self, now: Micros, all: bool, out: &mut Outbox<S>) {
        let Some(leader) = self.leader_state() else {
            return;
        };
        if leader.parked.is_empty() {
            return;
        }
        let mut parked = std::mem::take(&mut leader.parked);
        parked.retain(|p| {
            let due = all || now >= p.expires;
            if due {
                let records = self.read_records(p.fetch_offset);
                let request = (p.fetch_offset, p.last_fetched_epoch);
                self.send_fetch_response(
                    p.replica,
                    request,
                    p.correlation,
                    FetchResult::Records(records),
                    out,
                );
            }
            !due
        });
        if let Some(leader) = self.leader_state() {
            leader.parked = parked;
        }
    }

    fn read_records(&self, fetch_offset: Offset) -> Records<S::Entry> {
        self.log().read(fetch_offset, self.config.fetch_max_bytes)
    }

    /// Answer the Fetch at `request` (fetch offset, last fetched epoch) from `to` that carried
    /// `correlation`.
    fn send_fetch_response(
        &self,
        to: NodeId,
        request: (Offset, Epoch),
        correlation: u64,
        result: FetchResult<S>,
        out: &mut Outbox<S>,
    ) {
        let message = Message::FetchResponse {
            epoch: self.epoch,
            leader: self.election_leader(),
            fetch_offset: request.0,
            last_fetched_epoch: request.1,
            high_watermark: self.high_watermark,
            result,
        };
        out.send(self.id, to, message, correlation);
    }

    /// `RaftLog.validateOffsetAndEpoch`: is the fetcher's log a prefix of ours? Below the log
    /// start, or behind the oldest snapshot's epoch, it must load the latest snapshot; a
    /// mismatch of epochs means it diverged. A fetcher with an empty log loads the latest
    /// snapshot whenever there is one (`KafkaRaftClient.tryCompleteFetchRequest`, KAFKA-15078:
    /// cheaper than replaying the log from offset 0).
    fn validate_fetch(&self, fetch_offset: Offset, last_fetched_epoch: Epoch) -> Option<FetchResult<S>> {
        let log = self.log();
        if let Some(latest) = log.snapshot_id().filter(|id| fetch_offset == 0 && id.end_offset > 0) {
            return Some(FetchResult::SnapshotId(latest));
        }
        let start = log.start_offset();
        if start == 0 && fetch_offset == 0 {
            return None;
        }
        if let (Some(earliest), Some(latest)) = (log.snapshots().first(), log.snapshot_id()) {
            let behind = fetch_offset < start
                || (fetch_offset == start && last_fetched_epoch != earliest.id.epoch)
                || last_fetched_epoch < earliest.id.epoch;
            if behind {
                return Some(FetchResult::SnapshotId(latest));
            }
        }
        if self.config.sabotage.skip_divergence_check {
            return None;
        }
        let (epoch, end_offset) = log.end_offset_for_epoch(last_fetched_epoch);
        if epoch != last_fetched_epoch || fetch_offset > end_offset {
            return Some(FetchResult::DivergingEpoch { epoch, end_offset });
        }
        None
    }

    /// `KafkaRaftClient.handleFetchRequest`: answer a Fetch with records, a diverging epoch or
    /// a snapshot id at once; an empty answer waits (parked) up to `fetch.max.wait`, unless the
    /// fetcher's high watermark is behind the leader's (KIP-1166, Fetch v18). Only a valid fetch
    /// counts toward check-quorum (`LeaderState.updateReplicaState`).
    pub(super) fn on_fetch(
        &mut self,
        now: Micros,
        replica: ReplicaKey,
        fetch: FetchRequest,
        out: &mut Outbox<S>,
    ) {
        let FetchRequest { leader_epoch, fetch_offset, last_fetched_epoch, high_watermark } = fetch;
        let (from, request, correlation) = (replica.id, (fetch_offset, last_fetched_epoch), self.answering);
        if self.role.kind() != super::RoleKind::Leader || leader_epoch != self.epoch {
            self.send_fetch_response(from, request, correlation, FetchResult::NotLeader, out);
            return;
        }
        if let Some(problem) = self.validate_fetch(fetch_offset, last_fetched_epoch) {
            self.send_fetch_response(from, request, correlation, problem, out);
            return;
        }
        self.record_fetch_for_check_quorum(now, replica);
        let hw_before = self.high_watermark;
        let leader_end = self.log().end_offset();
        if let Some(leader) = self.leader_state() {
            leader.replica_mut(replica).fetched(now, fetch_offset, leader_end);
        }
        self.update_leader_high_watermark(out);
        if self.high_watermark != hw_before {
            self.complete_parked_fetches(now, true, out);
        }
        let records = self.read_records(fetch_offset);
        let behind = high_watermark < self.high_watermark;
        if records.is_empty() && self.config.fetch_max_wait > 0 && !behind {
            let expires = now + self.config.fetch_max_wait;
            // Each parked request is answered on its own, as Kafka's fetch purgatory completes
            // each request's future (a second copy of a Fetch does not replace the first).
            if let Some(leader) = self.leader_state() {
                let parked =
                    ParkedFetch { replica: from, fetch_offset, last_fetched_epoch, correlation, expires };
                leader.parked.push(parked);
            }
            return;
        }
        self.send_fetch_response(from, request, correlation, FetchResult::Records(records), out);
    }

    pub(super) fn record_fetch_for_check_quorum(&mut self, now: Micros, from: ReplicaKey) {
        let quorum = (self.majority(), self.is_voter());
        let (timeout, is_voter) = (self.config.check_quorum_timeout(), self.voter_set().is_voter(from));
        if let Some(leader) = self.leader_state()
            && is_voter
        {
            leader.record_voter_fetch(from.id, quorum, now, timeout);
        }
    }

    pub(super) fn on_fetch_snapshot(
        &mut self,
        now: Micros,
        replica: ReplicaKey,
        leader_epoch: Epoch,
        id: SnapshotId,
        position: u64,
        out: &mut Outbox<S>,
    ) {
        let serving = self.role.kind() == super::RoleKind::Leader && leader_epoch == self.epoch;
        let snapshot = self.log().snapshot().filter(|s| serving && s.id == id).cloned();
        let result = match snapshot {
            Some(snapshot) => {
                self.record_fetch_for_check_quorum(now, replica);
                let size = snapshot.size_bytes();
                let len = self.config.fetch_snapshot_max_bytes.max(1).min(size.saturating_sub(position));
                SnapshotChunk::Chunk { snapshot, position, len }
            }
            None => SnapshotChunk::NotFound,
        };
        let message =
            Message::FetchSnapshotResponse { epoch: self.epoch, leader: self.election_leader(), result };
        self.respond(replica.id, message, out);
    }
}

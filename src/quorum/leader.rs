//! The leader's side of the quorum: replica progress, the high watermark by the voters'
//! median fetched offset, parked fetches (long poll), check quorum, BeginQuorumEpoch resends
//! and the write accumulator (`append.linger.ms`).

use std::sync::Arc;

use super::config::Micros;
use super::log::Entry;
use super::message::{FetchResult, Message, SnapshotChunk};
use super::node::{Node, Role};
use super::outbox::{NoteKind, Outbox};
use super::record::Record;
use super::snapshot::SnapshotId;
use super::state_machine::StateMachine;
use super::{Epoch, NodeId, Offset};

/// What the leader knows of one replica.
#[derive(Clone, Debug)]
pub struct ReplicaState {
    pub id: NodeId,
    /// The replica holds every record below this offset (its last valid fetch offset).
    pub end_offset: Option<Offset>,
    /// When it last fetched in this epoch (BeginQuorumEpoch is resent to voters that have not
    /// fetched lately).
    pub last_fetch: Option<Micros>,
}

/// A Fetch with nothing new to return, held until records arrive, the high watermark moves or
/// `fetch_max_wait` passes.
#[derive(Clone, Debug)]
struct ParkedFetch {
    replica: NodeId,
    fetch_offset: Offset,
    last_fetched_epoch: Epoch,
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
}

impl<S: StateMachine> LeaderState<S> {
    pub(super) fn new(node: &Node<S>, now: Micros, epoch_start: Offset) -> LeaderState<S> {
        let voters =
            node.voters.iter().map(|&id| ReplicaState { id, end_offset: None, last_fetch: None }).collect();
        LeaderState {
            epoch_start,
            voters,
            observers: Vec::new(),
            check_quorum_deadline: now + node.config.check_quorum_timeout(),
            fetched_since_check: Vec::new(),
            begin_quorum_deadline: now + node.config.begin_quorum_epoch_interval(),
            parked: Vec::new(),
            pending: Vec::new(),
            linger_deadline: None,
        }
    }

    /// When check quorum fires unless a majority fetches.
    pub fn check_quorum_deadline(&self) -> Micros {
        self.check_quorum_deadline
    }

    pub(super) fn next_deadline(&self) -> Micros {
        let parked = self.parked.iter().map(|p| p.expires).min().unwrap_or(Micros::MAX);
        let linger = self.linger_deadline.unwrap_or(Micros::MAX);
        self.check_quorum_deadline.min(self.begin_quorum_deadline).min(parked).min(linger)
    }

    /// Records accepted but not yet appended.
    pub(super) fn pending_records(&self) -> u64 {
        self.pending.len() as u64
    }

    pub(super) fn accumulate(&mut self, now: Micros, record: Record<S::Entry>, linger: Micros) {
        self.pending.push(record);
        self.linger_deadline.get_or_insert(now + linger);
    }

    /// Voters other than `leader`, most caught-up first (ties by id): EndQuorumEpoch's
    /// preferred successors.
    pub(super) fn preferred_successors(&self, leader: NodeId) -> Arc<[NodeId]> {
        let mut others: Vec<&ReplicaState> = self.voters.iter().filter(|r| r.id != leader).collect();
        others.sort_by_key(|r| (std::cmp::Reverse(r.end_offset), r.id));
        others.iter().map(|r| r.id).collect()
    }

    fn replica_mut(&mut self, id: NodeId) -> (&mut ReplicaState, bool) {
        if let Some(index) = self.voters.iter().position(|r| r.id == id) {
            return (&mut self.voters[index], true);
        }
        let index = match self.observers.iter().position(|r| r.id == id) {
            Some(index) => index,
            None => {
                self.observers.push(ReplicaState { id, end_offset: None, last_fetch: None });
                self.observers.len() - 1
            }
        };
        (&mut self.observers[index], false)
    }

    /// Note a fetch from a voter for check quorum; true when a majority has fetched since the
    /// last reset (the timer then restarts).
    fn record_voter_fetch(&mut self, voter: NodeId, majority: usize, now: Micros, timeout: Micros) {
        if !self.fetched_since_check.contains(&voter) {
            self.fetched_since_check.push(voter);
        }
        if self.fetched_since_check.len() + 1 >= majority {
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
            .map(|r| if r.id == leader { leader_end } else { r.end_offset.unwrap_or(0) })
            .collect();
        ends.sort_unstable_by(|a, b| b.cmp(a));
        let index = if minority_bug { 0 } else { ends.len() / 2 };
        ends[index]
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
        for (i, record) in records.into_iter().enumerate() {
            self.disk.log.append(Entry { epoch: self.epoch, record, last_in_batch: i == last });
        }
        let end_offset = self.log().end_offset();
        out.note(self.id, NoteKind::Appended { records: count, first, end_offset });
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
        }
    }

    pub(super) fn leader_timers(&mut self, now: Micros, out: &mut Outbox<S>) {
        let config = self.config.clone();
        let single_voter = self.voters.len() == 1;
        let Some(leader) = self.leader_state() else {
            return;
        };
        if now >= leader.check_quorum_deadline {
            if !single_voter {
                self.step_down(now, "check quorum: no fetches from a majority", out);
                return;
            }
            leader.check_quorum_deadline = now + config.check_quorum_timeout();
        }
        if leader.linger_deadline.is_some_and(|d| now >= d) {
            leader.linger_deadline = None;
            let records = std::mem::take(&mut leader.pending);
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
        let quiet = |r: &&ReplicaState| r.id != id && r.last_fetch.is_none_or(|t| now >= t + interval);
        for replica in leader.voters.iter().filter(quiet) {
            out.send(id, replica.id, Message::BeginQuorumEpoch { epoch, leader: id });
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
                self.send_fetch_response(
                    p.replica,
                    (p.fetch_offset, p.last_fetched_epoch),
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

    fn read_records(&self, fetch_offset: Offset) -> Arc<[Entry<S::Entry>]> {
        self.log().read(fetch_offset, self.config.fetch_max_bytes).into()
    }

    fn send_fetch_response(
        &self,
        to: NodeId,
        request: (Offset, Epoch),
        result: FetchResult<S>,
        out: &mut Outbox<S>,
    ) {
        let message = Message::FetchResponse {
            epoch: self.epoch,
            leader: self.leader(),
            fetch_offset: request.0,
            last_fetched_epoch: request.1,
            high_watermark: self.high_watermark,
            result,
        };
        out.send(self.id, to, message);
    }

    /// `RaftLog.validateOffsetAndEpoch`: is the fetcher's log a prefix of ours? Below the log
    /// start, or behind the oldest snapshot's epoch, it must load the latest snapshot; a
    /// mismatch of epochs means it diverged.
    fn validate_fetch(&self, fetch_offset: Offset, last_fetched_epoch: Epoch) -> Option<FetchResult<S>> {
        let log = self.log();
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

    pub(super) fn on_fetch(
        &mut self,
        now: Micros,
        from: NodeId,
        leader_epoch: Epoch,
        fetch_offset: Offset,
        last_fetched_epoch: Epoch,
        out: &mut Outbox<S>,
    ) {
        let request = (fetch_offset, last_fetched_epoch);
        if self.role.kind() != super::RoleKind::Leader || leader_epoch != self.epoch {
            self.send_fetch_response(from, request, FetchResult::NotLeader, out);
            return;
        }
        self.record_fetch_for_check_quorum(now, from);
        if let Some(problem) = self.validate_fetch(fetch_offset, last_fetched_epoch) {
            self.send_fetch_response(from, request, problem, out);
            return;
        }
        let hw_before = self.high_watermark;
        if let Some(leader) = self.leader_state() {
            let (replica, _) = leader.replica_mut(from);
            replica.end_offset = Some(fetch_offset);
            replica.last_fetch = Some(now);
        }
        self.update_leader_high_watermark(out);
        if self.high_watermark != hw_before {
            self.complete_parked_fetches(now, true, out);
        }
        let records = self.read_records(fetch_offset);
        if records.is_empty() && self.config.fetch_max_wait > 0 {
            let expires = now + self.config.fetch_max_wait;
            if let Some(leader) = self.leader_state() {
                leader.parked.retain(|p| p.replica != from);
                leader.parked.push(ParkedFetch { replica: from, fetch_offset, last_fetched_epoch, expires });
            }
            return;
        }
        self.send_fetch_response(from, request, FetchResult::Records(records), out);
    }

    fn record_fetch_for_check_quorum(&mut self, now: Micros, from: NodeId) {
        let (majority, timeout, is_voter) =
            (self.majority(), self.config.check_quorum_timeout(), self.voters.contains(&from));
        if let Some(leader) = self.leader_state()
            && is_voter
        {
            leader.record_voter_fetch(from, majority, now, timeout);
        }
    }

    pub(super) fn on_fetch_snapshot(
        &mut self,
        now: Micros,
        from: NodeId,
        leader_epoch: Epoch,
        id: SnapshotId,
        position: u64,
        out: &mut Outbox<S>,
    ) {
        let serving = self.role.kind() == super::RoleKind::Leader && leader_epoch == self.epoch;
        let snapshot = self.log().snapshot().filter(|s| serving && s.id == id).cloned();
        let result = match snapshot {
            Some(snapshot) => {
                self.record_fetch_for_check_quorum(now, from);
                let size = snapshot.size_bytes();
                let len = self.config.fetch_snapshot_max_bytes.max(1).min(size.saturating_sub(position));
                SnapshotChunk::Chunk { snapshot, position, len }
            }
            None => SnapshotChunk::NotFound,
        };
        let message = Message::FetchSnapshotResponse { epoch: self.epoch, leader: self.leader(), result };
        out.send(self.id, from, message);
    }
}

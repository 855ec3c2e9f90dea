//! The fetching side of pull replication, for follower voters and observers alike: Fetch with
//! (fetch offset, last fetched epoch), append or truncate on the answer, learn the high
//! watermark, and catch up by FetchSnapshot when the leader's log no longer goes back far enough.

use std::sync::Arc;

use super::entries::Records;
use super::error::QuorumError;
use super::message::{FetchResult, Message, SnapshotChunk};
use super::node::{Node, Role, SUPPORTED_KRAFT_VERSIONS};
use super::outbox::{NoteKind, Outbox};
use super::reconfig::{ChangeKind, ReconfigError};
use super::snapshot::Snapshot;
use super::state_machine::StateMachine;
use super::{Epoch, NodeId, Offset};
use crate::harness::Micros;

impl<S: StateMachine> Node<S> {
    /// Send the next Fetch (or FetchSnapshot while a snapshot transfer is under way).
    pub(super) fn send_fetch(&mut self, now: Micros, out: &mut Outbox<S>) {
        let (epoch, timeout) = (self.epoch, self.config.request_timeout);
        let fetch_offset = self.log().end_offset();
        let last_fetched_epoch = self.log().last_epoch();
        let replica_dir = self.disk.directory_id;
        let high_watermark = self.high_watermark;
        let Role::Follower(f) = &mut self.role else {
            return;
        };
        f.request_deadline = Some(now + timeout);
        f.updating_voter = false;
        let message = match f.snapshot_fetch {
            Some((snapshot_id, position)) => {
                Message::FetchSnapshot { current_leader_epoch: epoch, snapshot_id, position, replica_dir }
            }
            None => Message::Fetch {
                current_leader_epoch: epoch,
                fetch_offset,
                last_fetched_epoch,
                replica_dir,
                high_watermark,
            },
        };
        let leader = f.leader;
        self.request(leader, message, out);
    }

    /// Ask a random other bootstrap server (`controller.quorum.bootstrap.servers`, or the
    /// static voters) with a Fetch; its answer names the epoch and leader it knows
    /// (`KafkaRaftClient.maybeSendFetchToAnyBootstrap`).
    pub(super) fn send_discovery_fetch(&mut self, now: Micros, out: &mut Outbox<S>) {
        let others: Vec<NodeId> =
            self.setup.bootstrap_servers.iter().copied().filter(|v| *v != self.id).collect();
        let Some(&voter) = others.get(self.rng.below(others.len().max(1) as u64) as usize) else {
            if let Role::Unattached(u) = &mut self.role {
                u.discovery_at = Micros::MAX;
            }
            return;
        };
        let message = Message::Fetch {
            current_leader_epoch: self.epoch,
            fetch_offset: self.log().end_offset(),
            last_fetched_epoch: self.log().last_epoch(),
            replica_dir: self.disk.directory_id,
            high_watermark: self.high_watermark,
        };
        self.request(voter, message, out);
        let next = now + self.config.request_timeout;
        match &mut self.role {
            Role::Unattached(u) => u.discovery_at = next,
            // The request in flight is now this Fetch: a snapshot transfer restarts from its
            // answer, and a FetchSnapshot answer still on its way is no longer expected.
            Role::Follower(f) => {
                f.request_deadline = Some(next);
                f.snapshot_fetch = None;
                f.updating_voter = false;
            }
            _ => {}
        }
    }

    /// `pollFollowerAsVoter` / `pollFollowerAsObserver`: a voter whose fetches stopped
    /// succeeding starts a pre-vote; a request that timed out is resent, an observer's to a
    /// random voter (it never gives up its leader by itself).
    pub(super) fn follower_timers(&mut self, now: Micros, out: &mut Outbox<S>) {
        let Role::Follower(f) = &self.role else {
            return;
        };
        let timed_out = f.request_deadline.is_some_and(|d| now >= d);
        if now >= f.fetch_deadline && self.is_voter() {
            self.start_election(now, out);
        } else if timed_out && !self.is_voter() {
            self.send_discovery_fetch(now, out);
        } else if timed_out {
            self.send_next_request(now, out);
        }
    }

    /// `pollFollowerAsVoter`: the next request to the leader is a Fetch, unless the voter's
    /// update period ran out and the leader should hear from it: then UpdateRaftVoter
    /// (`shouldSendUpdateVoteRequest`: at kraft.version 0, once per leader, since a leader keeps
    /// what it learns in memory only). At kraft.version 1 Kafka sends it when the log's entry
    /// for this voter differs from its own endpoints or supported versions; endpoints are not
    /// modelled and every node runs 4.3.1, so here they never differ.
    ///
    /// An observer that may auto-join (`pollFollowerAsObserver`, `controller.quorum.auto.join
    /// .enable`, kraft.version 1) sends instead, each update period, RemoveRaftVoter of a voter
    /// entry of its id with another directory (its wiped disk's), else AddRaftVoter of itself.
    fn send_next_request(&mut self, now: Micros, out: &mut Outbox<S>) {
        let (voter, kraft) = (self.is_voter(), self.log().control().kraft_version());
        let (id, epoch, dir, period) =
            (self.id, self.epoch, self.disk.directory_id, self.config.fetch_timeout);
        let auto_join = self.config.auto_join && kraft >= 1;
        // Only an auto-joining observer asks whether the set still names its id (every fetch
        // response passes here).
        let old_entry = if auto_join && !voter { self.voter_set().key_of(id) } else { None };
        if let Role::Follower(f) = &mut self.role
            && now >= f.update_voter_at
            && (voter || auto_join)
        {
            f.update_voter_at = now + period;
            let message = if voter {
                let (kraft_min, kraft_max) = SUPPORTED_KRAFT_VERSIONS;
                (kraft == 0 && !f.has_updated_leader).then_some(Message::UpdateRaftVoter {
                    current_leader_epoch: epoch,
                    voter_dir: dir,
                    kraft_min,
                    kraft_max,
                })
            } else {
                Some(match old_entry {
                    Some(old) => Message::RemoveRaftVoter { voter: old },
                    None => Message::AddRaftVoter { voter_dir: dir },
                })
            };
            if let Some(message) = message {
                f.request_deadline = Some(now + self.config.request_timeout);
                f.updating_voter = true;
                let leader = f.leader;
                self.request(leader, message, out);
                return;
            }
        }
        self.send_fetch(now, out);
    }

    /// `handleAddVoterResponse`, `handleRemoveVoterResponse`: NONE, REQUEST_TIMED_OUT and
    /// DUPLICATE_VOTER (VOTER_NOT_FOUND for a removal) restart the update period; then fetching
    /// goes on.
    pub(super) fn on_voter_change_response(
        &mut self,
        now: Micros,
        from: NodeId,
        kind: ChangeKind,
        error: Option<ReconfigError>,
        out: &mut Outbox<S>,
    ) {
        let period = self.config.fetch_timeout;
        let Role::Follower(f) = &mut self.role else { return };
        if f.leader != from || !f.updating_voter {
            return;
        }
        f.updating_voter = false;
        f.request_deadline = None;
        let backs_off = match error {
            None | Some(ReconfigError::RequestTimedOut(_)) => true,
            Some(ReconfigError::DuplicateVoter(_)) => kind == ChangeKind::Add,
            Some(ReconfigError::VoterNotFound(_)) => kind == ChangeKind::Remove,
            Some(_) => false,
        };
        if backs_off {
            f.update_voter_at = now + period;
        }
        self.send_fetch(now, out);
    }

    /// Accept a response only from our leader, in our epoch, for the Fetch we have in flight.
    fn expecting_response_from(&self, from: NodeId, epoch: Epoch) -> bool {
        matches!(&self.role, Role::Follower(f) if f.leader == from && f.request_deadline.is_some() && !f.updating_voter)
            && epoch == self.epoch
    }

    /// Whether a FetchResponse from `from` in `epoch` to a Fetch at `request` (fetch offset,
    /// last fetched epoch) would be applied if it arrived now, once [`Node::expects_response`]
    /// let it through: this node must follow `from` in that epoch and this log must still be
    /// where that request found it. A response arriving while a snapshot is fetched answers an
    /// older request. The page marks the records a DivergingEpoch will truncate only if both hold.
    pub(crate) fn accepts_fetch_response(
        &self,
        from: NodeId,
        epoch: Epoch,
        request: (Offset, Epoch),
    ) -> bool {
        let fetching_snapshot = matches!(&self.role, Role::Follower(f) if f.snapshot_fetch.is_some());
        self.expecting_response_from(from, epoch)
            && request == (self.log().end_offset(), self.log().last_epoch())
            && !fetching_snapshot
    }

    /// `handleUpdateVoterResponse`: NONE (or UNSUPPORTED_VERSION) means this leader knows us;
    /// like a successful fetch it resets the fetch timer. Another error is logged, and the
    /// voter tries again after its next update period.
    pub(super) fn on_update_voter_response(
        &mut self,
        now: Micros,
        from: NodeId,
        epoch: Epoch,
        leader: Option<NodeId>,
        error: Option<ReconfigError>,
        out: &mut Outbox<S>,
    ) {
        let before = (self.epoch, self.role.kind());
        self.observe_epoch(now, epoch, leader, out);
        if (self.epoch, self.role.kind()) != before || epoch != self.epoch {
            return;
        }
        let fetch_deadline = self.fetch_deadline_from(now);
        let Role::Follower(f) = &mut self.role else { return };
        if f.leader != from || !f.updating_voter {
            return;
        }
        f.updating_voter = false;
        f.request_deadline = None;
        if matches!(error, None | Some(ReconfigError::UnsupportedVersion)) {
            f.has_updated_leader = true;
            f.fetch_deadline = fetch_deadline;
        }
        self.send_fetch(now, out);
    }

    // The parameters are `Message::FetchResponse`'s fields between `now, from` and `out`, the
    // shape of every handler that `Node::handle` dispatches to; a struct would repeat the variant.
    #[expect(clippy::too_many_arguments, reason = "a FetchResponse's fields, see the comment")]
    pub(super) fn on_fetch_response(
        &mut self,
        now: Micros,
        from: NodeId,
        epoch: Epoch,
        leader: Option<NodeId>,
        request: (Offset, Epoch),
        high_watermark: Option<Offset>,
        result: FetchResult<S>,
        out: &mut Outbox<S>,
    ) {
        let before = (self.epoch, self.role.kind());
        self.observe_epoch(now, epoch, leader, out);
        if (self.epoch, self.role.kind()) != before {
            return;
        }
        let retry = now + self.config.retry_backoff;
        match &mut self.role {
            Role::Unattached(u) => {
                u.discovery_at = u.discovery_at.min(retry);
                return;
            }
            Role::Follower(f) if f.leader != from => {
                f.request_deadline = Some(now);
                return;
            }
            _ => {}
        }
        if !self.accepts_fetch_response(from, epoch, request) {
            return;
        }
        let fetch_deadline = self.fetch_deadline_from(now);
        if let Role::Follower(f) = &mut self.role {
            f.request_deadline = None;
            if !matches!(result, FetchResult::NotLeader) {
                f.fetch_deadline = fetch_deadline;
                f.last_fetch_ok = Some(now);
            }
        }
        match result {
            FetchResult::Records(entries) => self.append_fetched(&entries, high_watermark, out),
            FetchResult::DivergingEpoch { epoch, end_offset } => {
                self.truncate_diverging(epoch, end_offset, out)
            }
            FetchResult::SnapshotId(id) => {
                if let Role::Follower(f) = &mut self.role {
                    f.snapshot_fetch = Some((id, 0));
                }
            }
            FetchResult::NotLeader => {
                if let Role::Follower(f) = &mut self.role {
                    f.request_deadline = Some(now + self.config.retry_backoff);
                }
                return;
            }
        }
        self.send_next_request(now, out);
    }

    fn append_fetched(
        &mut self,
        entries: &Records<S::Entry>,
        high_watermark: Option<Offset>,
        out: &mut Outbox<S>,
    ) {
        for entry in entries.iter() {
            self.disk.log.append(entry.clone());
        }
        // `KafkaRaftClient.appendAsFollower`: a voter, or a controller that may become one,
        // flushes before its next Fetch reports the new end offset; a broker does not.
        let voter = self.is_voter() && !self.config.sabotage.fetch_before_flush;
        if voter || (self.config.can_become_voter && !self.is_voter()) {
            self.disk.log.flush();
        }
        if let Some(first) = entries.first() {
            let end_offset = self.log().end_offset();
            out.note(
                self.id,
                NoteKind::Appended { records: entries.len(), first: first.record.kind(), end_offset },
            );
        }
        if let Some(hw) = high_watermark {
            self.advance_high_watermark(hw.min(self.log().end_offset()), out);
        }
    }

    /// Truncate to the end of the common epoch, unless that would drop committed records (below
    /// the high watermark), which Kafka refuses as a fatal error.
    fn truncate_diverging(&mut self, epoch: Epoch, end_offset: Offset, out: &mut Outbox<S>) {
        let to = self.disk.log.diverging_end(epoch, end_offset);
        if let Some(high_watermark) = self.high_watermark.filter(|hw| to < *hw) {
            self.fatal.get_or_insert(QuorumError::TruncationBelowHighWatermark { to, high_watermark });
            return;
        }
        self.disk.log.truncate_to(to);
        out.note(self.id, NoteKind::Truncated { to, epoch, leader_end: end_offset });
    }

    pub(super) fn on_fetch_snapshot_response(
        &mut self,
        now: Micros,
        from: NodeId,
        epoch: Epoch,
        leader: Option<NodeId>,
        result: SnapshotChunk<S>,
        out: &mut Outbox<S>,
    ) {
        let before = (self.epoch, self.role.kind());
        self.observe_epoch(now, epoch, leader, out);
        if (self.epoch, self.role.kind()) != before || !self.expecting_response_from(from, epoch) {
            return;
        }
        let fetch_deadline = self.fetch_deadline_from(now);
        let Role::Follower(f) = &mut self.role else {
            return;
        };
        let expected = match (&result, f.snapshot_fetch) {
            (SnapshotChunk::Chunk { snapshot, position, .. }, Some((id, at))) => {
                snapshot.id == id && *position == at
            }
            (SnapshotChunk::NotFound, _) => true,
            _ => false,
        };
        if !expected {
            return;
        }
        f.request_deadline = None;
        f.fetch_deadline = fetch_deadline;
        f.last_fetch_ok = Some(now);
        match result {
            SnapshotChunk::Chunk { snapshot, position, len } => {
                let next = position + len;
                if next >= snapshot.size_bytes() {
                    f.snapshot_fetch = None;
                    self.install_snapshot(snapshot, out);
                } else {
                    f.snapshot_fetch = Some((snapshot.id, next));
                }
            }
            SnapshotChunk::NotFound => f.snapshot_fetch = None,
        }
        self.send_next_request(now, out);
    }

    /// Replace the log by the fetched snapshot and restart the state machine from it.
    fn install_snapshot(&mut self, snapshot: Arc<Snapshot<S>>, out: &mut Outbox<S>) {
        let id = snapshot.id;
        let applied = self.applied.applied_offset;
        if applied > id.end_offset {
            self.fatal.get_or_insert(QuorumError::StaleSnapshot { snapshot: id, applied });
            return;
        }
        self.applied = snapshot.state.clone();
        self.disk.log.install_snapshot(snapshot);
        self.snapshots_loaded += 1;
        out.note(self.id, NoteKind::SnapshotLoaded(id));
        self.advance_high_watermark(id.end_offset, out);
    }
}

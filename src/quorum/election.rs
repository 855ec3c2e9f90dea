//! Elections: pre-vote (KIP-996), Vote with the log comparison and one vote per epoch,
//! candidate backoff, BeginQuorumEpoch from the winner, and graceful EndQuorumEpoch.

use std::sync::Arc;

use super::config::Micros;
use super::error::QuorumError;
use super::leader::LeaderState;
use super::message::Message;
use super::node::{Election, Node, Resigned, Role};
use super::outbox::{NoteKind, Outbox};
use super::record::{LeaderChange, Record};
use super::state_machine::StateMachine;
use super::{Epoch, NodeId, Offset};

impl<S: StateMachine> Node<S> {
    /// Start an election after a timeout: a pre-vote round when enabled, else a candidacy.
    pub(super) fn start_election(&mut self, now: Micros, retries: u32, out: &mut Outbox<S>) {
        if self.config.pre_vote {
            self.become_prospective(now, retries, out);
        } else {
            self.become_candidate(now, retries, out);
        }
    }

    fn become_prospective(&mut self, now: Micros, retries: u32, out: &mut Outbox<S>) {
        let leader_hint = self.leader();
        let deadline = now + self.election_timeout();
        let election = Election::new(self.id, deadline, retries, leader_hint);
        self.transition(now, Role::Prospective(election), self.epoch, self.voted, out);
        self.request_votes(true, out);
        self.count_votes(now, out);
    }

    fn become_candidate(&mut self, now: Micros, retries: u32, out: &mut Outbox<S>) {
        let deadline = now + self.election_timeout();
        let election = Election::new(self.id, deadline, retries, None);
        self.transition(now, Role::Candidate(election), self.epoch + 1, Some(self.id), out);
        self.request_votes(false, out);
        self.count_votes(now, out);
    }

    fn request_votes(&self, pre_vote: bool, out: &mut Outbox<S>) {
        let candidate_epoch = if pre_vote { self.epoch + 1 } else { self.epoch };
        let log = self.log();
        for &voter in self.voters.iter().filter(|v| **v != self.id) {
            let message = Message::Vote {
                candidate_epoch,
                candidate: self.id,
                last_offset_epoch: log.last_epoch(),
                last_offset: log.end_offset(),
                pre_vote,
            };
            out.send(self.id, voter, message);
        }
    }

    /// Whether a candidate's log, ending at `(last epoch, end offset)`, is at least as
    /// up-to-date as ours.
    fn candidate_log_ok(&self, last: (Epoch, Offset)) -> bool {
        let log = self.log();
        self.config.sabotage.vote_without_log_check || last >= (log.last_epoch(), log.end_offset())
    }

    pub(super) fn on_vote(
        &mut self,
        now: Micros,
        candidate_epoch: Epoch,
        candidate: NodeId,
        last: (Epoch, Offset),
        pre_vote: bool,
        out: &mut Outbox<S>,
    ) {
        if !self.is_voter() {
            return;
        }
        let granted = if !pre_vote && candidate_epoch > self.epoch {
            let granted = self.candidate_log_ok(last);
            self.become_unattached(now, candidate_epoch, granted.then_some(candidate), out);
            granted
        } else {
            let granted = candidate_epoch >= self.epoch
                && self.candidate_log_ok(last)
                && self.can_grant(candidate, pre_vote, now);
            if granted && !pre_vote && self.voted.is_none() {
                self.become_unattached(now, self.epoch, Some(candidate), out);
            }
            granted
        };
        if granted {
            out.note(self.id, NoteKind::VoteGranted { candidate, epoch: candidate_epoch, pre_vote });
        }
        let response = Message::VoteResponse { epoch: self.epoch, leader: self.leader(), granted, pre_vote };
        out.send(self.id, candidate, response);
    }

    /// The role's part of the vote decision (the log check is separate).
    fn can_grant(&self, candidate: NodeId, pre_vote: bool, now: Micros) -> bool {
        match &self.role {
            Role::Leader(_) => false,
            Role::Follower(f) if pre_vote => {
                f.leader_resigned || f.last_fetch_ok.is_none_or(|t| now >= t + self.config.fetch_timeout)
            }
            Role::Follower(_) | Role::Resigned(_) | Role::Candidate(_) => pre_vote,
            Role::Unattached(_) | Role::Prospective(_) => {
                pre_vote || self.voted.is_none_or(|v| v == candidate)
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn on_vote_response(
        &mut self,
        now: Micros,
        from: NodeId,
        epoch: Epoch,
        leader: Option<NodeId>,
        granted: bool,
        pre_vote: bool,
        out: &mut Outbox<S>,
    ) {
        if epoch > self.epoch {
            self.observe_epoch(now, epoch, leader, out);
            return;
        }
        let our_round = match &mut self.role {
            Role::Prospective(e) if pre_vote && epoch == self.epoch => Some(e),
            Role::Candidate(e) if !pre_vote && epoch == self.epoch && !e.backing_off => Some(e),
            _ => None,
        };
        let Some(election) = our_round else { return };
        let hint = election.leader_hint;
        if granted {
            election.granted.insert(from);
        } else {
            election.rejected.insert(from);
        }
        if let (Some(leader), true, false) = (leader, pre_vote, granted)
            && leader != self.id
            && Some(leader) != hint
        {
            self.become_follower(now, epoch, leader, out);
            return;
        }
        self.count_votes(now, out);
    }

    /// Win or lose the current round once a majority has answered either way.
    fn count_votes(&mut self, now: Micros, out: &mut Outbox<S>) {
        let majority = self.majority();
        let (won, lost, retries) = match &self.role {
            Role::Prospective(e) | Role::Candidate(e) => {
                (e.granted.len() >= majority, e.rejected.len() >= majority, e.retries)
            }
            _ => return,
        };
        match (&self.role, won, lost) {
            (Role::Prospective(_), true, _) => self.become_candidate(now, retries, out),
            (Role::Prospective(_), _, true) => self.lose_pre_vote(now, out),
            (Role::Candidate(_), true, _) => self.become_leader(now, out),
            (Role::Candidate(_), _, true) => self.back_off(now),
            _ => {}
        }
    }

    /// A lost or timed-out pre-vote: back to following the known leader, or to unattached.
    pub(super) fn lose_pre_vote(&mut self, now: Micros, out: &mut Outbox<S>) {
        let hint = match &self.role {
            Role::Prospective(e) => e.leader_hint,
            _ => None,
        };
        match hint {
            Some(leader) => self.become_follower(now, self.epoch, leader, out),
            None => self.become_unattached(now, self.epoch, self.voted, out),
        }
    }

    /// The candidate's timer: the election timed out (back off), or the backoff is over (retry).
    pub(super) fn candidate_timer(&mut self, now: Micros, out: &mut Outbox<S>) {
        let Role::Candidate(e) = &self.role else {
            return;
        };
        if e.backing_off {
            let retries = e.retries;
            self.start_election(now, retries, out);
        } else {
            self.back_off(now);
        }
    }

    /// Kafka's backoff after a failed election:
    /// `min(retry.backoff x random(2 << min(20, retries - 1)), election.backoff.max)`.
    fn back_off(&mut self, now: Micros) {
        let Role::Candidate(e) = &self.role else {
            return;
        };
        let retries = e.retries + 1;
        let spread = 2u64 << (retries - 1).min(20);
        let backoff =
            (self.config.retry_backoff * self.rng.below(spread)).min(self.config.election_backoff_max);
        if let Role::Candidate(e) = &mut self.role {
            e.retries = retries;
            e.backing_off = true;
            e.deadline = now + backoff;
        }
    }

    fn become_leader(&mut self, now: Micros, out: &mut Outbox<S>) {
        let granting: Arc<[NodeId]> = match &self.role {
            Role::Candidate(e) => e.granted.iter().copied().collect(),
            _ => return,
        };
        let epoch_start = self.log().end_offset();
        let state = LeaderState::new(self, now, epoch_start);
        self.high_watermark = None;
        self.transition(now, Role::Leader(Box::new(state)), self.epoch, self.voted, out);
        let record = Record::LeaderChange(Arc::new(LeaderChange {
            leader: self.id,
            voters: self.voters.clone(),
            granting,
        }));
        self.append_as_leader(now, vec![record], out);
        self.send_begin_quorum_epoch(out);
    }

    pub(super) fn on_begin_quorum_epoch(
        &mut self,
        now: Micros,
        from: NodeId,
        epoch: Epoch,
        leader: NodeId,
        out: &mut Outbox<S>,
    ) {
        if let Role::Follower(f) = &self.role
            && epoch == self.epoch
            && f.leader != leader
        {
            let error = QuorumError::ConflictingLeaders { epoch, known: f.leader, other: leader };
            self.fatal.get_or_insert(error);
            return;
        }
        let already_following = matches!(&self.role, Role::Follower(f) if f.leader == leader);
        if epoch > self.epoch
            || (epoch == self.epoch && !already_following && self.role.kind() != super::RoleKind::Leader)
        {
            self.become_follower(now, epoch, leader, out);
        }
        out.send(self.id, from, Message::BeginQuorumEpochResponse { epoch: self.epoch });
    }

    pub(super) fn on_end_quorum_epoch(
        &mut self,
        now: Micros,
        epoch: Epoch,
        leader: NodeId,
        preferred: &[NodeId],
        out: &mut Outbox<S>,
    ) {
        if epoch < self.epoch {
            return;
        }
        let backoff = self.successor_backoff(preferred);
        if epoch > self.epoch {
            self.become_unattached(now, epoch, None, out);
        }
        match &mut self.role {
            Role::Follower(f) if f.leader == leader => {
                f.leader_resigned = true;
                f.fetch_deadline = now + backoff;
            }
            Role::Unattached(u) => u.deadline = now + backoff,
            _ => {}
        }
    }

    /// The most caught-up successor runs at once; the others wait exponentially by rank
    /// (Kafka's strict exponential election backoff).
    fn successor_backoff(&self, preferred: &[NodeId]) -> Micros {
        let max = self.config.election_backoff_max;
        match preferred.iter().position(|v| *v == self.id) {
            Some(0) => 0,
            Some(rank) => (self.config.retry_backoff << (rank - 1).min(20)).min(max),
            None => max,
        }
    }

    /// Step down gracefully: tell the voters, most caught-up first, to take over.
    pub fn resign(&mut self, now: Micros, out: &mut Outbox<S>) -> Result<(), String> {
        if self.role.kind() != super::RoleKind::Leader {
            return Err(format!("node {} is {}, not the leader", self.id, self.role.kind()));
        }
        self.step_down(now, "graceful shutdown", out);
        Ok(())
    }

    /// Become Resigned and send EndQuorumEpoch with the preferred successors.
    pub(super) fn step_down(&mut self, now: Micros, reason: &'static str, out: &mut Outbox<S>) {
        let Role::Leader(leader) = &self.role else {
            return;
        };
        let preferred = leader.preferred_successors(self.id);
        let deadline = now + self.election_timeout();
        self.transition(now, Role::Resigned(Resigned { deadline }), self.epoch, self.voted, out);
        out.note(self.id, NoteKind::Resigned { reason });
        for &voter in self.voters.iter().filter(|v| **v != self.id) {
            let message = Message::EndQuorumEpoch {
                epoch: self.epoch,
                leader: self.id,
                preferred_successors: preferred.clone(),
            };
            out.send(self.id, voter, message);
        }
    }
}

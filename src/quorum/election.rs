//! Elections as Kafka 4.3 runs them: pre-vote (KIP-996) in the current epoch, Vote with the
//! log comparison and one vote per epoch, vote requests resent to voters that have not answered,
//! BeginQuorumEpoch from the winner, and graceful resignation with EndQuorumEpoch (resent until
//! acknowledged) and its strictly exponential successor backoff.

use std::sync::Arc;

use super::error::QuorumError;
use super::leader::LeaderState;
use super::message::Message;
use super::node::{Election, Node, NotLeading, Role};
use super::outbox::{NoteKind, Outbox};
use super::record::{LeaderChange, Record};
use super::role::RoleKind;
use super::state_machine::StateMachine;
use super::voters::{DirectoryId, VoterSet};
use super::{Epoch, NodeId, Offset};
use crate::harness::Micros;

impl<S: StateMachine> Node<S> {
    /// Start an election after a timeout: a pre-vote round (Kafka 4.x), or a candidacy when
    /// pre-vote is switched off.
    pub(super) fn start_election(&mut self, now: Micros, out: &mut Outbox<S>) {
        if self.config.pre_vote {
            self.become_prospective(now, out);
        } else {
            self.become_candidate(now, out);
        }
    }

    /// `QuorumState.transitionToProspective`: same epoch, memory only, keeps the known leader.
    fn become_prospective(&mut self, now: Micros, out: &mut Outbox<S>) {
        let leader_hint = self.known_leader();
        let deadline = now + self.election_timeout();
        let election = Election::new(self.id, now, deadline, leader_hint);
        self.transition(now, Role::Prospective(election), self.epoch, self.voted, out);
        self.count_votes(now, out);
    }

    /// `QuorumState.transitionToCandidate`: epoch + 1, durable vote for itself.
    fn become_candidate(&mut self, now: Micros, out: &mut Outbox<S>) {
        let deadline = now + self.election_timeout();
        let election = Election::new(self.id, now, deadline, None);
        self.transition(now, Role::Candidate(election), self.epoch + 1, Some(self.id), out);
        self.count_votes(now, out);
    }

    /// `KafkaRaftClient.maybeSendVoteRequests`: ask every voter that has not answered, with the
    /// current epoch for both kinds (`buildVoteRequest`), while the round is not lost.
    fn send_vote_requests(&mut self, now: Micros, out: &mut Outbox<S>) {
        let (id, epoch, timeout) = (self.id, self.epoch, self.config.request_timeout);
        let (last_offset_epoch, last_offset) = (self.log().last_epoch(), self.log().end_offset());
        let electorate = self.electorate();
        let majority = electorate.majority();
        let voters: Vec<_> = electorate.keys().to_vec();
        let (pre_vote, election) = match &mut self.role {
            Role::Prospective(e) => (true, e),
            Role::Candidate(e) => (false, e),
            _ => return,
        };
        election.resend_at = now + timeout;
        if is_lost(election, voters.len(), majority) {
            return;
        }
        let unanswered: Vec<_> = voters
            .iter()
            .filter(|v| !election.granted.contains(&v.id) && !election.rejected.contains(&v.id))
            .collect();
        for voter in unanswered {
            let message = Message::Vote {
                candidate_epoch: epoch,
                candidate: id,
                last_offset_epoch,
                last_offset,
                pre_vote,
                voter_dir: voter.dir,
            };
            self.request(voter.id, message, out);
        }
    }

    /// Whether a candidate's log, ending at `(last epoch, end offset)`, is at least as
    /// up-to-date as ours.
    fn candidate_log_ok(&self, last: (Epoch, Offset)) -> bool {
        let log = self.log();
        self.config.sabotage.vote_without_log_check || last >= (log.last_epoch(), log.end_offset())
    }

    /// `KafkaRaftClient.handleVoteRequest`: a request from an older epoch is refused with ours;
    /// one from a newer epoch (pre-vote or not) first makes this node Unattached in that epoch;
    /// then a request meant for another directory of this node id is refused with
    /// INVALID_VOTER_KEY (`isValidVoterKey`); then the role decides (`canGrantVote`), whether
    /// or not this node or the candidate is in its voter set, and a granted real vote is
    /// persisted.
    // The parameters are `Message::Vote`'s fields between `now` and `out`, the shape of every
    // handler that `Node::handle` dispatches to; a struct would repeat the variant.
    #[expect(clippy::too_many_arguments, reason = "a Vote's fields, see the comment")]
    pub(super) fn on_vote(
        &mut self,
        now: Micros,
        candidate_epoch: Epoch,
        candidate: NodeId,
        last: (Epoch, Offset),
        pre_vote: bool,
        voter_dir: Option<DirectoryId>,
        out: &mut Outbox<S>,
    ) {
        if candidate_epoch > self.epoch {
            self.become_unattached(now, candidate_epoch, None, out);
        }
        if voter_dir.is_some_and(|dir| dir != self.disk.directory_id) {
            let response = Message::VoteResponse {
                epoch: self.epoch,
                leader: self.election_leader(),
                granted: false,
                pre_vote,
                invalid_voter_key: true,
            };
            self.respond(candidate, response, out);
            return;
        }
        let granted = candidate_epoch == self.epoch && self.can_grant(candidate, pre_vote, last);
        let new_vote =
            self.voted.is_none() || (self.config.sabotage.vote_twice && self.voted != Some(candidate));
        if granted && !pre_vote && new_vote {
            self.record_vote(now, candidate, out);
        }
        if granted {
            out.note(self.id, NoteKind::VoteGranted { candidate, epoch: candidate_epoch, pre_vote });
        }
        let response = Message::VoteResponse {
            epoch: self.epoch,
            leader: self.election_leader(),
            granted,
            pre_vote,
            invalid_voter_key: false,
        };
        self.respond(candidate, response, out);
    }

    /// Each role's `canGrantVote`: Unattached and Prospective grant a pre-vote to any
    /// up-to-date log and a vote unless they voted for someone else or know a leader; a
    /// Follower grants only a pre-vote and only before its first successful fetch in the epoch;
    /// Candidate and Resigned grant pre-votes only; a Leader grants nothing.
    fn can_grant(&self, candidate: NodeId, pre_vote: bool, last: (Epoch, Offset)) -> bool {
        let up_to_date = self.candidate_log_ok(last);
        match &self.role {
            Role::Leader(_) => false,
            Role::Follower(f) => pre_vote && f.last_fetch_ok.is_none() && up_to_date,
            Role::Candidate(_) | Role::Resigned(_) => pre_vote && up_to_date,
            Role::Unattached(_) | Role::Prospective(_) if pre_vote => up_to_date,
            Role::Unattached(_) | Role::Prospective(_) => match self.voted {
                Some(voted) => voted == candidate || self.config.sabotage.vote_twice,
                None => self.known_leader().is_none() && up_to_date,
            },
        }
    }

    /// Persist a granted vote: Unattached stays Unattached (`unattachedAddVotedState`), a
    /// Prospective stays Prospective with a fresh round and timer (`prospectiveAddVotedState`).
    fn record_vote(&mut self, now: Micros, candidate: NodeId, out: &mut Outbox<S>) {
        let deadline = now + self.election_timeout();
        match &self.role {
            Role::Prospective(e) => {
                let election = Election::new(self.id, now, deadline, e.leader_hint);
                self.transition(now, Role::Prospective(election), self.epoch, Some(candidate), out);
            }
            _ => self.become_unattached_until(now, self.epoch, Some(candidate), deadline, out),
        }
    }

    /// `KafkaRaftClient.handleVoteResponse`: newer epochs and leaders are adopted first; then a
    /// grant or rejection is recorded in the current round. INVALID_VOTER_KEY records neither
    /// (`handleUnexpectedError`): the request goes again when it is due.
    // The parameters are `Message::VoteResponse`'s fields between `now, from` and `out`, the
    // shape of every handler that `Node::handle` dispatches to; a struct would repeat the variant.
    #[expect(clippy::too_many_arguments, reason = "a VoteResponse's fields, see the comment")]
    pub(super) fn on_vote_response(
        &mut self,
        now: Micros,
        from: NodeId,
        epoch: Epoch,
        leader: Option<NodeId>,
        granted: bool,
        pre_vote: bool,
        invalid_voter_key: bool,
        out: &mut Outbox<S>,
    ) {
        let before = (self.epoch, self.role.kind());
        self.observe_epoch(now, epoch, leader, out);
        if (self.epoch, self.role.kind()) != before || epoch != self.epoch || invalid_voter_key {
            return;
        }
        let our_round = match &mut self.role {
            Role::Prospective(e) if pre_vote => Some(e),
            Role::Candidate(e) if !pre_vote => Some(e),
            _ => None,
        };
        let Some(election) = our_round else { return };
        if granted {
            election.granted.insert(from);
        } else {
            election.rejected.insert(from);
        }
        self.count_votes(now, out);
    }

    /// The voters an election asks and counts: those of the voter set the candidate's log holds,
    /// committed or not (`CandidateState` takes `partitionState.lastVoterSet()`); with the
    /// `votes-under-committed-set` sabotage, the committed set only.
    fn electorate(&self) -> &VoterSet {
        if self.config.sabotage.votes_under_committed_set {
            self.committed_voter_set()
        } else {
            self.voter_set()
        }
    }

    /// Win once a majority granted (`EpochElection.isVoteGranted`); a Prospective that can no
    /// longer win gives up at once, a Candidate waits out its election timeout. Otherwise send
    /// the requests still due.
    fn count_votes(&mut self, now: Micros, out: &mut Outbox<S>) {
        let electorate = self.electorate();
        let (voters, majority) = (electorate.len(), electorate.majority());
        let (won, lost, resend_due) = match &self.role {
            Role::Prospective(e) | Role::Candidate(e) => {
                let needed = if self.config.sabotage.leader_without_majority { 1 } else { majority };
                (e.granted.len() >= needed, is_lost(e, voters, majority), now >= e.resend_at)
            }
            _ => return,
        };
        match (self.role.kind(), won, lost) {
            (RoleKind::Prospective, true, _) => self.become_candidate(now, out),
            (RoleKind::Prospective, _, true) => self.leave_prospective(now, true, out),
            (RoleKind::Candidate, true, _) => self.become_leader(now, out),
            _ if resend_due => self.send_vote_requests(now, out),
            _ => {}
        }
    }

    /// `prospectiveTransitionAfterElectionLoss`: follow the leader it knew, or become
    /// Unattached in the same epoch: with a new timer after a rejection, with none left after
    /// a timeout (so the next pre-vote starts at once).
    fn leave_prospective(&mut self, now: Micros, rejected: bool, out: &mut Outbox<S>) {
        let hint = match &self.role {
            Role::Prospective(e) => e.leader_hint,
            _ => None,
        };
        match hint {
            Some(leader) => self.become_follower(now, self.epoch, leader, out),
            None => {
                let deadline = if rejected { now + self.election_timeout() } else { now };
                self.become_unattached_until(now, self.epoch, self.voted, deadline, out);
            }
        }
    }

    /// `pollProspective` and `pollCandidate`: resend due vote requests; when the election
    /// timeout fires a Prospective gives up and a Candidate goes back to Prospective (or, with
    /// pre-vote off, runs again in the next epoch).
    pub(super) fn election_timers(&mut self, now: Micros, out: &mut Outbox<S>) {
        let (kind, deadline, resend_at) = match &self.role {
            Role::Prospective(e) | Role::Candidate(e) => (self.role.kind(), e.deadline, e.resend_at),
            _ => return,
        };
        if now < deadline {
            if now >= resend_at {
                self.send_vote_requests(now, out);
            }
            return;
        }
        match kind {
            RoleKind::Prospective => self.leave_prospective(now, false, out),
            _ if self.config.pre_vote => self.become_prospective(now, out),
            _ => self.become_candidate(now, out),
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
            voters: self.voter_set().ids().collect(),
            granting,
        }));
        let mut records = vec![record];
        // `LeaderState.appendStartOfEpochControlRecords`: a voter set still read from the
        // bootstrap checkpoint goes into the log with the LeaderChange, in one batch.
        let control = self.log().control();
        if control.kraft_version() >= 1 && control.voters_from_bootstrap() {
            records.push(Record::KRaftVersion(control.kraft_version()));
            records.push(Record::Voters(Arc::new(self.voter_set().clone())));
        }
        self.append_as_leader(now, records, out);
        self.send_begin_quorum_epoch(now, out);
    }

    /// `KafkaRaftClient.handleBeginQuorumEpochRequest`: refuse a request for another
    /// directory of this node id; follow the announced leader unless
    /// already following it (a Prospective that knows it keeps its pre-vote going); two
    /// leaders announced for one epoch is a fatal error.
    pub(super) fn on_begin_quorum_epoch(
        &mut self,
        now: Micros,
        from: NodeId,
        epoch: Epoch,
        leader: NodeId,
        voter_dir: Option<DirectoryId>,
        out: &mut Outbox<S>,
    ) {
        if voter_dir.is_some_and(|dir| dir != self.disk.directory_id) {
            // INVALID_VOTER_KEY (`isValidVoterKey`): meant for an earlier format of this node.
            self.respond(from, Message::BeginQuorumEpochResponse { epoch: self.epoch }, out);
            return;
        }
        if epoch == self.epoch
            && let Some(known) = self.known_leader().filter(|known| *known != leader)
        {
            self.fatal.get_or_insert(QuorumError::ConflictingLeaders { epoch, known, other: leader });
            return;
        }
        self.observe_epoch(now, epoch, Some(leader), out);
        self.respond(from, Message::BeginQuorumEpochResponse { epoch: self.epoch }, out);
    }

    /// `KafkaRaftClient.handleEndQuorumEpochRequest`: adopt the epoch and leader, then a
    /// follower of that leader sets its fetch timer to its successor backoff; always answer.
    pub(super) fn on_end_quorum_epoch(
        &mut self,
        now: Micros,
        from: NodeId,
        epoch: Epoch,
        leader: NodeId,
        preferred: &[NodeId],
        out: &mut Outbox<S>,
    ) {
        if epoch >= self.epoch {
            self.observe_epoch(now, epoch, Some(leader), out);
            let backoff = self.successor_backoff(preferred);
            if let Role::Follower(f) = &mut self.role
                && f.leader == leader
                && epoch == self.epoch
            {
                f.fetch_deadline = now + backoff;
            }
        }
        let response = Message::EndQuorumEpochResponse { epoch: self.epoch, leader: self.election_leader() };
        self.respond(from, response, out);
    }

    /// A voter acknowledged EndQuorumEpoch (`ResignedState.acknowledgeResignation`).
    pub(super) fn on_end_quorum_epoch_response(
        &mut self,
        now: Micros,
        from: NodeId,
        epoch: Epoch,
        leader: Option<NodeId>,
        out: &mut Outbox<S>,
    ) {
        self.observe_epoch(now, epoch, leader, out);
        if let Role::Resigned(r) = &mut self.role
            && epoch == self.epoch
        {
            r.unacked.remove(&from);
        }
    }

    /// `KafkaRaftClient.strictExponentialElectionBackoffMs`: position 0 runs at once, position
    /// p of n waits min(max, (max >> (n - 1)) << (p - 1)), a voter not in the list waits max.
    fn successor_backoff(&self, preferred: &[NodeId]) -> Micros {
        let max = self.config.election_backoff_max;
        let n = preferred.len();
        let position = preferred.iter().position(|v| *v == self.id).unwrap_or(n);
        match position {
            0 => 0,
            p if p >= n => max,
            p => ((max >> (n - 1).min(63)) << (p - 1).min(63)).min(max),
        }
    }

    /// Step down gracefully: tell the voters, most caught-up first, to take over.
    pub fn resign(&mut self, now: Micros, out: &mut Outbox<S>) -> Result<(), NotLeading> {
        if self.role.kind() != RoleKind::Leader {
            return Err(NotLeading { node: self.id, role: self.role.kind() });
        }
        self.step_down(now, "graceful shutdown", out);
        Ok(())
    }

    /// Become Resigned (`transitionToResigned`) and send EndQuorumEpoch with the preferred
    /// successors.
    pub(super) fn step_down(&mut self, now: Micros, reason: &'static str, out: &mut Outbox<S>) {
        let Role::Leader(leader) = &self.role else {
            return;
        };
        let preferred = leader.preferred_successors(self.id);
        let deadline = now + self.election_timeout();
        let resigned = self.new_resigned(now, deadline, preferred);
        self.transition(now, Role::Resigned(resigned), self.epoch, self.voted, out);
        out.note(self.id, NoteKind::Resigned { reason });
        self.resigned_timers(now, out);
    }

    /// `KafkaRaftClient.pollResigned`: resend EndQuorumEpoch to voters that have not
    /// acknowledged it; when the election timer fires, move to Unattached in the next epoch
    /// with no time left, so the next poll starts a pre-vote there.
    pub(super) fn resigned_timers(&mut self, now: Micros, out: &mut Outbox<S>) {
        let (id, epoch, timeout) = (self.id, self.epoch, self.config.request_timeout);
        let Role::Resigned(r) = &mut self.role else {
            return;
        };
        if now >= r.deadline {
            if self.config.sabotage.resign_into_same_epoch {
                self.become_prospective(now, out);
            } else {
                self.become_unattached_until(now, epoch + 1, None, now, out);
            }
            return;
        }
        if now >= r.resend_at {
            r.resend_at = now + timeout;
            let (unacked, preferred) = (r.unacked.clone(), r.preferred.clone());
            for &voter in unacked.iter() {
                let message =
                    Message::EndQuorumEpoch { epoch, leader: id, preferred_successors: preferred.clone() };
                self.request(voter, message, out);
            }
        }
    }
}

/// `EpochElection.isVoteRejected`: even every unanswered voter granting could not make a
/// majority.
pub(super) fn is_lost(election: &Election, voters: usize, majority: usize) -> bool {
    let unrecorded = voters - election.granted.len() - election.rejected.len();
    election.granted.len() + unrecorded < majority
}

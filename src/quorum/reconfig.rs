//! Changing the voter set one voter at a time (KIP-853), as the leader of Kafka 4.3.1 does it:
//! AddRaftVoter (`AddVoterHandler`) asks the new voter for its ApiVersions, checks that it
//! caught up as an observer, then appends a VotersRecord; RemoveRaftVoter (`RemoveVoterHandler`)
//! appends at once. Either answers once the record commits, or with REQUEST_TIMED_OUT when its
//! timer (`controller.quorum.request.timeout.ms`) runs out first, and only one may be under way.

use std::fmt;
use std::sync::Arc;

use super::node::{Node, Role};
use super::outbox::{NoteKind, Outbox, UpgradeStep};
use super::record::Record;
use super::state_machine::StateMachine;
use super::voters::{KRaftVersion, LATEST_KRAFT_VERSION, ReplicaKey};
use super::{Epoch, Message, NodeId, Offset, RoleKind};
use crate::harness::Micros;

/// Which reconfiguration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeKind {
    Add,
    Remove,
}

impl ChangeKind {
    /// The RPC's name.
    pub(crate) fn rpc(self) -> &'static str {
        match self {
            ChangeKind::Add => "AddRaftVoter",
            ChangeKind::Remove => "RemoveRaftVoter",
        }
    }
}

/// An AddRaftVoter or RemoveRaftVoter the leader is carrying out.
#[derive(Clone, Debug, PartialEq)]
pub struct PendingChange {
    pub kind: ChangeKind,
    pub voter: ReplicaKey,
    /// When it is answered REQUEST_TIMED_OUT (`maybeExpirePendingOperation`).
    pub deadline: Micros,
    /// The VotersRecord's offset, once appended (an add first waits for ApiVersions).
    pub offset: Option<Offset>,
    /// The controller that asked by RPC (auto-join) and still waits for the answer, with its
    /// request's correlation id; `None` for the operator's tool, whose answer is the trace.
    pub reply_to: Option<(NodeId, u64)>,
}

/// Why REQUEST_TIMED_OUT: Kafka answers all of these with the one error code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimedOutBecause {
    /// Another AddRaftVoter or RemoveRaftVoter is under way.
    ChangePending,
    /// The leader has not committed anything in its epoch yet.
    NoHighWatermark,
    /// The latest VotersRecord is not committed yet.
    UncommittedVoters,
    /// The new voter has not caught up as an observer in this leader's epoch.
    NotCaughtUp,
    /// The change did not commit within `controller.quorum.request.timeout.ms`; its record
    /// stays in the log and may still commit.
    Expired,
    /// An AddRaftVoter's timer ran out before its VotersRecord was appended (the new controller
    /// did not answer ApiVersions): nothing was written (`LeaderState.maybeExpirePendingOperation`).
    ExpiredBeforeAppend,
}

/// Why a reconfiguration was refused or failed, by Kafka's error name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReconfigError {
    /// REQUEST_TIMED_OUT, for one of several reasons.
    RequestTimedOut(TimedOutBecause),
    /// UNSUPPORTED_VERSION: `kraft.version` is 0, the voter set is static.
    UnsupportedVersion,
    /// DUPLICATE_VOTER: a voter already has that id.
    DuplicateVoter(NodeId),
    /// VOTER_NOT_FOUND: no voter with exactly that id and directory, or it is the last one.
    VoterNotFound(ReplicaKey),
    /// NOT_LEADER_OR_FOLLOWER: the receiver does not lead (or stopped leading before the change
    /// finished).
    NotLeaderOrFollower,
    /// FENCED_LEADER_EPOCH: a leader-only request for an epoch older than the receiver's.
    FencedLeaderEpoch,
    /// UNKNOWN_LEADER_EPOCH: a leader-only request for an epoch newer than the receiver's.
    UnknownLeaderEpoch,
    /// INVALID_REQUEST: no directory id, or the new voter does not support the cluster's
    /// `kraft.version`.
    InvalidRequest,
    /// INVALID_UPDATE_VERSION: `kafka-features upgrade --feature kraft.version=1` before every
    /// voter told this leader its directory id (`InvalidUpdateVersionException`).
    InvalidUpdateVersion,
}

impl ReconfigError {
    /// Kafka's error code name.
    pub(crate) fn name(self) -> &'static str {
        match self {
            ReconfigError::RequestTimedOut(_) => "REQUEST_TIMED_OUT",
            ReconfigError::UnsupportedVersion => "UNSUPPORTED_VERSION",
            ReconfigError::DuplicateVoter(_) => "DUPLICATE_VOTER",
            ReconfigError::VoterNotFound(_) => "VOTER_NOT_FOUND",
            ReconfigError::NotLeaderOrFollower => "NOT_LEADER_OR_FOLLOWER",
            ReconfigError::FencedLeaderEpoch => "FENCED_LEADER_EPOCH",
            ReconfigError::UnknownLeaderEpoch => "UNKNOWN_LEADER_EPOCH",
            ReconfigError::InvalidRequest => "INVALID_REQUEST",
            ReconfigError::InvalidUpdateVersion => "INVALID_UPDATE_VERSION",
        }
    }

    /// What it means, in words.
    pub(crate) fn meaning(self) -> String {
        match self {
            ReconfigError::RequestTimedOut(why) => match why {
                TimedOutBecause::ChangePending => "another voter change is still under way".into(),
                TimedOutBecause::NoHighWatermark => "the leader has not committed anything in its epoch yet".into(),
                TimedOutBecause::UncommittedVoters => "the last voter change is not committed yet".into(),
                TimedOutBecause::NotCaughtUp => "the new controller has not caught up with the leader's log".into(),
                TimedOutBecause::Expired => {
                    "it did not commit within controller.quorum.request.timeout.ms; the VotersRecord stays in the log and may still commit".into()
                }
                TimedOutBecause::ExpiredBeforeAppend => {
                    "the new controller did not answer ApiVersions within controller.quorum.request.timeout.ms; nothing was appended".into()
                }
            },
            ReconfigError::UnsupportedVersion => {
                "kraft.version is 0: this quorum's voters are fixed by controller.quorum.voters".into()
            }
            ReconfigError::DuplicateVoter(id) => format!("n{id} is already a voter"),
            ReconfigError::VoterNotFound(key) => {
                format!("no voter is {key}, or it is the last voter, which cannot be removed")
            }
            ReconfigError::NotLeaderOrFollower => "the node asked does not lead the quorum".into(),
            ReconfigError::FencedLeaderEpoch => "the request named an epoch older than the node's".into(),
            ReconfigError::UnknownLeaderEpoch => "the request named an epoch newer than the node's".into(),
            ReconfigError::InvalidRequest => {
                "the new controller has no directory id or does not support the cluster's kraft.version".into()
            }
            ReconfigError::InvalidUpdateVersion => {
                "not every voter has sent this leader UpdateRaftVoter with its directory id yet".into()
            }
        }
    }
}

impl fmt::Display for ReconfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.name(), self.meaning())
    }
}

impl std::error::Error for ReconfigError {}

/// What the leader did with an UpdateRaftVoter it accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoterUpdate {
    /// kraft.version 0: kept in memory for the upgrade (`compareAndSetVolatileVoters`).
    InMemory,
    /// kraft.version 1: a VotersRecord with the updated entry, at this offset.
    Appended(Offset),
}

/// How a reconfiguration moved on, for the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeStep {
    /// ApiVersions went to the new voter.
    AskedVersions,
    /// The VotersRecord is in the leader's log at this offset, not committed yet.
    Appended(Offset),
    /// The VotersRecord committed: answered NONE.
    Committed,
    /// Answered with an error.
    Failed(ReconfigError),
}

impl<S: StateMachine> Node<S> {
    /// The preconditions every reconfiguration shares (`AddVoterHandler.handleAddVoterRequest`,
    /// `RemoveVoterHandler.handleRemoveVoterRequest`): lead, nothing pending, a high watermark in
    /// this epoch, kraft.version 1, and the latest VotersRecord committed.
    fn check_reconfig(&self) -> Result<(), ReconfigError> {
        use TimedOutBecause::*;
        let Role::Leader(leader) = &self.role else {
            return Err(ReconfigError::NotLeaderOrFollower);
        };
        let hw = self.high_watermark.ok_or(ReconfigError::RequestTimedOut(NoHighWatermark))?;
        if leader.change.is_some() && !self.config.sabotage.concurrent_voter_changes {
            return Err(ReconfigError::RequestTimedOut(ChangePending));
        }
        let control = self.log().control();
        if control.kraft_version() == 0 {
            return Err(ReconfigError::UnsupportedVersion);
        }
        let uncommitted = control.last_voters_offset().is_none_or(|o| o >= hw);
        if uncommitted && !self.config.sabotage.concurrent_voter_changes {
            return Err(ReconfigError::RequestTimedOut(UncommittedVoters));
        }
        Ok(())
    }

    /// AddRaftVoter: check, then ask the new voter for its ApiVersions; the rest happens when it
    /// answers ([`Node::on_api_versions_response`]). Errors found at once are returned.
    pub(crate) fn add_voter(
        &mut self,
        now: Micros,
        voter: ReplicaKey,
        out: &mut Outbox<S>,
    ) -> Result<(), ReconfigError> {
        self.begin_add(now, voter, None, out)
    }

    /// RemoveRaftVoter: check, then append the VotersRecord without the voter at once.
    pub(crate) fn remove_voter(
        &mut self,
        now: Micros,
        voter: ReplicaKey,
        out: &mut Outbox<S>,
    ) -> Result<(), ReconfigError> {
        self.begin_remove(now, voter, None, out)
    }

    /// An AddRaftVoter or RemoveRaftVoter that an auto-joining controller sent
    /// (`KafkaRaftClient.handleAddVoterRequest`, `handleRemoveVoterRequest`): refused at once
    /// with an answer, or carried out as the operator's and answered later.
    pub(super) fn on_voter_change_request(
        &mut self,
        now: Micros,
        from: NodeId,
        kind: ChangeKind,
        voter: ReplicaKey,
        out: &mut Outbox<S>,
    ) {
        let started = match kind {
            ChangeKind::Add => self.begin_add(now, voter, Some((from, self.answering)), out),
            ChangeKind::Remove => self.begin_remove(now, voter, Some((from, self.answering)), out),
        };
        if let Err(error) = started {
            if self.role.kind() == RoleKind::Leader {
                out.note(self.id, NoteKind::VoterChange { kind, voter, step: ChangeStep::Failed(error) });
            }
            self.respond(from, Message::VoterChangeResponse { kind, error: Some(error) }, out);
        }
    }

    fn begin_add(
        &mut self,
        now: Micros,
        voter: ReplicaKey,
        reply_to: Option<(NodeId, u64)>,
        out: &mut Outbox<S>,
    ) -> Result<(), ReconfigError> {
        if voter.dir.is_none() {
            return Err(ReconfigError::InvalidRequest);
        }
        self.check_reconfig()?;
        if self.voter_set().has_id(voter.id) {
            return Err(ReconfigError::DuplicateVoter(voter.id));
        }
        let (id, deadline) = (self.id, now + self.config.request_timeout);
        if let Role::Leader(leader) = &mut self.role {
            leader.change =
                Some(PendingChange { kind: ChangeKind::Add, voter, deadline, offset: None, reply_to });
        }
        self.request(voter.id, Message::ApiVersions, out);
        out.note(id, NoteKind::VoterChange { kind: ChangeKind::Add, voter, step: ChangeStep::AskedVersions });
        Ok(())
    }

    fn begin_remove(
        &mut self,
        now: Micros,
        voter: ReplicaKey,
        reply_to: Option<(NodeId, u64)>,
        out: &mut Outbox<S>,
    ) -> Result<(), ReconfigError> {
        self.check_reconfig()?;
        let mut set = self.voter_set().without_voter(voter).ok_or(ReconfigError::VoterNotFound(voter))?;
        if self.config.sabotage.remove_two_voters
            && let Some(next) = set.keys().iter().copied().find(|k| k.id > voter.id && k.id != self.id)
            && let Some(fewer) = set.without_voter(next)
        {
            set = fewer;
        }
        let deadline = now + self.config.request_timeout;
        if let Role::Leader(leader) = &mut self.role {
            leader.change =
                Some(PendingChange { kind: ChangeKind::Remove, voter, deadline, offset: None, reply_to });
        }
        self.append_voters(now, Record::Voters(Arc::new(set)), out);
        Ok(())
    }

    /// The new voter's ApiVersions answer (`AddVoterHandler.handleApiVersionsResponse`): it must
    /// support the finalized kraft.version and have caught up as an observer, else the add
    /// fails; then the VotersRecord with it goes into the log.
    pub(super) fn on_api_versions_response(
        &mut self,
        now: Micros,
        from: NodeId,
        range: (KRaftVersion, KRaftVersion),
        out: &mut Outbox<S>,
    ) {
        let kraft = self.log().control().kraft_version();
        let Role::Leader(leader) = &self.role else { return };
        let Some(change) = leader.change.as_ref().filter(|c| c.voter.id == from && c.offset.is_none()) else {
            return;
        };
        let voter = change.voter;
        let caught_up = leader.is_caught_up(voter, now);
        let result = if !(range.0..=range.1).contains(&kraft) {
            Err(ReconfigError::InvalidRequest)
        } else if !caught_up {
            Err(ReconfigError::RequestTimedOut(TimedOutBecause::NotCaughtUp))
        } else {
            self.voter_set().with_voter(voter).ok_or(ReconfigError::DuplicateVoter(voter.id))
        };
        match result {
            Ok(set) => self.append_voters(now, Record::Voters(Arc::new(set)), out),
            Err(error) => self.finish_change(Err(error), out),
        }
    }

    /// Append a VotersRecord as its own batch after whatever writes were waiting, and remember
    /// its offset.
    fn append_voters(&mut self, now: Micros, record: Record<S::Entry>, out: &mut Outbox<S>) {
        self.flush_pending(now, out);
        let offset = self.log().end_offset();
        let (kind, voter) = match &mut self.role {
            Role::Leader(leader) => match &mut leader.change {
                Some(change) => {
                    change.offset = Some(offset);
                    (change.kind, change.voter)
                }
                None => return,
            },
            _ => return,
        };
        out.note(self.id, NoteKind::VoterChange { kind, voter, step: ChangeStep::Appended(offset) });
        self.append_as_leader(now, vec![record], out);
        // An auto-joining controller asked with `ackWhenCommitted=false`: answered NONE once
        // appended (`AddVoterHandler.handleApiVersionsResponse`); the change stays pending.
        if let Role::Leader(leader) = &mut self.role
            && let Some(change) = leader.change.as_mut().filter(|c| c.kind == ChangeKind::Add)
            && let Some((to, correlation)) = change.reply_to.take()
        {
            out.send(self.id, to, Message::VoterChangeResponse { kind, error: None }, correlation);
        }
    }

    /// `AddVoterHandler.highWatermarkUpdated`, `RemoveVoterHandler.highWatermarkUpdated`: the
    /// change is answered once its record commits; a removal that commits while still pending
    /// makes a leader outside the voter set resign. One that expired first does not: the leader
    /// goes on leading as a non-voter (`LeaderState.maybeExpirePendingOperation` cleared it).
    pub(super) fn voter_change_high_watermark(&mut self, out: &mut Outbox<S>) {
        let hw = self.high_watermark;
        let committed = match &self.role {
            Role::Leader(leader) => leader
                .change
                .as_ref()
                .filter(|c| c.offset.is_some_and(|o| hw.is_some_and(|hw| hw > o)))
                .map(|c| c.kind),
            _ => None,
        };
        let Some(kind) = committed else { return };
        self.finish_change(Ok(()), out);
        let outside = !self.is_voter();
        if let Role::Leader(leader) = &mut self.role
            && kind == ChangeKind::Remove
            && outside
        {
            leader.resign_requested = true;
        }
    }

    /// `LeaderState.maybeExpirePendingOperation`: REQUEST_TIMED_OUT once the change's timer ran
    /// out, its VotersRecord appended (it stays and may commit) or not (nothing was written).
    pub(super) fn expire_voter_change(&mut self, now: Micros, out: &mut Outbox<S>) {
        if let Role::Leader(leader) = &self.role
            && let Some(change) = leader.change.as_ref().filter(|c| now >= c.deadline)
        {
            let why = match change.offset {
                Some(_) => TimedOutBecause::Expired,
                None => TimedOutBecause::ExpiredBeforeAppend,
            };
            self.finish_change(Err(ReconfigError::RequestTimedOut(why)), out);
        }
    }

    /// `UpdateVoterHandler.handleUpdateVoterRequest`: a voter's directory id and supported
    /// kraft.version range. Refused (REQUEST_TIMED_OUT) while a change is pending, before a high
    /// watermark, or while the last VotersRecord is uncommitted; else the entry is updated, in
    /// memory at kraft.version 0 (matched by id only) or by a VotersRecord at 1 (matched by id
    /// and directory), and answered at once, with no commit to wait for. An accepted request
    /// counts for check quorum like a fetch (`updateCheckQuorumForFollowingVoter`). Its epoch is
    /// checked first, as for every leader-only request (`KafkaRaftClient.validateLeaderOnlyRequest`):
    /// an older one is FENCED_LEADER_EPOCH, a newer one UNKNOWN_LEADER_EPOCH, the node's own on a
    /// node that does not lead NOT_LEADER_OR_FOLLOWER. Kafka 4.3.1 answers without trying the
    /// voter's endpoint first: KAFKA-20661 (an ApiVersions round to it before the answer) landed
    /// on trunk after 4.3.1 and is not in its history.
    pub(super) fn on_update_voter(
        &mut self,
        now: Micros,
        voter: ReplicaKey,
        leader_epoch: Epoch,
        range: (KRaftVersion, KRaftVersion),
        out: &mut Outbox<S>,
    ) {
        let answer = match leader_epoch.cmp(&self.epoch) {
            std::cmp::Ordering::Less => Err(ReconfigError::FencedLeaderEpoch),
            std::cmp::Ordering::Greater => Err(ReconfigError::UnknownLeaderEpoch),
            std::cmp::Ordering::Equal => self.update_voter(now, voter, range, out),
        };
        if self.role.kind() == RoleKind::Leader && leader_epoch == self.epoch {
            out.note(self.id, NoteKind::VoterUpdated { voter, answer });
        }
        let message = Message::UpdateRaftVoterResponse {
            epoch: self.epoch,
            leader: self.leader(),
            error: answer.err(),
        };
        self.respond(voter.id, message, out);
    }

    fn update_voter(
        &mut self,
        now: Micros,
        voter: ReplicaKey,
        range: (KRaftVersion, KRaftVersion),
        out: &mut Outbox<S>,
    ) -> Result<VoterUpdate, ReconfigError> {
        use TimedOutBecause::*;
        let Role::Leader(leader) = &self.role else {
            return Err(ReconfigError::NotLeaderOrFollower);
        };
        if leader.change.is_some() {
            return Err(ReconfigError::RequestTimedOut(ChangePending));
        }
        let hw = self.high_watermark.ok_or(ReconfigError::RequestTimedOut(NoHighWatermark))?;
        let control = self.log().control();
        let kraft = control.kraft_version();
        let voters = if kraft == 0 {
            leader.volatile_voters.clone()
        } else {
            control.last_voters_offset().is_some_and(|o| o < hw).then(|| self.voter_set().clone())
        };
        let voters = voters.ok_or(ReconfigError::RequestTimedOut(UncommittedVoters))?;
        if !(range.0..=range.1).contains(&kraft) {
            return Err(ReconfigError::InvalidRequest);
        }
        let updated =
            voters.with_updated_voter(voter, kraft == 0).ok_or(ReconfigError::VoterNotFound(voter))?;
        let kept = if kraft == 0 {
            if let Role::Leader(leader) = &mut self.role {
                leader.volatile_voters = Some(updated);
            }
            VoterUpdate::InMemory
        } else {
            let offset = self.flush_then_append(now, vec![Record::Voters(Arc::new(updated))], out);
            VoterUpdate::Appended(offset)
        };
        self.record_fetch_for_check_quorum(now, voter);
        Ok(kept)
    }

    /// `kafka-features upgrade --feature kraft.version=1`, as the active controller hands it
    /// to `KafkaRaftClient.upgradeKRaftVersion` and `LeaderState.maybeAppendUpgradedKRaftVersion`:
    /// nothing to do at kraft.version 1; refused (INVALID_UPDATE_VERSION) until every voter has
    /// sent this leader UpdateRaftVoter; else one control batch, a KRaftVersionRecord(1) and the
    /// first VotersRecord (the voters learned in memory, with their directory ids). From then on
    /// the voter set lives in the log and AddRaftVoter and RemoveRaftVoter are allowed.
    pub(crate) fn upgrade_kraft_version(
        &mut self,
        now: Micros,
        out: &mut Outbox<S>,
    ) -> Result<(), ReconfigError> {
        let Role::Leader(leader) = &mut self.role else {
            return Err(ReconfigError::NotLeaderOrFollower);
        };
        let current = self.disk.log.control().kraft_version();
        if current >= LATEST_KRAFT_VERSION {
            out.note(self.id, NoteKind::KRaftVersionUpgrade { step: UpgradeStep::AlreadyAt(current) });
            return Ok(());
        }
        let voters = leader.volatile_voters.take_if(|v| v.all_directories_known());
        let voters = voters.ok_or(ReconfigError::InvalidUpdateVersion)?;
        let records = vec![Record::KRaftVersion(LATEST_KRAFT_VERSION), Record::Voters(Arc::new(voters))];
        let offset = self.flush_then_append(now, records, out);
        out.note(self.id, NoteKind::KRaftVersionUpgrade { step: UpgradeStep::Appended(offset) });
        Ok(())
    }

    /// Append control records as their own batch after whatever writes were waiting
    /// (`BatchAccumulator.appendControlMessages`); returns the batch's first offset.
    fn flush_then_append(
        &mut self,
        now: Micros,
        records: Vec<Record<S::Entry>>,
        out: &mut Outbox<S>,
    ) -> Offset {
        self.flush_pending(now, out);
        let offset = self.log().end_offset();
        self.append_as_leader(now, records, out);
        offset
    }

    /// Append the writes still lingering in the accumulator, so that a control batch follows them.
    fn flush_pending(&mut self, now: Micros, out: &mut Outbox<S>) {
        if let Role::Leader(leader) = &mut self.role {
            let waiting = leader.take_pending();
            if !waiting.is_empty() {
                self.append_as_leader(now, waiting, out);
            }
        }
    }

    /// Answer the pending change (`LeaderState.resetAddVoterHandlerState` and its kin).
    pub(super) fn finish_change(&mut self, result: Result<(), ReconfigError>, out: &mut Outbox<S>) {
        let Role::Leader(leader) = &mut self.role else { return };
        let Some(change) = leader.change.take() else { return };
        let step = match result {
            Ok(()) => ChangeStep::Committed,
            Err(error) => ChangeStep::Failed(error),
        };
        out.note(self.id, NoteKind::VoterChange { kind: change.kind, voter: change.voter, step });
        if let Some((to, correlation)) = change.reply_to {
            let message = Message::VoterChangeResponse { kind: change.kind, error: result.err() };
            out.send(self.id, to, message, correlation);
        }
    }
}

//! What a node keeps across a crash: the `quorum-state` file and the log with its snapshots,
//! each as written and as flushed. Everything else (role, high watermark, pending writes) is
//! memory and is lost.

use std::fmt;

use super::log::{Log, LostWrites, TornBatch};
use super::state_machine::StateMachine;
use super::voters::DirectoryId;
use super::{Epoch, NodeId};

/// Kafka's `quorum-state` file: written to a temp file, fsynced and renamed before the node
/// acts on a new epoch or vote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QuorumStateFile {
    pub leader_epoch: Epoch,
    pub voted_id: Option<NodeId>,
    pub leader_id: Option<NodeId>,
}

impl fmt::Display for QuorumStateFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let opt = |v: Option<NodeId>| v.map_or(-1, i64::from);
        write!(
            f,
            "{{\"leaderEpoch\":{},\"votedId\":{},\"leaderId\":{}}}",
            self.leader_epoch,
            opt(self.voted_id),
            opt(self.leader_id)
        )
    }
}

/// A node's storage: what survives a process crash (the operating system keeps what the
/// process wrote) and, within it, what was flushed and so survives a power loss too. Kafka
/// flushes the leader's log after each append (`KafkaRaftClient.flushLeaderLog`), a follower's
/// when the process is a controller (`appendAsFollower`: `quorum.isVoter() || canBecomeVoter`),
/// a broker's only as it closes (`KafkaRaftClient.close`), and fsyncs `quorum-state` before it
/// acts (`FileQuorumStateStore.writeElectionStateToFile`). The kernel's own write-back, which
/// would save what was written some 30 s before, is not modelled: a power loss here takes
/// everything not flushed.
#[derive(Clone, Debug)]
pub struct Disk<S: StateMachine> {
    /// The `quorum-state` file as the process last wrote it.
    pub quorum_state: QuorumStateFile,
    /// The `quorum-state` file as last fsynced: what a power loss leaves.
    pub synced_quorum_state: QuorumStateFile,
    pub log: Log<S>,
    /// The metadata log directory's `directory.id` (`meta.properties`): with the node id, the
    /// replica's key in a dynamic voter set.
    pub directory_id: DirectoryId,
    /// The batch a power failure tore, until the next start finds it.
    pub torn: Option<TornBatch>,
}

impl<S: StateMachine> Default for Disk<S> {
    fn default() -> Self {
        Disk {
            quorum_state: QuorumStateFile::default(),
            synced_quorum_state: QuorumStateFile::default(),
            log: Log::default(),
            directory_id: 0,
            torn: None,
        }
    }
}

/// What a power loss took from a disk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PowerLoss {
    pub log: LostWrites,
    /// The `quorum-state` written but never fsynced, now gone (with the one the disk went back to).
    pub quorum_state: Option<(QuorumStateFile, QuorumStateFile)>,
}

impl<S: StateMachine> Disk<S> {
    /// Write the `quorum-state` file; `fsync` makes it survive a power loss.
    pub(crate) fn write_quorum_state(&mut self, file: QuorumStateFile, fsync: bool) {
        self.quorum_state = file;
        if fsync {
            self.synced_quorum_state = file;
        }
    }

    /// The power failed: only what was flushed is left.
    pub(crate) fn lose_power(&mut self) -> PowerLoss {
        let lost_state = (self.quorum_state != self.synced_quorum_state)
            .then_some((self.quorum_state, self.synced_quorum_state));
        self.quorum_state = self.synced_quorum_state;
        PowerLoss { log: self.log.lose_unflushed(), quorum_state: lost_state }
    }

    /// The power failed in the middle of the log's last write: that batch is torn (the ones
    /// before it reached the disk), and whatever else was not flushed is gone.
    pub(crate) fn tear_last_write(&mut self) -> PowerLoss {
        self.torn = self.log.tear_last_batch();
        self.lose_power()
    }

    /// The log's recovery at start (`LogSegment.recover`): a torn batch fails its CRC and the
    /// log is truncated there. Returns that batch.
    pub(crate) fn recover(&mut self) -> Option<TornBatch> {
        self.torn.take()
    }
}

//! What a node keeps across a crash: the `quorum-state` file and the log with its snapshot.
//! Everything else (role, high watermark, pending writes) is memory and is lost.

use std::fmt;

use super::log::Log;
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

/// A node's durable storage. The simulation flushes every append before the node reports the
/// new end offset, as Kafka's raft client does.
#[derive(Clone, Debug)]
pub struct Disk<S: StateMachine> {
    pub quorum_state: QuorumStateFile,
    pub log: Log<S>,
    /// The metadata log directory's `directory.id` (`meta.properties`): with the node id, the
    /// replica's key in a dynamic voter set.
    pub directory_id: DirectoryId,
}

impl<S: StateMachine> Default for Disk<S> {
    fn default() -> Self {
        Disk { quorum_state: QuorumStateFile::default(), log: Log::default(), directory_id: 0 }
    }
}

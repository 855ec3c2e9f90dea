//! Snapshots (KIP-630): the committed state at an offset, identified by (end offset, epoch),
//! which lets the log start move up and lets a far-behind follower catch up in one transfer.

use std::fmt;

use super::applied::AppliedState;
use super::state_machine::StateMachine;
use super::{Epoch, Offset};

/// Identifies a snapshot: it holds every record below `end_offset`, the last one of `epoch`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SnapshotId {
    pub end_offset: Offset,
    pub epoch: Epoch,
}

impl SnapshotId {
    /// Kafka's checkpoint file name: `<20-digit offset>-<10-digit epoch>.checkpoint`.
    pub(crate) fn file_name(&self) -> String {
        format!("{:020}-{:010}.checkpoint", self.end_offset, self.epoch)
    }
}

impl fmt::Display for SnapshotId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{}", self.end_offset, self.epoch)
    }
}

/// A snapshot: SnapshotHeader, the state that rebuilds everything below `id.end_offset`,
/// SnapshotFooter. Its size drives how many FetchSnapshot chunks a transfer takes.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot<S: StateMachine> {
    pub id: SnapshotId,
    pub state: AppliedState<S>,
}

/// Bytes of the SnapshotHeader and SnapshotFooter control records together.
const HEADER_AND_FOOTER_BYTES: u64 = 64;

impl<S: StateMachine> Snapshot<S> {
    /// The serialized size, in bytes, that FetchSnapshot transfers by position.
    pub(crate) fn size_bytes(&self) -> u64 {
        HEADER_AND_FOOTER_BYTES + self.state.size_bytes()
    }
}

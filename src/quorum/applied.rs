//! The state a node builds by applying committed records in order: the state machine's own
//! state, tagged with the offset and epoch it reflects, and a digest of everything applied so
//! replicas and snapshots can be compared.

use std::sync::Arc;

use super::record::Record;
use super::state_machine::StateMachine;
use super::voters::{KRaftVersion, VoterSet};
use super::{Epoch, Offset};
use crate::util::hash::mix;

/// The result of applying the committed log up to (not including) `applied_offset`.
#[derive(Clone, Debug, PartialEq)]
pub struct AppliedState<S: StateMachine> {
    /// Every record below this offset has been applied.
    pub applied_offset: Offset,
    /// The epoch of the last applied record.
    pub applied_epoch: Epoch,
    /// A running digest of the applied records' fingerprints, in offset order.
    pub digest: u64,
    /// The state machine.
    pub state: S,
    /// The first entry that did not apply, with its offset (Kafka treats it as fatal).
    pub fault: Option<(Offset, S::Error)>,
    /// The voter set of the last VotersRecord applied, which a snapshot embeds
    /// (`KafkaRaftClient.createSnapshot` writes `voterSetAtOffset`).
    pub voters: Option<Arc<VoterSet>>,
    /// The `kraft.version` of the last KRaftVersionRecord applied (0 when none was).
    pub kraft_version: KRaftVersion,
}

impl<S: StateMachine> Default for AppliedState<S> {
    fn default() -> Self {
        AppliedState {
            applied_offset: 0,
            applied_epoch: 0,
            digest: 0,
            state: S::default(),
            fault: None,
            voters: None,
            kraft_version: 0,
        }
    }
}

impl<S: StateMachine> AppliedState<S> {
    /// Apply the record at `self.applied_offset`, appended in `epoch`. Entries go to the state
    /// machine; of the control records, KRaftVersion and Voters are kept for snapshots.
    pub(crate) fn apply(&mut self, epoch: Epoch, record: &Record<S::Entry>) {
        self.digest = mix(self.digest ^ record.fingerprint()).wrapping_add(self.applied_offset);
        match record {
            Record::Data(entry) => {
                if let Err(error) = self.state.apply(entry) {
                    self.fault.get_or_insert((self.applied_offset, error));
                }
            }
            Record::Voters(voters) => self.voters = Some(voters.clone()),
            Record::KRaftVersion(version) => self.kraft_version = *version,
            Record::LeaderChange(_) => {}
        }
        self.applied_offset += 1;
        self.applied_epoch = epoch;
    }

    /// Serialized size of this state inside a snapshot.
    pub(crate) fn size_bytes(&self) -> u64 {
        24 + self.voters.as_ref().map_or(0, |v| v.size_bytes()) + self.state.size_bytes()
    }
}

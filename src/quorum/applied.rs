//! The state machine a node builds by applying committed records in order. At the quorum
//! level it is a digest of everything applied, so replicas and snapshots can be compared.

use super::Offset;
use super::record::{Record, mix};

/// The result of applying the committed log up to (not including) `applied_offset`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AppliedState {
    /// Every record below this offset has been applied.
    pub applied_offset: Offset,
    /// A running digest of the applied records' fingerprints, in offset order.
    pub digest: u64,
    /// How many client writes were applied.
    pub writes: u64,
}

impl AppliedState {
    /// Apply the record at `self.applied_offset`.
    pub fn apply(&mut self, record: &Record) {
        self.digest = mix(self.digest ^ record.fingerprint()).wrapping_add(self.applied_offset);
        if matches!(record, Record::Write(_)) {
            self.writes += 1;
        }
        self.applied_offset += 1;
    }

    /// Serialized size of this state inside a snapshot.
    pub fn size_bytes(&self) -> u64 {
        24
    }
}

//! The state machine a node builds by applying committed records in order: the metadata image,
//! tagged with the offset and epoch it reflects, and a digest of everything applied so replicas
//! and snapshots can be compared.

use super::record::{Record, mix};
use super::{Epoch, Offset};
use crate::metadata::image::MetadataImage;

/// The result of applying the committed log up to (not including) `applied_offset`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AppliedState {
    /// Every record below this offset has been applied.
    pub applied_offset: Offset,
    /// The epoch of the last applied record.
    pub applied_epoch: Epoch,
    /// A running digest of the applied records' fingerprints, in offset order.
    pub digest: u64,
    /// How many client writes were applied.
    pub writes: u64,
    /// The metadata image.
    pub image: MetadataImage,
    /// The first record that did not apply to the image, if any (Kafka treats it as fatal).
    pub fault: Option<String>,
}

impl AppliedState {
    /// Apply the record at `self.applied_offset`, appended in `epoch`.
    pub fn apply(&mut self, epoch: Epoch, record: &Record) {
        self.digest = mix(self.digest ^ record.fingerprint()).wrapping_add(self.applied_offset);
        match record {
            Record::Write(_) => self.writes += 1,
            Record::Metadata(metadata) => {
                if let Err(error) = self.image.apply(metadata) {
                    self.fault.get_or_insert(format!("offset {}: {metadata}: {error}", self.applied_offset));
                }
            }
            Record::LeaderChange(_) => {}
        }
        self.applied_offset += 1;
        self.applied_epoch = epoch;
    }

    /// Serialized size of this state inside a snapshot.
    pub fn size_bytes(&self) -> u64 {
        24 + self.image.size_bytes()
    }
}

//! The metadata layer as the quorum's state machine: the entries the `__cluster_metadata` log
//! carries, what a node builds by applying them (the metadata image), and names for a quorum
//! node, log and message that replicate metadata.

use std::fmt;
use std::sync::Arc;

use crate::quorum::applied::AppliedState;
use crate::quorum::disk::Disk;
use crate::quorum::log::Log;
use crate::quorum::snapshot::Snapshot;
use crate::quorum::{Message, Node, Outbox, Payload, StateMachine};
use crate::util::hash::mix;

use super::image::{MetadataImage, RejectedRecord};
use super::record::MetadataRecord;

/// One entry of the metadata log, as the quorum replicates it.
#[derive(Clone, Debug, PartialEq)]
pub enum MetadataEntry {
    /// A client write carrying an opaque value: the quorum-level sweeps' stand-in for a
    /// request, which leaves the image alone.
    Write(u64),
    /// A metadata record (KIP-631), applied to every node's metadata image.
    Record(Arc<MetadataRecord>),
}

impl MetadataEntry {
    /// The metadata record, when this entry is one.
    pub(crate) fn record(&self) -> Option<&MetadataRecord> {
        match self {
            MetadataEntry::Record(record) => Some(record),
            MetadataEntry::Write(_) => None,
        }
    }
}

impl From<MetadataRecord> for MetadataEntry {
    fn from(record: MetadataRecord) -> Self {
        MetadataEntry::Record(Arc::new(record))
    }
}

impl Payload for MetadataEntry {
    fn fingerprint(&self) -> u64 {
        match self {
            MetadataEntry::Write(value) => mix(0x5752_0000_0000_0000 ^ *value),
            MetadataEntry::Record(record) => record.fingerprint(),
        }
    }

    fn size_bytes(&self) -> u64 {
        match self {
            MetadataEntry::Write(_) => 16,
            MetadataEntry::Record(record) => record.size_bytes(),
        }
    }

    fn kind(&self) -> &'static str {
        match self {
            MetadataEntry::Write(_) => "Write",
            MetadataEntry::Record(record) => record.name(),
        }
    }
}

impl fmt::Display for MetadataEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MetadataEntry::Write(value) => write!(f, "Write({value})"),
            MetadataEntry::Record(record) => record.fmt(f),
        }
    }
}

/// What every controller and broker builds from the committed metadata log.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MetadataState {
    /// The metadata image (Kafka's `MetadataImage`).
    pub image: MetadataImage,
    /// How many client writes were applied.
    pub writes: u64,
    /// How many records that can change a partition's leader, replicas or ISR, or which brokers
    /// are active, were applied (not NoOp, config, feature or topic-name records): a broker's
    /// ISR scan over every partition need not look again while it stays put.
    pub placement_changes: u64,
}

impl StateMachine for MetadataState {
    type Entry = MetadataEntry;
    type Error = RejectedRecord;

    fn apply(&mut self, entry: &MetadataEntry) -> Result<(), RejectedRecord> {
        match entry {
            MetadataEntry::Write(_) => {
                self.writes += 1;
                Ok(())
            }
            MetadataEntry::Record(record) => {
                self.image.apply(record).map_err(|error| RejectedRecord { record: record.clone(), error })?;
                self.placement_changes += u64::from(record.can_change_placement());
                Ok(())
            }
        }
    }

    fn size_bytes(&self) -> u64 {
        self.image.size_bytes()
    }
}

/// A quorum node replicating the metadata log.
pub type MetadataNode = Node<MetadataState>;
/// A node's metadata log.
pub type MetadataLog = Log<MetadataState>;
/// A node's durable storage.
pub type MetadataDisk = Disk<MetadataState>;
/// A quorum message of the metadata log.
pub type MetadataMessage = Message<MetadataState>;
/// A node's outputs.
pub type MetadataOutbox = Outbox<MetadataState>;
/// A snapshot of the metadata state.
pub type MetadataSnapshot = Snapshot<MetadataState>;
/// The applied metadata state with its offset and digest.
pub type AppliedMetadata = AppliedState<MetadataState>;

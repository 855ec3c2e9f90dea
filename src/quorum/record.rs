//! What the quorum's log carries: control records the quorum writes itself (LeaderChange) and
//! the records of the state machine above it.

use std::fmt;
use std::sync::Arc;

use super::NodeId;
use crate::metadata::record::MetadataRecord;

/// The body of a LeaderChange control record.
#[derive(Clone, Debug, PartialEq)]
pub struct LeaderChange {
    pub leader: NodeId,
    pub voters: Arc<[NodeId]>,
    pub granting: Arc<[NodeId]>,
}

/// One record of the `__cluster_metadata` log.
#[derive(Clone, Debug, PartialEq)]
pub enum Record {
    /// The control record a new leader appends at the start of its epoch (KIP-595); once it is
    /// on a majority the high watermark can move into the new epoch.
    LeaderChange(Arc<LeaderChange>),
    /// A client write carrying an opaque value (the quorum-level sweeps' stand-in for real
    /// metadata).
    Write(u64),
    /// A metadata record (KIP-631), applied to every node's metadata image.
    Metadata(Arc<MetadataRecord>),
}

impl Record {
    /// A stable 64-bit fingerprint of the record's content, folded into state digests.
    pub fn fingerprint(&self) -> u64 {
        match self {
            Record::LeaderChange(change) => {
                let mut h = 0x4C43_0000_0000_0000 ^ u64::from(change.leader);
                for v in change.voters.iter().chain(change.granting.iter()) {
                    h = mix(h ^ u64::from(*v));
                }
                h
            }
            Record::Write(value) => mix(0x5752_0000_0000_0000 ^ *value),
            Record::Metadata(record) => record.fingerprint(),
        }
    }

    /// Approximate serialized size in bytes.
    pub fn size_bytes(&self) -> u64 {
        match self {
            Record::LeaderChange(change) => 16 + 4 * (change.voters.len() + change.granting.len()) as u64,
            Record::Write(_) => 16,
            Record::Metadata(record) => record.size_bytes(),
        }
    }

    /// A short name for traces and the UI.
    pub fn kind(&self) -> &'static str {
        match self {
            Record::LeaderChange(_) => "LeaderChange",
            Record::Write(_) => "Write",
            Record::Metadata(record) => record.name(),
        }
    }
}

/// A 64-bit mixing function (the SplitMix64 finaliser).
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Record::LeaderChange(change) => write!(f, "LeaderChange(leader={})", change.leader),
            Record::Write(value) => write!(f, "Write({value})"),
            Record::Metadata(record) => write!(f, "{record}"),
        }
    }
}

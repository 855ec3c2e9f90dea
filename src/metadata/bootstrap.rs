//! The records a new Kafka 4.3.1 cluster starts its metadata log with: the feature levels
//! `kafka-storage format` finalized, in one metadata transaction, written by the first active
//! controller (`ActivationRecordsGenerator.recordsForEmptyLog`, after the quorum's LeaderChange).

use std::sync::Arc;

use super::record::{ConfigRecord, MetadataRecord};

/// `metadata.version` 4.3-IV0 (`MetadataVersion.LATEST_PRODUCTION` of 4.3.1).
pub const METADATA_VERSION: u16 = 30;

/// The other features' default levels at 4.3-IV0 (`Feature.defaultLevel`), by name, as
/// `BootstrapMetadata.fromVersions` orders them (`kraft.version` is no feature record).
pub const FEATURES: [(&str, u16); 5] = [
    ("eligible.leader.replicas.version", 1),
    ("group.version", 1),
    ("share.version", 1),
    ("streams.version", 1),
    ("transaction.version", 2),
];

/// The bootstrap transaction: BeginTransactionRecord, `metadata.version`, the other features,
/// the cluster-wide `min.insync.replicas` (written because ELR is on; the controller's default
/// of 1), EndTransactionRecord.
pub(crate) fn records() -> Vec<MetadataRecord> {
    let feature = |name: &str, level| MetadataRecord::FeatureLevel { name: Arc::from(name), level };
    let min_isr =
        ConfigRecord { resource: "cluster".into(), name: "min.insync.replicas".into(), value: "1".into() };
    std::iter::once(MetadataRecord::BeginTransaction { name: Arc::from("Bootstrap records") })
        .chain(std::iter::once(feature("metadata.version", METADATA_VERSION)))
        .chain(FEATURES.iter().map(|&(name, level)| feature(name, level)))
        .chain([MetadataRecord::Config(Arc::new(min_isr)), MetadataRecord::EndTransaction])
        .collect()
}

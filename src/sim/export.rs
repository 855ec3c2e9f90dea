//! The simulated cluster's metadata log exported as Kafka's files (`run --write-log`, the page's
//! "Download the live cluster's log"). The file format lives in [`crate::kafka_log::writer`];
//! this picks the node and the offset the export stops at.

use crate::kafka_log::writer::{KafkaFile, directory};
use crate::quorum::{NodeId, Offset};

use super::Simulation;

impl Simulation {
    /// The files of the metadata log as Kafka would have them: the active controller's (or,
    /// with none, the running node furthest ahead's) committed records and snapshots, with that
    /// node's id and the offset the export stops at.
    pub fn kafka_files(&self) -> Option<(NodeId, Offset, Vec<KafkaFile>)> {
        let node = self.leader().or_else(|| self.running_nodes().max_by_key(|n| n.high_watermark()))?;
        let committed = node.high_watermark().unwrap_or(node.log().start_offset());
        Some((node.id(), committed, directory(node.log(), committed)))
    }
}

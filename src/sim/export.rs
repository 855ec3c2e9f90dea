//! The simulated cluster's metadata log exported as Kafka's files (`run --write-log`, the page's
//! "Download the live cluster's log"), and every node's directories as Kafka keeps them
//! (`run --write-nodes`). The file formats live in [`crate::kafka_log::writer`]; this picks
//! the nodes and the offsets the exports stop at.

use crate::kafka_log::writer::{self, KafkaFile, directory};
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

    /// Each node's log directory as Kafka keeps it (a stopped node's as its disk was left),
    /// each file named by its path under `n<id>/`: `meta.properties`, and in
    /// `__cluster_metadata-0/` its `quorum-state`, its snapshots, one segment of its whole log
    /// (records not yet committed included), `leader-epoch-checkpoint` and `partition.metadata`.
    pub fn node_directories(&self) -> Vec<KafkaFile> {
        let mut files = Vec::new();
        for (id, state, log, dir) in self.disks() {
            let voters = log.control().last_voters();
            let voted_dir = state
                .voted_id
                .and_then(|voted| voters?.keys().iter().find(|k| k.id == voted).and_then(|k| k.dir));
            let mut metadata: Vec<KafkaFile> = directory(log, log.end_offset());
            metadata.push(writer::quorum_state(state, voted_dir, log.control().kraft_version()));
            metadata.push(writer::leader_epoch_checkpoint(log));
            metadata.push(writer::partition_metadata());
            let root = format!("n{id}");
            let own = writer::meta_properties(id, dir.unwrap_or(0));
            files.push(KafkaFile { name: format!("{root}/{}", own.name), bytes: own.bytes });
            files.extend(metadata.into_iter().map(|f| KafkaFile {
                name: format!("{root}/__cluster_metadata-0/{}", f.name),
                bytes: f.bytes,
            }));
        }
        files
    }
}

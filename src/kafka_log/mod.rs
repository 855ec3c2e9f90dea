//! Kafka's on-disk format of the `__cluster_metadata` log (Kafka 4.3.1): record batches v2
//! with their CRC-32C, KRaft control records and every metadata record type and version, read
//! from `.log` segments and `.checkpoint` snapshots, the image they build, and the writer that
//! exports the simulation's log in the same format. Everything but [`directory`] works on
//! bytes, so the page can decode a dropped file in wasm.

pub mod batch;
pub mod codec;
pub mod crc32c;
pub mod cursor;
#[cfg(not(target_arch = "wasm32"))]
pub mod directory;
pub mod error;
pub mod history;
pub mod image;
pub mod inspect;
pub mod node_files;
pub mod nodes;
pub mod payload;
pub mod quorum;
pub mod reader;
pub mod record;
pub mod report;
pub mod schema;
pub mod schemas;
pub mod simulation;
pub mod snapshot_name;
pub mod timeline;
pub mod value;
pub mod varint;
pub mod writer;

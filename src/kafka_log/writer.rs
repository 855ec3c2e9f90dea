//! Writing Kafka's files: record batches v2 (`MemoryRecordsBuilder` layout, CRC-32C filled in
//! last as `DefaultRecordBatch.writeHeader` does), a segment from the simulation's committed
//! log and a `.checkpoint` from each of its snapshots (SnapshotHeader, the records that rebuild
//! the image, SnapshotFooter: `RecordsSnapshotWriter`), named as in a `__cluster_metadata-0`
//! directory.

use crate::harness::MS;
use crate::metadata::image::MetadataImage;
use crate::metadata::record::{MetadataRecord, PartitionRecord};
use crate::metadata::state::{MetadataEntry, MetadataLog, MetadataSnapshot};
use crate::quorum::disk::QuorumStateFile;
use crate::quorum::record::Record;
use crate::quorum::voters::{DirectoryId, KRaftVersion};
use crate::quorum::{NodeId, Offset};

use super::batch::{BatchHeader, CONTROL_FLAG, LOG_OVERHEAD, MAGIC, NO_PRODUCER_ID, RECORD_BATCH_OVERHEAD};
use super::crc32c::crc32c;
use super::payload::{ControlType, Payload};
use super::record::RawRecord;
use super::simulation::{dir_uuid, kraft_version_payload, leader_change_payload, to_payload, voters_payload};
use super::snapshot_name::{segment_file_name, snapshot_file_name};
use super::value::Value;

/// A file of a `__cluster_metadata-0` directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KafkaFile {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// Records per snapshot batch (Kafka bounds a batch by bytes, `maxBatchSizeBytes`; a count
/// keeps the writer simple and the batches well under 1 MiB).
const SNAPSHOT_BATCH_RECORDS: usize = 500;

/// Append one batch of `payloads` (all control or all metadata records) at `base_offset`.
pub fn put_batch(out: &mut Vec<u8>, base_offset: i64, epoch: i32, timestamp: i64, payloads: &[Payload]) {
    let control = payloads.first().is_some_and(Payload::is_control);
    let mut body = Vec::new();
    for (delta, payload) in payloads.iter().enumerate() {
        let key = match payload {
            Payload::Control { kind, .. } => Some(Payload::control_key(*kind)),
            _ => None,
        };
        RawRecord::write(&mut body, 0, delta as i32, key.as_ref().map(|k| &k[..]), &payload.encode_value());
    }
    let header = BatchHeader {
        base_offset,
        length: (RECORD_BATCH_OVERHEAD - LOG_OVERHEAD + body.len()) as i32,
        partition_leader_epoch: epoch,
        magic: MAGIC,
        crc: 0,
        attributes: if control { CONTROL_FLAG } else { 0 },
        last_offset_delta: payloads.len().saturating_sub(1) as i32,
        base_timestamp: timestamp,
        max_timestamp: timestamp,
        producer_id: NO_PRODUCER_ID,
        producer_epoch: -1,
        base_sequence: -1,
        records_count: payloads.len() as i32,
    };
    let start = out.len();
    header.write(out);
    out.extend_from_slice(&body);
    let crc = crc32c(&out[start + super::batch::ATTRIBUTES_OFFSET..]);
    out[start + 17..start + 21].copy_from_slice(&crc.to_be_bytes());
}

/// The Kafka record of one simulation log record: a client write (the quorum sweeps' stand-in
/// for a request) becomes a NoOpRecord, which keeps the offsets and leaves the image alone.
pub fn log_payload(record: &Record<MetadataEntry>) -> Payload {
    match record {
        Record::LeaderChange(change) => leader_change_payload(change),
        Record::KRaftVersion(version) => kraft_version_payload(*version),
        Record::Voters(voters) => voters_payload(voters),
        Record::Data(MetadataEntry::Record(record)) => to_payload(record),
        Record::Data(MetadataEntry::Write(_)) => to_payload(&MetadataRecord::NoOp),
    }
}

/// The segment holding `log`'s records from its start to `end` (exclusive: the high watermark
/// exports only committed records), batched as the leader appended them, each batch stamped with
/// the simulated millisecond its leader appended it (the simulation's clock starts at the Unix
/// epoch); a control record always has a batch of its own.
pub fn segment(log: &MetadataLog, end: Offset) -> KafkaFile {
    let start = log.start_offset();
    let end = end.min(log.end_offset());
    let mut bytes = Vec::new();
    let mut batch: Vec<Payload> = Vec::new();
    let mut batch_start = start;
    let mut batch_epoch = 0;
    let mut batch_time = 0;
    for offset in start..end {
        let Some(entry) = log.get(offset) else { break };
        let payload = log_payload(&entry.record);
        let breaks = !batch.is_empty()
            && (entry.epoch != batch_epoch || payload.is_control() != batch[0].is_control());
        if breaks {
            put_batch(&mut bytes, batch_start as i64, batch_epoch as i32, batch_time, &batch);
            batch.clear();
        }
        if batch.is_empty() {
            batch_start = offset;
            batch_epoch = entry.epoch;
            batch_time = (entry.appended_at / MS) as i64;
        }
        batch.push(payload);
        if entry.last_in_batch || batch[0].is_control() {
            put_batch(&mut bytes, batch_start as i64, batch_epoch as i32, batch_time, &batch);
            batch.clear();
        }
    }
    if !batch.is_empty() {
        put_batch(&mut bytes, batch_start as i64, batch_epoch as i32, batch_time, &batch);
    }
    KafkaFile { name: segment_file_name(start), bytes }
}

/// The records that rebuild `image` (what a snapshot holds): features, brokers with their
/// fencing and shutdown state, topics with their partitions, configs.
pub(crate) fn image_records(image: &MetadataImage) -> Vec<MetadataRecord> {
    let mut records: Vec<MetadataRecord> = image
        .features()
        .iter()
        .map(|(name, level)| MetadataRecord::FeatureLevel { name: name.clone(), level: *level })
        .collect();
    for (&broker_id, broker) in image.brokers() {
        let broker_epoch = broker.epoch;
        records.push(MetadataRecord::RegisterBroker {
            broker_id,
            broker_epoch,
            incarnation: broker.incarnation,
            fenced: true,
            in_controlled_shutdown: false,
        });
        if !broker.fenced {
            records.push(MetadataRecord::UnfenceBroker { broker_id, broker_epoch });
        }
        if broker.in_controlled_shutdown {
            records.push(MetadataRecord::BrokerRegistrationChange {
                broker_id,
                broker_epoch,
                fenced: None,
                in_controlled_shutdown: Some(true),
            });
        }
    }
    for topic in image.topics() {
        records.push(MetadataRecord::Topic { name: topic.name.clone(), topic_id: topic.id });
        for (index, p) in topic.partitions.iter().enumerate() {
            records.push(MetadataRecord::Partition(PartitionRecord {
                topic_id: topic.id,
                partition: index as u32,
                replicas: p.replicas,
                isr: p.isr,
                leader: p.leader,
                leader_epoch: p.leader_epoch,
                partition_epoch: p.partition_epoch,
            }));
        }
    }
    for ((resource, name), value) in image.configs() {
        let config = crate::metadata::record::ConfigRecord {
            resource: resource.clone(),
            name: name.clone(),
            value: value.clone(),
        };
        records.push(MetadataRecord::Config(std::sync::Arc::new(config)));
    }
    records
}

fn control(kind: ControlType, fields: Vec<(&'static str, Value)>) -> Payload {
    Payload::Control { kind, value: Value::of_fields(fields) }
}

/// The `.checkpoint` file of a snapshot: offsets from 0, every batch in the snapshot's epoch.
/// Its first batch is `RecordsSnapshotWriter.Builder.build`'s control batch: the SnapshotHeader
/// and, where `kraft.version` supports reconfiguration, the KRaftVersion and KRaftVoters records.
pub(crate) fn snapshot(snapshot: &MetadataSnapshot) -> KafkaFile {
    let epoch = snapshot.id.epoch as i32;
    let mut bytes = Vec::new();
    let mut first = vec![control(
        ControlType::SnapshotHeader,
        vec![("Version", Value::Int16(0)), ("LastContainedLogTimestamp", Value::Int64(0))],
    )];
    let applied = &snapshot.state;
    if applied.kraft_version > 0 {
        first.push(kraft_version_payload(applied.kraft_version));
        first.extend(applied.voters.as_deref().map(voters_payload));
    }
    put_batch(&mut bytes, 0, epoch, 0, &first);
    let records: Vec<Payload> = image_records(&snapshot.state.state.image).iter().map(to_payload).collect();
    let mut offset = first.len() as i64;
    for chunk in records.chunks(SNAPSHOT_BATCH_RECORDS) {
        put_batch(&mut bytes, offset, epoch, 0, chunk);
        offset += chunk.len() as i64;
    }
    put_batch(
        &mut bytes,
        offset,
        epoch,
        0,
        &[control(ControlType::SnapshotFooter, vec![("Version", Value::Int16(0))])],
    );
    KafkaFile { name: snapshot_file_name(snapshot.id.end_offset, snapshot.id.epoch), bytes }
}

/// A `__cluster_metadata-0` directory's log files for `log`: every snapshot it holds and one
/// segment of its records up to `committed`.
pub fn directory(log: &MetadataLog, committed: Offset) -> Vec<KafkaFile> {
    let mut files: Vec<KafkaFile> = log.snapshots().iter().map(|s| snapshot(s)).collect();
    files.push(segment(log, committed));
    files
}

/// The cluster id the simulated nodes' `meta.properties` name (Kafka's form of a UUID).
pub(crate) fn simulated_cluster_id() -> String {
    super::value::uuid_text(b"kraftscope sim\0\0")
}

/// A node's `quorum-state` (`FileQuorumStateStore.writeElectionStateToFile`): at kraft.version 0
/// data version 0 (with the empty cluster id, applied offset 0 and no voters Kafka 3.x writes),
/// from kraft.version 1 data version 1 with the voted directory id (all zeros without a vote).
pub(crate) fn quorum_state(
    state: QuorumStateFile,
    voted_dir: Option<DirectoryId>,
    kraft_version: KRaftVersion,
) -> KafkaFile {
    let id = |v: Option<NodeId>| v.map_or(-1, i64::from);
    let (leader, epoch, voted) = (id(state.leader_id), state.leader_epoch, id(state.voted_id));
    let json = if kraft_version == 0 {
        format!(
            "{{\"clusterId\":\"\",\"leaderId\":{leader},\"leaderEpoch\":{epoch},\"votedId\":{voted},\"appliedOffset\":0,\"currentVoters\":[],\"data_version\":0}}"
        )
    } else {
        let dir = super::value::uuid_text(&dir_uuid(voted_dir));
        format!(
            "{{\"leaderId\":{leader},\"leaderEpoch\":{epoch},\"votedId\":{voted},\"votedDirectoryId\":\"{dir}\",\"data_version\":1}}"
        )
    };
    KafkaFile { name: "quorum-state".into(), bytes: json.into_bytes() }
}

/// A KRaft node's `meta.properties` (`MetaProperties`, version 1), as `Properties.store`
/// writes it.
pub(crate) fn meta_properties(node: NodeId, dir: DirectoryId) -> KafkaFile {
    let dir = super::value::uuid_text(&dir_uuid(Some(dir)));
    let text = format!(
        "#\n#Written by kraftscope for a simulated node\nnode.id={node}\ndirectory.id={dir}\nversion=1\ncluster.id={}\n",
        simulated_cluster_id()
    );
    KafkaFile { name: "meta.properties".into(), bytes: text.into_bytes() }
}

/// `leader-epoch-checkpoint` (`LeaderEpochCheckpointFile`, version 0): each leader epoch of
/// `log`'s records with the offset it starts at.
pub(crate) fn leader_epoch_checkpoint(log: &MetadataLog) -> KafkaFile {
    let mut entries: Vec<(u32, Offset)> = Vec::new();
    for offset in log.start_offset()..log.end_offset() {
        let Some(entry) = log.get(offset) else { break };
        if entries.last().is_none_or(|(epoch, _)| *epoch != entry.epoch) {
            entries.push((entry.epoch, offset));
        }
    }
    let mut text = format!("0\n{}\n", entries.len());
    for (epoch, offset) in entries {
        text.push_str(&format!("{epoch} {offset}\n"));
    }
    KafkaFile { name: "leader-epoch-checkpoint".into(), bytes: text.into_bytes() }
}

/// `partition.metadata` of `__cluster_metadata-0`: the metadata topic's fixed id
/// (`Topic.CLUSTER_METADATA_TOPIC_ID`).
pub(crate) fn partition_metadata() -> KafkaFile {
    let id = super::value::uuid_text(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    KafkaFile {
        name: "partition.metadata".into(),
        bytes: format!("version: 0\ntopic_id: {id}\n").into_bytes(),
    }
}

//! What `kraftscope inspect` reports about a set of files: batches, records, the offset range,
//! leader epochs and LeaderChange records, CRC failures and other problems, a count per record
//! type, and the image the records build. Kafka's load order is followed
//! (`KafkaRaftClient`/`MetadataLoader`): the image starts from the latest snapshot and replays
//! the log from that snapshot's end offset.

use crate::util::small_map::SmallMap;

use super::error::DecodeError;
use super::image::LogImage;
use super::payload::{ControlType, Payload};
use super::reader::{BatchInfo, FileKind, LogEntry, Sink, read};
use super::snapshot_name::snapshot_end_offset;

/// At most this many problems are listed (the rest are counted).
const MAX_LISTED: usize = 100;

/// One file's share.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct FileReport {
    pub name: String,
    pub snapshot: bool,
    pub bytes: usize,
    pub batches: u64,
    pub records: u64,
    pub first_offset: Option<i64>,
    pub last_offset: Option<i64>,
}

/// A leader epoch as the log shows it: where it starts and how many batches it wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct EpochSpan {
    pub epoch: i32,
    pub first_offset: i64,
    pub batches: u64,
}

/// A LeaderChange control record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct LeaderChangeInfo {
    pub offset: i64,
    pub epoch: i32,
    pub leader: i32,
    pub voters: Vec<i32>,
    pub granting_voters: Vec<i32>,
}

/// One voter of a KRaftVoters control record (KIP-853): its id, directory id and endpoints
/// (`NAME://host:port`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct VoterInfo {
    pub id: i32,
    pub directory_id: String,
    pub endpoints: Vec<String>,
}

/// A KRaftVoters control record: the voter set from this offset on (in a snapshot, the set the
/// snapshot holds).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct VoterSetInfo {
    pub offset: i64,
    /// Which file holds it.
    pub file: String,
    pub voters: Vec<VoterInfo>,
}

/// A KRaftVersion control record: `kraft.version` from this offset on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct KRaftVersionInfo {
    pub offset: i64,
    pub file: String,
    pub kraft_version: i16,
}

/// The report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct Inspection {
    pub files: Vec<FileReport>,
    pub batches: u64,
    pub records: u64,
    pub first_offset: Option<i64>,
    pub last_offset: Option<i64>,
    /// Leader epochs of the log segments, in offset order.
    pub epochs: Vec<EpochSpan>,
    pub leader_changes: Vec<LeaderChangeInfo>,
    /// Every KRaftVoters and KRaftVersion record, in the order read.
    pub voter_sets: Vec<VoterSetInfo>,
    pub kraft_versions: Vec<KRaftVersionInfo>,
    pub crc_failures: Vec<String>,
    /// Structural and record problems (not CRC failures), at most 100 listed.
    pub problems: Vec<String>,
    pub problem_count: u64,
    /// Records per type, by Kafka's type name.
    pub record_types: SmallMap<String, u64>,
    /// Records that did not fit the image while replaying it, at most 100 listed.
    pub replay_problems: Vec<String>,
    pub replay_problem_count: u64,
    pub image: LogImage,
}

/// A voter of a KRaftVoters record.
fn voter_info(voter: &super::value::Value) -> VoterInfo {
    let endpoint = |e: &super::value::Value| {
        format!(
            "{}://{}:{}",
            e.text("Name").unwrap_or("?"),
            e.text("Host").unwrap_or("?"),
            e.int("Port").unwrap_or(0)
        )
    };
    VoterInfo {
        id: voter.int("VoterId").unwrap_or(-1) as i32,
        directory_id: voter
            .uuid("VoterDirectoryId")
            .map_or_else(String::new, |u| super::value::uuid_text(&u)),
        endpoints: voter.list("Endpoints").unwrap_or(&[]).iter().map(endpoint).collect(),
    }
}

/// The voter ids of a LeaderChange's `Voters` or `GrantingVoters`.
pub(crate) fn voter_ids(value: &super::value::Value, field: &str) -> Vec<i32> {
    value.list(field).unwrap_or(&[]).iter().filter_map(|v| v.int("VoterId")).map(|id| id as i32).collect()
}

impl Inspection {
    /// Inspect `files` (name and bytes): snapshots and segments, in any order.
    pub fn of(files: &[(String, Vec<u8>)]) -> Inspection {
        Inspection::replaying(files, |_, _, _| {})
    }

    /// Inspect `files`, handing `replayed` every record that goes into the image, in replay
    /// order, with the index of its file in `files` and the position of its batch.
    pub(crate) fn replaying(
        files: &[(String, Vec<u8>)],
        mut replayed: impl FnMut(usize, usize, LogEntry),
    ) -> Inspection {
        let mut order: Vec<usize> = (0..files.len()).collect();
        crate::util::sort::sort_by_key(&mut order, |&i| {
            let name = &files[i].0;
            (FileKind::of(name) == FileKind::Segment, snapshot_end_offset(name), name.clone())
        });
        let latest_snapshot = order.iter().rfind(|&&i| FileKind::of(&files[i].0) == FileKind::Snapshot);
        let replay_from = latest_snapshot.map(|&i| (i, snapshot_end_offset(&files[i].0).unwrap_or(0)));
        let mut inspection = Inspection::default();
        for index in order {
            let (name, bytes) = &files[index];
            let kind = FileKind::of(name);
            let replays = match (replay_from, kind) {
                (None, _) => Some(i64::MIN),
                (Some((snapshot, _)), FileKind::Snapshot) => (snapshot == index).then_some(i64::MIN),
                (Some((_, end)), FileKind::Segment) => Some(end),
            };
            let report = FileReport {
                name: name.clone(),
                snapshot: kind == FileKind::Snapshot,
                bytes: bytes.len(),
                ..FileReport::default()
            };
            let mut sink = FileSink {
                inspection: &mut inspection,
                report,
                replay_from: replays,
                segment: kind == FileKind::Segment,
                batch_position: 0,
                replayed: &mut |position, entry| replayed(index, position, entry),
            };
            read(name, kind, bytes, &mut sink);
            let report = sink.report;
            inspection.files.push(report);
        }
        inspection
    }

    fn note(list: &mut Vec<String>, count: &mut u64, text: String) {
        *count += 1;
        if list.len() < MAX_LISTED {
            list.push(text);
        }
    }
}

struct FileSink<'a> {
    inspection: &'a mut Inspection,
    report: FileReport,
    /// Replay records at or above this offset into the image (None: this file does not).
    replay_from: Option<i64>,
    segment: bool,
    /// Where the current batch starts.
    batch_position: usize,
    replayed: &'a mut dyn FnMut(usize, LogEntry),
}

impl Sink for FileSink<'_> {
    fn batch(&mut self, batch: &BatchInfo) {
        let header = &batch.header;
        self.batch_position = batch.position;
        self.report.batches += 1;
        self.inspection.batches += 1;
        if !self.segment {
            return;
        }
        let epochs = &mut self.inspection.epochs;
        match epochs.last_mut() {
            Some(span) if span.epoch == header.partition_leader_epoch => span.batches += 1,
            _ => epochs.push(EpochSpan {
                epoch: header.partition_leader_epoch,
                first_offset: header.base_offset,
                batches: 1,
            }),
        }
    }

    fn entry(&mut self, entry: LogEntry) {
        let inspection = &mut *self.inspection;
        self.report.records += 1;
        self.report.first_offset.get_or_insert(entry.offset);
        self.report.last_offset = Some(entry.offset);
        inspection.records += 1;
        if self.segment {
            inspection.first_offset =
                Some(inspection.first_offset.map_or(entry.offset, |f| f.min(entry.offset)));
            inspection.last_offset =
                Some(inspection.last_offset.map_or(entry.offset, |l| l.max(entry.offset)));
        }
        let name = entry.payload.type_name();
        match inspection.record_types.get_mut(&*name) {
            Some(count) => *count += 1,
            None => {
                inspection.record_types.insert(name.into_owned(), 1);
            }
        }
        let replays = self.replay_from.is_some_and(|from| entry.offset >= from);
        match &entry.payload {
            Payload::Control { kind: ControlType::LeaderChange, value } => {
                inspection.leader_changes.push(LeaderChangeInfo {
                    offset: entry.offset,
                    epoch: entry.epoch,
                    leader: value.int("LeaderId").unwrap_or(-1) as i32,
                    voters: voter_ids(value, "Voters"),
                    granting_voters: voter_ids(value, "GrantingVoters"),
                });
            }
            Payload::Control { kind: ControlType::KRaftVoters, value } => {
                inspection.voter_sets.push(VoterSetInfo {
                    offset: entry.offset,
                    file: self.report.name.clone(),
                    voters: value.list("Voters").unwrap_or(&[]).iter().map(voter_info).collect(),
                });
            }
            Payload::Control { kind: ControlType::KRaftVersion, value } => {
                inspection.kraft_versions.push(KRaftVersionInfo {
                    offset: entry.offset,
                    file: self.report.name.clone(),
                    kraft_version: value.int("KRaftVersion").unwrap_or(-1) as i16,
                });
            }
            Payload::Metadata { api_key, value, .. } if replays => {
                if let Err(error) = inspection.image.apply(*api_key, value) {
                    let text = format!("{} at offset {}: {error}", entry.payload.type_name(), entry.offset);
                    Inspection::note(
                        &mut inspection.replay_problems,
                        &mut inspection.replay_problem_count,
                        text,
                    );
                }
            }
            _ => {}
        }
        if replays {
            (self.replayed)(self.batch_position, entry);
        }
    }

    fn problem(&mut self, error: DecodeError, crc: bool) {
        let inspection = &mut *self.inspection;
        if crc {
            inspection.crc_failures.push(error.to_string());
        } else {
            Inspection::note(&mut inspection.problems, &mut inspection.problem_count, error.to_string());
        }
    }
}

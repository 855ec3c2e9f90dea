//! A metadata log's history on the cluster's own clock (`kraftscope history`): each election
//! with the time before it when no controller wrote, each broker's registrations (a restart when
//! its incarnation id is new), fences, unfences and controlled shutdowns, topics created and
//! deleted, feature levels, voter sets, and partitions losing and regaining their leader
//! (counted per moment), every one at its batch's timestamp (`baseTimestamp` plus the record's
//! delta: the leader's clock when it appended the batch, `BatchAccumulator`).
//!
//! The time without an active controller before an election is measured from the last record
//! of an earlier epoch to the new epoch's LeaderChange (`KafkaRaftClient.onBecomeLeader`
//! appends it first). The active controller writes a NoOpRecord whenever
//! `metadata.max.idle.interval.ms` (500 ms by default) passes without a write
//! (`QuorumController.maybeScheduleNextWriteNoOpRecord`), so it stopped acting at most one such
//! interval after its last record that reached the next leader, plus the time a record takes to
//! reach a follower (a record written just before it died may never have): the figure
//! overstates the gap by up to that (and is off by any skew between the two leaders' clocks).

use std::borrow::Cow;

use crate::util::format::span_ms;
use crate::util::small_map::SmallMap;

use super::error::DecodeError;
use super::image::LogImage;
use super::inspect::voter_ids;
use super::node_files::NodeFile;
use super::nodes::{Nodes, are_nodes, record_files};
use super::payload::{ControlType, Payload};
use super::reader::{BatchInfo, FileKind, LogEntry, Sink, read};
use super::snapshot_name::snapshot_end_offset;
use super::value::{Value, uuid_text};

/// `PartitionChangeRecord.Leader`: no change (`LeaderConstants.NO_LEADER_CHANGE`).
const NO_LEADER_CHANGE: i64 = -2;
/// `LeaderConstants.NO_LEADER`.
const NO_LEADER: i32 = -1;

/// An election as the log shows it: the LeaderChange record that opens an epoch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct Election {
    pub epoch: i32,
    pub leader: i32,
    pub voters: Vec<i32>,
    pub granted_by: Vec<i32>,
    /// Epochs since the previous election in the log that left no record (candidacies no one
    /// won, or a leader whose records were truncated away).
    pub epochs_without_record: i32,
    /// The time without an active controller before it (none for the log's first election).
    pub gap: Option<Gap>,
}

/// How long no controller wrote before an election, and from which record that is measured.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct Gap {
    pub ms: i64,
    /// The last record of an earlier epoch: its offset, epoch and type.
    pub from_offset: i64,
    pub from_epoch: i32,
    pub from_type: String,
}

/// What happened at one moment.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
#[cfg_attr(not(target_arch = "wasm32"), serde(tag = "kind", rename_all = "snake_case"))]
pub enum What {
    Election(Election),
    /// RegisterBrokerRecord: `restart` when the broker had registered before with another
    /// incarnation id (a new process).
    BrokerRegistered {
        broker: i32,
        broker_epoch: i64,
        restart: bool,
        fenced: bool,
    },
    /// RegisterControllerRecord (Kafka 3.7+), `restart` as for brokers.
    ControllerRegistered {
        controller: i32,
        restart: bool,
    },
    BrokerFenced {
        broker: i32,
    },
    BrokerUnfenced {
        broker: i32,
    },
    /// BrokerRegistrationChangeRecord with InControlledShutdown set.
    ControlledShutdown {
        broker: i32,
    },
    BrokerUnregistered {
        broker: i32,
    },
    TopicCreated {
        name: String,
        partitions: u32,
    },
    TopicDeleted {
        name: String,
        partitions: u32,
    },
    FeatureLevel {
        name: String,
        level: i16,
    },
    /// A KRaftVoters control record (KIP-853): the voter set from here on.
    Voters {
        voters: Vec<i32>,
    },
    /// PartitionChangeRecords of one moment: partitions that lost their leader, got one back,
    /// or moved it, and how many were without a leader after them.
    Leadership {
        lost: u32,
        regained: u32,
        moved: u32,
        leaderless_after: u64,
    },
}

/// One line of the history.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct Event {
    pub offset: i64,
    /// Milliseconds since the Unix epoch, on the writing leader's clock.
    pub timestamp: i64,
    pub what: What,
    /// The partitions, and those without a leader, from this event until the next.
    pub partitions: u64,
    pub leaderless: u64,
}

/// What happened to one node over the history.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct NodeCounts {
    pub broker_registrations: u32,
    pub controller_registrations: u32,
    /// Registrations with a new incarnation id (a combined node registers as both).
    pub broker_restarts: u32,
    pub controller_restarts: u32,
    pub fences: u32,
    pub unfences: u32,
    pub controlled_shutdowns: u32,
    /// Elections it won.
    pub elections_won: u32,
}

impl NodeCounts {
    /// Times the node's process started again: a combined node re-registers as both broker and
    /// controller, so the larger of the two counts.
    pub fn restarts(&self) -> u32 {
        self.broker_restarts.max(self.controller_restarts)
    }
}

/// The totals at the end.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct Summary {
    pub elections: u32,
    /// Over the elections with a measured gap, in milliseconds.
    pub gap_median_ms: Option<i64>,
    pub gap_max_ms: Option<i64>,
    pub nodes: SmallMap<i32, NodeCounts>,
    pub topics_created: u32,
    pub topics_deleted: u32,
    pub leaders_lost: u64,
    pub leaders_regained: u64,
}

/// A log's history.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct History {
    /// Whose files were read, in words.
    pub source: String,
    pub first_offset: Option<i64>,
    pub last_offset: Option<i64>,
    /// When the log no longer starts at offset 0: the snapshot the image starts from (events
    /// before its end are not in the files).
    pub from_snapshot: Option<String>,
    pub first_timestamp: Option<i64>,
    pub last_timestamp: Option<i64>,
    pub events: Vec<Event>,
    pub summary: Summary,
    /// Files or records that could not be read, and records that did not fit the image.
    pub problems: Vec<String>,
}

impl History {
    /// The history `files` (each its `/`-separated path and bytes) hold: nodes' directories
    /// (the leader's log, or the furthest one's, as the log reader opens it), or a log's
    /// segments and snapshots.
    pub fn read(files: &[(String, Vec<u8>)]) -> Result<History, String> {
        if are_nodes(files) {
            let nodes = Nodes::read(files);
            let node = nodes.source().ok_or("no KRaft node's log found in those directories")?;
            let names: Vec<&str> = nodes.nodes.iter().map(|n| n.name.as_str()).collect();
            let source = source_words(&node.name, nodes.leads(node), &names);
            return History::of_log(&record_files(files, &node.folder), source);
        }
        let log: Vec<(String, Vec<u8>)> = if files.len() == 1 {
            files.to_vec()
        } else {
            files
                .iter()
                .filter(|(path, _)| matches!(NodeFile::of(path), NodeFile::Segment | NodeFile::Snapshot))
                .cloned()
                .collect()
        };
        let names: Vec<&str> = log.iter().map(|(p, _)| p.as_str()).collect();
        History::of_log(&log, names.join(", "))
    }

    /// The history of one log: its segments in offset order, from its first record, or from
    /// the end of the earliest snapshot that covers its start when the log was cleaned.
    pub fn of_log(files: &[(String, Vec<u8>)], source: String) -> Result<History, String> {
        let name = |path: &str| path.rsplit('/').next().unwrap_or(path).to_string();
        let mut segments: Vec<&(String, Vec<u8>)> =
            files.iter().filter(|(p, _)| FileKind::of(p) == FileKind::Segment).collect();
        if segments.is_empty() {
            return Err("no .log segment there: a history needs the log's records, not only snapshots".into());
        }
        crate::util::sort::sort_by_key(&mut segments, |(p, _)| name(p));
        let mut builder = Builder { recording: true, ..Builder::default() };
        let first_offset = {
            let mut probe = FirstOffset(None);
            read(&segments[0].0, FileKind::Segment, &segments[0].1, &mut probe);
            probe.0
        };
        let mut from_snapshot = None;
        if let Some(start) = first_offset.filter(|&s| s > 0) {
            let mut covering: Vec<(i64, &(String, Vec<u8>))> = files
                .iter()
                .filter_map(|f| snapshot_end_offset(&name(&f.0)).map(|end| (end, f)))
                .filter(|(end, _)| *end >= start)
                .collect();
            crate::util::sort::sort_by_key(&mut covering, |(end, _)| *end);
            if let Some((end, (path, bytes))) = covering.first() {
                builder.recording = false;
                read(path, FileKind::Snapshot, bytes, &mut builder);
                builder.recording = true;
                builder.replay_from = *end;
                from_snapshot = Some(name(path));
            }
        }
        for (path, bytes) in segments {
            read(path, FileKind::Segment, bytes, &mut builder);
        }
        Ok(builder.finish(source, from_snapshot))
    }
}

/// An event in words, as `kraftscope history` prints it and the page lists it.
pub fn describe(what: &What) -> String {
    match what {
        What::Election(election) => election_text(election),
        What::BrokerRegistered { broker, broker_epoch, restart: true, .. } => {
            format!(
                "broker {broker} restarted: registered with a new incarnation id (broker epoch {broker_epoch})"
            )
        }
        What::BrokerRegistered { broker, broker_epoch, fenced, .. } => format!(
            "broker {broker} registered (broker epoch {broker_epoch}{})",
            if *fenced { ", fenced until it catches up" } else { "" }
        ),
        What::ControllerRegistered { controller, restart: true } => {
            format!("controller {controller} restarted: registered with a new incarnation id")
        }
        What::ControllerRegistered { controller, .. } => format!("controller {controller} registered"),
        What::BrokerFenced { broker } => format!("broker {broker} fenced"),
        What::BrokerUnfenced { broker } => format!("broker {broker} unfenced"),
        What::ControlledShutdown { broker } => format!("broker {broker} in controlled shutdown"),
        What::BrokerUnregistered { broker } => format!("broker {broker} unregistered"),
        What::TopicCreated { name, partitions } => format!("topic {name} created ({partitions} partitions)"),
        What::TopicDeleted { name, partitions } => format!("topic {name} deleted ({partitions} partitions)"),
        What::FeatureLevel { name, level } => format!("feature {name} = {level}"),
        What::Voters { voters } => format!("voter set: {}", ids(voters)),
        What::Leadership { lost, regained, moved, leaderless_after } => {
            let mut parts = Vec::new();
            if *lost > 0 {
                parts.push(format!("{lost} lost their leader"));
            }
            if *regained > 0 {
                parts.push(format!("{regained} got one back"));
            }
            if *moved > 0 {
                parts.push(format!("{moved} moved to another leader"));
            }
            if parts.is_empty() {
                parts.push("leaders changed in epoch only".into());
            }
            format!("partitions: {}; {leaderless_after} without a leader after it", parts.join(", "))
        }
    }
}

fn election_text(election: &Election) -> String {
    let gap = match &election.gap {
        None => "the log's first election".to_string(),
        Some(gap) => format!(
            "no controller wrote for {} before it (since offset {}, a {} of epoch {})",
            span_ms(gap.ms),
            gap.from_offset,
            gap.from_type,
            gap.from_epoch
        ),
    };
    let skipped = match election.epochs_without_record {
        0 => String::new(),
        1 => "; 1 epoch before it left no record".into(),
        n => format!("; {n} epochs before it left no record"),
    };
    format!(
        "ELECTION epoch {}: n{} leads (voters {}; votes from {}); {gap}{skipped}",
        election.epoch,
        election.leader,
        ids(&election.voters),
        ids(&election.granted_by)
    )
}

/// Node ids as `n1, n2, n3`.
fn ids(ids: &[i32]) -> String {
    ids.iter().map(|id| format!("n{id}")).collect::<Vec<_>>().join(", ")
}

/// Whose log a history of nodes' directories is, in words: `n2's log (the leader of the latest
/// epoch; nodes n1, n2, n3)`.
pub fn source_words(name: &str, leads: bool, names: &[&str]) -> String {
    let why = if leads { "the leader of the latest epoch" } else { "the furthest log" };
    format!("{name}'s log ({why}; nodes {})", names.join(", "))
}

/// The first record's offset of a segment.
struct FirstOffset(Option<i64>);

impl Sink for FirstOffset {
    fn batch(&mut self, batch: &BatchInfo) {
        self.0 = self.0.or(Some(batch.header.base_offset));
    }
    fn entry(&mut self, _: LogEntry) {}
    fn problem(&mut self, _: DecodeError, _: bool) {}
}

/// The last record seen: where a gap before the next election is measured from.
#[derive(Clone, Debug)]
struct Last {
    offset: i64,
    timestamp: i64,
    epoch: i32,
    /// Its type's name (borrowed from the schema: no allocation per record).
    kind: Cow<'static, str>,
}

/// Reads records in offset order into events.
#[derive(Default)]
struct Builder {
    /// False while a snapshot's records build the starting image (they make no events).
    recording: bool,
    replay_from: i64,
    image: LogImage,
    events: Vec<Event>,
    /// Each node's last broker and controller incarnation ids.
    broker_incarnations: SmallMap<i32, [u8; 16]>,
    controller_incarnations: SmallMap<i32, [u8; 16]>,
    /// The event that created each topic (by UUID), to count its partitions.
    created: SmallMap<String, usize>,
    leaderless: u64,
    partitions: u64,
    last: Option<Last>,
    previous_election_epoch: Option<i32>,
    first_offset: Option<i64>,
    last_offset: Option<i64>,
    first_timestamp: Option<i64>,
    last_timestamp: Option<i64>,
    problems: Vec<String>,
}

impl Sink for Builder {
    fn batch(&mut self, _: &BatchInfo) {}

    fn entry(&mut self, entry: LogEntry) {
        if self.recording && entry.offset < self.replay_from {
            return;
        }
        if self.recording {
            self.first_offset = self.first_offset.or(Some(entry.offset));
            self.last_offset = Some(entry.offset);
            self.first_timestamp = self.first_timestamp.or(Some(entry.timestamp));
            self.last_timestamp = Some(entry.timestamp);
        }
        match &entry.payload {
            Payload::Control { kind: ControlType::LeaderChange, value } => self.election(&entry, value),
            Payload::Control { kind: ControlType::KRaftVoters, value } => {
                let voters = value.list("Voters").unwrap_or(&[]);
                let voters = voters.iter().filter_map(|v| v.int("VoterId")).map(|id| id as i32).collect();
                self.push(&entry, What::Voters { voters });
            }
            Payload::Metadata { api_key, value, .. } => {
                let what = self.metadata(*api_key, value);
                if let Err(problem) = self.image.apply(*api_key, value) {
                    self.problems.push(format!("offset {}: {problem}", entry.offset));
                }
                for what in what {
                    self.push(&entry, what);
                }
                if self.recording
                    && let Some(last) = self.events.last_mut()
                {
                    (last.partitions, last.leaderless) = (self.partitions, self.leaderless);
                }
            }
            _ => {}
        }
        if self.recording {
            let kind = entry.payload.type_name();
            self.last =
                Some(Last { offset: entry.offset, timestamp: entry.timestamp, epoch: entry.epoch, kind });
        }
    }

    fn problem(&mut self, error: DecodeError, _: bool) {
        self.problems.push(error.to_string());
    }
}

impl Builder {
    fn push(&mut self, entry: &LogEntry, what: What) {
        if !self.recording {
            return;
        }
        if let What::Leadership { lost, regained, moved, leaderless_after } = what
            && let Some(Event {
                timestamp,
                what: What::Leadership { lost: l, regained: r, moved: m, leaderless_after: after },
                ..
            }) = self.events.last_mut()
            && *timestamp == entry.timestamp
        {
            *l += lost;
            *r += regained;
            *m += moved;
            *after = leaderless_after;
            return;
        }
        let (partitions, leaderless) = (self.partitions, self.leaderless);
        self.events.push(Event {
            offset: entry.offset,
            timestamp: entry.timestamp,
            what,
            partitions,
            leaderless,
        });
    }

    /// A LeaderChange: an election, with the gap since the last record of an earlier epoch.
    fn election(&mut self, entry: &LogEntry, value: &Value) {
        let gap = self.last.as_ref().filter(|last| last.epoch < entry.epoch).map(|last| Gap {
            ms: entry.timestamp - last.timestamp,
            from_offset: last.offset,
            from_epoch: last.epoch,
            from_type: last.kind.to_string(),
        });
        let election = Election {
            epoch: entry.epoch,
            leader: value.int("LeaderId").unwrap_or(-1) as i32,
            voters: voter_ids(value, "Voters"),
            granted_by: voter_ids(value, "GrantingVoters"),
            epochs_without_record: self.previous_election_epoch.map_or(0, |p| (entry.epoch - p - 1).max(0)),
            gap,
        };
        if self.recording {
            self.previous_election_epoch = Some(entry.epoch);
        }
        self.push(entry, What::Election(election));
    }

    /// The events a metadata record makes, read against the image before it is applied.
    fn metadata(&mut self, api_key: u16, value: &Value) -> Vec<What> {
        let id = |name: &str| value.int(name).unwrap_or(-1) as i32;
        let incarnation = value.uuid("IncarnationId").unwrap_or_default();
        match api_key {
            // ClusterControlManager.replay(RegisterBrokerRecord)
            0 => {
                let broker = id("BrokerId");
                let previous = self.broker_incarnations.insert(broker, incarnation);
                vec![What::BrokerRegistered {
                    broker,
                    broker_epoch: value.int("BrokerEpoch").unwrap_or(-1),
                    restart: previous.is_some_and(|p| p != incarnation),
                    fenced: value.flag("Fenced").unwrap_or(true),
                }]
            }
            1 => vec![What::BrokerUnregistered { broker: id("BrokerId") }],
            7 => vec![What::BrokerFenced { broker: id("Id") }],
            8 => vec![What::BrokerUnfenced { broker: id("Id") }],
            // BrokerRegistrationChangeRecord: Fenced -1 unfence, 1 fence; InControlledShutdown 1.
            17 => {
                let broker = id("BrokerId");
                let mut whats = Vec::new();
                match value.int("Fenced").unwrap_or(0) {
                    1 => whats.push(What::BrokerFenced { broker }),
                    -1 => whats.push(What::BrokerUnfenced { broker }),
                    _ => {}
                }
                if value.int("InControlledShutdown") == Some(1) {
                    whats.push(What::ControlledShutdown { broker });
                }
                whats
            }
            // ClusterControlManager.replay(RegisterControllerRecord)
            27 => {
                let controller = id("ControllerId");
                let previous = self.controller_incarnations.insert(controller, incarnation);
                vec![What::ControllerRegistered {
                    controller,
                    restart: previous.is_some_and(|p| p != incarnation),
                }]
            }
            2 => {
                let uuid = value.uuid("TopicId").map(|u| uuid_text(&u)).unwrap_or_default();
                if self.recording {
                    self.created.insert(uuid, self.events.len());
                }
                vec![What::TopicCreated {
                    name: value.text("Name").unwrap_or("?").to_string(),
                    partitions: 0,
                }]
            }
            3 => {
                let uuid = value.uuid("TopicId").map(|u| uuid_text(&u)).unwrap_or_default();
                if let Some(&index) = self.created.get(&uuid)
                    && let Some(Event { what: What::TopicCreated { partitions, .. }, .. }) =
                        self.events.get_mut(index)
                {
                    *partitions += 1;
                }
                if value.int("Leader") == Some(i64::from(NO_LEADER)) {
                    self.leaderless += 1;
                }
                self.partitions += 1;
                Vec::new()
            }
            5 => self.partition_change(value).into_iter().collect(),
            9 => {
                let uuid = value.uuid("TopicId").map(|u| uuid_text(&u)).unwrap_or_default();
                let Some(topic) = self.image.topics.get(&uuid) else { return Vec::new() };
                let leaderless = topic.partitions.values().filter(|p| p.leader == NO_LEADER).count();
                self.leaderless = self.leaderless.saturating_sub(leaderless as u64);
                self.partitions = self.partitions.saturating_sub(topic.partitions.len() as u64);
                vec![What::TopicDeleted {
                    name: topic.name.clone(),
                    partitions: topic.partitions.len() as u32,
                }]
            }
            12 => vec![What::FeatureLevel {
                name: value.text("Name").unwrap_or("?").to_string(),
                level: value.int("FeatureLevel").unwrap_or(0) as i16,
            }],
            _ => Vec::new(),
        }
    }

    /// A PartitionChangeRecord's leader change against the partition's leader before it.
    fn partition_change(&mut self, value: &Value) -> Option<What> {
        let leader = value.int("Leader")?;
        if leader == NO_LEADER_CHANGE {
            return None;
        }
        let uuid = uuid_text(&value.uuid("TopicId")?);
        let index = value.int("PartitionId")? as i32;
        let before = self.image.topics.get(&uuid)?.partitions.get(&index)?.leader;
        let after = leader as i32;
        let (lost, regained, moved) = match (before == NO_LEADER, after == NO_LEADER) {
            (false, true) => (1, 0, 0),
            (true, false) => (0, 1, 0),
            (false, false) if before != after => (0, 0, 1),
            _ => (0, 0, 0),
        };
        self.leaderless = (self.leaderless + u64::from(lost)).saturating_sub(u64::from(regained));
        Some(What::Leadership { lost, regained, moved, leaderless_after: self.leaderless })
    }

    fn finish(self, source: String, from_snapshot: Option<String>) -> History {
        let summary = summary(&self.events);
        History {
            source,
            first_offset: self.first_offset,
            last_offset: self.last_offset,
            from_snapshot,
            first_timestamp: self.first_timestamp,
            last_timestamp: self.last_timestamp,
            events: self.events,
            summary,
            problems: self.problems,
        }
    }
}

/// Node `id`'s counts in `summary`.
fn node(summary: &mut Summary, id: i32) -> &mut NodeCounts {
    summary.nodes.get_or_insert_with(id, NodeCounts::default)
}

/// The totals of `events`.
fn summary(events: &[Event]) -> Summary {
    let mut summary = Summary::default();
    let mut gaps = Vec::new();
    for event in events {
        match &event.what {
            What::Election(election) => {
                node(&mut summary, election.leader).elections_won += 1;
                summary.elections += 1;
                gaps.extend(election.gap.as_ref().map(|g| g.ms));
            }
            What::BrokerRegistered { broker, restart, .. } => {
                let counts = node(&mut summary, *broker);
                counts.broker_registrations += 1;
                counts.broker_restarts += u32::from(*restart);
            }
            What::ControllerRegistered { controller, restart } => {
                let counts = node(&mut summary, *controller);
                counts.controller_registrations += 1;
                counts.controller_restarts += u32::from(*restart);
            }
            What::BrokerFenced { broker } => node(&mut summary, *broker).fences += 1,
            What::BrokerUnfenced { broker } => node(&mut summary, *broker).unfences += 1,
            What::ControlledShutdown { broker } => node(&mut summary, *broker).controlled_shutdowns += 1,
            What::TopicCreated { .. } => summary.topics_created += 1,
            What::TopicDeleted { .. } => summary.topics_deleted += 1,
            What::Leadership { lost, regained, .. } => {
                summary.leaders_lost += u64::from(*lost);
                summary.leaders_regained += u64::from(*regained);
            }
            What::BrokerUnregistered { .. } | What::FeatureLevel { .. } | What::Voters { .. } => {}
        }
    }
    gaps.sort_unstable();
    let middle = gaps.len() / 2;
    summary.gap_median_ms = match gaps.len() {
        0 => None,
        n if n % 2 == 1 => Some(gaps[middle]),
        _ => Some((gaps[middle - 1] + gaps[middle]) / 2),
    };
    summary.gap_max_ms = gaps.last().copied();
    summary
}

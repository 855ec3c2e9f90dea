//! The metadata log reader, and the opened log as the view draws it. The reader decodes the
//! files and keeps their timeline where the work is done: in the page's Web Worker with its own
//! wasm (`src/log_worker.rs`), or natively in tests. It answers each request with an
//! [`OpenedLog`]: text and numbers only, so it crosses to the page as plain data.

pub mod history;
pub mod node_dirs;

use serde::{Deserialize, Serialize};

use crate::kafka_log::image::LogImage;
use crate::kafka_log::nodes;
use crate::kafka_log::payload::ControlType;
use crate::kafka_log::report;
use crate::kafka_log::timeline::LogTimeline;

use crate::kafka_log::history::History;
use history::HistoryTrack;
use node_dirs::ClusterFiles;

/// At most this many topics are listed (the rest are counted).
const TOPICS_SHOWN: usize = 12;
/// At most this many LeaderChange ticks, and as many voter-change ticks, are drawn.
const TICKS_SHOWN: usize = 200;
/// At most this many LeaderChange records are named in the summary.
const CHANGES_NAMED: usize = 4;
/// At most this many problems are quoted in the summary.
const PROBLEMS_QUOTED: usize = 3;

/// What the page's state asks the reader about the files it opened (the files themselves go
/// from the web layer to the worker, which reads them: their bytes never enter the page).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LogQuery {
    /// Replay the image after this many records.
    Seek(usize),
    /// Work out the opened files' history.
    History,
}

impl From<LogQuery> for LogRequest {
    fn from(query: LogQuery) -> LogRequest {
        match query {
            LogQuery::Seek(count) => LogRequest::Seek(count),
            LogQuery::History => LogRequest::History,
        }
    }
}

/// What the reader is asked.
#[derive(Clone, Debug, PartialEq)]
pub enum LogRequest {
    /// Decode these files (name and bytes) into a timeline, placed after the last record.
    Open(Vec<(String, Vec<u8>)>),
    /// Replay the image after this many records.
    Seek(usize),
    /// Work out the opened files' history (asked once the open's answer is shown, so a big
    /// log's view does not wait for it).
    History,
}

/// One leader epoch's band on the timeline strip: its first record, the record after its last,
/// and the epoch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EpochBand {
    pub start: usize,
    pub end: usize,
    pub epoch: i32,
}

/// The image after the current record, as listed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ImageSummary {
    /// Counts and finalized features, one line.
    pub totals: String,
    pub controllers: Vec<i32>,
    /// Each broker's line and its state's name.
    pub brokers: Vec<(String, String)>,
    /// The first [`TOPICS_SHOWN`] topics' lines.
    pub topics: Vec<String>,
    pub topic_count: usize,
    pub partition_count: usize,
}

/// The opened files as the view draws them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OpenedLog {
    pub files: Vec<String>,
    /// Batches, records, offsets, one line.
    pub totals: String,
    pub epochs: String,
    pub leader_changes: usize,
    /// The first LeaderChange records, named.
    pub changes_named: Vec<String>,
    pub crc_failures: usize,
    pub problem_count: u64,
    /// The first CRC failures and problems, quoted.
    pub problems_quoted: Vec<String>,
    pub records: u64,
    pub last_offset: Option<i64>,
    /// Records on the timeline, and how many the image holds.
    pub len: usize,
    pub position: usize,
    /// The record the image stands after.
    pub at: String,
    pub bands: Vec<EpochBand>,
    /// Timeline indexes of LeaderChange records (the first [`TICKS_SHOWN`]) and how many there are.
    pub ticks: Vec<usize>,
    pub tick_count: usize,
    /// The same for voter-set changes (KRaftVoters records, KIP-853).
    pub voter_ticks: Vec<usize>,
    pub voter_tick_count: usize,
    /// The partitions the whole log ends with: the size of its failover race.
    pub partitions: u64,
    pub image: ImageSummary,
    pub record_types: Vec<(String, u64)>,
    /// Why nothing could be shown, when no record builds an image.
    pub error: Option<String>,
    /// When the files were nodes' directories: the cluster they draw (the timeline is then the
    /// leader's log).
    pub cluster: Option<ClusterFiles>,
    /// The log's history on the cluster's clock, with the answer to an open only (the page
    /// keeps it while it scrubs); none when the files hold no segment.
    pub history: Option<HistoryTrack>,
}

/// The reader's state: the opened files' timeline, and the cluster when they were nodes'
/// directories.
#[derive(Default)]
pub struct LogReader {
    timeline: Option<LogTimeline>,
    cluster: Option<ClusterFiles>,
}

impl LogReader {
    /// Answer `request` with the view of the log (a seek before any open is refused).
    pub fn answer(&mut self, request: LogRequest) -> Result<OpenedLog, String> {
        match request {
            LogRequest::Open(files) if nodes::are_nodes(&files) => {
                let cluster = ClusterFiles::of(&files);
                let folder = cluster.source.clone().unwrap_or_default();
                self.timeline = Some(LogTimeline::open(nodes::record_files(&files, &folder)));
                self.cluster = Some(cluster);
            }
            LogRequest::Open(files) => {
                self.timeline = Some(LogTimeline::open(files));
                self.cluster = None;
            }
            LogRequest::Seek(count) => {
                self.timeline.as_mut().ok_or("no log is open to scrub")?.seek(count);
            }
            LogRequest::History => {
                let timeline = self.timeline.as_ref().ok_or("no log is open")?;
                let opened = OpenedLog::of(timeline);
                let source = match &self.cluster {
                    Some(cluster) => cluster.history_source(),
                    None => opened.files.join(", "),
                };
                let history = History::of_log(timeline.files(), source).ok().map(|h| HistoryTrack::of(&h));
                return Ok(OpenedLog { cluster: self.cluster.clone(), history, ..opened });
            }
        }
        let opened = OpenedLog::of(self.timeline.as_ref().expect("opened above"));
        Ok(OpenedLog { cluster: self.cluster.clone(), ..opened })
    }
}

impl OpenedLog {
    /// The view of `timeline` at its position.
    pub(crate) fn of(timeline: &LogTimeline) -> OpenedLog {
        let inspection = &timeline.inspection;
        let position = timeline.position();
        let changes = timeline.indexes_of(ControlType::LeaderChange);
        let voter_changes = timeline.indexes_of(ControlType::KRaftVoters);
        let mut starts = vec![0];
        starts.extend(timeline.epoch_starts());
        let bands = starts
            .iter()
            .enumerate()
            .map(|(n, &start)| EpochBand {
                start,
                end: starts.get(n + 1).copied().unwrap_or(timeline.len()),
                epoch: timeline.entries.get(start).map_or(0, |e| e.epoch),
            })
            .collect();
        let at = position.checked_sub(1).and_then(|i| timeline.record(i));
        let error = timeline.is_empty().then(|| {
            let first = inspection.problems.first().or(inspection.crc_failures.first());
            format!("No metadata records could be read. {}", first.map_or("", String::as_str))
        });
        OpenedLog {
            files: inspection.files.iter().map(|f| f.name.clone()).collect(),
            totals: report::totals(inspection),
            epochs: report::epochs(inspection, 8),
            leader_changes: inspection.leader_changes.len(),
            changes_named: inspection
                .leader_changes
                .iter()
                .take(CHANGES_NAMED)
                .map(|c| format!("leader {} at offset {} (epoch {})", c.leader, c.offset, c.epoch))
                .collect(),
            crc_failures: inspection.crc_failures.len(),
            problem_count: inspection.problem_count,
            problems_quoted: inspection
                .crc_failures
                .iter()
                .chain(&inspection.problems)
                .take(PROBLEMS_QUOTED)
                .cloned()
                .collect(),
            records: inspection.records,
            last_offset: inspection.last_offset,
            len: timeline.len(),
            position,
            at: at.map_or("before the first record".to_string(), |r| report::record(&r, 160)),
            bands,
            ticks: changes.iter().take(TICKS_SHOWN).copied().collect(),
            tick_count: changes.len(),
            voter_ticks: voter_changes.iter().take(TICKS_SHOWN).copied().collect(),
            voter_tick_count: voter_changes.len(),
            partitions: timeline.partitions(),
            image: ImageSummary::of(timeline.image()),
            record_types: inspection
                .record_types
                .iter()
                .map(|(name, count)| (name.clone(), *count))
                .collect(),
            error,
            cluster: None,
            history: None,
        }
    }
}

impl ImageSummary {
    fn of(image: &LogImage) -> ImageSummary {
        ImageSummary {
            totals: format!("{}; {}", report::image_totals(image), report::features(image)),
            controllers: image.controllers.clone(),
            brokers: image
                .brokers
                .iter()
                .map(|(id, b)| {
                    let state = report::broker_state(b);
                    (
                        format!("broker {id}: {state} (epoch {}){}", b.epoch, report::zk_mode(b)),
                        state.to_string(),
                    )
                })
                .collect(),
            topics: image
                .topics
                .iter()
                .take(TOPICS_SHOWN)
                .map(|(uuid, topic)| report::topic(uuid, topic))
                .collect(),
            topic_count: image.topics.len(),
            partition_count: image.partition_count(),
        }
    }
}

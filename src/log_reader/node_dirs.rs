//! A real cluster drawn from its nodes' files, without the DOM: each node a controller or an
//! observer with the epoch, leader and vote its `quorum-state` holds, its log's reach, its
//! latest snapshot, and the disagreements it is part of (numbered as listed), and which node's
//! log the reader opens (the leader's). Plain data, so it can cross from the log
//! reader's worker to the page.

use serde::{Deserialize, Serialize};

use crate::kafka_log::history::source_words;
use crate::kafka_log::nodes::{NodeSummary, Nodes, node_name, voter_ids};

/// One node as its files draw it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FileNode {
    pub name: String,
    /// A voter (by the latest voter set its logs hold, the quorum-state's voters, or the last
    /// LeaderChange's), else an observer.
    pub controller: bool,
    pub epoch: Option<i64>,
    pub leader: Option<i64>,
    pub voted: Option<i64>,
    /// Its quorum-state names itself the leader of the latest epoch.
    pub leads: bool,
    /// Its quorum-state names an older epoch than another node's.
    pub stale: bool,
    pub log_start: Option<i64>,
    pub log_end: Option<i64>,
    pub snapshot_end: Option<i64>,
    /// The numbers (from 1) of the disagreements it is part of.
    pub marks: Vec<usize>,
    /// Files of it with problems.
    pub problems: usize,
    /// Its state in one line: "epoch 3, leader n3, voted n1; offsets 0 to 58; snapshot at 40".
    pub line: String,
}

impl FileNode {
    /// Its role as its card names it: the leader of the latest epoch, stale, a follower or an
    /// observer.
    pub fn role(&self) -> &'static str {
        match (self.leads, self.stale, self.controller) {
            (true, _, _) => "LEADER",
            (_, true, _) => "stale",
            (_, _, true) => "follower",
            _ => "observer",
        }
    }

    /// Its quorum-state's epoch, as its card says it.
    pub fn epoch_text(&self) -> String {
        self.epoch.map_or("no quorum-state".to_string(), |e| format!("epoch {e}"))
    }

    /// Its quorum-state's leader and vote.
    pub fn vote_text(&self) -> String {
        format!("leader {}, voted {}", node_name(self.leader), node_name(self.voted))
    }

    /// How far its log reaches, in Kafka's words: its last record's offset and its log end
    /// offset (the offset after it, which `kafka-metadata-quorum` prints).
    pub fn log_text(&self) -> String {
        self.log_end.map_or("no log records".to_string(), |end| {
            format!("last offset {}, log end offset {end}", end - 1)
        })
    }
}

/// The cluster the files draw.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ClusterFiles {
    pub nodes: Vec<FileNode>,
    /// The furthest log end, for scaling the strips.
    pub furthest: i64,
    /// Each disagreement's sentence, numbered from 1 in this order.
    pub disagreements: Vec<String>,
    /// The node whose log the reader opens as the timeline (and whose image it shows): the
    /// leader's, or the furthest log's, by its folder.
    pub source: Option<String>,
    /// Files outside any node's metadata directories (other partitions' logs), skipped: their
    /// paths.
    pub skipped: Vec<String>,
}

impl ClusterFiles {
    /// The cluster `files` (each its `/`-separated path and its bytes) draw.
    pub fn of(files: &[(String, Vec<u8>)]) -> ClusterFiles {
        let nodes = Nodes::read(files);
        let voters = voter_ids(&nodes.nodes);
        let drawn: Vec<FileNode> = nodes
            .nodes
            .iter()
            .map(|n| {
                let state = n.quorum_state.as_ref();
                FileNode {
                    name: n.name.clone(),
                    controller: n.node_id().is_some_and(|id| voters.contains(&id)),
                    epoch: state.map(|s| s.leader_epoch),
                    leader: state.and_then(|s| s.leader_id),
                    voted: state.and_then(|s| s.voted_id),
                    leads: nodes.leads(n),
                    stale: nodes.stale(n),
                    log_start: n.log_start,
                    log_end: n.log_end,
                    snapshot_end: n.snapshots.last().map(|s| s.end_offset),
                    marks: (1..=nodes.disagreements.len())
                        .filter(|&i| nodes.disagreements[i - 1].nodes.contains(&n.name))
                        .collect(),
                    problems: n.files.iter().filter(|f| f.problem.is_some()).count()
                        + usize::from(!n.problems.is_empty()),
                    line: line(n),
                }
            })
            .collect();
        let source = nodes.source().map(|n| n.folder.clone());
        ClusterFiles {
            furthest: drawn.iter().filter_map(|n| n.log_end).max().unwrap_or(0),
            nodes: drawn,
            disagreements: nodes.disagreements.into_iter().map(|d| d.text).collect(),
            source,
            skipped: nodes.skipped.into_iter().map(|note| note.path).collect(),
        }
    }
}

impl ClusterFiles {
    /// Whose log the history is, in `history`'s words.
    pub fn history_source(&self) -> String {
        let names: Vec<&str> = self.nodes.iter().map(|n| n.name.as_str()).collect();
        let node =
            self.nodes.iter().find(|n| n.leads).or_else(|| self.nodes.iter().max_by_key(|n| n.log_end));
        node.map_or_else(String::new, |n| source_words(&n.name, n.leads, &names))
    }
}

/// A node's state in one line.
fn line(node: &NodeSummary) -> String {
    let state = node.quorum_state.as_ref().map_or("no readable quorum-state".to_string(), |s| {
        format!(
            "epoch {}, leader {}, voted {}",
            s.leader_epoch,
            node_name(s.leader_id),
            node_name(s.voted_id)
        )
    });
    let log = match (node.log_start, node.log_end) {
        (Some(start), Some(end)) => format!("offsets {start} to {}", end - 1),
        _ => "no log records".to_string(),
    };
    let snapshot = node.snapshots.last().map_or(String::new(), |s| format!("; snapshot at {}", s.end_offset));
    format!("{state}; {log}{snapshot}")
}

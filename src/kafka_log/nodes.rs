//! Several KRaft nodes' directories read at once: each file attributed to its node (the folder
//! above `__cluster_metadata-0`, named by its `meta.properties`), each node summed up (its
//! quorum-state, log range, snapshots, last LeaderChange, record counts), then what the nodes'
//! files disagree on, in Kafka's terms. Works on names and bytes, so the page can use it.

use crate::util::small_map::SmallMap;

use super::inspect::{EpochSpan, Inspection, LeaderChangeInfo, VoterInfo};
use super::node_files::{self, EpochEntry, MetaProperties, NodeFile, QuorumState};
use super::snapshot_name::snapshot_end_offset;

/// The metadata log's directory (`__cluster_metadata` partition 0).
const METADATA_DIR: &str = "__cluster_metadata-0";

/// One file of a node, as recognised.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct FileNote {
    pub path: String,
    /// What it is ("segment", "quorum-state", ...), or why it was skipped.
    pub kind: String,
    /// What is wrong with it, naming the byte.
    pub problem: Option<String>,
}

/// A snapshot of a node's log: the offset it ends at and its epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct SnapshotId {
    pub end_offset: i64,
    pub epoch: i64,
}

/// What one node's files say.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct NodeSummary {
    /// `n<node.id>`, or the folder's name without a readable `meta.properties`.
    pub name: String,
    pub folder: String,
    pub meta: Option<MetaProperties>,
    pub quorum_state: Option<QuorumState>,
    pub leader_epochs: Option<Vec<EpochEntry>>,
    /// The first and the next offset of the log's segments (the end is exclusive).
    pub log_start: Option<i64>,
    pub log_end: Option<i64>,
    pub snapshots: Vec<SnapshotId>,
    /// The leader epochs of the log's records, each with the offset it starts at.
    pub epochs: Vec<EpochSpan>,
    pub leader_changes: Vec<LeaderChangeInfo>,
    /// The latest voter set the log or a snapshot holds (KIP-853), with its offset.
    pub voters: Option<(i64, Vec<VoterInfo>)>,
    pub records: u64,
    pub record_types: SmallMap<String, u64>,
    /// Records in `bootstrap.checkpoint`, when the node has one.
    pub bootstrap_records: Option<u64>,
    pub files: Vec<FileNote>,
    /// Problems of the record files (CRC failures first), at most 100 listed.
    pub problems: Vec<String>,
}

impl NodeSummary {
    /// Its `node.id`, from its `meta.properties`.
    pub fn node_id(&self) -> Option<i64> {
        self.meta.as_ref().and_then(|m| m.node_id)
    }
}

/// A node id as the page and the command line name it: `n3`, or `none` (-1 in Kafka's files).
pub fn node_name(id: Option<i64>) -> String {
    id.map_or("none".to_string(), |id| format!("n{id}"))
}

/// The voters: of the latest voter set any log holds, else of the quorum-state files'
/// `currentVoters`, else of the latest LeaderChange.
pub fn voter_ids(nodes: &[NodeSummary]) -> Vec<i64> {
    if let Some((_, voters)) =
        nodes.iter().filter_map(|n| n.voters.as_ref()).max_by_key(|(offset, _)| *offset)
    {
        return voters.iter().map(|v| i64::from(v.id)).collect();
    }
    let listed: Vec<i64> =
        nodes.iter().filter_map(|n| n.quorum_state.as_ref()?.current_voters.clone()).flatten().collect();
    if !listed.is_empty() {
        return listed;
    }
    let change = nodes.iter().flat_map(|n| n.leader_changes.last()).max_by_key(|c| (c.epoch, c.offset));
    change.map_or_else(Vec::new, |c| c.voters.iter().map(|&id| i64::from(id)).collect())
}

/// Whether `files` are nodes' directories rather than one log: a node's own file (a
/// `quorum-state` or a `meta.properties`), or record files of more than one node's folder.
pub fn are_nodes(files: &[(String, Vec<u8>)]) -> bool {
    let dirs = LogDirs::of(files.iter().map(|(path, _)| path.as_str()));
    let mut folders: Vec<String> = Vec::new();
    for (path, _) in files {
        match NodeFile::of(path) {
            NodeFile::QuorumState | NodeFile::MetaProperties => return true,
            NodeFile::Segment | NodeFile::Snapshot => folders.extend(dirs.node_folder(path)),
            _ => {}
        }
    }
    crate::util::sort::sort(&mut folders);
    folders.dedup();
    folders.len() > 1
}

/// Something the nodes' files disagree on, and which nodes it concerns.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct Disagreement {
    pub nodes: Vec<String>,
    pub text: String,
}

/// Every node's summary and what they disagree on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct Nodes {
    pub nodes: Vec<NodeSummary>,
    pub disagreements: Vec<Disagreement>,
    /// Files outside any node's metadata directories (other partitions' logs), skipped.
    pub skipped: Vec<FileNote>,
}

/// The log directories among a set of paths, recognised by what they hold (a `meta.properties`,
/// or a `__cluster_metadata-0` folder) rather than by their names: Docker volumes are often
/// named `kafka-1`, like a partition's folder.
struct LogDirs(Vec<String>);

impl LogDirs {
    fn of<'a>(paths: impl Iterator<Item = &'a str>) -> LogDirs {
        let mut dirs: Vec<String> = paths
            .filter_map(|path| {
                let (dir, name) = split(path);
                if name == "meta.properties" {
                    return Some(dir.to_string());
                }
                let (parent, last) = split(dir);
                (last == METADATA_DIR).then(|| parent.to_string())
            })
            .collect();
        crate::util::sort::sort(&mut dirs);
        dirs.dedup();
        LogDirs(dirs)
    }

    fn holds(&self, dir: &str) -> bool {
        self.0.binary_search_by(|d| d.as_str().cmp(dir)).is_ok()
    }

    /// The node folder a file at `path` belongs to, or `None` for another partition's files:
    /// those in a folder of a log directory other than `__cluster_metadata-0`, or (where no log
    /// directory above it is seen) in a folder named like a partition's (`topic-7`).
    fn node_folder(&self, path: &str) -> Option<String> {
        let (dir, _) = split(path);
        let (parent, last) = split(dir);
        if last == METADATA_DIR {
            Some(parent.to_string())
        } else if self.holds(dir) {
            Some(dir.to_string())
        } else if self.holds(parent) || (self.0.is_empty() && is_partition_dir(last)) {
            None
        } else {
            Some(dir.to_string())
        }
    }
}

/// A `/`-separated path's folder and last part (the folder is empty for a bare name).
fn split(path: &str) -> (&str, &str) {
    path.rsplit_once('/').unwrap_or(("", path))
}

/// A partition's folder (`topic-7`) other than the metadata log's.
fn is_partition_dir(name: &str) -> bool {
    name.rsplit_once('-')
        .is_some_and(|(topic, n)| !topic.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

impl Nodes {
    /// Read `files` (each its `/`-separated path and its bytes), attribute each to its node,
    /// sum each node up and compare them.
    pub fn read(files: &[(String, Vec<u8>)]) -> Nodes {
        let dirs = LogDirs::of(files.iter().map(|(path, _)| path.as_str()));
        let mut folders: SmallMap<String, Vec<usize>> = SmallMap::default();
        let mut skipped = Vec::new();
        for (index, (path, _)) in files.iter().enumerate() {
            match dirs.node_folder(path) {
                Some(folder) => folders.get_or_insert_with(folder, Vec::new).push(index),
                None => skipped.push(FileNote {
                    path: path.clone(),
                    kind: "another partition's log, not metadata records: skipped".into(),
                    problem: None,
                }),
            }
        }
        let mut nodes: Vec<NodeSummary> = folders
            .iter()
            .map(|(folder, indexes)| summary(folder, indexes.iter().map(|&i| &files[i])))
            .filter(|node| {
                node.files
                    .iter()
                    .any(|f| !matches!(NodeFile::of(&f.path), NodeFile::Skipped(_) | NodeFile::Unknown))
            })
            .collect();
        crate::util::sort::sort_by_key(&mut nodes, |n| (n.node_id(), n.folder.clone()));
        let disagreements = disagreements(&nodes);
        Nodes { nodes, disagreements, skipped }
    }

    /// The latest epoch any node's quorum-state holds.
    fn latest_epoch(&self) -> Option<i64> {
        self.nodes.iter().filter_map(|n| n.quorum_state.as_ref().map(|s| s.leader_epoch)).max()
    }

    /// Whether `node`'s quorum-state names itself the leader of the latest epoch.
    pub fn leads(&self, node: &NodeSummary) -> bool {
        let latest = self.latest_epoch();
        node.quorum_state.as_ref().is_some_and(|s| {
            Some(s.leader_epoch) == latest && s.leader_id.is_some() && s.leader_id == node.node_id()
        })
    }

    /// Whether `node`'s quorum-state names an older epoch than another node's.
    pub fn stale(&self, node: &NodeSummary) -> bool {
        node.quorum_state.as_ref().is_some_and(|s| Some(s.leader_epoch) < self.latest_epoch())
    }

    /// The node whose log tells the cluster's story (the log reader's timeline, `history`):
    /// the leader's, or the furthest log's.
    pub fn source(&self) -> Option<&NodeSummary> {
        self.nodes.iter().find(|n| self.leads(n)).or_else(|| self.nodes.iter().max_by_key(|n| n.log_end))
    }
}

/// The segments and snapshots of the node in `folder`.
pub fn record_files(files: &[(String, Vec<u8>)], folder: &str) -> Vec<(String, Vec<u8>)> {
    let inside =
        |path: &str| path.strip_prefix(folder).is_some_and(|rest| folder.is_empty() || rest.starts_with('/'));
    files
        .iter()
        .filter(|(path, _)| {
            inside(path) && matches!(NodeFile::of(path), NodeFile::Segment | NodeFile::Snapshot)
        })
        .cloned()
        .collect()
}

fn summary<'a>(folder: &str, files: impl Iterator<Item = &'a (String, Vec<u8>)>) -> NodeSummary {
    let mut node = NodeSummary { folder: folder.to_string(), ..NodeSummary::default() };
    let mut log_files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut bootstrap: Vec<(String, Vec<u8>)> = Vec::new();
    for (path, bytes) in files {
        let kind = NodeFile::of(path);
        let mut note = FileNote { path: path.clone(), kind: kind_name(kind), problem: None };
        let problem = |e: node_files::FileError| Some(format!("{path}: {e}"));
        match kind {
            NodeFile::Segment | NodeFile::Snapshot => log_files.push((path.clone(), bytes.clone())),
            NodeFile::Bootstrap => bootstrap.push((path.clone(), bytes.clone())),
            NodeFile::QuorumState => match node_files::quorum_state(bytes) {
                Ok(state) => node.quorum_state = Some(state),
                Err(e) => note.problem = problem(e),
            },
            NodeFile::MetaProperties => match node_files::meta_properties(bytes) {
                Ok(meta) => node.meta = Some(meta),
                Err(e) => note.problem = problem(e),
            },
            NodeFile::LeaderEpochCheckpoint => match node_files::leader_epoch_checkpoint(bytes) {
                Ok(entries) => node.leader_epochs = Some(entries),
                Err(e) => note.problem = problem(e),
            },
            NodeFile::Skipped(_) | NodeFile::Unknown => {}
        }
        node.files.push(note);
    }
    let folder_name = folder.rsplit('/').next().unwrap_or(folder);
    node.name = match node.node_id() {
        Some(id) => format!("n{id}"),
        None if folder_name.is_empty() => "this folder".into(),
        None => folder_name.to_string(),
    };
    if !bootstrap.is_empty() {
        node.bootstrap_records = Some(Inspection::of(&bootstrap).records);
    }
    let log = Inspection::of(&log_files);
    node.log_start = log.first_offset;
    node.log_end = log.last_offset.map(|last| last + 1);
    node.snapshots = log_files
        .iter()
        .filter(|(path, _)| NodeFile::of(path) == NodeFile::Snapshot)
        .filter_map(|(path, _)| {
            let name = path.rsplit('/').next().unwrap_or(path);
            let epoch = name.strip_suffix(".checkpoint")?.split_once('-')?.1.parse().ok()?;
            Some(SnapshotId { end_offset: snapshot_end_offset(name)?, epoch })
        })
        .collect();
    crate::util::sort::sort_by_key(&mut node.snapshots, |s| (s.end_offset, s.epoch));
    node.voters =
        log.voter_sets.iter().max_by_key(|set| set.offset).map(|set| (set.offset, set.voters.clone()));
    node.problems = log.crc_failures.iter().chain(&log.problems).cloned().collect();
    (node.epochs, node.leader_changes) = (log.epochs, log.leader_changes);
    (node.records, node.record_types) = (log.records, log.record_types);
    node
}

fn kind_name(kind: NodeFile) -> String {
    match kind {
        NodeFile::Segment => "segment".into(),
        NodeFile::Snapshot => "snapshot".into(),
        NodeFile::Bootstrap => "bootstrap checkpoint".into(),
        NodeFile::QuorumState => "quorum-state".into(),
        NodeFile::MetaProperties => "meta.properties".into(),
        NodeFile::LeaderEpochCheckpoint => "leader-epoch-checkpoint".into(),
        NodeFile::Skipped(what) => format!("{what}, not metadata records: skipped"),
        NodeFile::Unknown => "not a file Kafka keeps here: skipped".into(),
    }
}

/// Names joined for a sentence: "n1", "n1 and n2", "n1, n2 and n3".
fn names(nodes: &[&NodeSummary]) -> String {
    match nodes {
        [] => String::new(),
        [one] => one.name.clone(),
        [rest @ .., last] => {
            format!(
                "{} and {}",
                rest.iter().map(|n| n.name.as_str()).collect::<Vec<_>>().join(", "),
                last.name
            )
        }
    }
}

/// Whose log, for a sentence: "n1's log", "the logs of n1 and n2".
fn logs_of(nodes: &[&NodeSummary]) -> String {
    match nodes {
        [one] => format!("{}'s log", one.name),
        _ => format!("the logs of {}", names(nodes)),
    }
}

fn leader_text(leader: Option<i64>) -> String {
    leader.map_or("no leader".into(), |id| format!("leader n{id}"))
}

/// What the nodes disagree on: epochs and leaders of their quorum-state files, LeaderChange
/// records only some logs hold, log ends apart, cluster ids, and directory ids the voter set
/// does not list.
fn disagreements(nodes: &[NodeSummary]) -> Vec<Disagreement> {
    let mut found = Found(Vec::new());
    let with_log: Vec<&NodeSummary> = nodes.iter().filter(|n| n.log_end.is_some()).collect();
    epochs_named(nodes, &mut found);
    leader_changes_missing(&with_log, &mut found);
    divergences(&with_log, &mut found);
    log_ends(&with_log, &mut found);
    cluster_ids(nodes, &mut found);
    voter_keys(nodes, &mut found);
    found.0
}

/// The disagreements found so far.
struct Found(Vec<Disagreement>);

impl Found {
    /// One more, concerning `concerned`.
    fn say(&mut self, concerned: Vec<&NodeSummary>, text: String) {
        self.0.push(Disagreement { nodes: concerned.iter().map(|n| n.name.clone()).collect(), text });
    }
}

/// Two leaders named for one epoch, and nodes whose quorum-state names an older epoch.
fn epochs_named(nodes: &[NodeSummary], found: &mut Found) {
    let with_state: Vec<(&NodeSummary, &QuorumState)> =
        nodes.iter().filter_map(|n| n.quorum_state.as_ref().map(|s| (n, s))).collect();
    if let Some(latest) = with_state.iter().map(|(_, s)| s.leader_epoch).max() {
        let at_latest: Vec<&NodeSummary> =
            with_state.iter().filter(|(_, s)| s.leader_epoch == latest).map(|(n, _)| *n).collect();
        let mut leaders: Vec<Option<i64>> =
            with_state.iter().filter(|(_, s)| s.leader_epoch == latest).map(|(_, s)| s.leader_id).collect();
        crate::util::sort::sort(&mut leaders);
        leaders.dedup();
        let named: Vec<i64> = leaders.iter().flatten().copied().collect();
        if named.len() > 1 {
            found.say(
                at_latest.clone(),
                format!("two leaders named for epoch {latest}: {named:?}, which Raft forbids"),
            );
        }
        let newest_leader = named.first().copied();
        for (node, state) in with_state.iter().filter(|(_, s)| s.leader_epoch < latest) {
            found.say(
                vec![node],
                format!(
                    "{}'s quorum-state names epoch {} ({}), but {} at epoch {latest} ({}): {} has not learned of the newer epoch",
                    node.name,
                    state.leader_epoch,
                    leader_text(state.leader_id),
                    if at_latest.len() == 1 {
                        format!("{} is", names(&at_latest))
                    } else {
                        format!("{} are", names(&at_latest))
                    },
                    leader_text(newest_leader),
                    node.name
                ),
            );
        }
    }
}

/// A LeaderChange some logs hold and others, which reach back to its offset, lack (and whether a majority of its voters hold it).
fn leader_changes_missing(with_log: &[&NodeSummary], found: &mut Found) {
    let mut changes: Vec<&LeaderChangeInfo> = with_log.iter().flat_map(|n| &n.leader_changes).collect();
    crate::util::sort::sort_by_key(&mut changes, |c| (c.epoch, c.offset));
    changes.dedup_by_key(|c| (c.epoch, c.offset));
    for change in changes {
        let holders: Vec<&NodeSummary> = with_log
            .iter()
            .filter(|n| n.leader_changes.iter().any(|c| (c.epoch, c.offset) == (change.epoch, change.offset)))
            .copied()
            .collect();
        let lacking: Vec<&NodeSummary> = with_log
            .iter()
            .filter(|n| !holders.iter().any(|h| h.folder == n.folder))
            .filter(|n| n.log_start.is_some_and(|start| start <= change.offset))
            .copied()
            .collect();
        if lacking.is_empty() {
            continue;
        }
        let majority = change.voters.len() / 2 + 1;
        let held = holders
            .iter()
            .filter(|h| h.node_id().is_some_and(|id| change.voters.contains(&(id as i32))))
            .count();
        let shown = with_log
            .iter()
            .filter(|n| n.node_id().is_some_and(|id| change.voters.contains(&(id as i32))))
            .count();
        let verdict = if shown == change.voters.len() && held < majority {
            format!(
                ": {held} of its {} voters hold it, fewer than a majority, so it is not committed",
                change.voters.len()
            )
        } else {
            String::new()
        };
        found.say(
            holders.iter().chain(&lacking).copied().collect(),
            format!(
                "the LeaderChange of epoch {} at offset {} (leader n{}) is in {}, not in {}{verdict}",
                change.epoch,
                change.offset,
                change.leader,
                logs_of(&holders),
                logs_of(&lacking)
            ),
        );
    }
}

/// Each log compared with the log of the latest epoch (the leader's when its files are there): where it diverges.
fn divergences(with_log: &[&NodeSummary], found: &mut Found) {
    let leads = |n: &NodeSummary| {
        let id = n.node_id();
        id.is_some() && n.quorum_state.as_ref().is_some_and(|s| s.leader_id == id)
    };
    if let Some(reference) =
        with_log.iter().max_by_key(|n| (n.epochs.last().map(|e| e.epoch), leads(n), n.log_end))
    {
        for node in with_log.iter().filter(|n| n.folder != reference.folder) {
            if let Some((offset, mine, theirs)) = divergence(node, reference) {
                found.say(
                    vec![node, reference],
                    format!(
                        "{}'s log diverges from {}'s at offset {offset}: epoch {mine} there, epoch {theirs} in {}'s; fetching, {} is answered with a DivergingEpoch and truncates its log to {offset}",
                        node.name, reference.name, reference.name, node.name
                    ),
                );
            }
        }
    }
}

/// Logs that end at different offsets.
fn log_ends(with_log: &[&NodeSummary], found: &mut Found) {
    let ends =
        (with_log.iter().filter_map(|n| n.log_end).max(), with_log.iter().filter_map(|n| n.log_end).min());
    if let (Some(end), Some(low)) = ends
        && end > low
    {
        let at = |offset: i64| -> Vec<&NodeSummary> {
            with_log.iter().filter(|n| n.log_end == Some(offset)).copied().collect()
        };
        let (ahead, behind) = (at(end), at(low));
        found.say(
            ahead.iter().chain(&behind).copied().collect(),
            format!(
                "log end offsets {} apart: {} end{} at log end offset {end} (last offset {}), {} at {low} (last offset {})",
                crate::util::format::counted((end - low) as u64, "record"),
                logs_of(&ahead),
                if ahead.len() == 1 { "s" } else { "" },
                end - 1,
                logs_of(&behind),
                low - 1
            ),
        );
    }
}

/// Nodes of different clusters.
fn cluster_ids(nodes: &[NodeSummary], found: &mut Found) {
    let mut clusters: Vec<(&str, &NodeSummary)> = nodes
        .iter()
        .filter_map(|n| n.meta.as_ref().and_then(|m| m.cluster_id.as_deref()).map(|c| (c, n)))
        .collect();
    crate::util::sort::sort_by_key(&mut clusters, |(c, _)| c.to_string());
    if clusters.first().map(|c| c.0) != clusters.last().map(|c| c.0) {
        let text = clusters.iter().map(|(c, n)| format!("{} {c}", n.name)).collect::<Vec<_>>().join(", ");
        found.say(
            clusters.iter().map(|(_, n)| *n).collect(),
            format!("not one cluster: the cluster ids differ ({text})"),
        );
    }
}

/// Nodes whose directory id is not the latest voter set's for their id, or which are not in it at all.
fn voter_keys(nodes: &[NodeSummary], found: &mut Found) {
    if let Some((offset, voters)) =
        nodes.iter().filter_map(|n| n.voters.as_ref()).max_by_key(|(offset, _)| *offset)
    {
        for node in nodes {
            let Some(meta) = &node.meta else { continue };
            let (Some(id), Some(dir)) = (meta.node_id, meta.directory_id.as_deref()) else { continue };
            match voters.iter().find(|v| i64::from(v.id) == id) {
                Some(voter) if voter.directory_id != dir => found.say(
                    vec![node],
                    format!(
                        "{}'s directory id {dir} is not the one the voter set at offset {offset} lists for node {id} ({}): its disk was replaced, and the old entry still counts toward the majority",
                        node.name, voter.directory_id
                    ),
                ),
                Some(_) => {}
                None if node.files.iter().any(|f| NodeFile::of(&f.path) == NodeFile::QuorumState) => found.say(
                    vec![node],
                    format!(
                        "{} is not in the voter set at offset {offset}: an observer (a broker, or a controller not yet added)",
                        node.name
                    ),
                ),
                None => {}
            }
        }
    }
}

/// The epoch of the record at `offset` by a log's epoch spans.
fn epoch_at(spans: &[EpochSpan], offset: i64) -> Option<i32> {
    spans.iter().take_while(|s| s.first_offset <= offset).last().map(|s| s.epoch)
}

/// The first offset both logs hold where their records' epochs differ, with each epoch there.
fn divergence(node: &NodeSummary, other: &NodeSummary) -> Option<(i64, i32, i32)> {
    let start = node.log_start?.max(other.log_start?);
    let end = node.log_end?.min(other.log_end?);
    let mut starts: Vec<i64> =
        node.epochs.iter().chain(&other.epochs).map(|s| s.first_offset.max(start)).collect();
    crate::util::sort::sort(&mut starts);
    starts.into_iter().filter(|&o| o < end).find_map(|offset| {
        let (mine, theirs) = (epoch_at(&node.epochs, offset)?, epoch_at(&other.epochs, offset)?);
        (mine != theirs).then_some((offset, mine, theirs))
    })
}

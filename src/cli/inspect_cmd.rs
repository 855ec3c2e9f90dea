//! `kraftscope inspect PATH... [--json]`: decode a real `__cluster_metadata` segment, snapshot or
//! directory and report what it holds; or read KRaft nodes' directories, sum up each node and
//! say what their files disagree on.

use std::io::Write;
use std::path::Path;

use kraftscope::kafka_log::directory::read_tree;
use kraftscope::kafka_log::inspect::Inspection;
use kraftscope::kafka_log::node_files::NodeFile;
use kraftscope::kafka_log::nodes::{NodeSummary, Nodes, are_nodes, node_name};
use kraftscope::kafka_log::report;

use super::args::Args;

/// Inspect `paths`: nodes' directories (a node's own files, or several nodes' logs) as nodes,
/// anything else as one log (as the page decides). False (a failing exit) when a file has CRC
/// failures or other problems.
pub(crate) fn run(paths: &[&str], args: &Args) -> Result<bool, String> {
    args.only(&["json"])?;
    let paths: Vec<&Path> = paths.iter().map(Path::new).collect();
    let files = read_tree(&paths)?;
    if are_nodes(&files) {
        inspect_nodes(&files, args.has("json"))
    } else {
        inspect_log(files, args.has("json"))
    }
}

/// The log's record files among `files` (one file given is read whatever its name).
fn inspect_log(mut files: Vec<(String, Vec<u8>)>, json: bool) -> Result<bool, String> {
    if files.len() > 1 {
        files.retain(|(path, _)| {
            matches!(NodeFile::of(path), NodeFile::Segment | NodeFile::Snapshot | NodeFile::Bootstrap)
                || path.ends_with(".log")
                || path.ends_with(".checkpoint")
        });
    }
    if files.is_empty() {
        return Err("no .log or .checkpoint files there".into());
    }
    let inspection = Inspection::of(&files);
    if json {
        let json =
            serde_json::to_string_pretty(&inspection).map_err(|e| format!("cannot write JSON: {e}"))?;
        print_out(&format!("{json}\n"));
    } else {
        print_out(&text(&inspection));
    }
    Ok(inspection.crc_failures.is_empty() && inspection.problem_count == 0)
}

fn inspect_nodes(files: &[(String, Vec<u8>)], json: bool) -> Result<bool, String> {
    let nodes = Nodes::read(files);
    if nodes.nodes.is_empty() {
        return Err(
            "no KRaft node's files found (meta.properties, quorum-state, __cluster_metadata-0)".into()
        );
    }
    if json {
        let json = serde_json::to_string_pretty(&nodes).map_err(|e| format!("cannot write JSON: {e}"))?;
        print_out(&format!("{json}\n"));
    } else {
        print_out(&nodes_text(&nodes));
    }
    let clean = |n: &NodeSummary| n.problems.is_empty() && n.files.iter().all(|f| f.problem.is_none());
    Ok(nodes.nodes.iter().all(clean))
}

/// Each node, then the disagreements.
fn nodes_text(nodes: &Nodes) -> String {
    let mut out = String::new();
    let mut line = |s: String| {
        out.push_str(&s);
        out.push('\n');
    };
    for node in &nodes.nodes {
        let meta = node.meta.as_ref().map_or("no readable meta.properties".to_string(), |m| {
            let text = |v: &Option<String>| v.clone().unwrap_or_else(|| "-".into());
            format!("cluster.id {}, directory.id {}", text(&m.cluster_id), text(&m.directory_id))
        });
        line(format!("{} ({}): {meta}", node.name, node.folder));
        if let Some(state) = &node.quorum_state {
            let voters =
                state.current_voters.as_ref().map_or(String::new(), |v| format!(", currentVoters {v:?}"));
            line(format!(
                "  quorum-state (data_version {}): epoch {}, leader {}, voted {}{voters}",
                state.data_version,
                state.leader_epoch,
                node_name(state.leader_id),
                node_name(state.voted_id)
            ));
        }
        let range = match (node.log_start, node.log_end) {
            (Some(start), Some(end)) => format!(
                "first offset {start}, last offset {}, log end offset {end} ({} records in its log and snapshots)",
                end - 1,
                node.records
            ),
            _ => "no records".to_string(),
        };
        let snapshots: Vec<String> =
            node.snapshots.iter().map(|s| format!("{}-{}", s.end_offset, s.epoch)).collect();
        let snapshots = if snapshots.is_empty() { "none".to_string() } else { snapshots.join(", ") };
        line(format!("  log: {range}; snapshots: {snapshots}"));
        if let Some(change) = node.leader_changes.last() {
            line(format!(
                "  last LeaderChange: epoch {} at offset {}, leader n{}, voters {:?}",
                change.epoch, change.offset, change.leader, change.voters
            ));
        }
        if let Some(entries) = &node.leader_epochs {
            let entries: Vec<String> =
                entries.iter().map(|e| format!("{}@{}", e.epoch, e.start_offset)).collect();
            line(format!("  leader-epoch-checkpoint: {}", entries.join(" ")));
        }
        if let Some(records) = node.bootstrap_records {
            line(format!("  bootstrap.checkpoint: {records} records"));
        }
        let counts: Vec<String> = node.record_types.iter().map(|(name, n)| format!("{name} {n}")).collect();
        line(format!("  records per type: {}", counts.join(", ")));
        for file in &node.files {
            match &file.problem {
                Some(problem) => line(format!("  PROBLEM {problem}")),
                None => line(format!("  {}: {}", file.path, file.kind)),
            }
        }
        for problem in &node.problems {
            line(format!("  PROBLEM {problem}"));
        }
    }
    for file in &nodes.skipped {
        line(format!("{}: {}", file.path, file.kind));
    }
    line(format!("disagreements: {}", nodes.disagreements.len()));
    for disagreement in &nodes.disagreements {
        line(format!("  - {}", disagreement.text));
    }
    out
}

/// Print to stdout; a closed pipe (`inspect ... | head`) is not an error.
fn print_out(text: &str) {
    let _ = std::io::stdout().write_all(text.as_bytes());
}

/// The report as text.
fn text(inspection: &Inspection) -> String {
    let mut out = String::new();
    let mut line = |s: String| {
        out.push_str(&s);
        out.push('\n');
    };
    for file in &inspection.files {
        let kind = if file.snapshot { "snapshot" } else { "segment" };
        line(format!(
            "{} ({kind}, {} bytes): {} batches, {} records, {}",
            file.name,
            file.bytes,
            file.batches,
            file.records,
            report::offsets(file.first_offset, file.last_offset)
        ));
    }
    line(format!("total: {}", report::totals(inspection)));
    line(report::epochs(inspection, usize::MAX));
    for change in &inspection.leader_changes {
        line(format!(
            "  LeaderChange at offset {} (epoch {}): leader {}, voters {:?}, granted by {:?}",
            change.offset, change.epoch, change.leader, change.voters, change.granting_voters
        ));
    }
    for version in &inspection.kraft_versions {
        line(format!(
            "  kraft.version {} at offset {} ({})",
            version.kraft_version, version.offset, version.file
        ));
    }
    for set in &inspection.voter_sets {
        let voters: Vec<String> = set
            .voters
            .iter()
            .map(|v| format!("{} (directory {}, {})", v.id, v.directory_id, v.endpoints.join(" ")))
            .collect();
        line(format!("  voters at offset {} ({}): {}", set.offset, set.file, voters.join("; ")));
    }
    line(format!("CRC failures: {}", inspection.crc_failures.len()));
    for failure in &inspection.crc_failures {
        line(format!("  {failure}"));
    }
    if inspection.problem_count > 0 {
        line(format!("problems: {}", inspection.problem_count));
        for problem in &inspection.problems {
            line(format!("  {problem}"));
        }
    }
    line("records per type:".into());
    for (name, count) in &inspection.record_types {
        line(format!("  {count:>8}  {name}"));
    }
    let image = &inspection.image;
    line(format!("image: {}; {}", report::image_totals(image), report::features(image)));
    line(format!("  controllers: {:?}", image.controllers));
    for (id, broker) in &image.brokers {
        line(format!(
            "  broker {id}: epoch {}, {}{}",
            broker.epoch,
            report::broker_state(broker),
            report::zk_mode(broker)
        ));
    }
    for (uuid, topic) in &image.topics {
        line(format!("  {}", report::topic(uuid, topic)));
    }
    let configs: usize = image.configs.values().map(|c| c.len()).sum();
    line(format!("  configs: {configs} keys on {} resources", image.configs.len()));
    if inspection.replay_problem_count > 0 {
        line(format!("records that did not fit the image: {}", inspection.replay_problem_count));
        for problem in &inspection.replay_problems {
            line(format!("  {problem}"));
        }
    }
    out
}

//! `kraftscope inspect PATH [--json]`: decode a real `__cluster_metadata` segment, snapshot or
//! directory and report what it holds.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use kraftscope::kafka_log::directory::read_path;
use kraftscope::kafka_log::inspect::Inspection;

use super::args::Args;

/// Inspect `path`; false (a failing exit) when the files have CRC failures or other problems.
pub fn run(path: &str, args: &Args) -> Result<bool, String> {
    args.only(&["json"])?;
    let files = read_path(Path::new(path))?;
    let inspection = Inspection::of(&files);
    if args.has("json") {
        let json =
            serde_json::to_string_pretty(&inspection).map_err(|e| format!("cannot write JSON: {e}"))?;
        print_out(&format!("{json}\n"));
    } else {
        print_out(&text(&inspection));
    }
    Ok(inspection.crc_failures.is_empty() && inspection.problem_count == 0)
}

/// Print to stdout; a closed pipe (`inspect ... | head`) is not an error.
fn print_out(text: &str) {
    let _ = std::io::stdout().write_all(text.as_bytes());
}

fn range(first: Option<i64>, last: Option<i64>) -> String {
    match (first, last) {
        (Some(first), Some(last)) => format!("offsets {first}..={last}"),
        _ => "no records".into(),
    }
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
            range(file.first_offset, file.last_offset)
        ));
    }
    line(format!(
        "total: {} batches, {} records, log {}",
        inspection.batches,
        inspection.records,
        range(inspection.first_offset, inspection.last_offset)
    ));
    let epochs: Vec<String> = inspection
        .epochs
        .iter()
        .map(|e| format!("{} from offset {} ({} batches)", e.epoch, e.first_offset, e.batches))
        .collect();
    line(format!("leader epochs: {}", if epochs.is_empty() { "none".into() } else { epochs.join(", ") }));
    for change in &inspection.leader_changes {
        line(format!(
            "  LeaderChange at offset {} (epoch {}): leader {}, voters {:?}, granted by {:?}",
            change.offset, change.epoch, change.leader, change.voters, change.granting_voters
        ));
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
    let version = image.metadata_version().map_or("not set".to_string(), |v| format!("feature level {v}"));
    line(format!("image: metadata.version {version}"));
    let features: Vec<String> = image.features.iter().map(|(n, l)| format!("{n}={l}")).collect();
    line(format!("  features: {}", features.join(", ")));
    line(format!("  controllers: {:?}", image.controllers));
    for (id, broker) in &image.brokers {
        let state = match (broker.fenced, broker.in_controlled_shutdown) {
            (_, true) => "in controlled shutdown",
            (true, false) => "fenced",
            (false, false) => "active",
        };
        line(format!("  broker {id}: epoch {}, {state}", broker.epoch));
    }
    line(format!("  topics: {}, partitions: {}", image.topics.len(), image.partition_count()));
    for (uuid, topic) in &image.topics {
        let mut led: BTreeMap<i32, usize> = BTreeMap::new();
        for p in topic.partitions.values() {
            *led.entry(p.leader).or_default() += 1;
        }
        let offline = led.remove(&-1).unwrap_or(0);
        let leaders: Vec<String> = led.iter().map(|(b, n)| format!("{n} on broker {b}")).collect();
        line(format!(
            "    {} ({uuid}): {} partitions, {offline} offline, leaders: {}",
            topic.name,
            topic.partitions.len(),
            if leaders.is_empty() { "none".into() } else { leaders.join(", ") }
        ));
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

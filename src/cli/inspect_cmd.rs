//! `kraftscope inspect PATH [--json]`: decode a real `__cluster_metadata` segment, snapshot or
//! directory and report what it holds.

use std::io::Write;
use std::path::Path;

use kraftscope::kafka_log::directory::read_path;
use kraftscope::kafka_log::inspect::Inspection;
use kraftscope::kafka_log::report;

use super::args::Args;

/// Inspect `path`; false (a failing exit) when the files have CRC failures or other problems.
pub(crate) fn run(path: &str, args: &Args) -> Result<bool, String> {
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
        line(format!("  broker {id}: epoch {}, {}", broker.epoch, report::broker_state(broker)));
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

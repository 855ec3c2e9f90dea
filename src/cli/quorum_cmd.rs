//! `kraftscope quorum describe --status|--replication DIR... [--json]`: what Kafka's
//! `kafka-metadata-quorum describe` prints, read off nodes' directories instead of asked of a
//! live quorum (`kafka_log::quorum`).

use std::path::Path;

use kraftscope::kafka_log::directory::read_tree;
use kraftscope::kafka_log::nodes::Nodes;
use kraftscope::kafka_log::quorum::{QuorumDescription, ZERO_UUID};

/// What the files cannot say, under the output.
const UNKNOWN: &str =
    "Read from the nodes' files, not asked of a live leader: -1 is Kafka's unknown (the last fetch
and caught-up times, which a leader keeps in memory only).";
const DERIVED: &str =
    "* Derived: no file holds the high watermark; this is the offset a majority of the voters' logs
reach, where the leader's stands once each voter has fetched its whole log.";
const STATIC: &str =
    "A static quorum (no voter set in the log, kraft.version 0): its voters have no directory id,
which Kafka prints as AAAAAAAAAAAAAAAAAAAAAA.";

/// `rest`: the words after `quorum`.
pub(crate) fn run(rest: &[String]) -> Result<bool, String> {
    let usage = "give: kraftscope quorum describe --status|--replication DIR... [--json]";
    let (Some(verb), rest) = (rest.first(), rest.get(1..).unwrap_or_default()) else {
        return Err(usage.into());
    };
    if verb != "describe" {
        return Err(format!("quorum: '{verb}' is not a command of it; {usage}"));
    }
    let (flags, paths): (Vec<&String>, Vec<&String>) = rest.iter().partition(|a| a.starts_with("--"));
    if let Some(unknown) =
        flags.iter().find(|f| !["--status", "--replication", "--json"].contains(&f.as_str()))
    {
        return Err(format!("unknown option {unknown} (known: --status, --replication, --json)"));
    }
    let has = |flag: &str| flags.iter().any(|f| *f == flag);
    let (status, json) = match (has("--status"), has("--replication")) {
        (true, false) => (true, has("--json")),
        (false, true) => (false, has("--json")),
        _ => return Err(format!("describe takes one of --status and --replication; {usage}")),
    };
    if paths.is_empty() {
        return Err(format!("describe needs the nodes' directories; {usage}"));
    }
    let paths: Vec<&Path> = paths.iter().map(Path::new).collect();
    let nodes = Nodes::read(&read_tree(&paths)?);
    let described = QuorumDescription::of(&nodes)?;
    let zero = described.replicas.iter().any(|r| r.directory_id == ZERO_UUID);
    let static_note = if zero { format!("\n{STATIC}") } else { String::new() };
    let text = match (json, status) {
        (true, _) => {
            serde_json::to_string_pretty(&described).map_err(|e| format!("cannot write JSON: {e}"))? + "\n"
        }
        (false, true) => format!("{}\n{UNKNOWN}\n{DERIVED}{static_note}\n", described.status_text()),
        (false, false) => format!("{}\n{UNKNOWN}{static_note}\n", described.replication_text()),
    };
    print!("{text}");
    Ok(true)
}

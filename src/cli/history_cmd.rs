//! `kraftscope history DIR...|FILE... [--json]`: a metadata log's history on the cluster's own
//! clock: elections with the time before each when no controller wrote, brokers registering,
//! restarting, fenced and shut down, topics, features and partition leadership, then totals.

use std::io::Write;
use std::path::Path;

use kraftscope::kafka_log::directory::read_tree;
use kraftscope::kafka_log::history::{Election, History, What, describe};
use kraftscope::util::format::{counted, span_ms, utc};

use super::args::Args;

/// Print the history of `paths`. False (a failing exit) when a file could not be read whole.
pub(crate) fn run(paths: &[&str], args: &Args) -> Result<bool, String> {
    args.only(&["json"])?;
    let paths: Vec<&Path> = paths.iter().map(Path::new).collect();
    let history = History::read(&read_tree(&paths)?)?;
    let out = if args.has("json") {
        let json = serde_json::to_string_pretty(&history).map_err(|e| format!("cannot write JSON: {e}"))?;
        format!("{json}\n")
    } else {
        text(&history)
    };
    // A closed pipe (`history ... | head`) is not an error.
    let _ = std::io::stdout().write_all(out.as_bytes());
    Ok(history.problems.is_empty())
}

/// The history as text: a heading, one line per event, the totals.
pub(crate) fn text(history: &History) -> String {
    let mut out = String::new();
    let mut line = |s: String| {
        out.push_str(&s);
        out.push('\n');
    };
    let (Some(first), Some(last)) = (history.first_timestamp, history.last_timestamp) else {
        line(format!("history of {}: no records", history.source));
        for problem in &history.problems {
            line(format!("PROBLEM {problem}"));
        }
        return out;
    };
    line(format!("history of {}", history.source));
    line(format!(
        "offsets {} to {}, {} to {} UTC ({}), on the writing leaders' clocks (each batch's timestamp)",
        history.first_offset.unwrap_or(0),
        history.last_offset.unwrap_or(0),
        utc(first),
        utc(last),
        span_ms(last - first)
    ));
    if let Some(snapshot) = &history.from_snapshot {
        line(format!(
            "the log was cleaned: the history starts at the end of snapshot {snapshot}, which holds the image before it"
        ));
    }
    line(String::new());
    line(format!("{:<23}  {:>12}  {:>8}  what", "time (UTC)", "since start", "offset"));
    for event in &history.events {
        line(format!(
            "{:<23}  {:>12}  {:>8}  {}",
            utc(event.timestamp),
            format!("+{}", seconds(event.timestamp - first)),
            event.offset,
            describe(&event.what)
        ));
    }
    line(String::new());
    for sentence in summary(history) {
        line(sentence);
    }
    for problem in &history.problems {
        line(format!("PROBLEM {problem}"));
    }
    out
}

/// Milliseconds as seconds: `12.345 s`.
fn seconds(ms: i64) -> String {
    format!("{}.{:03} s", ms / 1_000, ms % 1_000)
}

/// The totals in sentences.
fn summary(history: &History) -> Vec<String> {
    let s = &history.summary;
    let measured = history
        .events
        .iter()
        .filter(|e| matches!(&e.what, What::Election(Election { gap: Some(_), .. })))
        .count();
    let mut out = vec![format!("summary: {}", counted(s.elections.into(), "election"))];
    if let (Some(median), Some(max)) = (s.gap_median_ms, s.gap_max_ms) {
        out.push(format!(
            "  time without an active controller before an election: median {}, max {} over {measured} measured \
             (from the last record of an earlier epoch to the LeaderChange; the active controller writes at least \
             every metadata.max.idle.interval.ms, 500 ms by default, so each figure overstates by up to that \
             and one replication delay)",
            span_ms(median),
            span_ms(max)
        ));
    }
    for (id, n) in &s.nodes {
        out.push(format!(
            "  n{id}: won {}; {}, {}, {}; fenced {}, unfenced {}, {}",
            counted(n.elections_won.into(), "election"),
            counted(n.broker_registrations.into(), "broker registration"),
            counted(n.controller_registrations.into(), "controller registration"),
            counted(n.restarts().into(), "restart"),
            counted(n.fences.into(), "time"),
            counted(n.unfences.into(), "time"),
            counted(n.controlled_shutdowns.into(), "controlled shutdown")
        ));
    }
    out.push(format!(
        "  topics: {} created, {} deleted; partition leaders lost {}, regained {}",
        s.topics_created,
        s.topics_deleted,
        counted(s.leaders_lost, "time"),
        counted(s.leaders_regained, "time")
    ));
    out
}

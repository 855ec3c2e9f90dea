//! The opened metadata log drawn natively: its timeline strip (a band per leader epoch, a tick
//! per LeaderChange and voter-set change, the position), which the page shows, and a still of
//! the whole view (`Save picture`, `kraftscope render --view log`): the files and their totals,
//! the nodes their directories describe as a table, the strip, the record the image stands
//! after and the image itself.

use crate::drawing::cluster::StillStyle;
use crate::drawing::svg::El;
use crate::util::format;

use crate::drawing::still_sheet::{Cell, Column, Table, sheet};
use crate::log_reader::OpenedLog;
use crate::log_reader::history::{HistoryTrack, Moment, NodeMoment};
use crate::log_reader::node_dirs::ClusterFiles;

/// A still's one column: wide enough for the files' paths and a node's state in one line, and
/// not so wide that a slide shrinks its type.
const COLUMN: f64 = 1400.0;
/// The strip's drawing units: as wide as a still's column, one line of type tall.
const STRIP_W: f64 = 1000.0;
const STRIP_H: f64 = 28.0;

/// The records of `log` as a strip: a band per leader epoch, a tick per LeaderChange and per
/// voter-set change, and a line where the image stands.
pub fn strip(log: &OpenedLog) -> El {
    let len = log.len.max(1) as f64;
    let x = |i: usize| format!("{:.2}", i as f64 / len * STRIP_W);
    let bands = log.bands.iter().enumerate().map(|(n, band)| {
        let width = format!("{:.2}", (band.end - band.start) as f64 / len * STRIP_W);
        El::new("rect")
            .attr("class", if n % 2 == 1 { "epoch-band odd" } else { "epoch-band" })
            .attr("x", x(band.start))
            .attr("y", "0")
            .attr("width", width)
            .attr("height", STRIP_H)
            .child(El::new("title").text(format!("epoch {}", band.epoch)))
    });
    let tick = |class: &'static str, title: &'static str| {
        move |&i: &usize| {
            El::new("line")
                .attr("class", class)
                .attr("x1", x(i))
                .attr("x2", x(i))
                .attr("y1", "0")
                .attr("y2", STRIP_H)
                .child(El::new("title").text(title))
        }
    };
    let at = x(log.position);
    El::new("svg")
        .attr("class", "log-strip")
        .attr("viewBox", format!("0 0 {STRIP_W} {STRIP_H}"))
        .attr("preserveAspectRatio", "none")
        .attr("role", "img")
        .attr(
            "aria-label",
            format!(
                "{}, {}, {}",
                format::counted(log.bands.len() as u64, "epoch"),
                format::counted(log.tick_count as u64, "LeaderChange record"),
                format::counted(log.voter_tick_count as u64, "voter-set change")
            ),
        )
        .children(bands)
        .children(log.ticks.iter().map(tick("leader-change", "LeaderChange")))
        .children(log.voter_ticks.iter().map(tick("voter-change", "KRaftVoters: the voter set changes")))
        .child(
            El::new("line")
                .attr("class", "log-cursor")
                .attr("x1", &at)
                .attr("x2", &at)
                .attr("y1", "0")
                .attr("y2", STRIP_H),
        )
}

/// The history strip's drawing units: the span, then the partitions bar under it.
const HISTORY_W: f64 = 1000.0;
const HISTORY_STRIP_H: f64 = 24.0;
const PARTITIONS_Y: f64 = 30.0;
const HISTORY_H: f64 = 40.0;

/// The history's span as a strip: an orange tick per election, a red band where no controller
/// wrote before one, the moment's line; under it the partitions at the moment, with a leader
/// (blue) and without (red). The nodes are listed beside it as text ([`NodeMoment`]'s words).
pub fn history_strip(track: &HistoryTrack, moment: &Moment) -> El {
    let span = (track.end - track.start).max(1) as f64;
    let x = |at: i64| format!("{:.2}", ((at - track.start) as f64 / span * HISTORY_W).clamp(0.0, HISTORY_W));
    let gaps = track.elections.iter().filter_map(|e| {
        let from = e.quiet_from?;
        let width = ((e.at - from) as f64 / span * HISTORY_W).max(1.5);
        Some(
            El::new("rect")
                .attr("class", "history-gap")
                .attr("x", x(from))
                .attr("y", "0")
                .attr("width", format!("{width:.2}"))
                .attr("height", HISTORY_STRIP_H)
                .child(
                    El::new("title")
                        .text(format!("no controller wrote for {}", format::span_ms(e.at - from))),
                ),
        )
    });
    let ticks = track.elections.iter().map(|e| {
        El::new("line")
            .attr("class", "leader-change")
            .attr("x1", x(e.at))
            .attr("x2", x(e.at))
            .attr("y1", "0")
            .attr("y2", HISTORY_STRIP_H)
            .child(El::new("title").text(format!("epoch {}: n{} leads", e.epoch, e.leader)))
    });
    let share =
        |n: u64| if moment.partitions == 0 { 0.0 } else { n as f64 / moment.partitions as f64 * HISTORY_W };
    let led = share(moment.partitions.saturating_sub(moment.leaderless));
    let bar = |class: &'static str, from: f64, width: f64| {
        El::new("rect")
            .attr("class", class)
            .attr("x", format!("{from:.2}"))
            .attr("y", PARTITIONS_Y)
            .attr("width", format!("{width:.2}"))
            .attr("height", HISTORY_H - PARTITIONS_Y)
    };
    El::new("svg")
        .attr("class", "history-strip")
        .attr("id", "history-strip")
        .attr("viewBox", format!("0 0 {HISTORY_W} {HISTORY_H}"))
        .attr("preserveAspectRatio", "none")
        .attr("role", "img")
        .attr(
            "aria-label",
            format!(
                "{}; {}; {}",
                format::counted(track.elections.len() as u64, "election"),
                history_status(track, moment),
                partitions_line(moment)
            ),
        )
        .child(
            El::new("rect")
                .attr("class", "history-span")
                .attr("width", HISTORY_W)
                .attr("height", HISTORY_STRIP_H),
        )
        .children(gaps)
        .children(ticks)
        .child(
            El::new("line")
                .attr("class", "log-cursor")
                .attr("x1", x(moment.at))
                .attr("x2", x(moment.at))
                .attr("y1", "0")
                .attr("y2", HISTORY_STRIP_H),
        )
        .child(bar("history-led", 0.0, led))
        .child(bar("history-leaderless", led, share(moment.leaderless)))
}

/// A node at a moment in words: its role and, for a broker, its state.
pub fn node_words(node: &NodeMoment, moment: &Moment) -> (String, String) {
    let role = match (node.leads, node.controller) {
        (true, _) => format!("♛ active controller, epoch {}", moment.active.map_or(0, |(_, e)| e)),
        (false, true) => "controller".to_string(),
        (false, false) => String::new(),
    };
    (role, node.broker.map_or(String::new(), |b| format!("broker: {}", b.name())))
}

/// Who leads at `moment`, in one sentence: the words beside the drawing.
pub fn history_status(track: &HistoryTrack, moment: &Moment) -> String {
    match moment.active {
        Some((leader, epoch)) => format!("n{leader} is the active controller (epoch {epoch})."),
        None if moment.elections == 0 => "Before the log's first election: no active controller.".into(),
        None => {
            let Some(next) = track.elections.get(moment.elections) else {
                return "No active controller.".into();
            };
            let quiet = next.quiet_from.unwrap_or(next.at);
            format!(
                "No active controller: none has written for {}; n{} leads epoch {} in {}.",
                format::span_ms(moment.at - quiet),
                next.leader,
                next.epoch,
                format::span_ms(next.at - moment.at)
            )
        }
    }
}

/// The partitions at `moment`, in one line.
pub fn partitions_line(moment: &Moment) -> String {
    format!(
        "{}, {} without a leader",
        format::counted(moment.partitions, "partition"),
        format::count(moment.leaderless)
    )
}

/// The position as the page says it under the strip.
pub fn position_line(log: &OpenedLog) -> String {
    format!("After {} of {} records: {}", log.position, log.len, log.at)
}

/// The summary's epochs line: the epochs, the LeaderChange records and the first ones named.
pub fn epochs_line(log: &OpenedLog) -> String {
    let mut line =
        format!("{}; {}", log.epochs, format::counted(log.leader_changes as u64, "LeaderChange record"));
    for change in &log.changes_named {
        line.push_str("; ");
        line.push_str(change);
    }
    line
}

/// The summary's problems line.
pub fn problems_line(log: &OpenedLog) -> String {
    format!("CRC failures: {}; other problems: {}", log.crc_failures, log.problem_count)
}

/// A still of the opened log at its position, in `style`.
pub fn log_still(log: &OpenedLog, style: &StillStyle) -> El {
    let title = if log.cluster.is_some() { "The cluster its files describe" } else { "The metadata log" };
    let figure = format!("{} of {} records", log.position, log.len);
    let mut column = Column::new("log-still-column", COLUMN, title, &figure, "")
        .lines("strong", &format!("{}: {}", log.files.join(", "), log.totals));
    if let Some(cluster) = &log.cluster {
        column = nodes(column, cluster);
    }
    column = column.lines("", &epochs_line(log));
    let warning = log.crc_failures > 0 || log.problem_count > 0;
    column = column.lines(if warning { "warning" } else { "" }, &problems_line(log));
    for problem in &log.problems_quoted {
        column = column.lines("mono", problem);
    }
    column = column
        .gap(12.0)
        .lines("strong", "Time travel: the image after each record")
        .gap(6.0)
        .drawing(strip(log))
        .lines("mono", &position_line(log))
        .gap(12.0)
        .lines("strong", "The cluster at this record")
        .lines("", &log.image.totals);
    let image = &log.image;
    for id in &image.controllers {
        column = column.lines("", &format!("controller {id}"));
    }
    for (line, _) in &image.brokers {
        column = column.lines("", line);
    }
    for topic in &image.topics {
        column = column.lines("mono", topic);
    }
    let more = image.topic_count.saturating_sub(image.topics.len());
    if more > 0 {
        column = column.lines("", &format!("and {more} more topics"));
    }
    let label = format!("The metadata log {}: {}", log.files.join(", "), position_line(log));
    sheet("log-still", label, None, vec![column], style)
}

/// The nodes as a table (a stale node's name marked, as the page outlines its card), then the
/// disagreements, numbered as the table's last column names them.
fn nodes(column: Column, cluster: &ClusterFiles) -> Column {
    let heads = ["node", "role", "quorum-state", "log", "latest snapshot", "disagreements"];
    let rows = cluster.nodes.iter().map(|node| {
        let crown = if node.leads { "♛ " } else { "" };
        let name = Cell { text: format!("{crown}{}", node.name), marked: node.stale };
        let (state, log) = (format!("{}, {}", node.epoch_text(), node.vote_text()), node.log_text());
        let snapshot = node.snapshot_end.map_or("none".to_string(), |end| format!("at {end}"));
        let marks = node.marks.iter().map(usize::to_string).collect::<Vec<_>>().join(", ");
        let cells =
            vec![name, Cell::plain(node.role()), Cell::plain(state), Cell::plain(log), Cell::plain(snapshot)];
        (node.leads.then_some("leads"), cells.into_iter().chain([Cell::plain(marks)]).collect())
    });
    let table = Table {
        class: "file-nodes",
        caption: "Each node as its own files hold it (a crown on the leader of the latest epoch; a stale node outlined)"
            .into(),
        head: heads.iter().map(|h| Cell::plain(*h)).collect(),
        rows: rows.collect(),
    };
    let mut column = column.gap(8.0).table(table, 160.0);
    if cluster.disagreements.is_empty() {
        column = column.lines("", "The nodes' files agree.");
    }
    for (n, text) in cluster.disagreements.iter().enumerate() {
        column = column.lines("", &format!("{}. {text}", n + 1));
    }
    column.gap(12.0)
}

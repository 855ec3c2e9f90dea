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

//! A still of one of ZooKeeper mode's pains: the ZooKeeper-mode side (its drawing as the page
//! draws it, the latest events, the copies of the truth and the liveness as tables, the
//! disagreeing cells marked) beside what KRaft does in the same situation.

use crate::harness::Micros;
use crate::metadata::acl::Decision;
use crate::teaching::security_surface::SURFACE;
use crate::util::format;
use crate::zk::pains::Pain;
use crate::zk::{BrokerId, ZkPicture};

use super::cluster::StillStyle;
use super::still_sheet::{COLUMN, Cell, Column, Table, sheet};
use super::svg::El;
use super::zk::zk_drawing;
use super::zk_layout::ZkGeometry;

/// The caption of the copies of the truth, as the page's table and a still say it.
pub const COPIES_CAPTION: &str = "Each partition's leader in each copy of the truth (≠b1: names another leader than ZooKeeper; ≠isr: same leader, other in-sync replicas)";
/// The caption of the brokers' liveness.
pub const LIVENESS_CAPTION: &str = "Is each broker alive? It depends whom you ask";
/// The liveness table's column heads.
pub const LIVENESS_HEADS: [&str; 5] =
    ["broker", "process", "ZooKeeper session", "controller's live set", "reachable from the controller"];

/// One broker's authorizer, asked whether the rogue principal may delete the topic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuthorizerRow {
    pub broker: BrokerId,
    /// The topic's ACL the broker has loaded, as `kafka-acls` lists it.
    pub acl: String,
    pub decision: Decision,
}

impl AuthorizerRow {
    /// The answer cell: the verdict and the rule behind it.
    pub fn answer(&self) -> String {
        format!("{}: {}", self.decision.verdict(), self.decision)
    }

    /// Whether the authorizer let the principal do it.
    pub fn allowed(&self) -> bool {
        self.decision.allowed()
    }
}

/// The authorizer table's caption and column heads.
pub const AUTHORIZER_CAPTION: &str = "Each broker's authorizer, asked: may User:mallory DELETE topic-3?";
pub const AUTHORIZER_HEADS: [&str; 3] = ["broker", "ACL loaded for topic-3", "answer"];
/// The heading of KRaft's requests and answers.
pub const KRAFT_TRACE_HEAD: &str =
    "The same intent in KRaft (the model, tests/scenarios/kraft_authorizer.txt):";
/// The surface table's caption.
pub const SURFACE_CAPTION: &str = "Where each mode can be changed from and what must be secured (Kafka 2.4 in ZooKeeper mode, 4.3.1 in KRaft)";

/// The width of KRaft's answer beside the ZooKeeper-mode side in a still (the page gives it a
/// third of the width).
const KRAFT_COLUMN: f64 = 640.0;

/// What a still of a pain shows.
pub struct PainsSheet<'a> {
    pub pain: Pain,
    /// Simulated time.
    pub now: Micros,
    /// The moment the pain is about has happened.
    pub seen: bool,
    pub picture: &'a ZkPicture,
    /// The latest events, oldest first.
    pub events: &'a [String],
    /// Each copy of the truth: its holder and each partition's cell, marked where it disagrees.
    pub copies: Vec<(&'a str, Vec<(String, bool)>)>,
    /// Each broker's liveness row: its name, whether it is split, and the four answers.
    pub liveness: Vec<(String, bool, [&'static str; 4])>,
    /// The second door: each broker's authorizer (empty for the other pains).
    pub authorizer: &'a [AuthorizerRow],
    /// The second door: KRaft's requests and answers.
    pub kraft_trace: &'a [String],
}

/// The pain's still, in `style`.
pub fn pains_still(shown: &PainsSheet, style: &StillStyle) -> El {
    let brokers = shown.picture.brokers.len();
    let drawing = zk_drawing(shown.picture, &ZkGeometry::for_width(0.0, 1.0, brokers), false, false);
    let mut zk = Column::new(
        "side-zk",
        COLUMN,
        "ZooKeeper mode",
        &format::seconds(shown.now),
        shown.pain.phase(shown.seen),
    )
    .drawing(drawing)
    .lines("strong", "Latest events");
    for event in shown.events {
        zk = zk.lines("mono", event);
    }
    let partitions = shown.copies.first().map_or(0, |(_, cells)| cells.len());
    let copies = Table {
        class: "copies",
        caption: COPIES_CAPTION.into(),
        head: std::iter::once(Cell::plain("copy"))
            .chain((0..partitions).map(|p| Cell::plain(format!("p{p}"))))
            .collect(),
        rows: shown
            .copies
            .iter()
            .map(|(holder, cells)| {
                let stale = cells.iter().any(|(_, marked)| *marked);
                let cells = cells.iter().map(|(text, marked)| Cell { text: text.clone(), marked: *marked });
                (stale.then_some("stale-row"), std::iter::once(Cell::plain(*holder)).chain(cells).collect())
            })
            .collect(),
    };
    let liveness = Table {
        class: "liveness",
        caption: LIVENESS_CAPTION.into(),
        head: LIVENESS_HEADS.iter().map(|h| Cell::plain(*h)).collect(),
        rows: shown
            .liveness
            .iter()
            .map(|(name, split, answers)| {
                let cells = std::iter::once(Cell { text: name.clone(), marked: *split });
                (split.then_some("split"), cells.chain(answers.iter().map(|a| Cell::plain(*a))).collect())
            })
            .collect(),
    };
    let zk = if shown.pain == Pain::Security {
        let authorizer = Table {
            class: "authorizer",
            caption: AUTHORIZER_CAPTION.into(),
            head: AUTHORIZER_HEADS.iter().map(|h| Cell::plain(*h)).collect(),
            rows: shown
                .authorizer
                .iter()
                .map(|row| {
                    let answer = Cell { text: row.answer(), marked: row.allowed() };
                    let cells =
                        vec![Cell::plain(format!("b{}", row.broker)), Cell::plain(row.acl.clone()), answer];
                    (row.allowed().then_some("stale-row"), cells)
                })
                .collect(),
        };
        zk.gap(8.0).table(authorizer, 120.0)
    } else {
        zk.gap(8.0).table(copies, 170.0).table(liveness, 120.0)
    };
    let mut kraft = Column::new("side-kraft", KRAFT_COLUMN, "KRaft, in the same situation", "", "")
        .lines("", shown.pain.kraft_answer());
    if !shown.kraft_trace.is_empty() {
        kraft = kraft.gap(8.0).lines("strong", KRAFT_TRACE_HEAD);
        for line in shown.kraft_trace {
            kraft = kraft.lines("mono", line);
        }
        kraft = kraft.gap(8.0).lines("strong", SURFACE_CAPTION);
        for row in SURFACE {
            kraft = kraft.lines(
                "",
                &format!(
                    "{}. ZooKeeper mode: {} ({}). KRaft: {} ({}).",
                    row.aspect, row.zookeeper_mode, row.zookeeper_source, row.kraft, row.kraft_source
                ),
            );
        }
    }
    let label = format!("ZooKeeper mode's pain: {}, beside what KRaft does", shown.pain.title());
    sheet("pains-still", label, Some(shown.pain.title()), vec![zk, kraft], style)
}

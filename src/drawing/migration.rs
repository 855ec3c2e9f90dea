//! A migration from ZooKeeper mode to KRaft drawn as SVG: the driver's steps in a row (the
//! current one lit), the ZooKeeper ensemble with `/controller`, `/controller_epoch` and
//! `/migration`, the KRaft controllers (the leader crowned), the brokers with their modes in
//! words and outline, the links in use, and who acts as controller on each side with its epoch.
//! `kraftscope render --view migration` writes it in a still; the page's view draws the same.

use crate::drawing::cluster::StillStyle;
use crate::drawing::svg::{Child, El};
use crate::harness::Micros;
use crate::migration::picture::{BrokerPart, ControllerZnode, Link, MigrationPicture, STEPS};
use crate::migration::sim::BrokerMode;
use crate::migration::state::MigrationDriverState;
use crate::util::format;

use super::still_sheet::{COLUMN, Column, sheet};

/// The drawing's width and height, in drawing units.
const WIDTH: f64 = 1000.0;
const HEIGHT: f64 = 440.0;
/// The row of steps.
const STEP_Y: f64 = 8.0;
const STEP_H: f64 = 44.0;
/// The ZooKeeper ensemble's box.
const ZK: (f64, f64, f64, f64) = (12.0, 70.0, 455.0, 150.0);
/// Where the controllers' row starts, right of ZooKeeper's box.
const CONTROLLERS_X: f64 = 500.0;
/// The controllers' row: its title's baseline, the circles' centre line and radius.
const CONTROLLER_TITLE_Y: f64 = 92.0;
const CONTROLLER_Y: f64 = 180.0;
const CONTROLLER_R: f64 = 40.0;
/// Where the dual-write link runs, between the controllers' title and their circles.
const DUAL_WRITE_Y: f64 = 122.0;
/// The brokers' row: top and height of a box.
const BROKER_Y: f64 = 330.0;
const BROKER_H: f64 = 92.0;

/// Each step's words (the Kafka state's name is its tooltip).
fn step_words(state: MigrationDriverState) -> [&'static str; 2] {
    match state {
        MigrationDriverState::WaitForControllerQuorum => ["1 controllers", "ready"],
        MigrationDriverState::WaitForBrokers => ["2 brokers", "registered"],
        MigrationDriverState::BecomeController => ["3 claim", "/controller"],
        MigrationDriverState::ZkMigration => ["4 copy", "ZooKeeper"],
        MigrationDriverState::SyncKraftToZk => ["5 reconcile", "ZooKeeper"],
        MigrationDriverState::KraftControllerToBrokerComm => ["6 first push", "to brokers"],
        _ => ["7 dual-write", ""],
    }
}

fn text(class: &str, x: f64, y: f64, words: impl ToString) -> El {
    El::new("text").attr("class", class).attr("x", format!("{x:.0}")).attr("y", format!("{y:.0}")).text(words)
}

/// The row of the driver's steps, the current one lit and those behind it done.
fn steps(p: &MigrationPicture) -> El {
    let w = WIDTH / STEPS.len() as f64;
    let mut row = El::new("g").attr("class", "mig-steps");
    for (i, state) in STEPS.iter().enumerate() {
        let class = match p.driver {
            _ if p.finalized => "mig-step done",
            Some(now) if now == *state => "mig-step current",
            Some(now) if now > *state => "mig-step done",
            _ => "mig-step",
        };
        let x = i as f64 * w;
        let [first, second] = step_words(*state);
        row = row.child(
            El::new("g")
                .attr("class", class)
                .child(
                    El::new("rect")
                        .attr("x", format!("{:.0}", x + 3.0))
                        .attr("y", STEP_Y)
                        .attr("width", format!("{:.0}", w - 6.0))
                        .attr("height", STEP_H)
                        .attr("rx", "6"),
                )
                .child(text("mig-step-text", x + w / 2.0, STEP_Y + 19.0, first))
                .child(text("mig-step-text", x + w / 2.0, STEP_Y + 36.0, second))
                .title(state.name()),
        );
    }
    row
}

/// Who holds `/controller`, in words.
fn controller_words(c: ControllerZnode) -> String {
    match c {
        ControllerZnode::Free => "free: an election is due".into(),
        ControllerZnode::Broker(b) => format!("broker b{b} (ZooKeeper-mode controller)"),
        ControllerZnode::Kraft { id, epoch } => format!("c{id} (KRaft, kraftControllerEpoch {epoch})"),
    }
}

/// The ensemble and its three znodes, its controller epoch in its title (beside the KRaft
/// quorum's leader epoch in the controllers' title).
fn ensemble(p: &MigrationPicture) -> El {
    let (x, y, w, h) = ZK;
    let down = p.zk.down_until.map(|until| format!("Unreachable until {}", format::seconds(until)));
    let migration = match p.zk.migration {
        Some((offset, epoch)) => format!("written to log offset {offset} (epoch {epoch})"),
        None => "no copy recorded".into(),
    };
    let title = format!("ZooKeeper · controller epoch {}", p.zk.controller_epoch);
    El::new("g")
        .attr("class", if down.is_some() { "mig-zk down" } else { "mig-zk" })
        .child(El::new("rect").attr("x", x).attr("y", y).attr("width", w).attr("height", h).attr("rx", "10"))
        .child(text("mig-title", x + 12.0, y + 24.0, title))
        .child(text(
            "mig-line",
            x + 12.0,
            y + 54.0,
            format!("/controller: {}", controller_words(p.zk.controller)),
        ))
        .child(text("mig-line", x + 12.0, y + 80.0, format!("/controller_epoch: {}", p.zk.controller_epoch)))
        .child(text("mig-line", x + 12.0, y + 106.0, format!("/migration: {migration}")))
        .child_if(down.map(|down| text("mig-line warning", x + 12.0, y + 134.0, down)))
}

/// The centre of controller `i` of `n`.
fn controller_centre(i: usize, n: usize) -> (f64, f64) {
    let left = CONTROLLERS_X;
    let step = ((WIDTH - 40.0 - left) / n.max(1) as f64).min(110.0);
    (left + step * (i as f64 + 0.5), CONTROLLER_Y)
}

/// The left edge and width of broker `i` of `n`.
fn broker_box(i: usize, n: usize) -> (f64, f64) {
    let step = (WIDTH - 24.0) / n.max(1) as f64;
    let w = (step - 12.0).min(200.0);
    (12.0 + step * i as f64 + (step - w) / 2.0, w)
}

fn controllers(p: &MigrationPicture) -> El {
    let n = p.controllers.len();
    let title = match p.kraft_epoch {
        0 if p.controllers.iter().all(|c| !c.alive) => "KRaft controllers: not provisioned".to_string(),
        0 => "KRaft quorum · no leader yet".to_string(),
        epoch => format!("KRaft quorum · leader epoch {epoch}"),
    };
    let mut group = El::new("g").attr("class", "mig-controllers").child(text(
        "mig-title",
        CONTROLLERS_X,
        CONTROLLER_TITLE_Y,
        title,
    ));
    for (i, c) in p.controllers.iter().enumerate() {
        let (cx, cy) = controller_centre(i, n);
        let role = match (c.alive, c.leader) {
            (false, _) => "down",
            (true, true) => "leader",
            (true, false) => "follower",
        };
        let mut node = El::new("g")
            .attr("class", format!("mig-controller {role}"))
            .attr("transform", format!("translate({cx:.0} {cy:.0})"))
            .child(El::new("circle").attr("r", CONTROLLER_R));
        if c.leader {
            node = node.child(El::new("path").attr("class", "crown").attr("d", crown(CONTROLLER_R)));
        }
        group = group.child(node.child(text("mig-name", 0.0, 5.0, format!("c{}", c.id))).child(text(
            "mig-role",
            0.0,
            CONTROLLER_R + 17.0,
            role,
        )));
    }
    group
}

/// The leader's crown, on a circle of radius `r`.
fn crown(r: f64) -> String {
    let [base, side, dip, peak] = [r + 4.0, r + 14.0, r + 9.0, r + 17.0];
    format!("M -12 -{base} L -12 -{side} L -6 -{dip} L 0 -{peak} L 6 -{dip} L 12 -{side} L 12 -{base} Z")
}

/// A broker's mode as its box (and its chip) says it.
pub(crate) fn mode_words(mode: BrokerMode) -> &'static str {
    match mode {
        BrokerMode::Zk => "ZooKeeper mode",
        BrokerMode::Migrating => "ZooKeeper + migration",
        BrokerMode::Kraft => "KRaft mode",
    }
}

/// What a broker is doing beside its mode, in words (none for a plain ZooKeeper-mode broker).
pub(crate) fn broker_state(b: &BrokerPart) -> &'static str {
    match (b.alive, b.zk_controller, b.registered, b.fenced) {
        (false, ..) => "down",
        (true, ..) if b.cut_from_zk => "cut off ZooKeeper",
        (true, true, ..) => "ZooKeeper controller",
        (true, false, true, true) => "registered, fenced",
        (true, false, true, false) => "registered with KRaft",
        (true, false, false, _) => "",
    }
}

fn broker(b: &BrokerPart, i: usize, n: usize) -> El {
    let (x, w) = broker_box(i, n);
    let mode = match b.mode {
        BrokerMode::Zk => "zk",
        BrokerMode::Migrating => "migrating",
        BrokerMode::Kraft => "kraft",
    };
    let state = broker_state(b);
    let cx = x + w / 2.0;
    El::new("g")
        .attr("class", format!("mig-broker {mode}{}", if b.alive { "" } else { " down" }))
        .child(
            El::new("rect")
                .attr("x", format!("{x:.0}"))
                .attr("y", BROKER_Y)
                .attr("width", format!("{w:.0}"))
                .attr("height", BROKER_H)
                .attr("rx", "8"),
        )
        .child(text("mig-name", cx, BROKER_Y + 26.0, format!("b{}", b.id)))
        .child(text("mig-mode", cx, BROKER_Y + 50.0, mode_words(b.mode)))
        .child(text("mig-role", cx, BROKER_Y + 74.0, state))
}

/// The links in use, under the boxes.
fn links(p: &MigrationPicture) -> El {
    let n = p.brokers.len();
    let leader =
        p.controllers.iter().position(|c| c.leader).map(|i| controller_centre(i, p.controllers.len()));
    let (zx, zy, zw, zh) = ZK;
    let line = |class: &str, (x1, y1): (f64, f64), (x2, y2): (f64, f64), title: String| {
        El::new("line")
            .attr("class", format!("mig-link {class}"))
            .attr("x1", format!("{x1:.0}"))
            .attr("y1", format!("{y1:.0}"))
            .attr("x2", format!("{x2:.0}"))
            .attr("y2", format!("{y2:.0}"))
            .title(title)
    };
    let mut group = El::new("g").attr("class", "mig-links");
    for link in &p.links {
        let at = |b: u32| p.brokers.iter().position(|x| x.id == b).map(|i| broker_box(i, n));
        group = match (*link, leader) {
            (Link::Session(b), _) => match at(b) {
                Some((x, w)) => {
                    let cut = p.brokers.iter().any(|x| x.id == b && x.cut_from_zk);
                    let (class, title) = match cut {
                        true => (
                            "session cut",
                            format!(
                                "b{b}'s ZooKeeper session, its link cut: no ping reaches the ensemble, which expires the session 18 s after the last"
                            ),
                        ),
                        false => ("session", format!("b{b}'s ZooKeeper session")),
                    };
                    group.child(line(
                        class,
                        (x + w * 0.25, BROKER_Y),
                        (zx + zw * (0.15 + 0.7 * x / WIDTH), zy + zh),
                        title,
                    ))
                }
                None => group,
            },
            (Link::Fetch(b), Some((cx, cy))) => match at(b) {
                Some((x, w)) => group.child(line(
                    "fetch",
                    (x + w * 0.6, BROKER_Y),
                    (cx - 8.0, cy + CONTROLLER_R + 24.0),
                    format!("b{b} fetches the metadata log from the KRaft leader"),
                )),
                None => group,
            },
            (Link::Rpcs(b), Some((cx, cy))) => match at(b) {
                Some((x, w)) => group.child(line(
                    "rpcs",
                    (cx + 8.0, cy + CONTROLLER_R + 24.0),
                    (x + w * 0.75, BROKER_Y),
                    format!("the KRaft leader sends b{b} UpdateMetadata and LeaderAndIsr"),
                )),
                None => group,
            },
            // From the leader's upper left (clear of its crown), up over the other controllers
            // and across to ZooKeeper.
            (Link::DualWrite, Some((cx, cy))) => {
                let (x, y) = (cx - 22.0, cy - 20.0);
                let d =
                    format!("M {x:.0} {y:.0} L {x:.0} {DUAL_WRITE_Y:.0} L {:.0} {DUAL_WRITE_Y:.0}", zx + zw);
                group.child(El::new("path").attr("class", "mig-link dual-write").attr("d", d).title(
                    "the KRaft leader works on ZooKeeper: its claim, the copy's reads, then dual-write",
                ))
            }
            _ => group,
        };
    }
    group
}

/// The drawing of `p`.
pub fn migration_drawing(p: &MigrationPicture) -> El {
    let n = p.brokers.len();
    El::new("svg")
        .attr("class", "migration")
        .attr("viewBox", format!("0 0 {WIDTH:.0} {HEIGHT:.0}"))
        .attr("role", "img")
        .attr("aria-label", p.standing())
        .child(steps(p))
        .child(links(p))
        .child(ensemble(p))
        .child(controllers(p))
        .child(
            El::new("g")
                .attr("class", "mig-brokers")
                .with(p.brokers.iter().enumerate().map(|(i, b)| Child::El(broker(b, i, n))).collect()),
        )
}

/// Where the migration stands, in lines: the log's state, the copy, how long no controller
/// acts, ZooKeeper's lag.
pub fn standing_lines(p: &MigrationPicture) -> Vec<String> {
    let mut lines = vec![format!("The log says {} (ZkMigrationStateRecord)", p.log_state.name())];
    if let Some(copy) = p.copy {
        lines.push(format!(
            "Copy: {} of {} records committed, in {} of {} batches",
            copy.records, copy.records_total, copy.batches, copy.batches_total
        ));
    }
    // A KRaft leader may be drawn meanwhile: it leads the quorum, not yet the brokers.
    if let Some((for_how_long, over)) = p.no_controller {
        let time = format::seconds(for_how_long);
        lines.push(match over {
            false => format!("No controller has acted for the ZooKeeper-mode brokers for {time} (since /controller was claimed)"),
            true => format!("The ZooKeeper-mode brokers went {time} without a controller (from the claim to the KRaft controller's first push)"),
        });
    }
    if let Some(lag) = p.lag.filter(|lag| *lag > 0) {
        lines.push(format!("ZooKeeper is {} behind the log", format::counted(lag as u64, "record")));
    }
    lines
}

/// A still of the migration at `now` (`kraftscope render --view migration`, Save picture): the
/// drawing, where it stands and the latest events, in `style`.
pub fn migration_still(p: &MigrationPicture, events: &[String], style: &StillStyle, now: Micros) -> El {
    let mut column = Column::new(
        "side-migration",
        COLUMN,
        "Migration from ZooKeeper mode to KRaft (Kafka 3.9)",
        &format::seconds(now),
        p.state_word(),
    )
    .drawing(migration_drawing(p))
    .lines("strong", &p.standing());
    for line in standing_lines(p) {
        column = column.lines("", &line);
    }
    column = column.gap(8.0).lines("strong", "Latest events");
    for event in events {
        column = column.lines("mono", event);
    }
    sheet("migration-still", p.standing(), Some("The bridge release"), vec![column], style)
}

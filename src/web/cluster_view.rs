//! The cluster as an SVG drawing: controllers with role, epoch, vote, timeout arc and log strip;
//! brokers with lifecycle, offset, lag and image; links, cut links and messages in flight.
//! Roles differ by outline and text as well as colour.

use yew::prelude::*;

use crate::quorum::{NodeId, RoleKind};
use crate::session::layout::{
    BROKER_HALF_H, BROKER_HALF_W, CELL, CUT_AT, Layout, Point, RADIUS, SNAPSHOT_W, STRIP_TOP, WIDTH,
    point_along,
};
use crate::session::message_kinds::{message_kind, spoken};
use crate::session::picture::{
    BROKER_STRIP_RECORDS, BrokenPicture, ClusterPicture, LogCell, MessagePicture, NodePicture,
};
use crate::session::summary::summary;
use crate::session::text_fit::text_length;

use super::legend::Legend;

/// Colour-blind-safe colours (Okabe and Ito) for epochs.
const EPOCH_COLOURS: [&str; 7] =
    ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442"];

#[derive(Properties, PartialEq)]
pub struct ClusterViewProps {
    pub picture: ClusterPicture,
    pub selected: Option<NodeId>,
    pub on_select: Callback<NodeId>,
    /// Prefers reduced motion: messages sit still at the middle of their link.
    pub reduced_motion: bool,
    /// Show the legend under the drawing.
    pub legend: bool,
    /// Nodes are buttons that select them (not in the failover race, where they are pictures).
    #[prop_or(true)]
    pub interactive: bool,
}

/// The colour of an epoch.
pub fn epoch_colour(epoch: u32) -> &'static str {
    EPOCH_COLOURS[epoch as usize % EPOCH_COLOURS.len()]
}

#[function_component(ClusterView)]
pub fn cluster_view(props: &ClusterViewProps) -> Html {
    let picture = &props.picture;
    let ids =
        |voter: bool| picture.nodes.iter().filter(|n| n.voter == voter).map(|n| n.id).collect::<Vec<_>>();
    let layout = use_memo((ids(true), ids(false)), |(voters, brokers)| Layout::new(voters, brokers));
    let leader = picture.nodes.iter().find(|n| n.role == Some(RoleKind::Leader)).map(|n| n.id);
    let now = summary(picture);
    // The live region speaks when the story changes (a new leader, a node down), not at every
    // record fetched; the drawing's name is always current. (The race announces its phases.)
    let announced = use_mut_ref(|| now.clone());
    if !announced.borrow().same_story(&now) {
        *announced.borrow_mut() = now.clone();
    }
    let spoken = announced.borrow().to_string();
    html! {
        <>
        if let Some(broken) = &picture.broken { { broken_banner(broken) } }
        if props.interactive { <p class="visually-hidden cluster-summary" role="status">{ spoken }</p> }
        <div class="svg-wrap">
        <svg class="cluster" viewBox={format!("0 0 {WIDTH} {}", layout.height)} role="group"
             aria-label={format!("The cluster: controllers on a ring at the top, brokers below, messages in flight between them. {now}")}>
            { links(picture, &layout, leader) }
            <g class="nodes">{ for picture.nodes.iter().map(|n| node(n, &layout, props)) }</g>
            <g class="epoch-marks" aria-hidden="true">{ for picture.nodes.iter().map(|n| epoch_marks(n, &layout)) }</g>
            <g class="messages">{ for message_keys(&picture.messages).into_iter().zip(&picture.messages).map(|(key, m)| message(key, m, &layout, props.reduced_motion)) }</g>
        </svg>
        </div>
        if props.legend { <Legend epochs={epochs_present(picture)} /> }
        </>
    }
}

/// What broke, where the drawing marks it, and why it matters.
fn broken_banner(broken: &BrokenPicture) -> Html {
    let nodes: Vec<String> = broken.culprits.nodes.iter().map(|n| format!("n{n}")).collect();
    html! {
        <div class="violation-banner" role="alert">
            <strong>{ format!("✗ Invariant broken at {}: {}", crate::format::seconds(broken.at), broken.invariant) }</strong>
            <span>{ format!(" · {}", broken.detail) }</span>
            if !nodes.is_empty() { <span class="culprit-list">{ format!(" · marked in red: {}", nodes.join(", ")) }</span> }
            if !broken.why.is_empty() { <span class="why">{ format!(" · why it matters: {}", broken.why) }</span> }
        </div>
    }
}

/// The epochs of the log cells drawn, in order.
fn epochs_present(picture: &ClusterPicture) -> Vec<u32> {
    let mut epochs: Vec<u32> = picture.nodes.iter().flat_map(|n| n.cells.iter().map(|c| c.epoch)).collect();
    epochs.sort_unstable();
    epochs.dedup();
    epochs
}

fn points(route: &[Point]) -> String {
    route.iter().map(|p| format!("{:.1},{:.1}", p.x, p.y)).collect::<Vec<_>>().join(" ")
}

/// Every link between controllers, each broker's link to the leader, and any other link a
/// message is on; cut links dashed red with a mark on them.
fn links(picture: &ClusterPicture, layout: &Layout, leader: Option<NodeId>) -> Html {
    let voters: Vec<&NodePicture> = picture.nodes.iter().filter(|n| n.voter).collect();
    let mut lines = Vec::new();
    for (i, a) in voters.iter().enumerate() {
        for b in &voters[i + 1..] {
            lines.push((a.id, b.id, "link"));
        }
    }
    if let Some(leader) = leader {
        for broker in picture.nodes.iter().filter(|n| !n.voter) {
            lines.push((broker.id, leader, "link observer"));
        }
    }
    for m in &picture.messages {
        if !lines.iter().any(|(a, b, _)| (*a, *b) == (m.from, m.to) || (*a, *b) == (m.to, m.from)) {
            lines.push((m.from, m.to, "link observer"));
        }
    }
    let cut = |a: NodeId, b: NodeId| picture.cut_links.contains(&(a.min(b), a.max(b)));
    html! {
        <g class="links">
            { for lines.iter().map(|&(a, b, class)| {
                let class = if cut(a, b) { "link cut" } else { class };
                html! { <polyline key={format!("{a}-{b}")} class={class} points={points(&layout.route(a, b))} data-link={format!("{a}-{b}")} /> }
            }) }
            { for lines.iter().filter(|(a, b, _)| cut(*a, *b)).map(|&(a, b, _)| {
                let at = point_along(&layout.route(a.min(b), a.max(b)), CUT_AT);
                html! {
                    <text key={format!("{a}-{b}")} class="cut-mark" data-link={format!("{}-{}", a.min(b), a.max(b))} x={format!("{:.1}", at.x)} y={format!("{:.1}", at.y + 5.0)}>
                        { "✂" }<title>{ format!("the link n{a}-n{b} is cut: messages on it are lost") }</title>
                    </text>
                }
            }) }
        </g>
    }
}

fn role_text(n: &NodePicture) -> (&'static str, &'static str) {
    match n.role {
        None => ("DOWN", "role-down"),
        Some(RoleKind::Leader) => ("LEADER", "role-leader"),
        Some(RoleKind::Follower) => ("follower", "role-follower"),
        Some(RoleKind::Candidate) => ("CANDIDATE", "role-candidate"),
        Some(RoleKind::Prospective) => ("prospective", "role-prospective"),
        Some(RoleKind::Unattached) => ("unattached", "role-unattached"),
        Some(RoleKind::Resigned) => ("resigned", "role-resigned"),
    }
}

fn node(n: &NodePicture, layout: &Layout, props: &ClusterViewProps) -> Html {
    let Some(Point { x, y }) = layout.centre(n.id) else { return Html::default() };
    let id = n.id;
    let onclick = props.on_select.reform(move |_: MouseEvent| id);
    let on_select = props.on_select.clone();
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Enter" || e.key() == " " {
            e.prevent_default();
            e.stop_propagation();
            on_select.emit(id);
        }
    });
    let selected = props.selected == Some(n.id);
    let (role, role_class) = role_text(n);
    // The name holds every text the node shows, in the order drawn (WCAG 2.5.3, label in name).
    let name = if n.voter {
        let vote = vote_text(n);
        let vote = if vote.is_empty() { vote } else { format!(", {vote}") };
        let snap = if shows_snapshot(n, layout.strip_cells) { ", snap" } else { "" };
        format!("controller {} {role}, epoch {}{vote}{snap}, {}", n.label, n.epoch, log_text(n))
    } else {
        let [state, image, size, fetched] = broker_texts(n, role);
        format!("broker {} {state}, {image}, {size}, {fetched}, epoch {}", n.label, n.epoch)
    };
    let name = format!("{name}{}", strip_epochs(n, layout.strip_cells));
    let broken = props.picture.broken.as_ref().filter(|b| b.culprits.nodes.contains(&n.id));
    let name = if let Some(b) = broken {
        format!("{name}, involved in the broken invariant: {}", b.invariant)
    } else {
        name
    };
    let class =
        classes!("node", role_class, selected.then_some("selected"), broken.is_some().then_some("culprit"));
    let transform = format!("translate({x} {y})");
    let body = node_body(n, role, layout, broken);
    if props.interactive {
        html! {
            <g key={n.id} {class} {transform} tabindex="0" role="button" aria-label={name}
               aria-pressed={selected.to_string()} {onclick} {onkeydown}>{ body }</g>
        }
    } else {
        html! { <g key={n.id} {class} {transform} role="img" aria-label={name}>{ body }</g> }
    }
}

/// A node's shape and texts, and the mark of a broken invariant it is involved in. A space (a
/// text node SVG does not draw) follows each text, so assistive technology keeps words apart.
fn node_body(n: &NodePicture, role: &str, layout: &Layout, broken: Option<&BrokenPicture>) -> Html {
    let flagged = broken.and_then(|b| b.culprits.offset);
    html! {
        <>
            if n.voter { { controller(n, role, layout.strip_cells, flagged) } } else { { broker(n, role) } }
            if let Some(b) = broken {
                <text class="culprit-badge" x={if n.voter { (-RADIUS).to_string() } else { (8.0 - BROKER_HALF_W).to_string() }} y={if n.voter { (12.0 - RADIUS).to_string() } else { (18.0 - BROKER_HALF_H).to_string() }}>
                    { "✗" }<title>{ format!("{}: {}", b.invariant, b.detail) }</title>
                </text>{ " " }
            }
        </>
    }
}

fn controller(n: &NodePicture, role: &str, strip_cells: usize, flagged: Option<u64>) -> Html {
    let timeout = n.timeout.map(|(name, left)| {
        let circumference = 2.0 * std::f64::consts::PI * (RADIUS + 6.0);
        let dash = circumference * left.clamp(0.0, 1.0);
        html! {
            <circle class="timeout" r={(RADIUS + 6.0).to_string()} stroke-dasharray={format!("{dash:.1} {circumference:.1}")}
                    transform="rotate(-90)"><title>{ format!("{name}: {:.0}% left", left.clamp(0.0, 1.0) * 100.0) }</title></circle>
        }
    });
    html! {
        <>
            { timeout.unwrap_or_default() }
            <circle class="shape" r={RADIUS.to_string()} />
            if n.role == Some(RoleKind::Leader) {
                <path class="crown" d="M -16 -46 L -16 -58 L -8 -51 L 0 -62 L 8 -51 L 16 -58 L 16 -46 Z" />
            }
            if n.role.is_none() || n.role == Some(RoleKind::Resigned) {
                <path class="cross" d="M -24 -24 L 24 24 M 24 -24 L -24 24" />
            }
            <text class="name" y="-8">{ &n.label }</text>{ " " }
            <text class="role" y="10">{ role }</text>{ " " }
            <text class="small" y="25">{ format!("epoch {}", n.epoch) }</text>{ " " }
            <text class="small vote" y={(-RADIUS - 25.0).to_string()}>{ vote_text(n) }</text>{ " " }
            { log_strip(n, strip_cells, flagged) }
        </>
    }
}

/// Whom a running controller voted for.
fn vote_text(n: &NodePicture) -> String {
    match (n.role, n.voted_for) {
        (Some(_), Some(v)) => format!("voted n{v}"),
        (Some(_), None) => "no vote".to_string(),
        (None, _) => String::new(),
    }
}

/// The line under a controller's log strip.
fn log_text(n: &NodePicture) -> String {
    let hw = n.high_watermark.map_or("unknown".to_string(), |h| h.to_string());
    format!("log {}..{} · HW {hw}", n.log_start, n.log_end)
}

/// The first record of a controller's strip, if shown.
fn strip_start(n: &NodePicture, strip_cells: usize) -> u64 {
    n.cells[n.cells.len().saturating_sub(strip_cells)..].first().map_or(n.log_end, |c| c.offset)
}

/// Whether a controller's strip starts with its snapshot.
fn shows_snapshot(n: &NodePicture, strip_cells: usize) -> bool {
    n.log_start > 0 && strip_start(n, strip_cells) == n.log_start
}

/// What the line under a log strip means.
const HW_TITLE: &str = "log a..b: the offsets this node holds. HW (high watermark): records below it are committed, stored on a majority of the controllers; the bar in the strip marks it. \"unknown\" until this node learns it from the leader (a new leader first commits a record of its own epoch).";

/// Where a node's strip is drawn: its cells, and the left edge, top and height of the strip.
fn strip(n: &NodePicture, strip_cells: usize) -> (&[LogCell], f64, f64, f64) {
    if n.voter {
        let cells = &n.cells[n.cells.len().saturating_sub(strip_cells)..];
        (cells, -(cells.len().max(1) as f64) * CELL / 2.0, STRIP_TOP, 16.0)
    } else {
        (&n.cells, -(BROKER_STRIP_RECORDS as f64) * CELL / 2.0, 24.0, 11.0)
    }
}

/// The epoch's number on the first record of each epoch in a node's strip, so epochs are not
/// told by colour alone. Drawn over the node but outside its button, whose name lists the
/// epochs in words instead.
fn epoch_marks(n: &NodePicture, layout: &Layout) -> Html {
    let Some(Point { x, y }) = layout.centre(n.id) else { return Html::default() };
    let (cells, left, top, height) = strip(n, layout.strip_cells);
    html! {
        <g key={n.id} transform={format!("translate({x} {y})")}>
            { for cells.iter().enumerate().filter(|(i, c)| *i == 0 || cells[i - 1].epoch != c.epoch).map(|(i, c)| html! {
                <text class="epoch-mark" x={format!("{:.1}", left + i as f64 * CELL + (CELL - 2.0) / 2.0)} y={format!("{:.1}", top + height / 2.0 + 3.0)}>{ c.epoch }</text>
            }) }
        </g>
    }
}

/// The epochs of the records in a node's strip, in words.
fn strip_epochs(n: &NodePicture, strip_cells: usize) -> String {
    let mut epochs: Vec<u32> = strip(n, strip_cells).0.iter().map(|c| c.epoch).collect();
    epochs.dedup();
    match epochs.as_slice() {
        [] => String::new(),
        [one] => format!(", records of epoch {one}"),
        many => {
            format!(", records of epochs {}", many.iter().map(u32::to_string).collect::<Vec<_>>().join(", "))
        }
    }
}

fn log_strip(n: &NodePicture, strip_cells: usize, flagged: Option<u64>) -> Html {
    let (cells, left, top, _) = strip(n, strip_cells);
    let hw = n.high_watermark;
    let first = strip_start(n, strip_cells);
    let hw_x = hw.filter(|h| *h >= first && *h <= n.log_end).map(|h| left + (h - first) as f64 * CELL);
    let snapshot = shows_snapshot(n, strip_cells);
    html! {
        <g class="log" aria-hidden="true">
            if snapshot {
                <rect class="snapshot" x={(left - SNAPSHOT_W).to_string()} y={top.to_string()} width={(SNAPSHOT_W - 4.0).to_string()} height="16">
                    <title>{ format!("snapshot: offsets 0..{} are in a snapshot; the log starts at {}", n.log_start, n.log_start) }</title>
                </rect>
            }
            if snapshot {
                <text class="tiny" x={(left - SNAPSHOT_W / 2.0 - 2.0).to_string()} y={(top + 12.0).to_string()}>{ "snap" }</text>{ " " }
            }
            { cells_html(cells, left, top, 16.0, (hw, n.doomed_from, flagged)) }
            if let Some(x) = hw_x {
                <line class="hw" style={format!("transform: translateX({x:.1}px)")} x1="-1" x2="-1" y1={(top - 3.0).to_string()} y2={(top + 19.0).to_string()} />
            }
            <text class="tiny" x="0" y={(top + 28.0).to_string()}>
                { log_text(n) }
                <title>{ HW_TITLE }</title>
            </text>{ " " }
        </g>
    }
}

/// Marks on a strip's cells: faded until below `done` (the high watermark, or a broker's applied
/// offset), struck and flashing from `doomed` on, outlined red at `flagged` (named by a broken
/// invariant).
type CellMarks = (Option<u64>, Option<u64>, Option<u64>);

/// Record cells from `left`, coloured by epoch, with their marks.
fn cells_html(cells: &[LogCell], left: f64, top: f64, height: f64, marks: CellMarks) -> Html {
    let (done, doomed, flagged) = marks;
    let strike = doomed.and_then(|d| cells.iter().position(|c| c.offset >= d)).map(|i| {
        let x1 = left + i as f64 * CELL;
        let x2 = left + cells.len() as f64 * CELL - 2.0;
        html! {
            <g class="strike">
                <line x1={x1.to_string()} x2={x2.to_string()} y1={top.to_string()} y2={(top + height).to_string()} />
                <line x1={x1.to_string()} x2={x2.to_string()} y1={(top + height).to_string()} y2={top.to_string()} />
            </g>
        }
    });
    html! {
        <>
            { for cells.iter().enumerate().map(|(i, c)| {
                let finished = done.is_some_and(|h| c.offset < h);
                let gone = doomed.is_some_and(|d| c.offset >= d);
                let class = classes!(
                    "cell",
                    (!finished).then_some("uncommitted"),
                    gone.then_some("doomed"),
                    (flagged == Some(c.offset)).then_some("culprit-cell")
                );
                let note = match (gone, finished) {
                    (true, _) => " (about to be truncated: the leader answered DivergingEpoch, this log differs from here)",
                    (false, true) => "",
                    (false, false) => " (not committed yet)",
                };
                html! {
                    <rect key={c.offset} class={class} x={(left + i as f64 * CELL).to_string()} y={top.to_string()} width={(CELL - 2.0).to_string()} height={height.to_string()}
                          fill={epoch_colour(c.epoch)}>
                        <title>{ format!("offset {} · epoch {} · {}{note}", c.offset, c.epoch, c.detail) }</title>
                    </rect>
                }
            }) }
            { strike.unwrap_or_default() }
        </>
    }
}

/// A broker's texts in drawing order: lifecycle, image, size, and the line under its strip.
fn broker_texts(n: &NodePicture, role: &str) -> [String; 4] {
    let lifecycle = n.lifecycle.unwrap_or(if n.role.is_none() { "DOWN" } else { role });
    let fenced = if n.fenced == Some(true) { " · FENCED" } else { "" };
    let lag = n.lag.map_or(String::new(), |l| format!(" · lag {l}"));
    [
        format!("{lifecycle}{fenced}"),
        format!("image @ {}{lag}", n.applied_offset),
        format!("{} topics · {} partitions", n.topics, n.partitions),
        format!("fetched {} · applied {}", n.log_end, n.applied_offset),
    ]
}

fn broker(n: &NodePicture, role: &str) -> Html {
    let [state, image, size, fetched] = broker_texts(n, role);
    html! {
        <>
            <rect class={classes!("shape", (n.fenced == Some(true)).then_some("fenced"))} x={(-BROKER_HALF_W).to_string()} y={(-BROKER_HALF_H).to_string()}
                  width={(2.0 * BROKER_HALF_W).to_string()} height={(2.0 * BROKER_HALF_H).to_string()} rx="10" />
            if n.role.is_none() { <path class="cross" d="M -50 -36 L 50 36 M 50 -36 L -50 36" /> }
            <text class="name" y="-28">{ &n.label }</text>{ " " }
            <text class="role" y="-12">{ state }</text>{ " " }
            <text class="small" y="4" textLength={fit(&image)} lengthAdjust="spacingAndGlyphs">{ image }</text>{ " " }
            <text class="small" y="17" textLength={fit(&size)} lengthAdjust="spacingAndGlyphs">{ size }</text>{ " " }
            { broker_strip(n, fetched) }
        </>
    }
}

/// The `textLength` that keeps a line of a broker's box inside it.
fn fit(text: &str) -> Option<String> {
    text_length(text, 2.0 * BROKER_HALF_W - 8.0).map(|w| format!("{w:.0}"))
}

/// A broker's fetched records, faded until applied to its image, with the applied offset marked:
/// fetching by offset brings only the records after it.
fn broker_strip(n: &NodePicture, fetched: String) -> Html {
    let (cells, left, top, height) = strip(n, 0);
    let first = cells.first().map_or(n.log_end, |c| c.offset);
    let applied_x = (n.applied_offset >= first && n.applied_offset <= n.log_end)
        .then(|| left + (n.applied_offset - first) as f64 * CELL);
    html! {
        <g class="log broker-log" aria-hidden="true">
            { cells_html(cells, left, top, height, (Some(n.applied_offset), None, None)) }
            if let Some(x) = applied_x {
                <line class="hw" style={format!("transform: translateX({x:.1}px)")} x1="-1" x2="-1" y1={(top - 2.0).to_string()} y2={(top + 13.0).to_string()} />
            }
            <text class="tiny" x="0" y={(top + 22.0).to_string()} textLength={fit(&fetched)} lengthAdjust="spacingAndGlyphs">
                { fetched }
                <title>{ "The metadata records this broker fetched from the leader, by offset: each Fetch asks from its log end and brings back only the records after it. Faded: fetched, not yet applied to the broker's image; the bar marks the applied offset." }</title>
            </text>{ " " }
        </g>
    }
}

/// A stable key per message, so that each dot keeps its element from frame to frame: sender,
/// receiver, kind, and how many such messages came before it.
fn message_keys(messages: &[MessagePicture]) -> Vec<String> {
    messages
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let same = messages[..i]
                .iter()
                .filter(|o| (o.from, o.to, o.kind, o.lost) == (m.from, m.to, m.kind, m.lost))
                .count();
            format!("{}-{}-{}-{}-{same}", m.from, m.to, m.kind, if m.lost { "lost" } else { "" })
        })
        .collect()
}

fn message(key: String, m: &MessagePicture, layout: &Layout, still: bool) -> Html {
    let t = if still && !m.lost { 0.5 } else { m.progress.clamp(0.0, 1.0) };
    let Point { x, y } = point_along(&layout.route(m.from, m.to), t);
    let kind = message_kind(m.kind);
    let class = classes!("message", m.lost.then_some("lost"), kind.response.then_some("response"));
    let (fill, stroke) = if kind.response { ("#fff", kind.colour) } else { (kind.colour, "#fff") };
    html! {
        <g {key} class={class} transform={format!("translate({x:.1} {y:.1})")} data-link={format!("{}-{}", m.from, m.to)}
           role="img" aria-label={spoken(m)}>
            <g class="fall">
                <circle class="halo" r="10" />
                <circle r="8" fill={fill} stroke={stroke} />
                <text class="message-label" x="11" y="4">{ kind.label }</text>{ " " }
                if let Some(note) = &m.note { <text class="message-note" x="11" y="15">{ note }</text> }
                <title>{ format!("{} = {}\n{}", kind.label, kind.meaning, m.text) }</title>
            </g>
        </g>
    }
}

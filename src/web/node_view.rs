//! One node of the cluster drawing: a controller with role, epoch, vote and log strip (its
//! timeout arc is drawn apart, by `timeout_arc`), or a broker with lifecycle, image, size and the
//! records it fetched. A component of its own, so that a node whose picture did not change is
//! neither rendered nor diffed again.

use yew::prelude::*;

use crate::quorum::{NodeId, RoleKind};
use crate::session::layout::{Geometry, Point};
use crate::session::picture::{BROKER_STRIP_RECORDS, BrokenPicture, LogCell, Membership, NodePicture};
use crate::session::text_fit::{ROLE_PX, SMALL_PX, text_length};

use super::cluster_view::epoch_colour;

/// A node's picture and where it stands. Equal props (the callback aside) skip the render and
/// the diff: in a busy frame most nodes did not change.
#[derive(Properties)]
pub struct NodeViewProps {
    pub node: NodePicture,
    pub centre: Point,
    pub strip_cells: usize,
    pub geometry: Geometry,
    pub selected: bool,
    /// A button that selects the node (not in the failover race, where nodes are pictures).
    pub interactive: bool,
    /// The broken invariant this node is involved in.
    pub broken: Option<BrokenPicture>,
    pub on_select: Callback<NodeId>,
}

impl PartialEq for NodeViewProps {
    /// Leaves out `on_select`: parents make a new callback each render that does the same.
    fn eq(&self, other: &Self) -> bool {
        (
            &self.node,
            self.centre,
            self.strip_cells,
            self.geometry,
            self.selected,
            self.interactive,
            &self.broken,
        ) == (
            &other.node,
            other.centre,
            other.strip_cells,
            other.geometry,
            other.selected,
            other.interactive,
            &other.broken,
        )
    }
}

#[function_component(NodeView)]
pub fn node_view(props: &NodeViewProps) -> Html {
    let n = &props.node;
    let Point { x, y } = props.centre;
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
    let (role, role_class) = n.role_text();
    let g = &props.geometry;
    // The name holds every text the node shows, in the order drawn (WCAG 2.5.3, label in name).
    let name = if n.voter {
        let vote = vote_line(n);
        let vote = if vote.is_empty() { vote } else { format!(", {vote}") };
        let snap = if shows_snapshot(n, props.strip_cells) && !g.compact { ", snap" } else { "" };
        let kind = if n.combined { "controller and broker" } else { "controller" };
        let broker = combined_state(n).map_or(String::new(), |t| format!(", {t}"));
        let wiped = if n.membership == Some(Membership::WipedVoter) {
            ", its old disk's entry still counts as a voter"
        } else {
            ""
        };
        format!("{kind} {} {role}, epoch {}{vote}{snap}{broker}{wiped}, {}", n.label, n.epoch, log_text(n))
    } else {
        let [state, image, size, fetched] = broker_texts(n, role);
        format!("broker {} {state}, {image}, {size}, {fetched}, epoch {}", n.label, n.epoch)
    };
    let name = format!("{name}{}", strip_epochs(n, props.strip_cells, g));
    let broken = props.broken.as_ref();
    let name = if let Some(b) = broken {
        format!("{name}, involved in the broken invariant: {}", b.invariant)
    } else {
        name
    };
    let class = classes!(
        "node",
        role_class,
        props.selected.then_some("selected"),
        broken.is_some().then_some("culprit")
    );
    let transform = format!("translate({x} {y})");
    let body = node_body(n, role, props.strip_cells, g, broken);
    if props.interactive {
        html! {
            <g {class} {transform} tabindex="0" role="button" aria-label={name}
               aria-pressed={props.selected.to_string()} {onclick} {onkeydown}>{ body }</g>
        }
    } else {
        html! { <g {class} {transform} role="img" aria-label={name}>{ body }</g> }
    }
}

/// A node's shape and texts, and the mark of a broken invariant it is involved in. A space (a
/// text node SVG does not draw) follows each text, so assistive technology keeps words apart.
fn node_body(
    n: &NodePicture,
    role: &str,
    strip_cells: usize,
    g: &Geometry,
    broken: Option<&BrokenPicture>,
) -> Html {
    let flagged = broken.and_then(|b| b.culprits.offset);
    html! {
        <>
            if n.voter { { controller(n, role, strip_cells, g, flagged) } } else { { broker(n, role, g) } }
            if let Some(b) = broken {
                <text class="culprit-badge" x={if n.voter { (-g.radius).to_string() } else { (8.0 - g.broker_half_w).to_string() }} y={if n.voter { (12.0 - g.radius).to_string() } else { (18.0 - g.broker_half_h).to_string() }}>
                    { "✗" }<title>{ format!("{}: {}", b.invariant, b.detail) }</title>
                </text>{ " " }
            }
        </>
    }
}

/// A controller: its circle (membership ring, crown and cross drawn for a radius of 40 and
/// scaled), name, role and epoch. A regular drawing puts the role and epoch in the circle and
/// the membership and vote over it, then the log strip with its offsets; a compact one puts the
/// role under the circle, then the membership, epoch and vote on one line, then the strip
/// without labels.
fn controller(n: &NodePicture, role: &str, strip_cells: usize, g: &Geometry, flagged: Option<u64>) -> Html {
    let r = g.radius;
    let scale = format!("scale({})", r / 40.0);
    let (name_y, role_y, line_y, width) =
        if g.compact { (5.0, r + 13.0, r + 27.0, 2.0 * g.label_half_w) } else { (-8.0, 10.0, 25.0, 76.0) };
    let role = if g.compact && n.combined { format!("{role} + broker") } else { role.to_string() };
    let line = match vote_line(n) {
        vote if g.compact && !vote.is_empty() => format!("epoch {} · {vote}", n.epoch),
        _ => format!("epoch {}", n.epoch),
    };
    html! {
        <>
            <circle class="shape" r={r.to_string()} />
            if let Some(member) = n.membership.filter(|m| *m != Membership::Voter) {
                <circle class={classes!("membership-ring", member.name())} r={(r * 1.275).to_string()} />
            }
            if n.role == Some(RoleKind::Leader) {
                <path class="crown" transform={scale.clone()} d="M -16 -46 L -16 -58 L -8 -51 L 0 -62 L 8 -51 L 16 -58 L 16 -46 Z" />
            }
            if n.role.is_none() || n.role == Some(RoleKind::Resigned) {
                <path class="cross" transform={scale} d="M -24 -24 L 24 24 M 24 -24 L -24 24" />
            }
            <text class="name" y={name_y.to_string()}>{ &n.label }</text>{ " " }
            <text class="role" y={role_y.to_string()} textLength={fit_at(&role, width, ROLE_PX)} lengthAdjust="spacingAndGlyphs">{ role }</text>{ " " }
            <text class="small" y={line_y.to_string()} textLength={fit(&line, width)} lengthAdjust="spacingAndGlyphs">{ line }</text>{ " " }
            if !g.compact {
                <text class="small vote" y={(-r - 25.0).to_string()}>
                    if n.combined {
                        <tspan class="combined">{ "+ broker" }</tspan>
                        if !vote_line(n).is_empty() { { " · " } }
                    }
                    if let Some(member) = n.membership_shown() {
                        <tspan class={classes!("membership", member.name())}>{ member.name() }</tspan>
                        if !vote_text(n).is_empty() { { " · " } }
                    }
                    { vote_text(n) }
                </text>{ " " }
            }
            { log_strip(n, strip_cells, g, flagged) }
        </>
    }
}

/// The line over a controller: its membership unless a voter, and whom it voted for.
fn vote_line(n: &NodePicture) -> String {
    let vote = vote_text(n);
    match n.membership_shown() {
        Some(member) if vote.is_empty() => member.name().to_string(),
        Some(member) => format!("{} · {vote}", member.name()),
        None => vote,
    }
}

/// What a combined node's broker half is doing, for its accessible name (the drawing says
/// only "+ broker"): its lifecycle state, and whether the active controller fenced it.
fn combined_state(n: &NodePicture) -> Option<String> {
    if !n.combined {
        return None;
    }
    let fenced = if n.fenced == Some(true) { ", fenced" } else { "" };
    Some(format!("broker {}{fenced}", n.lifecycle.unwrap_or("DOWN")))
}

/// Whom a running controller voted for. Nothing over a leader's crown: a leader's quorum state
/// keeps no vote (Kafka's `LeaderState.election()` writes `votedKey` empty), and "no vote" over
/// the crown read as if the leader had not been elected.
fn vote_text(n: &NodePicture) -> String {
    match (n.role, n.voted_for) {
        (Some(RoleKind::Leader), _) => String::new(),
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
pub(super) fn strip<'a>(
    n: &'a NodePicture,
    strip_cells: usize,
    g: &Geometry,
) -> (&'a [LogCell], f64, f64, f64) {
    if n.voter {
        let cells = &n.cells[n.cells.len().saturating_sub(strip_cells)..];
        (cells, -(cells.len().max(1) as f64) * g.cell / 2.0, g.strip_top, g.strip_h)
    } else {
        (&n.cells, -(BROKER_STRIP_RECORDS as f64) * g.cell / 2.0, 24.0, 11.0)
    }
}

/// The epochs of the records in a node's strip, in words.
fn strip_epochs(n: &NodePicture, strip_cells: usize, g: &Geometry) -> String {
    let mut epochs: Vec<u32> = strip(n, strip_cells, g).0.iter().map(|c| c.epoch).collect();
    epochs.dedup();
    match epochs.as_slice() {
        [] => String::new(),
        [one] => format!(", records of epoch {one}"),
        many => {
            format!(", records of epochs {}", many.iter().map(u32::to_string).collect::<Vec<_>>().join(", "))
        }
    }
}

/// A controller's log strip: its snapshot box, its records and its high watermark; in a regular
/// drawing, labelled.
fn log_strip(n: &NodePicture, strip_cells: usize, g: &Geometry, flagged: Option<u64>) -> Html {
    let (cells, left, top, height) = strip(n, strip_cells, g);
    let hw = n.high_watermark;
    let first = strip_start(n, strip_cells);
    let hw_x = hw.filter(|h| *h >= first && *h <= n.log_end).map(|h| left + (h - first) as f64 * g.cell);
    let snapshot = shows_snapshot(n, strip_cells);
    let labelled = !g.compact;
    html! {
        <g class="log" aria-hidden="true">
            if snapshot {
                <rect class="snapshot" x={(left - g.snapshot_w).to_string()} y={top.to_string()} width={(g.snapshot_w - 4.0).to_string()} height={height.to_string()}>
                    <title>{ format!("snapshot: offsets 0..{} are in a snapshot; the log starts at {}", n.log_start, n.log_start) }</title>
                </rect>
            }
            if snapshot && labelled {
                <text class="tiny" x={(left - g.snapshot_w / 2.0 - 2.0).to_string()} y={(top + 12.0).to_string()}>{ "snap" }</text>{ " " }
            }
            { cells_html(cells, (left, g.cell), top, height, (hw, n.doomed_from, flagged)) }
            if let Some(x) = hw_x {
                <line class="hw" style={format!("transform: translateX({x:.1}px)")} x1="-1" x2="-1" y1={(top - 3.0).to_string()} y2={(top + height + 3.0).to_string()} />
            }
            if labelled {
                <text class="tiny" x="0" y={(top + 28.0).to_string()}>
                    { log_text(n) }
                    <title>{ HW_TITLE }</title>
                </text>{ " " }
            }
        </g>
    }
}

/// Marks on a strip's cells: faded until below `done` (the high watermark, or a broker's applied
/// offset), struck and flashing from `doomed` on, outlined red at `flagged` (named by a broken
/// invariant).
type CellMarks = (Option<u64>, Option<u64>, Option<u64>);

/// Record cells from `left`, each `cell` wide, coloured by epoch, with their marks.
fn cells_html(cells: &[LogCell], (left, cell): (f64, f64), top: f64, height: f64, marks: CellMarks) -> Html {
    let (done, doomed, flagged) = marks;
    let strike = doomed.and_then(|d| cells.iter().position(|c| c.offset >= d)).map(|i| {
        let x1 = left + i as f64 * cell;
        let x2 = left + cells.len() as f64 * cell - 2.0;
        html! {
            <g class="strike">
                <line x1={x1.to_string()} x2={x2.to_string()} y1={top.to_string()} y2={(top + height).to_string()} />
                <line x1={x1.to_string()} x2={x2.to_string()} y1={(top + height).to_string()} y2={top.to_string()} />
            </g>
        }
    });
    // Cells are not keyed: a strip keeps its rectangles and recolours them as it slides, where
    // keyed cells would each be a new element (fast-forwarding a quiet stretch slides every
    // strip by several records a frame).
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
                    <rect class={class} x={(left + i as f64 * cell).to_string()} y={top.to_string()} width={(cell - 2.0).to_string()} height={height.to_string()}
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

/// A broker: its box (crossed out when it is down), name and lifecycle; in a regular drawing
/// also its image, size and fetched records.
fn broker(n: &NodePicture, role: &str, g: &Geometry) -> Html {
    let [state, image, size, fetched] = broker_texts(n, role);
    let (w, h) = (g.broker_half_w, g.broker_half_h);
    let (name_y, state_y) = if g.compact { (-2.0, 13.0) } else { (-28.0, -12.0) };
    let width = 2.0 * w - 8.0;
    html! {
        <>
            <rect class={classes!("shape", (n.fenced == Some(true)).then_some("fenced"))} x={(-w).to_string()} y={(-h).to_string()}
                  width={(2.0 * w).to_string()} height={(2.0 * h).to_string()} rx={(h / 5.2).to_string()} />
            if n.role.is_none() {
                <path class="cross" d={format!("M {a} {b} L {c} {d} M {c} {b} L {a} {d}", a = 14.0 - w, b = 16.0 - h, c = w - 14.0, d = h - 16.0)} />
            }
            <text class="name" y={name_y.to_string()}>{ &n.label }</text>{ " " }
            <text class="role" y={state_y.to_string()} textLength={fit_at(&state, width, ROLE_PX)} lengthAdjust="spacingAndGlyphs">{ state }</text>{ " " }
            if !g.compact {
                <text class="small" y="4" textLength={fit(&image, width)} lengthAdjust="spacingAndGlyphs">{ image }</text>{ " " }
                <text class="small" y="17" textLength={fit(&size, width)} lengthAdjust="spacingAndGlyphs">{ size }</text>{ " " }
                { broker_strip(n, fetched, g) }
            }
        </>
    }
}

/// The `textLength` that keeps a line of small text within `width`.
fn fit(text: &str, width: f64) -> Option<String> {
    fit_at(text, width, SMALL_PX)
}

/// The `textLength` that keeps a line drawn at `usual_px` within `width`.
fn fit_at(text: &str, width: f64, usual_px: f64) -> Option<String> {
    text_length(text, width, usual_px).map(|w| format!("{w:.0}"))
}

/// A broker's fetched records, faded until applied to its image, with the applied offset marked:
/// fetching by offset brings only the records after it.
fn broker_strip(n: &NodePicture, fetched: String, g: &Geometry) -> Html {
    let (cells, left, top, height) = strip(n, 0, g);
    let first = cells.first().map_or(n.log_end, |c| c.offset);
    let applied_x = (n.applied_offset >= first && n.applied_offset <= n.log_end)
        .then(|| left + (n.applied_offset - first) as f64 * g.cell);
    let width = 2.0 * g.broker_half_w - 8.0;
    html! {
        <g class="log broker-log" aria-hidden="true">
            { cells_html(cells, (left, g.cell), top, height, (Some(n.applied_offset), None, None)) }
            if let Some(x) = applied_x {
                <line class="hw" style={format!("transform: translateX({x:.1}px)")} x1="-1" x2="-1" y1={(top - 2.0).to_string()} y2={(top + 13.0).to_string()} />
            }
            <text class="tiny" x="0" y={(top + 22.0).to_string()} textLength={fit(&fetched, width)} lengthAdjust="spacingAndGlyphs">
                { fetched }
                <title>{ "The metadata records this broker fetched from the leader, by offset: each Fetch asks from its log end and brings back only the records after it. Faded: fetched, not yet applied to the broker's image; the bar marks the applied offset." }</title>
            </text>{ " " }
        </g>
    }
}

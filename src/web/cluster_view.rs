//! The cluster as an SVG drawing: controllers with role, epoch, vote, timeout arc and log strip;
//! brokers with lifecycle, offset, lag and image; links, cut links and messages in flight.
//! Roles differ by outline and text as well as colour.

use yew::prelude::*;

use crate::quorum::{NodeId, RoleKind};
use crate::session::picture::{ClusterPicture, MessagePicture, NodePicture};

/// Width and height of the drawing's coordinate space.
pub const WIDTH: f64 = 1000.0;
pub const HEIGHT: f64 = 540.0;
const CONTROLLER_Y: f64 = 110.0;
const BROKER_Y: f64 = 440.0;
const RADIUS: f64 = 44.0;
const CELL: f64 = 15.0;

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
}

/// Where node `id` is drawn.
fn position(picture: &ClusterPicture, id: NodeId) -> (f64, f64) {
    let voter = picture.nodes.iter().find(|n| n.id == id).is_some_and(|n| n.voter);
    let row: Vec<NodeId> = picture.nodes.iter().filter(|n| n.voter == voter).map(|n| n.id).collect();
    let index = row.iter().position(|n| *n == id).unwrap_or(0) as f64;
    let x = WIDTH * (index + 0.5) / row.len().max(1) as f64;
    (x, if voter { CONTROLLER_Y } else { BROKER_Y })
}

/// The colour of an epoch.
pub fn epoch_colour(epoch: u32) -> &'static str {
    EPOCH_COLOURS[epoch as usize % EPOCH_COLOURS.len()]
}

/// Colour and short label of a message kind.
pub fn message_style(kind: &str) -> (&'static str, &'static str) {
    match kind {
        "Vote" => ("#CC79A7", "V"),
        "PreVote" => ("#CC79A7", "PV"),
        "VoteResponse" | "PreVoteResponse" => ("#CC79A7", "VR"),
        "BeginQuorumEpoch" => ("#D55E00", "BQE"),
        "BeginQuorumEpochResponse" => ("#D55E00", "BQR"),
        "EndQuorumEpoch" => ("#D55E00", "EQE"),
        "Fetch" => ("#56B4E9", "F"),
        "FetchResponse" => ("#0072B2", "FR"),
        "DivergingEpoch" => ("#E69F00", "DE"),
        "SnapshotId" => ("#009E73", "SID"),
        "FetchSnapshot" | "FetchSnapshotResponse" => ("#009E73", "FS"),
        "BrokerHeartbeat" | "BrokerHeartbeatResponse" => ("#555555", "HB"),
        "BrokerRegistration" | "BrokerRegistrationResponse" => ("#555555", "REG"),
        _ => ("#555555", "AP"),
    }
}

/// The legend of message kinds, in drawing order.
pub const MESSAGE_LEGEND: [(&str, &str); 11] = [
    ("PreVote", "pre-vote (KIP-996)"),
    ("Vote", "vote request / response"),
    ("BeginQuorumEpoch", "new leader announces itself"),
    ("EndQuorumEpoch", "leader resigns"),
    ("Fetch", "fetch by offset (pull)"),
    ("FetchResponse", "records + high watermark"),
    ("DivergingEpoch", "truncate to the leader's log"),
    ("SnapshotId", "fetch the snapshot instead"),
    ("FetchSnapshot", "snapshot chunk"),
    ("BrokerHeartbeat", "broker heartbeat"),
    ("BrokerRegistration", "broker registration"),
];

#[function_component(ClusterView)]
pub fn cluster_view(props: &ClusterViewProps) -> Html {
    let picture = &props.picture;
    let leader = picture.nodes.iter().find(|n| n.role == Some(RoleKind::Leader)).map(|n| n.id);
    html! {
        <div class="svg-wrap">
        <svg class="cluster" viewBox={format!("0 0 {WIDTH} {HEIGHT}")} role="img"
             aria-label="The cluster: controllers at the top, brokers at the bottom, messages in flight between them">
            { links(picture, leader) }
            { for picture.nodes.iter().map(|n| node(n, picture, props)) }
            { for picture.messages.iter().map(|m| message(m, picture, props.reduced_motion)) }
        </svg>
        </div>
    }
}

fn links(picture: &ClusterPicture, leader: Option<NodeId>) -> Html {
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
    let cut = |a: NodeId, b: NodeId| picture.cut_links.contains(&(a.min(b), a.max(b)));
    html! {
        <g class="links">
            { for lines.iter().map(|&(a, b, class)| {
                let ((x1, y1), (x2, y2)) = (position(picture, a), position(picture, b));
                let class = if cut(a, b) { "link cut" } else { class };
                html! { <line class={class} x1={x1.to_string()} y1={y1.to_string()} x2={x2.to_string()} y2={y2.to_string()} /> }
            }) }
            { for lines.iter().filter(|(a, b, _)| cut(*a, *b)).map(|&(a, b, _)| {
                let ((x1, y1), (x2, y2)) = (position(picture, a), position(picture, b));
                html! { <text class="cut-mark" x={((x1 + x2) / 2.0).to_string()} y={((y1 + y2) / 2.0).to_string()}>{ "✂ cut" }</text> }
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

fn node(n: &NodePicture, picture: &ClusterPicture, props: &ClusterViewProps) -> Html {
    let (x, y) = position(picture, n.id);
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
    let name = match n.lifecycle {
        Some(lifecycle) if !n.voter => format!("broker {} {lifecycle}, epoch {}", n.label, n.epoch),
        _ if !n.voter => format!("broker {} {role}, epoch {}", n.label, n.epoch),
        _ => format!("controller {} {role}, epoch {}", n.label, n.epoch),
    };
    let class = classes!("node", role_class, selected.then_some("selected"));
    html! {
        <g class={class} transform={format!("translate({x} {y})")} tabindex="0" role="button"
           aria-label={name} aria-pressed={selected.to_string()} {onclick} {onkeydown}>
            if n.voter { { controller(n, role) } } else { { broker(n, role) } }
        </g>
    }
}

fn controller(n: &NodePicture, role: &str) -> Html {
    let timeout = n.timeout.map(|(name, left)| {
        let circumference = 2.0 * std::f64::consts::PI * (RADIUS + 7.0);
        let dash = circumference * left.clamp(0.0, 1.0);
        html! {
            <circle class="timeout" r={(RADIUS + 7.0).to_string()} stroke-dasharray={format!("{dash:.1} {circumference:.1}")}
                    transform="rotate(-90)"><title>{ format!("{name}: {:.0}% left", left.clamp(0.0, 1.0) * 100.0) }</title></circle>
        }
    });
    let vote = match (n.role, n.voted_for) {
        (Some(_), Some(v)) => format!("voted n{v}"),
        (Some(_), None) => "no vote".to_string(),
        (None, _) => String::new(),
    };
    html! {
        <>
            { timeout.unwrap_or_default() }
            <circle class="shape" r={RADIUS.to_string()} />
            if n.role == Some(RoleKind::Leader) {
                <path class="crown" d="M -16 -50 L -16 -62 L -8 -55 L 0 -66 L 8 -55 L 16 -62 L 16 -50 Z" />
            }
            if n.role.is_none() || n.role == Some(RoleKind::Resigned) {
                <path class="cross" d="M -26 -26 L 26 26 M 26 -26 L -26 26" />
            }
            <text class="name" y="-8">{ &n.label }</text>
            <text class="role" y="10">{ role }</text>
            <text class="small" y="25">{ format!("epoch {}", n.epoch) }</text>
            <text class="small vote" y={(-RADIUS - 16.0).to_string()} x="52">{ vote }</text>
            { log_strip(n) }
        </>
    }
}

fn log_strip(n: &NodePicture) -> Html {
    let left = -(n.cells.len().max(1) as f64) * CELL / 2.0;
    let top = RADIUS + 18.0;
    let hw = n.high_watermark;
    let first = n.cells.first().map_or(n.log_end, |c| c.offset);
    let hw_x = hw.filter(|h| *h >= first && *h <= n.log_end).map(|h| left + (h - first) as f64 * CELL);
    html! {
        <g class="log" aria-hidden="true">
            if n.log_start > 0 && first == n.log_start {
                <rect class="snapshot" x={(left - 34.0).to_string()} y={top.to_string()} width="30" height="18">
                    <title>{ format!("snapshot: offsets 0..{} are in a snapshot; the log starts at {}", n.log_start, n.log_start) }</title>
                </rect>
            }
            if n.log_start > 0 && first == n.log_start {
                <text class="tiny" x={(left - 19.0).to_string()} y={(top + 13.0).to_string()}>{ "snap" }</text>
            }
            { for n.cells.iter().enumerate().map(|(i, c)| {
                let committed = hw.is_some_and(|h| c.offset < h);
                let class = if committed { "cell" } else { "cell uncommitted" };
                html! {
                    <rect class={class} x={(left + i as f64 * CELL).to_string()} y={top.to_string()} width={(CELL - 2.0).to_string()} height="18"
                          fill={epoch_colour(c.epoch)}>
                        <title>{ format!("offset {} · epoch {} · {}{}", c.offset, c.epoch, c.detail, if committed { "" } else { " (not committed yet)" }) }</title>
                    </rect>
                }
            }) }
            if let Some(x) = hw_x {
                <line class="hw" x1={(x - 1.0).to_string()} x2={(x - 1.0).to_string()} y1={(top - 4.0).to_string()} y2={(top + 22.0).to_string()} />
            }
            <text class="tiny" x="0" y={(top + 33.0).to_string()}>
                { format!("log {}..{} · HW {}", n.log_start, n.log_end, hw.map_or("?".to_string(), |h| h.to_string())) }
            </text>
        </g>
    }
}

fn broker(n: &NodePicture, role: &str) -> Html {
    let lifecycle = n.lifecycle.unwrap_or(if n.role.is_none() { "DOWN" } else { role });
    let fenced = if n.fenced == Some(true) { " · FENCED" } else { "" };
    let lag = n.lag.map_or(String::new(), |l| format!(" · lag {l}"));
    html! {
        <>
            <rect class={classes!("shape", (n.fenced == Some(true)).then_some("fenced"))} x="-78" y="-44" width="156" height="88" rx="10" />
            if n.role.is_none() { <path class="cross" d="M -60 -32 L 60 32 M 60 -32 L -60 32" /> }
            <text class="name" y="-22">{ &n.label }</text>
            <text class="role" y="-5">{ format!("{lifecycle}{fenced}") }</text>
            <text class="small" y="12">{ format!("image @ {}{lag}", n.applied_offset) }</text>
            <text class="small" y="28">{ format!("{} topics · {} partitions", n.topics, n.partitions) }</text>
        </>
    }
}

fn message(m: &MessagePicture, picture: &ClusterPicture, still: bool) -> Html {
    let ((x1, y1), (x2, y2)) = (position(picture, m.from), position(picture, m.to));
    let t = if still { 0.5 } else { m.progress.clamp(0.0, 1.0) };
    let (x, y) = (x1 + (x2 - x1) * t, y1 + (y2 - y1) * t);
    let (colour, label) = message_style(m.kind);
    let class = if m.lost { "message lost" } else { "message" };
    html! {
        <g class={class} transform={format!("translate({x:.1} {y:.1})")}>
            <g class="fall">
                <circle r="9" fill={colour} />
                <text class="message-label" x="12" y="4">{ label }</text>
                <title>{ &m.text }</title>
            </g>
        </g>
    }
}

//! A ZooKeeper-mode cluster as an SVG drawing in the live view's visual language: the
//! three-server ensemble, the brokers (the controller starred) with their session countdown and
//! cache freshness, the znodes that matter, and the requests in flight between them.

use yew::prelude::*;

use crate::format;
use crate::harness::{MS, Micros};
use crate::zk::{Endpoint, FailoverPhase, ZkBrokerPicture, ZkMessage, ZkMessageKind, ZkPicture};

/// Width and height of the drawing's coordinate space (as the KRaft drawing's).
const WIDTH: f64 = 1000.0;
const HEIGHT: f64 = 540.0;
const ENSEMBLE: (f64, f64) = (330.0, 95.0);
const BROKER_Y: f64 = 410.0;
const SERVER_DX: f64 = 120.0;
/// The ensemble's box ends this far below its servers' centre line: room for the session timeout
/// inside the box, so the links to the brokers (which start at its bottom edge) never cross it.
const ENSEMBLE_BELOW: f64 = 76.0;

#[derive(Properties, PartialEq)]
pub struct ZkViewProps {
    pub picture: ZkPicture,
    /// Embedded: the znode panel shrinks to one line.
    pub compact: bool,
    /// Prefers reduced motion: requests sit still at the middle of their link.
    pub reduced_motion: bool,
}

/// Colour of a request kind (Okabe and Ito, as the KRaft drawing's messages).
pub fn zk_message_colour(kind: ZkMessageKind) -> &'static str {
    match kind {
        ZkMessageKind::Ping => "#555555",
        ZkMessageKind::Watch => "#E69F00",
        ZkMessageKind::ClaimController => "#CC79A7",
        ZkMessageKind::Reads => "#56B4E9",
        ZkMessageKind::Writes => "#009E73",
        ZkMessageKind::UpdateMetadata => "#0072B2",
    }
}

/// The request kinds with a line each, for the legend.
pub const ZK_LEGEND: [(ZkMessageKind, &str); 6] = [
    (ZkMessageKind::Ping, "session ping"),
    (ZkMessageKind::Watch, "watch fires"),
    (ZkMessageKind::ClaimController, "claim /controller (+ epoch, one multi-op)"),
    (ZkMessageKind::Reads, "cold load: getData batches"),
    (ZkMessageKind::Writes, "setData: new leaders"),
    (ZkMessageKind::UpdateMetadata, "UpdateMetadata + LeaderAndIsr"),
];

fn broker_position(picture: &ZkPicture, id: u32) -> (f64, f64) {
    let index = picture.brokers.iter().position(|b| b.id == id).unwrap_or(0) as f64;
    (WIDTH * (index + 0.5) / picture.brokers.len().max(1) as f64, BROKER_Y)
}

fn endpoint(picture: &ZkPicture, at: Endpoint) -> (f64, f64) {
    match at {
        Endpoint::Ensemble => (ENSEMBLE.0, ENSEMBLE.1 + ENSEMBLE_BELOW),
        Endpoint::Broker(id) => {
            let (x, y) = broker_position(picture, id);
            (x, y - 58.0)
        }
    }
}

/// The session timeout, and the Kafka versions whose default it is.
fn session_text(timeout: Micros) -> (String, &'static str) {
    let versions = if timeout < 18_000 * MS { "(Kafka before 2.5)" } else { "(Kafka 2.5 and later)" };
    (format!("zookeeper.session.timeout.ms = {}", format::seconds(timeout)), versions)
}

/// The brokers and the messages in flight are each a list in a group of its own: `html!`
/// splices a `{ for }` among its siblings and Yew pairs unkeyed children from the end, so a
/// message list spliced in at the end would shift, and re-patch, everything drawn before it
/// whenever a message is sent or delivered.
#[function_component(ZkView)]
pub fn zk_view(props: &ZkViewProps) -> Html {
    let p = &props.picture;
    html! {
        <div class="svg-wrap">
        <svg class="zk-cluster" viewBox={format!("0 0 {WIDTH} {HEIGHT}")} role="group" data-controller-epoch={p.znodes.controller_epoch.to_string()}
             aria-label="ZooKeeper mode: the ZooKeeper ensemble at the top, the brokers below it, one of them the controller">
            <g class="links">
                { for p.brokers.iter().map(|b| {
                    let ((x1, y1), (x2, y2)) = (endpoint(p, Endpoint::Broker(b.id)), endpoint(p, Endpoint::Ensemble));
                    html! { <line class="link zk-session" x1={x1.to_string()} y1={y1.to_string()} x2={x2.to_string()} y2={y2.to_string()} /> }
                }) }
            </g>
            { ensemble(p) }
            { znode_panel(p, props.compact) }
            <g class="zk-brokers">{ for p.brokers.iter().map(|b| broker(b, p)) }</g>
            <g class="zk-messages">{ for p.messages.iter().map(|m| message(m, p, props.reduced_motion)) }</g>
        </svg>
        </div>
    }
}

fn ensemble(p: &ZkPicture) -> Html {
    let (x, y) = ENSEMBLE;
    let (setting, versions) = session_text(p.session_timeout);
    html! {
        <g class="zk-ensemble" role="group" aria-label="ZooKeeper ensemble of three servers">
            <rect class="ensemble-box" x={(x - 185.0).to_string()} y={(y - 70.0).to_string()} width="370" height={(70.0 + ENSEMBLE_BELOW).to_string()} rx="14" />
            <text class="ensemble-title" x={x.to_string()} y={(y - 48.0).to_string()}>{ "ZooKeeper ensemble" }</text>
            { for (0..3).map(|i| {
                let sx = x + (i as f64 - 1.0) * SERVER_DX;
                html! {
                    <g class="zk-server" data-server={(i + 1).to_string()} transform={format!("translate({sx} {y})")}>
                        <rect class="shape" x="-48" y="-28" width="96" height="56" rx="8" />
                        <text class="name" y="-3">{ format!("zk{}", i + 1) }</text>
                        <text class="small" y="16">{ if i == 0 { "leader (ZAB)" } else { "follower" } }</text>
                    </g>
                }
            }) }
            <text class="tiny-note" x={x.to_string()} y={(y + ENSEMBLE_BELOW - 26.0).to_string()}>{ setting }</text>
            <text class="tiny-note" x={x.to_string()} y={(y + ENSEMBLE_BELOW - 10.0).to_string()}>{ versions }</text>
        </g>
    }
}

fn znode_panel(p: &ZkPicture, compact: bool) -> Html {
    let z = &p.znodes;
    let controller = match z.controller {
        Some(id) => format!("{{\"brokerid\":{id}}}"),
        None => "\u{2717} gone".to_string(),
    };
    let ids = z.broker_ids.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
    let rows = [
        ("/controller", controller, z.controller.is_none()),
        ("/controller_epoch", z.controller_epoch.to_string(), false),
        ("/brokers/ids", format!("[{ids}]"), false),
        ("/brokers/topics", format!("{} topics", format::count(z.topics)), false),
        (".../partitions/*/state", format!("{} znodes", format::count(z.partition_states)), false),
    ];
    let shown = if compact { &rows[..2] } else { &rows[..] };
    html! {
        <g class="znodes" transform="translate(560 20)" role="group" aria-label="znodes">
            <rect class="znode-box" x="0" y="0" width="430" height={(34.0 + 27.0 * shown.len() as f64).to_string()} rx="10" />
            <text class="znode-title" x="14" y="24">{ "znodes" }</text>
            { for shown.iter().enumerate().map(|(i, (path, value, gone))| {
                let y = 52.0 + 27.0 * i as f64;
                html! {
                    <g class={classes!("znode", gone.then_some("gone"))} data-znode={*path}>
                        <text class="znode-path" x="14" y={y.to_string()}>{ *path }</text>
                        <text class="znode-value" x="416" y={y.to_string()}>{ value }</text>
                    </g>
                }
            }) }
        </g>
    }
}

fn broker(b: &ZkBrokerPicture, p: &ZkPicture) -> Html {
    let (x, y) = broker_position(p, b.id);
    let role = match (b.alive, b.controller, b.loading) {
        (false, _, _) => "DOWN",
        (true, true, true) => "NEW CONTROLLER",
        (true, true, false) => "CONTROLLER",
        (true, false, _) => "broker",
    };
    let session = match b.session_left {
        Some(left) => {
            format!("session: {} left", format::seconds((left * p.session_timeout as f64) as Micros))
        }
        None => "session expired".to_string(),
    };
    let cache = match (b.alive, b.fresh) {
        (false, _) => "cache: gone".to_string(),
        (true, f) if f >= 1.0 => "cache: fresh".to_string(),
        (true, f) if f <= 0.0 => "cache: stale".to_string(),
        (true, f) => format!("cache: {:.0}% fresh", f * 100.0),
    };
    let class = classes!(
        "node",
        "zk-broker",
        (!b.alive).then_some("role-down"),
        (b.alive && b.controller).then_some("role-leader"),
    );
    let label = format!("broker b{} {role}, {session}, {cache}", b.id);
    let left = b.session_left.unwrap_or(0.0);
    let fresh = if b.alive { b.fresh.clamp(0.0, 1.0) } else { 0.0 };
    html! {
        <g class={class} data-broker={b.id.to_string()} transform={format!("translate({x} {y})")} role="img" aria-label={label}>
            <rect class="shape" x="-92" y="-58" width="184" height="120" rx="10" />
            if b.controller && b.alive {
                <path class="crown" d="M -16 -64 L -16 -76 L -8 -69 L 0 -80 L 8 -69 L 16 -76 L 16 -64 Z" />
            }
            if !b.alive { <path class="cross" d="M -76 -46 L 76 46 M 76 -46 L -76 46" /> }
            <text class="name" y="-33">{ format!("b{}", b.id) }</text>
            <text class="role" y="-13">{ role }</text>
            <text class="small" y="8">{ session }</text>
            <rect class="bar-back" x="-78" y="14" width="156" height="8" />
            <rect class={classes!("bar", "session-bar", (left < 0.34).then_some("low"))} x="-78" y="14" width={(156.0 * left).to_string()} height="8" />
            <text class="small" y="40">{ cache }</text>
            <rect class="bar-back stale" x="-78" y="46" width="156" height="8" />
            <rect class="bar fresh-bar" x="-78" y="46" width={(156.0 * fresh).to_string()} height="8" />
        </g>
    }
}

fn message(m: &ZkMessage, p: &ZkPicture, still: bool) -> Html {
    let ((x1, y1), (x2, y2)) = (endpoint(p, m.from), endpoint(p, m.to));
    let colour = zk_message_colour(m.kind);
    let at = |t: f64| (x1 + (x2 - x1) * t, y1 + (y2 - y1) * t);
    if m.kind == ZkMessageKind::Reads || m.kind == ZkMessageKind::Writes {
        let depth = p.pipelining_depth.clamp(1, 20);
        let phase = if still { 0.0 } else { (p.now % 2_000) as f64 / 2_000.0 };
        let (lx, ly) = at(0.5);
        let label =
            format!("{} \u{d7}{} ({} in flight)", m.kind.label(), format::count(m.count), p.pipelining_depth);
        return html! {
            <g class="zk-message batch" data-kind={m.kind.label()} role="img" aria-label={format!("{label}: {}", m.text)}>
                { for (0..depth).map(|i| {
                    let (x, y) = at((i as f64 / depth as f64 + phase).fract());
                    html! { <circle cx={format!("{x:.1}")} cy={format!("{y:.1}")} r="5" fill={colour} /> }
                }) }
                <text class="message-label" x={format!("{:.1}", lx + 14.0)} y={format!("{ly:.1}")}>{ label }</text>
                <title>{ &m.text }</title>
            </g>
        };
    }
    let (x, y) = at(if still { 0.5 } else { m.progress });
    let count = if m.count > 1 { format!(" \u{d7}{}", format::count(m.count)) } else { String::new() };
    html! {
        <g class="zk-message" data-kind={m.kind.label()} transform={format!("translate({x:.1} {y:.1})")}
           role="img" aria-label={format!("{}{count}: {}", m.kind.label(), m.text)}>
            <circle r="9" fill={colour} />
            <text class="message-label" x="12" y="4">{ format!("{}{count}", m.kind.label()) }</text>
            <title>{ &m.text }</title>
        </g>
    }
}

/// One line saying what ZooKeeper mode is doing, for the caption under the drawing.
pub fn phase_text(phase: FailoverPhase, killed: bool) -> String {
    match phase {
        _ if !killed => "Healthy: broker sessions pinged, one broker is the controller.".to_string(),
        FailoverPhase::AwaitingSessionExpiry { .. } => {
            "The dead controller's ZooKeeper session is still alive: nobody notices yet.".to_string()
        }
        FailoverPhase::Electing => {
            "Session expired, /controller vanished: the watch fires on every broker, they race to create /controller."
                .to_string()
        }
        FailoverPhase::LoadingFromZk { topics_read, topics, read: 0, .. } if topics_read < topics => format!(
            "Cold load, first pass: every topic's replica assignment from ZooKeeper, {} of {}.",
            format::count(topics_read),
            format::count(topics)
        ),
        FailoverPhase::LoadingFromZk { read, total, .. } => format!(
            "Cold load: the new controller reads every partition's state back from ZooKeeper, {} of {}.",
            format::count(read),
            format::count(total)
        ),
        FailoverPhase::RemovingFromIsr { written, total } => format!(
            "Dead replicas leave the ISRs, znode by znode: {} of {}.",
            format::count(written),
            format::count(total)
        ),
        FailoverPhase::ElectingLeaders { written, total } => format!(
            "New leaders for the dead broker's partitions, znode by znode: {} of {}.",
            format::count(written),
            format::count(total)
        ),
        FailoverPhase::PushingToBrokers { full_state: true, brokers_done, total } => format!(
            "UpdateMetadata + LeaderAndIsr of the loaded state: {brokers_done} of {total} brokers."
        ),
        FailoverPhase::PushingToBrokers { full_state: false, brokers_done, total } => format!(
            "LeaderAndIsr + UpdateMetadata of the changes: {brokers_done} of {total} brokers."
        ),
        FailoverPhase::Ready => "Back: every live broker holds the new controller's state.".to_string(),
    }
}

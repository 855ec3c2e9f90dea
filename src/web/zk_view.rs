//! A ZooKeeper-mode cluster as an SVG drawing in the live view's visual language: the
//! three-server ensemble, the brokers (the controller starred) with their session countdown and
//! cache freshness, the znodes that matter, and the requests in flight between them.

use yew::prelude::*;

use crate::harness::{MS, Micros};
use crate::page::zk_layout::ZkGeometry;
use crate::util::format;
use crate::zk::{Endpoint, ZkBrokerPicture, ZkMessage, ZkMessageKind, ZkPicture};

#[derive(Properties, PartialEq)]
pub struct ZkViewProps {
    pub picture: ZkPicture,
    /// Embedded: the znode panel shrinks to two lines.
    pub compact: bool,
    /// Prefers reduced motion: requests sit still at the middle of their link.
    pub reduced_motion: bool,
    /// How much larger than its CSS pixels the drawing's type is: 1, or more on a stage.
    #[prop_or(1.0)]
    pub zoom: f64,
    /// How many times the window was resized: when it changes, the drawing measures its frame
    /// again (and turns compact in a narrow one).
    #[prop_or_default]
    pub resizes: u32,
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

fn broker_index(picture: &ZkPicture, id: u32) -> usize {
    picture.brokers.iter().position(|b| b.id == id).unwrap_or(0)
}

fn endpoint(g: &ZkGeometry, picture: &ZkPicture, at: Endpoint) -> (f64, f64) {
    match at {
        Endpoint::Ensemble => g.ensemble_anchor(),
        Endpoint::Broker(id) => g.broker_anchor(broker_index(picture, id)),
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
    // The drawing's width inside its border, read once it is on screen and after each resize
    // (as the KRaft drawing's): regular until it is read.
    let frame = use_node_ref();
    let measured = use_mut_ref(|| (u32::MAX, 0.0));
    if measured.borrow().0 != props.resizes
        && let Some(element) = frame.cast::<web_sys::Element>()
    {
        *measured.borrow_mut() = (props.resizes, f64::from(element.client_width()));
    }
    let g = ZkGeometry::for_width(measured.borrow().1, props.zoom, p.brokers.len());
    html! {
        <div class="svg-wrap">
        <svg ref={frame} class={classes!("zk-cluster", g.compact.then_some("compact"))} viewBox={format!("0 0 {} {}", g.width, g.height)} role="group" data-controller-epoch={p.znodes.controller_epoch.to_string()}
             aria-label="ZooKeeper mode: the ZooKeeper ensemble at the top, the brokers below it, one of them the controller">
            <g class="links">
                { for p.brokers.iter().map(|b| {
                    let ((x1, y1), (x2, y2)) = (endpoint(&g, p, Endpoint::Broker(b.id)), g.ensemble_anchor());
                    html! { <line class="link zk-session" x1={x1.to_string()} y1={y1.to_string()} x2={x2.to_string()} y2={y2.to_string()} /> }
                }) }
            </g>
            { ensemble(p, &g) }
            if g.compact { { controller_line(p, &g) } } else { { znode_panel(p, &g, props.compact) } }
            <g class="zk-brokers">{ for p.brokers.iter().enumerate().map(|(i, b)| broker(b, p, &g, i)) }</g>
            <g class="zk-messages">{ for p.messages.iter().map(|m| message(m, p, &g, props.reduced_motion)) }</g>
        </svg>
        </div>
    }
}

fn ensemble(p: &ZkPicture, g: &ZkGeometry) -> Html {
    let e = g.ensemble;
    let (x, y) = g.server;
    let (setting, versions) = session_text(p.session_timeout);
    let (hw, hh) = g.server_half;
    let title_y = if g.compact { e.y - e.half_h + 14.0 } else { y - 48.0 };
    html! {
        <g class="zk-ensemble" role="group" aria-label={format!("ZooKeeper ensemble of three servers; {setting} {versions}")}>
            <rect class="ensemble-box" x={(e.x - e.half_w).to_string()} y={(e.y - e.half_h).to_string()} width={(2.0 * e.half_w).to_string()} height={(2.0 * e.half_h).to_string()} rx="14" />
            <text class="ensemble-title" x={e.x.to_string()} y={title_y.to_string()}>{ "ZooKeeper ensemble" }</text>
            { for (0..3).map(|i| {
                let sx = x + (i as f64 - 1.0) * g.server_dx;
                html! {
                    <g class="zk-server" data-server={(i + 1).to_string()} transform={format!("translate({sx} {y})")}>
                        <rect class="shape" x={(-hw).to_string()} y={(-hh).to_string()} width={(2.0 * hw).to_string()} height={(2.0 * hh).to_string()} rx="8" />
                        if g.compact {
                            <text class="name" y="5">{ format!("zk{}", i + 1) }</text>
                        } else {
                            <text class="name" y="-3">{ format!("zk{}", i + 1) }</text>
                            <text class="small" y="16">{ if i == 0 { "leader (ZAB)" } else { "follower" } }</text>
                        }
                    </g>
                }
            }) }
            if !g.compact {
                <text class="tiny-note" x={x.to_string()} y={(e.y + e.half_h - 29.0).to_string()}>{ setting }</text>
                <text class="tiny-note" x={x.to_string()} y={(e.y + e.half_h - 13.0).to_string()}>{ versions }</text>
            }
        </g>
    }
}

/// The compact drawing's one znode: who holds `/controller`.
fn controller_line(p: &ZkPicture, g: &ZkGeometry) -> Html {
    let (x, y) = g.znodes;
    let (text, gone) = match p.znodes.controller {
        Some(id) => (format!("/controller: b{id}, epoch {}", p.znodes.controller_epoch), false),
        None => ("/controller: \u{2717} gone".to_string(), true),
    };
    html! {
        <text class={classes!("znode-line", gone.then_some("gone"))} x={x.to_string()} y={y.to_string()} data-znode="/controller">{ text }</text>
    }
}

fn znode_panel(p: &ZkPicture, g: &ZkGeometry, compact: bool) -> Html {
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
    let (x, y) = g.znodes;
    html! {
        <g class="znodes" transform={format!("translate({x} {y})")} role="group" aria-label="znodes">
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

fn broker(b: &ZkBrokerPicture, p: &ZkPicture, g: &ZkGeometry, index: usize) -> Html {
    let frame = g.broker(index);
    let role = match (b.alive, b.controller, b.loading) {
        (false, _, _) => "DOWN",
        (true, true, true) => "NEW CONTROLLER",
        (true, true, false) => "CONTROLLER",
        (true, false, _) => "broker",
    };
    let left_time = b.session_left.map(|left| format::seconds((left * p.session_timeout as f64) as Micros));
    let session = match &left_time {
        Some(left) => format!("session: {left} left"),
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
    let (hw, hh) = (frame.half_w, frame.half_h);
    let bar_w = 2.0 * hw - 16.0;
    let bar_x = (-hw + 8.0).to_string();
    // A compact box says the same in fewer words: the role ("CTRL" for the controller), the
    // session's time left, the cache's freshness.
    let (role_text, session_text, cache_text, rows) = if g.compact {
        let role = match role {
            "NEW CONTROLLER" => "new ctrl",
            "CONTROLLER" => "CTRL",
            other => other,
        };
        let cache = cache.trim_start_matches("cache: ").trim_end_matches(" fresh").to_string();
        (role, left_time.unwrap_or_else(|| "expired".into()), cache, [-19.0, -5.0, 9.0, 12.0, 27.0, 30.0])
    } else {
        (role, session, cache, [-33.0, -13.0, 8.0, 14.0, 40.0, 46.0])
    };
    let [name_y, role_y, session_y, session_bar_y, cache_y, cache_bar_y] = rows;
    let bar_h = if g.compact { "4" } else { "8" };
    html! {
        <g class={class} data-broker={b.id.to_string()} transform={format!("translate({} {})", frame.x, frame.y)} role="img" aria-label={label}>
            <rect class="shape" x={(-hw).to_string()} y={(-hh).to_string()} width={(2.0 * hw).to_string()} height={(2.0 * hh).to_string()} rx="10" />
            if b.controller && b.alive && !g.compact {
                <path class="crown" d="M -16 -66 L -16 -78 L -8 -71 L 0 -82 L 8 -71 L 16 -78 L 16 -66 Z" />
            }
            if !b.alive { <path class="cross" d={format!("M {} {} L {} {} M {} {} L {} {}", -hw + 16.0, -hh + 12.0, hw - 16.0, hh - 12.0, hw - 16.0, -hh + 12.0, -hw + 16.0, hh - 12.0)} /> }
            <text class="name" y={name_y.to_string()}>{ format!("b{}", b.id) }</text>
            <text class="role" y={role_y.to_string()}>{ role_text }</text>
            <text class="small" y={session_y.to_string()}>{ session_text }</text>
            <rect class="bar-back" x={bar_x.clone()} y={session_bar_y.to_string()} width={bar_w.to_string()} height={bar_h} />
            <rect class={classes!("bar", "session-bar", (left < 0.34).then_some("low"))} x={bar_x.clone()} y={session_bar_y.to_string()} width={(bar_w * left).to_string()} height={bar_h} />
            <text class="small" y={cache_y.to_string()}>{ cache_text }</text>
            <rect class="bar-back stale" x={bar_x.clone()} y={cache_bar_y.to_string()} width={bar_w.to_string()} height={bar_h} />
            <rect class="bar fresh-bar" x={bar_x} y={cache_bar_y.to_string()} width={(bar_w * fresh).to_string()} height={bar_h} />
        </g>
    }
}

fn message(m: &ZkMessage, p: &ZkPicture, g: &ZkGeometry, still: bool) -> Html {
    let ((x1, y1), (x2, y2)) = (endpoint(g, p, m.from), endpoint(g, p, m.to));
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
                if !g.compact { <text class="message-label" x={format!("{:.1}", lx + 14.0)} y={format!("{ly:.1}")}>{ label.clone() }</text> }
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
            if !g.compact { <text class="message-label" x="12" y="4">{ format!("{}{count}", m.kind.label()) }</text> }
            <title>{ &m.text }</title>
        </g>
    }
}

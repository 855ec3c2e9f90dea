//! A ZooKeeper-mode cluster drawn as SVG in the live view's visual language: the three-server
//! ensemble, the brokers (the controller crowned) with their session countdown and cache
//! freshness, the znodes that matter, and the requests in flight between them. The page draws it
//! (`web::zk_view`, which measures its frame for the geometry) and a still writes it out.

use crate::drawing::svg::El;
use crate::harness::{MS, Micros};
use crate::util::format;
use crate::zk::{Endpoint, ZkBrokerPicture, ZkClientPicture, ZkMessage, ZkMessageKind, ZkPicture};

use super::zk_layout::ZkGeometry;

/// Colour of a request kind (Okabe and Ito, as the KRaft drawing's messages).
pub fn zk_message_colour(kind: ZkMessageKind) -> &'static str {
    match kind {
        ZkMessageKind::Ping => "#555555",
        ZkMessageKind::Watch => "#E69F00",
        ZkMessageKind::ClaimController => "#CC79A7",
        ZkMessageKind::Reads => "#56B4E9",
        ZkMessageKind::Writes => "#009E73",
        ZkMessageKind::UpdateMetadata => "#0072B2",
        ZkMessageKind::ClientWrite => "#D55E00",
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

/// Where a message of the drawing starts and ends: a broker's link to the ensemble's bottom,
/// or the client's to its left side (`None` where the client has no room).
fn ends(
    g: &ZkGeometry,
    picture: &ZkPicture,
    from: Endpoint,
    to: Endpoint,
) -> Option<((f64, f64), (f64, f64))> {
    let at = |end: Endpoint| match end {
        Endpoint::Broker(id) => Some(g.broker_anchor(broker_index(picture, id))),
        Endpoint::Ensemble => Some(g.ensemble_anchor()),
        Endpoint::Client => None,
    };
    match (from, to) {
        (Endpoint::Client, _) | (_, Endpoint::Client) => g.client_link(),
        _ => Some((at(from)?, at(to)?)),
    }
}

/// The session timeout, and the Kafka versions whose default it is.
fn session_text(timeout: Micros) -> (String, &'static str) {
    let versions = if timeout < 18_000 * MS { "(Kafka before 2.5)" } else { "(Kafka 2.5 and later)" };
    (format!("zookeeper.session.timeout.ms = {}", format::seconds(timeout)), versions)
}

/// The whole drawing in geometry `g`; `compact` (an embed) shrinks the znode panel to two lines;
/// with `reduced_motion`, requests sit still at the middle of their link. The brokers and the
/// messages in flight are each a group of their own, so that a message sent or delivered does
/// not shift what is drawn before it in the page's diff; the messages are drawn under the
/// brokers, as the KRaft drawing draws them under its nodes, so a ping leaving a broker never
/// covers its name.
pub fn zk_drawing(p: &ZkPicture, g: &ZkGeometry, compact: bool, reduced_motion: bool) -> El {
    let links = p.brokers.iter().map(|b| {
        let ((x1, y1), (x2, y2)) = (g.broker_anchor(broker_index(p, b.id)), g.ensemble_anchor());
        El::new("line")
            .attr("class", "link zk-session")
            .attr("x1", x1)
            .attr("y1", y1)
            .attr("x2", x2)
            .attr("y2", y2)
    });
    let znodes = if g.compact { controller_line(p, g) } else { znode_panel(p, g, compact) };
    El::new("svg")
        .attr("class", if g.compact { "zk-cluster compact" } else { "zk-cluster" })
        .attr("viewBox", format!("0 0 {} {}", g.width, g.height))
        .attr("role", "group")
        .attr("data-controller-epoch", p.znodes.controller_epoch)
        .attr(
            "aria-label",
            "ZooKeeper mode: the ZooKeeper ensemble at the top, the brokers below it, one of them the controller",
        )
        .child(El::new("g").attr("class", "links").children(links))
        .child(ensemble(p, g))
        .child(znodes)
        .children(p.client.as_ref().and_then(|c| client(c, g)))
        .child(El::new("g").attr("class", "zk-messages").children(p.messages.iter().filter_map(|m| message(m, p, g, reduced_motion))))
        .child(El::new("g").attr("class", "zk-brokers").children(p.brokers.iter().enumerate().map(|(i, b)| broker(b, p, g, i))))
}

/// A server's or a broker's box: `2 half_w` by `2 half_h` round its centre, corners of radius `rx`.
fn shape(half_w: f64, half_h: f64, rx: f64) -> El {
    El::new("rect")
        .attr("class", "shape")
        .attr("x", -half_w)
        .attr("y", -half_h)
        .attr("width", 2.0 * half_w)
        .attr("height", 2.0 * half_h)
        .attr("rx", rx)
}

fn ensemble(p: &ZkPicture, g: &ZkGeometry) -> El {
    let e = g.ensemble;
    let (x, y) = g.server;
    let (setting, versions) = session_text(p.session_timeout);
    let (hw, hh) = g.server_half;
    let title_y = if g.compact { e.y - e.half_h + 14.0 } else { y - 48.0 };
    let servers = (0..3).map(|i| {
        let sx = x + (i as f64 - 1.0) * g.server_dx;
        let server = El::new("g")
            .attr("class", "zk-server")
            .attr("data-server", i + 1)
            .attr("transform", format!("translate({sx} {y})"))
            .child(shape(hw, hh, 8.0));
        let name = format!("zk{}", i + 1);
        if g.compact {
            server.child(El::new("text").attr("class", "name").attr("y", "5").text(name))
        } else {
            server.child(El::new("text").attr("class", "name").attr("y", "-3").text(name)).child(
                El::new("text").attr("class", "small").attr("y", "16").text(if i == 0 {
                    "leader (ZAB)"
                } else {
                    "follower"
                }),
            )
        }
    });
    let group = El::new("g")
        .attr("class", "zk-ensemble")
        .attr("role", "group")
        .attr("aria-label", format!("ZooKeeper ensemble of three servers; {setting} {versions}"))
        .child(
            El::new("rect")
                .attr("class", "ensemble-box")
                .attr("x", e.x - e.half_w)
                .attr("y", e.y - e.half_h)
                .attr("width", 2.0 * e.half_w)
                .attr("height", 2.0 * e.half_h)
                .attr("rx", "14"),
        )
        .child(
            El::new("text")
                .attr("class", "ensemble-title")
                .attr("x", e.x)
                .attr("y", title_y)
                .text("ZooKeeper ensemble"),
        )
        .children(servers);
    if g.compact {
        return group;
    }
    group
        .child(
            El::new("text")
                .attr("class", "tiny-note")
                .attr("x", x)
                .attr("y", e.y + e.half_h - 29.0)
                .text(setting),
        )
        .child(
            El::new("text")
                .attr("class", "tiny-note")
                .attr("x", x)
                .attr("y", e.y + e.half_h - 13.0)
                .text(versions),
        )
}

/// The client writing to ZooKeeper directly: outside Kafka, with no Kafka credentials, its
/// dashed link to the ensemble; what it wrote once it has. `None` where there is no room.
fn client(c: &ZkClientPicture, g: &ZkGeometry) -> Option<El> {
    let frame = g.client()?;
    let ((x1, y1), (x2, y2)) = g.client_link()?;
    let said = match &c.wrote {
        Some(path) => format!("wrote {path}"),
        None => "can reach ZooKeeper's port 2181".to_string(),
    };
    let status = match (&c.wrote, g.compact) {
        (Some(_), _) => "wrote an ACL",
        (None, true) => "no Kafka login",
        (None, false) => "port 2181 open",
    };
    let (name_y, status_y) = if g.compact { (-4.0, 17.0) } else { (-22.0, 32.0) };
    let group = El::new("g")
        .attr("class", if c.wrote.is_some() { "zk-client wrote" } else { "zk-client" })
        .attr("role", "img")
        .attr("aria-label", format!("A client outside Kafka, with no Kafka credentials: {said}"))
        .child(
            El::new("line")
                .attr("class", "link zk-client-link")
                .attr("x1", x1 - frame.x)
                .attr("y1", y1 - frame.y)
                .attr("x2", x2 - frame.x)
                .attr("y2", y2 - frame.y),
        )
        .attr("transform", format!("translate({} {})", frame.x, frame.y))
        .child(shape(frame.half_w, frame.half_h, 8.0))
        .child(El::new("text").attr("class", "name").attr("y", name_y).text("client"));
    let group = match g.compact {
        true => group,
        false => group
            .child(El::new("text").attr("class", "small").attr("y", "-4").text("no Kafka"))
            .child(El::new("text").attr("class", "small").attr("y", "12").text("credentials")),
    };
    Some(
        group
            .child(El::new("text").attr("class", "small status").attr("y", status_y).text(status))
            .title(&said),
    )
}

/// The compact drawing's one znode: who holds `/controller`.
fn controller_line(p: &ZkPicture, g: &ZkGeometry) -> El {
    let (x, y) = g.znodes;
    let (text, gone) = match p.znodes.controller {
        Some(id) => (format!("/controller: b{id}, epoch {}", p.znodes.controller_epoch), false),
        None => ("/controller: \u{2717} gone".to_string(), true),
    };
    El::new("text")
        .attr("class", if gone { "znode-line gone" } else { "znode-line" })
        .attr("x", x)
        .attr("y", y)
        .attr("data-znode", "/controller")
        .text(text)
}

fn znode_panel(p: &ZkPicture, g: &ZkGeometry, compact: bool) -> El {
    let z = &p.znodes;
    let controller = match z.controller {
        Some(id) => format!("{{\"brokerid\":{id}}}"),
        None => "\u{2717} gone".to_string(),
    };
    let ids = z.broker_ids.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
    let mut rows = vec![
        ("/controller".to_string(), controller, z.controller.is_none()),
        ("/controller_epoch".to_string(), z.controller_epoch.to_string(), false),
        ("/brokers/ids".to_string(), format!("[{ids}]"), false),
    ];
    // With ACLs to show (the second door), they take the topics' two rows.
    match z.acls.as_slice() {
        [] => rows.extend([
            ("/brokers/topics".to_string(), format::counted(z.topics, "topic"), false),
            (".../partitions/*/state".to_string(), format::counted(z.partition_states, "znode"), false),
        ]),
        acls => rows.extend(acls.iter().take(2).map(|(path, value)| (path.clone(), value.clone(), false))),
    }
    let shown = if compact { &rows[..2] } else { &rows[..] };
    let (x, y) = g.znodes;
    let lines = shown.iter().enumerate().map(|(i, (path, value, gone))| {
        let y = 52.0 + 27.0 * i as f64;
        El::new("g")
            .attr("class", if *gone { "znode gone" } else { "znode" })
            .attr("data-znode", path.as_str())
            .child(
                El::new("text").attr("class", "znode-path").attr("x", "14").attr("y", y).text(path.as_str()),
            )
            .child(El::new("text").attr("class", "znode-value").attr("x", "416").attr("y", y).text(value))
    });
    El::new("g")
        .attr("class", "znodes")
        .attr("transform", format!("translate({x} {y})"))
        .attr("role", "group")
        .attr("aria-label", "znodes")
        .child(
            El::new("rect")
                .attr("class", "znode-box")
                .attr("x", "0")
                .attr("y", "0")
                .attr("width", "430")
                .attr("height", 34.0 + 27.0 * shown.len() as f64)
                .attr("rx", "10"),
        )
        .child(El::new("text").attr("class", "znode-title").attr("x", "14").attr("y", "24").text("znodes"))
        .children(lines)
}

fn broker(b: &ZkBrokerPicture, p: &ZkPicture, g: &ZkGeometry, index: usize) -> El {
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
    let class = match (b.alive, b.controller) {
        (false, _) => "node zk-broker role-down",
        (true, true) => "node zk-broker role-leader",
        (true, false) => "node zk-broker",
    };
    let label = format!("broker b{} {role}, {session}, {cache}", b.id);
    let left = b.session_left.unwrap_or(0.0);
    let fresh = if b.alive { b.fresh.clamp(0.0, 1.0) } else { 0.0 };
    let (hw, hh) = (frame.half_w, frame.half_h);
    let bar_w = 2.0 * hw - 16.0;
    let bar_x = -hw + 8.0;
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
    let bar = |class: &str, y: f64, width: f64| {
        El::new("rect")
            .attr("class", class)
            .attr("x", bar_x)
            .attr("y", y)
            .attr("width", width)
            .attr("height", bar_h)
    };
    let mut group = El::new("g")
        .attr("class", class)
        .attr("data-broker", b.id)
        .attr("transform", format!("translate({} {})", frame.x, frame.y))
        .attr("role", "img")
        .attr("aria-label", label)
        .child(shape(hw, hh, 10.0));
    if b.controller && b.alive && !g.compact {
        group = group.child(
            El::new("path")
                .attr("class", "crown")
                .attr("d", "M -16 -66 L -16 -78 L -8 -71 L 0 -82 L 8 -71 L 16 -78 L 16 -66 Z"),
        );
    }
    if !b.alive {
        let (a, c) = (-hw + 16.0, hw - 16.0);
        let (top, bottom) = (-hh + 12.0, hh - 12.0);
        group = group.child(
            El::new("path")
                .attr("class", "cross")
                .attr("d", format!("M {a} {top} L {c} {bottom} M {c} {top} L {a} {bottom}")),
        );
    }
    let session_class = if left < 0.34 { "bar session-bar low" } else { "bar session-bar" };
    group
        .child(El::new("text").attr("class", "name").attr("y", name_y).text(format!("b{}", b.id)))
        .child(El::new("text").attr("class", "role").attr("y", role_y).text(role_text))
        .child(El::new("text").attr("class", "small").attr("y", session_y).text(session_text))
        .child(bar("bar-back", session_bar_y, bar_w))
        .child(bar(session_class, session_bar_y, bar_w * left))
        .child(El::new("text").attr("class", "small").attr("y", cache_y).text(cache_text))
        .child(bar("bar-back stale", cache_bar_y, bar_w))
        .child(bar("bar fresh-bar", cache_bar_y, bar_w * fresh))
}

/// How far a message's dot must be from both ends of its link for its label to be drawn.
const LABEL_CLEAR: f64 = 24.0;

fn message(m: &ZkMessage, p: &ZkPicture, g: &ZkGeometry, reduced_motion: bool) -> Option<El> {
    let ((x1, y1), (x2, y2)) = ends(g, p, m.from, m.to)?;
    let colour = zk_message_colour(m.kind);
    let at = |t: f64| (x1 + (x2 - x1) * t, y1 + (y2 - y1) * t);
    if m.kind == ZkMessageKind::Reads || m.kind == ZkMessageKind::Writes {
        let depth = p.pipelining_depth.clamp(1, 20);
        let phase = if reduced_motion { 0.0 } else { (p.now % 2_000) as f64 / 2_000.0 };
        let (lx, ly) = at(0.5);
        let label =
            format!("{} \u{d7}{} ({} in flight)", m.kind.label(), format::count(m.count), p.pipelining_depth);
        let dots = (0..depth).map(|i| {
            let (x, y) = at((i as f64 / depth as f64 + phase).fract());
            El::new("circle")
                .attr("cx", format!("{x:.1}"))
                .attr("cy", format!("{y:.1}"))
                .attr("r", "5")
                .attr("fill", colour)
        });
        let batch = El::new("g")
            .attr("class", "zk-message batch")
            .attr("data-kind", m.kind.label())
            .attr("role", "img")
            .attr("aria-label", format!("{label}: {}", m.text))
            .children(dots);
        let batch = match g.compact {
            true => batch,
            false => batch.child(
                El::new("text")
                    .attr("class", "message-label")
                    .attr("x", format!("{:.1}", lx + 14.0))
                    .attr("y", format!("{ly:.1}"))
                    .text(label),
            ),
        };
        return Some(batch.title(&m.text));
    }
    let (x, y) = at(if reduced_motion { 0.5 } else { m.progress });
    let count = if m.count > 1 { format!(" \u{d7}{}", format::count(m.count)) } else { String::new() };
    let dot = El::new("g")
        .attr("class", "zk-message")
        .attr("data-kind", m.kind.label())
        .attr("transform", format!("translate({x:.1} {y:.1})"))
        .attr("role", "img")
        .attr("aria-label", format!("{}{count}: {}", m.kind.label(), m.text))
        .child(El::new("circle").attr("r", "9").attr("fill", colour));
    // Its label only once it has left its sender's edge and until it reaches its receiver's:
    // at either end it would lie over the name of the box it leaves or enters.
    let clear = |(ex, ey): (f64, f64)| (x - ex).hypot(y - ey) >= LABEL_CLEAR;
    let dot = match g.compact || !clear((x1, y1)) || !clear((x2, y2)) {
        true => dot,
        false => dot.child(
            El::new("text")
                .attr("class", "message-label")
                .attr("x", "12")
                .attr("y", "4")
                .text(format!("{}{count}", m.kind.label())),
        ),
    };
    Some(dot.title(&m.text))
}

#[cfg(test)]
mod tests {
    use super::zk_drawing;
    use crate::drawing::zk_layout::ZkGeometry;
    use crate::harness::MS;
    use crate::zk::{ZkCluster, ZkClusterConfig, ZkCosts, ZkMessageKind};

    /// A session ping leaves from a broker's top edge, where its name is: drawn under the
    /// brokers (their boxes are opaque), it never covers the name.
    #[test]
    fn messages_in_flight_are_drawn_under_the_brokers() {
        let config = ZkClusterConfig::single_partition_topics(100, 5, ZkCosts::async_reads());
        let mut zk = ZkCluster::new(config, 1).expect("valid cluster");
        let mut now = 0;
        let picture = loop {
            now += 50 * MS;
            zk.run_until(now);
            let picture = zk.picture();
            if picture.messages.iter().any(|m| m.kind == ZkMessageKind::Ping) {
                break picture;
            }
            assert!(now < 60_000 * MS, "no session ping in a minute");
        };
        let markup = zk_drawing(&picture, &ZkGeometry::for_width(1000.0, 1.0, 5), false, false).markup();
        let at = |class: &str| markup.find(&format!("class=\"{class}\"")).expect(class);
        assert!(at("zk-messages") < at("zk-brokers"), "the messages group comes before the brokers'");
    }

    /// A request's label is drawn only away from both ends of its link: just sent, it would lie
    /// over its broker's name (`tests/e2e/matrix_pains.test.mjs` measures the overlap).
    #[test]
    fn a_label_waits_until_its_request_has_left_the_broker() {
        use crate::zk::{Endpoint, ZkMessage};
        let config = ZkClusterConfig::single_partition_topics(10, 4, ZkCosts::async_reads());
        let mut picture = ZkCluster::new(config, 1).expect("valid cluster").picture();
        let g = ZkGeometry::regular(4);
        let labelled = |picture: &crate::zk::ZkPicture| {
            zk_drawing(picture, &g, false, false).markup().contains("message-label")
        };
        for (progress, shown) in [(0.0, false), (0.05, false), (0.5, true), (1.0, false)] {
            let text = "ping".to_string();
            let ping = ZkMessage {
                kind: ZkMessageKind::Ping,
                from: Endpoint::Broker(0),
                to: Endpoint::Ensemble,
                count: 1,
                progress,
                text,
            };
            picture.messages = vec![ping];
            assert_eq!(labelled(&picture), shown, "at {progress}");
        }
    }

    /// The second door's client is drawn from the start, its write travels to the ensemble in
    /// the last 400 ms before it lands, and then the client says what it wrote; no other pain
    /// draws a client, and a phone's drawing has no room for it.
    #[test]
    fn the_second_doors_client_is_drawn_with_its_write() {
        use crate::zk::pains::{FAULT_AT, Pain};
        let mut zk = Pain::Security.cluster();
        let drawn = |zk: &ZkCluster, width: f64| {
            zk_drawing(&zk.picture(), &ZkGeometry::for_width(width, 1.0, 4), false, false).markup()
        };
        let writes = |zk: &ZkCluster| {
            zk.picture().messages.into_iter().filter(|m| m.kind == ZkMessageKind::ClientWrite).count()
        };
        assert!(drawn(&zk, 1000.0).contains("class=\"zk-client\""));
        assert_eq!(writes(&zk), 0, "not yet on its way");
        zk.run_until(FAULT_AT - 200 * MS);
        let picture = zk.picture();
        let write =
            picture.messages.iter().find(|m| m.kind == ZkMessageKind::ClientWrite).expect("on its way");
        assert!(
            (write.progress - 0.5).abs() < 1e-9 && write.text.contains("/kafka-acl/Topic/topic-3"),
            "{write:?}"
        );
        assert!(drawn(&zk, 1000.0).contains("data-kind=\"create\""));
        zk.run_until(FAULT_AT);
        assert_eq!(writes(&zk), 0, "landed");
        let wrote = zk.picture().client.and_then(|c| c.wrote);
        assert_eq!(wrote.as_deref(), Some("/kafka-acl/Topic/topic-3"));
        assert!(drawn(&zk, 1000.0).contains("class=\"zk-client wrote\""));
        assert!(!drawn(&zk, 375.0).contains("zk-client"), "no room on a phone");
        assert_eq!(Pain::WatchStorm.cluster().picture().client, None);
    }
}

//! The cluster drawn as SVG: controllers with role, epoch, vote, timeout arc and log strip;
//! brokers with lifecycle, offset, lag and image; links, cut links and messages in flight. Roles
//! differ by outline and text as well as colour. The page draws its parts (each part a component
//! it redraws only when it changes, nodes made buttons); a still draws it whole, [`cluster`].

use crate::quorum::{NodeId, RoleKind};
use crate::util::format::counted;

use super::layout::{Geometry, Layout, Point, Rect, point_along};
use super::svg::{Child, El};
use super::text_fit::{ROLE_PX, SMALL_PX, placed_within, text_length, text_width};
use crate::session::message_kinds::{message_kind, spoken};
use crate::session::picture::{
    BROKER_STRIP_RECORDS, BrokenPicture, CUT_AT, ClusterPicture, LinkPicture, LogCell, Membership,
    MessagePicture, NodePicture,
};
use crate::session::summary::Summary;

/// Colour-blind-safe colours (Okabe and Ito) for epochs.
const EPOCH_COLOURS: [&str; 7] =
    ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442"];

/// The colour of an epoch.
pub fn epoch_colour(epoch: u32) -> &'static str {
    EPOCH_COLOURS[epoch as usize % EPOCH_COLOURS.len()]
}

/// Class names, the present ones joined by spaces.
fn classes(names: &[Option<&str>]) -> String {
    names.iter().flatten().copied().collect::<Vec<_>>().join(" ")
}

/// The whole drawing as a still: every part the page draws, in the page's order, nodes as
/// pictures (not buttons), messages where they are (with `reduced_motion`, at the middle of
/// their link, as the page draws them for a reader who asked for less motion).
pub fn cluster(picture: &ClusterPicture, layout: &Layout, reduced_motion: bool) -> El {
    svg(layout, &crate::session::summary::summary(picture))
        .child(links(&picture.links, &picture.cut_links, layout))
        .child(
            El::new("g")
                .attr("class", "timeouts")
                .attr("aria-hidden", "true")
                .children(picture.nodes.iter().filter_map(|n| timeout_arc(n, layout))),
        )
        .child(El::new("g").attr("class", "messages").children(messages(picture, layout, reduced_motion)))
        .child(El::new("g").attr("class", "nodes").children(picture.nodes.iter().filter_map(|n| {
            let centre = layout.centre(n.id)?;
            let broken = picture.broken.as_ref().filter(|b| b.culprits.nodes.contains(&n.id));
            Some(node(n, centre, layout.strip_cells, &layout.geometry, false, broken).picture())
        })))
        .child_if((!layout.geometry.compact).then(|| epoch_marks_group(&picture.nodes, layout)))
}

/// How a still is dressed for a slide: the page's light drawing or a dark one, and a caption.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StillStyle {
    pub dark: bool,
    /// A line under the drawing (none if empty).
    pub caption: String,
}

/// The longest caption a still takes, in characters.
pub const CAPTION_MAX: usize = 160;
/// The room a caption takes under the drawing, in drawing units.
const CAPTION_ROOM: f64 = 44.0;

/// A still of `picture` for a slide or a document: the regular drawing whatever the screen (a
/// slide is wider than a phone; the page draws the same on a screen 560 px wide or more), nodes
/// as pictures, in `style`. The page's "Save picture" and `kraftscope render` both make it.
pub fn still(picture: &ClusterPicture, reduced_motion: bool, style: &StillStyle) -> El {
    let (controllers, brokers) = picture.ids();
    let layout = Layout::with(&controllers, &brokers, Geometry::REGULAR);
    let mut drawing = cluster(picture, &layout, reduced_motion);
    if style.dark {
        drawing = drawing.set("class", |class| format!("{class} still-dark"));
    }
    let caption = caption_text(&style.caption);
    if !caption.is_empty() {
        let (width, height) = (layout.geometry.width, layout.height);
        drawing = drawing.set("viewBox", |_| format!("0 0 {width} {}", height + CAPTION_ROOM)).child(
            El::new("text")
                .attr("class", "still-caption")
                .attr("x", width / 2.0)
                .attr("y", height + CAPTION_ROOM / 2.0 + 6.0)
                .text(caption),
        );
    }
    drawing
}

/// A caption as a still draws it: no control characters, at most [`CAPTION_MAX`] characters,
/// trimmed.
pub fn caption_text(caption: &str) -> String {
    let kept: String = caption.chars().filter(|c| !c.is_control()).take(CAPTION_MAX).collect();
    kept.trim().to_string()
}

/// The `<svg>` element, without its parts: its class, box and accessible name.
pub fn svg(layout: &Layout, now: &Summary) -> El {
    let g = &layout.geometry;
    El::new("svg")
        .attr("class", classes(&[Some("cluster"), g.compact.then_some("compact")]))
        .attr("viewBox", format!("0 0 {} {}", g.width, layout.height))
        .attr("role", "group")
        .attr(
            "aria-label",
            format!(
                "The cluster: controllers on a ring at the top, brokers below, messages in flight between them. {now}"
            ),
        )
}

fn points(route: &[Point]) -> String {
    route.iter().map(|p| format!("{:.1},{:.1}", p.x, p.y)).collect::<Vec<_>>().join(" ")
}

/// Every link; cut links dashed red with a mark on them. Cut links are given as (lower id,
/// higher id). Each link and each mark has a key of its own, so the page's diff keeps them.
pub fn links(links: &[LinkPicture], cut: &[(NodeId, NodeId)], layout: &Layout) -> El {
    let is_cut = |a: NodeId, b: NodeId| cut.contains(&(a.min(b), a.max(b)));
    let polylines = links.iter().map(|&LinkPicture { a, b, observer }| {
        let class = match (is_cut(a, b), observer) {
            (true, _) => "link cut",
            (false, true) => "link observer",
            (false, false) => "link",
        };
        El::new("polyline")
            .attr("class", class)
            .attr("points", points(&layout.route(a, b)))
            .attr("data-link", format!("{a}-{b}"))
            .keyed(format!("{a}-{b}"))
    });
    let marks = links.iter().filter(|l| is_cut(l.a, l.b)).map(|&LinkPicture { a, b, .. }| {
        let at = point_along(&layout.route(a.min(b), a.max(b)), CUT_AT);
        El::new("text")
            .attr("class", "cut-mark")
            .attr("data-link", format!("{}-{}", a.min(b), a.max(b)))
            .attr("x", format!("{:.1}", at.x))
            .attr("y", format!("{:.1}", at.y + 5.0))
            .text("✂")
            .title(format!("the link n{a}-n{b} is cut: messages on it are lost"))
            .keyed(format!("cut-{a}-{b}"))
    });
    El::new("g").attr("class", "links").children(polylines).children(marks)
}

/// A controller's timeout arc around its place, shrinking as the timeout runs out; keyed by id.
pub fn timeout_arc(n: &NodePicture, layout: &Layout) -> Option<El> {
    let (Point { x, y }, (name, left)) = (layout.centre(n.id)?, n.timeout?);
    let left = left.clamp(0.0, 1.0);
    let radius = layout.geometry.radius + 6.0;
    let circumference = 2.0 * std::f64::consts::PI * radius;
    let dash = circumference * left;
    Some(
        El::new("circle")
            .attr("class", "timeout")
            .attr("r", radius)
            .attr("stroke-dasharray", format!("{dash:.1} {circumference:.1}"))
            .attr("transform", format!("translate({x} {y}) rotate(-90)"))
            .title(format!("{name}: {:.0}% left", left * 100.0))
            .keyed(n.id),
    )
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

/// The largest size the drawing gives a message's label and note, in drawing units (a compact
/// drawing's `.message-label`; a stage zooms the whole drawing): boxes measured at it stay apart
/// at every size.
const LABEL_PX: f64 = 12.0;
/// How far a node's lines keep from the drawing's edges.
const EDGE: f64 = 4.0;
/// How far under the top of a controller's strip its offsets line sits (its baseline).
const LOG_LINE_DY: f64 = 28.0;
/// A message dot's radius with its halo.
const DOT_R: f64 = 10.0;

/// Where a message's label sits beside its dot: its offset from the dot's centre (the label's
/// baseline; a note goes one line below) and whether it reads leftwards (`text-anchor: end`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LabelPlace {
    pub dx: f64,
    pub dy: f64,
    pub leftwards: bool,
}

/// The places a label may take, in order of preference: right of its dot, left of it, then
/// above and below on either side, then a line further out.
const PLACES: [LabelPlace; 10] = [
    LabelPlace { dx: 11.0, dy: 4.0, leftwards: false },
    LabelPlace { dx: -11.0, dy: 4.0, leftwards: true },
    LabelPlace { dx: 8.0, dy: -12.0, leftwards: false },
    LabelPlace { dx: 8.0, dy: 22.0, leftwards: false },
    LabelPlace { dx: -8.0, dy: -12.0, leftwards: true },
    LabelPlace { dx: -8.0, dy: 22.0, leftwards: true },
    LabelPlace { dx: 8.0, dy: -30.0, leftwards: false },
    LabelPlace { dx: 8.0, dy: 40.0, leftwards: false },
    LabelPlace { dx: -8.0, dy: -30.0, leftwards: true },
    LabelPlace { dx: -8.0, dy: 40.0, leftwards: true },
];

/// Every message in flight, drawn under the nodes (a message leaving or reaching a node never
/// covers its texts), each keyed so that its element persists from frame to frame. Labels are
/// placed so that no two overlap each other or another message's dot: two labels drawn over
/// each other read as a third message kind.
pub fn messages(picture: &ClusterPicture, layout: &Layout, reduced_motion: bool) -> Vec<El> {
    let messages = &picture.messages;
    message_keys(messages)
        .into_iter()
        .zip(messages)
        .zip(label_places(picture, layout, reduced_motion))
        .map(|((key, m), (at, place))| message(key, m, layout, at, place))
        .collect()
}

/// Where each message's dot is and where its label goes: the first place whose box overlaps
/// no label placed before it, no node (its shape would hide the label; its log strip and the
/// line under it would read through it) and no other dot, else the one that overlaps least
/// (dots alone). A label that cannot keep off every other label and node is left out (None):
/// its dot keeps its colour, ring and tooltip.
pub fn label_places(
    picture: &ClusterPicture,
    layout: &Layout,
    reduced_motion: bool,
) -> Vec<(Point, Option<LabelPlace>)> {
    let messages = &picture.messages;
    let at: Vec<Point> = messages.iter().map(|m| message_point(m, layout, reduced_motion)).collect();
    let dots: Vec<Rect> = at.iter().map(|p| Rect::around(*p, DOT_R, DOT_R, DOT_R)).collect();
    let covered = covered(picture, layout);
    let mut taken: Vec<Rect> = Vec::new();
    let placed: Vec<Option<LabelPlace>> = messages
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let boxes = PLACES.map(|place| label_box(m, layout, at[i], place));
            let dots_under = |b: &Rect| -> f64 {
                dots.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, d)| b.overlap(d)).sum()
            };
            let clear = |b: &Rect| taken.iter().chain(&covered).all(|o| b.overlap(o) == 0.0);
            let best = (0..PLACES.len())
                .filter(|p| clear(&boxes[*p]))
                .min_by(|a, b| dots_under(&boxes[*a]).total_cmp(&dots_under(&boxes[*b])))?;
            taken.push(boxes[best]);
            Some(PLACES[best])
        })
        .collect();
    at.into_iter().zip(placed).collect()
}

/// What the nodes draw that a message's label must not cover: their shapes, a controller's
/// vote line, log strip and the offsets line under it (as wide as its offsets make it).
pub fn covered(picture: &ClusterPicture, layout: &Layout) -> Vec<Rect> {
    layout
        .nodes()
        .flat_map(|n| layout.covered(n))
        .chain(picture.nodes.iter().filter_map(|n| log_line_box(n, layout)))
        .collect()
}

/// Where a message's dot is: along its link by its progress (with `reduced_motion`, at the
/// middle unless lost).
fn message_point(m: &MessagePicture, layout: &Layout, reduced_motion: bool) -> Point {
    let t = if reduced_motion && !m.lost { 0.5 } else { m.progress.clamp(0.0, 1.0) };
    point_along(&layout.route(m.from, m.to), t)
}

/// The text a message's label shows beside its dot, in a regular drawing with its note.
fn message_note<'a>(m: &'a MessagePicture, layout: &Layout) -> Option<&'a String> {
    m.note.as_ref().filter(|_| !layout.geometry.compact)
}

/// The box a message's label (and note) takes at `place` beside its dot at `at`.
pub fn label_box(m: &MessagePicture, layout: &Layout, at: Point, place: LabelPlace) -> Rect {
    let width = |text: &str| text_width(text, LABEL_PX);
    let label = message_kind(m.kind).label;
    let note = message_note(m, layout);
    let w = width(label).max(note.map_or(0.0, |n| width(n)));
    let lines = if note.is_some() { 2.0 } else { 1.0 };
    let left = if place.leftwards { at.x + place.dx - w } else { at.x + place.dx };
    let top = at.y + place.dy - LABEL_PX * 0.8;
    Rect { left, top, right: left + w, bottom: top + LABEL_PX * (lines * 1.1) }
}

/// A message on its link at `at`, its kind and, in a regular drawing, its note beside it, at
/// `place` (none: the dot alone).
fn message(key: String, m: &MessagePicture, layout: &Layout, at: Point, place: Option<LabelPlace>) -> El {
    let note = message_note(m, layout);
    let Point { x, y } = at;
    let kind = message_kind(m.kind);
    let (fill, stroke) = if kind.response { ("#fff", kind.colour) } else { (kind.colour, "#fff") };
    let text = |place: LabelPlace, class: &str, dy: f64| {
        let class = if place.leftwards { format!("{class} leftwards") } else { class.to_string() };
        El::new("text").attr("class", class).attr("x", place.dx).attr("y", place.dy + dy)
    };
    let fall = El::new("g")
        .attr("class", "fall")
        .child(El::new("circle").attr("class", "halo").attr("r", "10"))
        .child(El::new("circle").attr("r", "8").attr("fill", fill).attr("stroke", stroke))
        .child_if(place.map(|place| text(place, "message-label", 0.0).text(kind.label)))
        .text(" ")
        .child_if(place.zip(note).map(|(place, note)| text(place, "message-note", 13.0).text(note)))
        .title(format!("{} = {}\n{}", kind.label, kind.meaning, m.text));
    El::new("g")
        .attr(
            "class",
            classes(&[Some("message"), m.lost.then_some("lost"), kind.response.then_some("response")]),
        )
        .attr("transform", format!("translate({x:.1} {y:.1})"))
        .attr("data-link", format!("{}-{}", m.from, m.to))
        .attr("role", "img")
        .attr("aria-label", spoken(m))
        .child(fall)
        .keyed(key)
}

/// The epochs of the log cells drawn, in order.
pub fn epochs_present(picture: &ClusterPicture) -> Vec<u32> {
    let mut epochs: Vec<u32> = picture.nodes.iter().flat_map(|n| n.cells.iter().map(|c| c.epoch)).collect();
    epochs.sort_unstable();
    epochs.dedup();
    epochs
}

/// The epoch marks of every node (see [`epoch_marks`]).
pub fn epoch_marks_group(nodes: &[NodePicture], layout: &Layout) -> El {
    El::new("g")
        .attr("class", "epoch-marks")
        .attr("aria-hidden", "true")
        .children(nodes.iter().filter_map(|n| epoch_marks(n, layout)))
}

/// The epoch's number on the first record of each epoch in a node's strip, so epochs are not
/// told by colour alone. Drawn over the node but outside its button, whose name lists the
/// epochs in words instead.
fn epoch_marks(n: &NodePicture, layout: &Layout) -> Option<El> {
    let Point { x, y } = layout.centre(n.id)?;
    let g = &layout.geometry;
    let (cells, left, top, height) = strip(n, layout.strip_cells, g);
    let firsts = cells.iter().enumerate().filter(|(i, c)| *i == 0 || cells[i - 1].epoch != c.epoch);
    Some(
        El::new("g")
            .attr("transform", format!("translate({x} {y})"))
            .children(firsts.map(|(i, c)| {
                El::new("text")
                    .attr("class", "epoch-mark")
                    .attr("x", format!("{:.1}", left + i as f64 * g.cell + (g.cell - 2.0) / 2.0))
                    .attr("y", format!("{:.1}", top + height / 2.0 + 3.0))
                    .text(c.epoch)
            }))
            .keyed(n.id),
    )
}

/// A node as drawn: the class and place of its group, its accessible name (every text it shows,
/// in the order drawn: WCAG 2.5.3, label in name) and its shapes and texts. The page makes the
/// group a button; a still, a picture.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeDrawing {
    pub class: String,
    pub transform: String,
    pub name: String,
    pub body: Vec<Child>,
}

impl NodeDrawing {
    /// The node as a picture (`role="img"`), as the race and a still draw it.
    pub fn picture(self) -> El {
        El::new("g")
            .attr("class", self.class)
            .attr("transform", self.transform)
            .attr("role", "img")
            .attr("aria-label", self.name)
            .with(self.body)
    }
}

/// Node `n` drawn at `centre`; `broken` is the broken invariant it is involved in.
pub fn node(
    n: &NodePicture,
    centre: Point,
    strip_cells: usize,
    g: &Geometry,
    selected: bool,
    broken: Option<&BrokenPicture>,
) -> NodeDrawing {
    let (role, role_class) = n.role_text();
    let name = if n.voter {
        let vote = vote_line(n);
        let vote = if vote.is_empty() { vote } else { format!(", {vote}") };
        let snap = if shows_snapshot(n, strip_cells) && !g.compact { ", snap" } else { "" };
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
    let name = format!("{name}{}", strip_epochs(n, strip_cells, g));
    let name = match broken {
        Some(b) => format!("{name}, involved in the broken invariant: {}", b.invariant),
        None => name,
    };
    let class = classes(&[
        Some("node"),
        Some(role_class),
        selected.then_some("selected"),
        broken.is_some().then_some("culprit"),
    ]);
    let Point { x, y } = centre;
    NodeDrawing {
        class,
        transform: format!("translate({x} {y})"),
        name,
        body: node_body(n, role, strip_cells, g, broken, room(centre, g)),
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
    room: (f64, f64),
) -> Vec<Child> {
    let flagged = broken.and_then(|b| b.culprits.offset);
    let mut body =
        if n.voter { controller(n, role, strip_cells, g, flagged, room) } else { broker(n, role, g) };
    if let Some(b) = broken {
        let (x, y) = if n.voter {
            (-g.radius, 12.0 - g.radius)
        } else {
            (8.0 - g.broker_half_w, 18.0 - g.broker_half_h)
        };
        let badge = El::new("text")
            .attr("class", "culprit-badge")
            .attr("x", x)
            .attr("y", y)
            .text("✗")
            .title(format!("{}: {}", b.invariant, b.detail));
        said(&mut body, badge);
    }
    body
}

/// A line of a node's text drawn at `y` (its usual size `px`), squeezed into `width` where it
/// could run over at a larger size.
fn line(class: &'static str, y: f64, text: String, width: f64, px: f64) -> El {
    El::new("text").attr("class", class).attr("y", y).fit(&text, width, px).text(text)
}

impl El {
    /// With the `textLength` that keeps `text` (drawn at `px`) within `width`, where it is needed.
    fn fit(self, text: &str, width: f64, px: f64) -> El {
        self.attr_if("textLength", text_length(text, width, px).map(|w| format!("{w:.0}")))
            .attr("lengthAdjust", "spacingAndGlyphs")
    }
}

/// A controller: its circle (membership ring, crown and cross drawn for a radius of 40 and
/// scaled), name, role and epoch. A regular drawing puts the role and epoch in the circle and
/// the membership and vote over it, then the log strip with its offsets; a compact one puts the
/// role under the circle, then the membership, epoch and vote on one line, then the strip
/// without labels.
fn controller(
    n: &NodePicture,
    role: &str,
    strip_cells: usize,
    g: &Geometry,
    flagged: Option<u64>,
    room: (f64, f64),
) -> Vec<Child> {
    let r = g.radius;
    let scale = format!("scale({})", r / 40.0);
    let (name_y, role_y, line_y, width) =
        if g.compact { (5.0, r + 13.0, r + 27.0, 2.0 * g.label_half_w) } else { (-8.0, 10.0, 25.0, 76.0) };
    let role = if g.compact && n.combined { format!("{role} + broker") } else { role.to_string() };
    let epoch_line = match vote_line(n) {
        vote if g.compact && !vote.is_empty() => format!("epoch {} · {vote}", n.epoch),
        _ => format!("epoch {}", n.epoch),
    };
    let mut body = vec![Child::El(El::new("circle").attr("class", "shape").attr("r", r))];
    body.push(Child::slot(n.membership.filter(|m| *m != Membership::Voter).map(|member| {
        El::new("circle").attr("class", format!("membership-ring {}", member.name())).attr("r", r * 1.275)
    })));
    body.push(Child::slot((n.role == Some(RoleKind::Leader)).then(|| {
        El::new("path")
            .attr("class", "crown")
            .attr("transform", &scale)
            .attr("d", "M -16 -46 L -16 -58 L -8 -51 L 0 -62 L 8 -51 L 16 -58 L 16 -46 Z")
    })));
    body.push(Child::slot((n.role.is_none() || n.role == Some(RoleKind::Resigned)).then(|| {
        El::new("path")
            .attr("class", "cross")
            .attr("transform", &scale)
            .attr("d", "M -24 -24 L 24 24 M 24 -24 L -24 24")
    })));
    said(&mut body, El::new("text").attr("class", "name").attr("y", name_y).text(&n.label));
    said(&mut body, line("role", role_y, role, width, ROLE_PX));
    said(&mut body, line("small", line_y, epoch_line, width, SMALL_PX));
    if !g.compact {
        let mut over = El::new("text").attr("class", "small vote").attr("y", -r - 25.0);
        if n.combined {
            over = over.child(El::new("tspan").attr("class", "combined").text("+ broker"));
            if !vote_line(n).is_empty() {
                over = over.text(" · ");
            }
        }
        if let Some(member) = n.membership_shown() {
            over = over.child(
                El::new("tspan").attr("class", format!("membership {}", member.name())).text(member.name()),
            );
            if !vote_text(n).is_empty() {
                over = over.text(" · ");
            }
        }
        let vote = vote_text(n);
        if !vote.is_empty() {
            over = over.text(vote);
        }
        said(&mut body, over);
    }
    body.push(Child::El(log_strip(n, strip_cells, g, flagged, room)));
    body
}

/// A text, and a space after it: SVG does not draw the space, assistive technology reads the
/// words apart.
fn said(body: &mut Vec<Child>, text: El) {
    body.push(Child::El(text));
    body.push(Child::Text(" ".into()));
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
    let hw = match n.high_watermark {
        Some(hw) => hw.to_string(),
        None if n.known_committed > 0 => format!("≥ {}", n.known_committed),
        None => "unknown".to_string(),
    };
    format!("log {}..{} · HW {hw}", n.log_start, n.log_end)
}

/// A controller's offsets line: its text, where it is centred from the node within `room`, and
/// its half width.
fn log_line(n: &NodePicture, room: (f64, f64)) -> (String, f64, f64) {
    let text = log_text(n);
    let (x, half) = placed_within(&text, SMALL_PX, room);
    (text, x, half)
}

/// The box a regular drawing's offsets line takes under a controller's strip.
fn log_line_box(n: &NodePicture, layout: &Layout) -> Option<Rect> {
    let g = &layout.geometry;
    if !n.voter || g.compact {
        return None;
    }
    let c = layout.centre(n.id)?;
    let (_, x, half) = log_line(n, room(c, g));
    let y = c.y + g.strip_top + LOG_LINE_DY;
    Some(Rect { left: c.x + x - half, top: y - SMALL_PX, right: c.x + x + half, bottom: y + 4.0 })
}

/// The drawing's edges, seen from a node at `centre`: its lines keep between them.
fn room(centre: Point, g: &Geometry) -> (f64, f64) {
    (EDGE - centre.x, g.width - EDGE - centre.x)
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
const HW_TITLE: &str = "log a..b: the offsets this node holds. HW (high watermark): records below it are committed, stored on a majority of the controllers; the bar in the strip marks it, and records this node knows are committed are drawn solid. \"unknown\" until this node learns it from the leader. A new leader learns its own only when a record of its epoch commits; until then \"≥ n\": the records it applied as a follower (below n) stay committed.";

/// Where a node's strip is drawn: its cells, and the left edge, top and height of the strip.
fn strip<'a>(n: &'a NodePicture, strip_cells: usize, g: &Geometry) -> (&'a [LogCell], f64, f64, f64) {
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

/// The bar that marks a strip's high watermark (a broker's: its applied offset), moved by a CSS
/// transform so that it slides.
fn bar(x: f64, y1: f64, y2: f64) -> El {
    El::new("line")
        .attr("class", "hw")
        .attr("style", format!("transform: translateX({x:.1}px)"))
        .attr("x1", "-1")
        .attr("x2", "-1")
        .attr("y1", y1)
        .attr("y2", y2)
}

/// A controller's log strip: its snapshot box, its records and its high watermark; in a regular
/// drawing, labelled, the offsets' line kept within `room` (the drawing's edges, from the node).
fn log_strip(
    n: &NodePicture,
    strip_cells: usize,
    g: &Geometry,
    flagged: Option<u64>,
    room: (f64, f64),
) -> El {
    let (cells, left, top, height) = strip(n, strip_cells, g);
    let hw = n.high_watermark;
    let first = strip_start(n, strip_cells);
    let hw_x = hw.filter(|h| *h >= first && *h <= n.log_end).map(|h| left + (h - first) as f64 * g.cell);
    let snapshot = shows_snapshot(n, strip_cells);
    let labelled = !g.compact;
    let mut strip = El::new("g").attr("class", "log").attr("aria-hidden", "true");
    if snapshot {
        strip = strip.child(
            El::new("rect")
                .attr("class", "snapshot")
                .attr("x", left - g.snapshot_w)
                .attr("y", top)
                .attr("width", g.snapshot_w - 4.0)
                .attr("height", height)
                .title(format!(
                    "snapshot: offsets 0..{} are in a snapshot; the log starts at {}",
                    n.log_start, n.log_start
                )),
        );
    }
    if snapshot && labelled {
        let snap = El::new("text")
            .attr("class", "tiny")
            .attr("x", left - g.snapshot_w / 2.0 - 2.0)
            .attr("y", top + 12.0);
        strip = strip.child(snap.text("snap")).text(" ");
    }
    let known = Some(n.known_committed);
    strip = strip.children(cells_drawn(cells, (left, g.cell), top, height, (known, n.doomed_from, flagged)));
    strip = strip.child_if(hw_x.map(|x| bar(x, top - 3.0, top + height + 3.0)));
    if labelled {
        let (text, x, _) = log_line(n, room);
        let offsets =
            El::new("text").attr("class", "tiny").attr("x", format!("{x:.0}")).attr("y", top + LOG_LINE_DY);
        let offsets = offsets.fit(&text, room.1 - room.0, SMALL_PX);
        strip = strip.child(offsets.text(text).title(HW_TITLE)).text(" ");
    }
    strip
}

/// Marks on a strip's cells: faded until below `done` (what a controller knows is committed, or a
/// broker's applied offset), struck and flashing from `doomed` on, outlined red at `flagged` (named by a broken
/// invariant).
type CellMarks = (Option<u64>, Option<u64>, Option<u64>);

/// Record cells from `left`, each `cell` wide, coloured by epoch, with their marks. Cells are
/// not keyed: a strip keeps its rectangles and recolours them as it slides, where keyed cells
/// would each be a new element (fast-forwarding a quiet stretch slides every strip by several
/// records a frame).
fn cells_drawn(
    cells: &[LogCell],
    (left, cell): (f64, f64),
    top: f64,
    height: f64,
    marks: CellMarks,
) -> Vec<El> {
    let (done, doomed, flagged) = marks;
    let mut drawn: Vec<El> = cells
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let finished = done.is_some_and(|h| c.offset < h);
            let gone = doomed.is_some_and(|d| c.offset >= d);
            let class = classes(&[
                Some("cell"),
                (!finished).then_some("uncommitted"),
                gone.then_some("doomed"),
                (flagged == Some(c.offset)).then_some("culprit-cell"),
            ]);
            let note = match (gone, finished) {
                (true, _) => {
                    " (about to be truncated: the leader answered DivergingEpoch, this log differs from here)"
                }
                (false, true) => "",
                (false, false) => " (not known to be committed by this node yet)",
            };
            El::new("rect")
                .attr("class", class)
                .attr("x", left + i as f64 * cell)
                .attr("y", top)
                .attr("width", cell - 2.0)
                .attr("height", height)
                .attr("fill", epoch_colour(c.epoch))
                .title(format!("offset {} · epoch {} · {}{note}", c.offset, c.epoch, c.detail))
        })
        .collect();
    if let Some(i) = doomed.and_then(|d| cells.iter().position(|c| c.offset >= d)) {
        let x1 = left + i as f64 * cell;
        let x2 = left + cells.len() as f64 * cell - 2.0;
        let stroke =
            |y1: f64, y2: f64| El::new("line").attr("x1", x1).attr("x2", x2).attr("y1", y1).attr("y2", y2);
        drawn.push(
            El::new("g")
                .attr("class", "strike")
                .child(stroke(top, top + height))
                .child(stroke(top + height, top)),
        );
    }
    drawn
}

/// A broker's texts in drawing order: lifecycle, image, size, and the line under its strip.
fn broker_texts(n: &NodePicture, role: &str) -> [String; 4] {
    let lifecycle = n.lifecycle.unwrap_or(if n.role.is_none() { "DOWN" } else { role });
    let fenced = if n.fenced == Some(true) { " · FENCED" } else { "" };
    let lag = n.lag.map_or(String::new(), |l| format!(" · lag {l}"));
    [
        format!("{lifecycle}{fenced}"),
        format!("image @ {}{lag}", n.applied_offset),
        format!("{} · {}", counted(n.topics as u64, "topic"), counted(n.partitions as u64, "partition")),
        format!("fetched {} · applied {}", n.log_end, n.applied_offset),
    ]
}

/// A broker: its box (crossed out when it is down), name and lifecycle; in a regular drawing
/// also its image, size and fetched records.
fn broker(n: &NodePicture, role: &str, g: &Geometry) -> Vec<Child> {
    let [state, image, size, fetched] = broker_texts(n, role);
    let (w, h) = (g.broker_half_w, g.broker_half_h);
    let (name_y, state_y) = if g.compact { (-2.0, 13.0) } else { (-28.0, -12.0) };
    let width = 2.0 * w - 8.0;
    let shape = El::new("rect")
        .attr("class", classes(&[Some("shape"), (n.fenced == Some(true)).then_some("fenced")]))
        .attr("x", -w)
        .attr("y", -h)
        .attr("width", 2.0 * w)
        .attr("height", 2.0 * h)
        .attr("rx", h / 5.2);
    let mut body = vec![Child::El(shape)];
    body.push(Child::slot(n.role.is_none().then(|| {
        let (a, b, c, d) = (14.0 - w, 16.0 - h, w - 14.0, h - 16.0);
        El::new("path").attr("class", "cross").attr("d", format!("M {a} {b} L {c} {d} M {c} {b} L {a} {d}"))
    })));
    said(&mut body, El::new("text").attr("class", "name").attr("y", name_y).text(&n.label));
    said(&mut body, line("role", state_y, state, width, ROLE_PX));
    if !g.compact {
        said(&mut body, line("small", 4.0, image, width, SMALL_PX));
        said(&mut body, line("small", 17.0, size, width, SMALL_PX));
        body.push(Child::El(broker_strip(n, fetched, g)));
    }
    body
}

/// A broker's fetched records, faded until applied to its image, with the applied offset marked:
/// fetching by offset brings only the records after it.
fn broker_strip(n: &NodePicture, fetched: String, g: &Geometry) -> El {
    let (cells, left, top, height) = strip(n, 0, g);
    let first = cells.first().map_or(n.log_end, |c| c.offset);
    let applied_x = (n.applied_offset >= first && n.applied_offset <= n.log_end)
        .then(|| left + (n.applied_offset - first) as f64 * g.cell);
    let width = 2.0 * g.broker_half_w - 8.0;
    El::new("g")
        .attr("class", "log broker-log")
        .attr("aria-hidden", "true")
        .children(cells_drawn(cells, (left, g.cell), top, height, (Some(n.applied_offset), None, None)))
        .child_if(applied_x.map(|x| bar(x, top - 2.0, top + 13.0)))
        .child(
            El::new("text")
                .attr("class", "tiny")
                .attr("x", "0")
                .attr("y", top + 22.0)
                .fit(&fetched, width, SMALL_PX)
                .text(fetched)
                .title("The metadata records this broker fetched from the leader, by offset: each Fetch asks from its log end and brings back only the records after it. Faded: fetched, not yet applied to the broker's image; the bar marks the applied offset."),
        )
        .text(" ")
}

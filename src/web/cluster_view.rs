//! The cluster as an SVG drawing: controllers with role, epoch, vote, timeout arc and log strip;
//! brokers with lifecycle, offset, lag and image; links, cut links and messages in flight.
//! Roles differ by outline and text as well as colour.

use yew::prelude::*;

use crate::quorum::NodeId;
use crate::session::layout::{Geometry, Layout, Point, point_along};
use crate::session::message_kinds::{message_kind, spoken};
use crate::session::picture::{BrokenPicture, ClusterPicture, MessagePicture, NodePicture};
use crate::session::summary::summary;

use super::legend::Legend;
use super::links_view::LinksView;
use super::node_view::{NodeView, strip};
use super::timeout_arc::TimeoutArc;

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
    /// How much larger than its CSS pixels the drawing's type is: 1, or more on a stage.
    #[prop_or(1.0)]
    pub zoom: f64,
    /// How many times the window was resized: when it changes, the drawing measures its frame
    /// again.
    pub resizes: u32,
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
    // The frame's width, read once it is on screen and again after each resize, never each
    // frame (a read after the DOM changed would force a layout); regular until it is read.
    let frame = use_node_ref();
    let measured = use_mut_ref(|| (u32::MAX, 0.0));
    if measured.borrow().0 != props.resizes
        && let Some(element) = frame.cast::<web_sys::Element>()
    {
        *measured.borrow_mut() = (props.resizes, f64::from(element.client_width()));
    }
    let voters = ids(true);
    let geometry = Geometry::for_width(measured.borrow().1, props.zoom, voters.len());
    let layout =
        use_memo((voters, ids(false), geometry), |(voters, brokers, g)| Layout::with(voters, brokers, *g));
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
        <div class="svg-wrap" ref={frame}>
        <svg class={classes!("cluster", geometry.compact.then_some("compact"))} viewBox={format!("0 0 {} {}", geometry.width, layout.height)} role="group"
             aria-label={format!("The cluster: controllers on a ring at the top, brokers below, messages in flight between them. {now}")}>
            <LinksView links={picture.links.clone()} cut={picture.cut_links.clone()} layout={layout.clone()} />
            <g class="timeouts" aria-hidden="true">{ for picture.nodes.iter().map(|n| timeout(n, &layout)) }</g>
            // Messages under the nodes: a message leaving or reaching a node never covers its texts.
            <g class="messages">{ for message_keys(&picture.messages).into_iter().zip(&picture.messages).map(|(key, m)| message(key, m, &layout, props.reduced_motion)) }</g>
            <g class="nodes">{ for picture.nodes.iter().map(|n| node(n, &layout, props)) }</g>
            if !geometry.compact {
                <g class="epoch-marks" aria-hidden="true">{ for picture.nodes.iter().map(|n| epoch_marks(n, &layout)) }</g>
            }
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
            <strong>{ format!("✗ Invariant broken at {}: {}", crate::util::format::seconds(broken.at), broken.invariant) }</strong>
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

/// A controller's timeout arc around its place, keyed by id.
fn timeout(n: &NodePicture, layout: &Layout) -> Html {
    let (Some(centre), Some(timeout)) = (layout.centre(n.id), n.timeout) else { return Html::default() };
    html! { <TimeoutArc key={n.id} {centre} {timeout} radius={layout.geometry.radius} /> }
}

/// A node at its place in the layout, keyed by id; its timeout arc is drawn apart, so the node is
/// drawn again only when its state changes.
fn node(n: &NodePicture, layout: &Layout, props: &ClusterViewProps) -> Html {
    let Some(centre) = layout.centre(n.id) else { return Html::default() };
    let broken = props.picture.broken.as_ref().filter(|b| b.culprits.nodes.contains(&n.id)).cloned();
    let node = NodePicture { timeout: None, ..n.clone() };
    html! {
        <NodeView key={n.id} {node} {centre} strip_cells={layout.strip_cells} geometry={layout.geometry} selected={props.selected == Some(n.id)}
                  interactive={props.interactive} {broken} on_select={props.on_select.clone()} />
    }
}

/// The epoch's number on the first record of each epoch in a node's strip, so epochs are not
/// told by colour alone. Drawn over the node but outside its button, whose name lists the
/// epochs in words instead.
fn epoch_marks(n: &NodePicture, layout: &Layout) -> Html {
    let Some(Point { x, y }) = layout.centre(n.id) else { return Html::default() };
    let (cells, left, top, height) = strip(n, layout.strip_cells, &layout.geometry);
    html! {
        <g key={n.id} transform={format!("translate({x} {y})")}>
            { for cells.iter().enumerate().filter(|(i, c)| *i == 0 || cells[i - 1].epoch != c.epoch).map(|(i, c)| html! {
                <text class="epoch-mark" x={format!("{:.1}", left + i as f64 * layout.geometry.cell + (layout.geometry.cell - 2.0) / 2.0)} y={format!("{:.1}", top + height / 2.0 + 3.0)}>{ c.epoch }</text>
            }) }
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
    let note = m.note.as_ref().filter(|_| !layout.geometry.compact);
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
                if let Some(note) = note { <text class="message-note" x="11" y="15">{ note }</text> }
                <title>{ format!("{} = {}\n{}", kind.label, kind.meaning, m.text) }</title>
            </g>
        </g>
    }
}

//! The cluster as an SVG drawing: controllers with role, epoch, vote, timeout arc and log strip;
//! brokers with lifecycle, offset, lag and image; links, cut links and messages in flight.
//! Roles differ by outline and text as well as colour.

use yew::prelude::*;

use crate::drawing::cluster::{epoch_marks_group, epochs_present, messages, svg, timeout_arc};
use crate::drawing::layout::{COMPACT_RING, Geometry, Layout, WIDTH};
use crate::quorum::NodeId;
use crate::session::picture::{BrokenPicture, ClusterPicture, NodePicture};
use crate::session::summary::summary;

use super::frame_size::use_frame_size;
use super::legend::Legend;
use super::links_view::LinksView;
use super::node_view::NodeView;
use super::svg_html::{html, html_with};

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
    /// A regular drawing as many units wide as its frame (the live cluster); false draws it
    /// only where the frame is `WIDTH` units or wider, as the race's still draws it, and compact
    /// in any narrower frame (the race's sides).
    #[prop_or(true)]
    pub fit: bool,
}

#[function_component(ClusterView)]
pub fn cluster_view(props: &ClusterViewProps) -> Html {
    let picture = &props.picture;
    let (frame, (width, height)) = use_frame_size(props.resizes);
    let (voters, brokers) = picture.ids();
    let (zoom, fit) = (props.zoom, props.fit);
    let layout = use_memo(
        (voters, brokers, width.to_bits(), height.to_bits(), zoom.to_bits(), fit),
        |(voters, brokers, ..)| match Geometry::for_width(width, zoom, voters.len()) {
            g if fit || g.compact => Layout::for_frame(voters, brokers, width, height, zoom),
            g if g.width < WIDTH && voters.len() <= COMPACT_RING => {
                Layout::with(voters, brokers, Geometry::compact(width / zoom))
            }
            _ => Layout::with(voters, brokers, Geometry::REGULAR),
        },
    );
    let geometry = layout.geometry;
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
        <div class="svg-wrap" ref={frame} data-fitted={(width > 0.0).to_string()}>
        { html_with(&svg(&layout, &now), html! {
            <>
            <LinksView links={picture.links.clone()} cut={picture.cut_links.clone()} layout={layout.clone()} />
            <g class="timeouts" aria-hidden="true">{ for picture.nodes.iter().filter_map(|n| timeout_arc(n, &layout)).map(|arc| html(&arc)) }</g>
            <g class="messages">{ for messages(picture, &layout, props.reduced_motion).iter().map(html) }</g>
            <g class="nodes">{ for picture.nodes.iter().map(|n| node(n, &layout, props)) }</g>
            if !geometry.compact { { html(&epoch_marks_group(&picture.nodes, &layout)) } }
            </>
        }) }
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

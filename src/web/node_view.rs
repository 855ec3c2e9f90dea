//! One node of the cluster drawing (`drawing::cluster::node`), a button that selects it
//! or, in the failover race, a picture. A component of its own, so that a node whose picture did
//! not change is neither rendered nor diffed again.

use yew::prelude::*;

use super::svg_html::{children, html};
use crate::drawing::cluster::node;
use crate::drawing::layout::{Geometry, Point};
use crate::quorum::NodeId;
use crate::session::picture::{BrokenPicture, NodePicture};

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
    let drawing = node(
        &props.node,
        props.centre,
        props.strip_cells,
        &props.geometry,
        props.selected,
        props.broken.as_ref(),
    );
    if !props.interactive {
        return html(&drawing.picture());
    }
    let id = props.node.id;
    let onclick = props.on_select.reform(move |_: MouseEvent| id);
    let on_select = props.on_select.clone();
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Enter" || e.key() == " " {
            e.prevent_default();
            e.stop_propagation();
            on_select.emit(id);
        }
    });
    html! {
        <g class={drawing.class} transform={drawing.transform} tabindex="0" role="button" aria-label={drawing.name}
           aria-pressed={props.selected.to_string()} {onclick} {onkeydown}>{ children(&drawing.body) }</g>
    }
}

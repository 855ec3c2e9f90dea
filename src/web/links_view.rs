//! The links of the cluster drawing, and the marks on cut ones: a component of its own, drawn
//! again only when the links or the cuts change, not each frame as messages move.

use std::rc::Rc;

use yew::prelude::*;

use super::svg_html::html;
use crate::drawing::cluster::links;
use crate::drawing::layout::Layout;
use crate::quorum::NodeId;
use crate::session::picture::LinkPicture;

#[derive(Properties, PartialEq)]
pub struct LinksViewProps {
    pub links: Vec<LinkPicture>,
    /// Cut links, each as (lower id, higher id).
    pub cut: Vec<(NodeId, NodeId)>,
    pub layout: Rc<Layout>,
}

/// Every link; cut links dashed red with a mark on them.
#[function_component(LinksView)]
pub fn links_view(props: &LinksViewProps) -> Html {
    html(&links(&props.links, &props.cut, &props.layout))
}

//! The links of the cluster drawing, and the marks on cut ones: a component of its own, drawn
//! again only when the links or the cuts change, not each frame as messages move.

use std::rc::Rc;

use yew::prelude::*;

use crate::quorum::NodeId;
use crate::session::layout::{CUT_AT, Layout, Point, point_along};
use crate::session::picture::LinkPicture;

#[derive(Properties, PartialEq)]
pub struct LinksViewProps {
    pub links: Vec<LinkPicture>,
    /// Cut links, each as (lower id, higher id).
    pub cut: Vec<(NodeId, NodeId)>,
    pub layout: Rc<Layout>,
}

fn points(route: &[Point]) -> String {
    route.iter().map(|p| format!("{:.1},{:.1}", p.x, p.y)).collect::<Vec<_>>().join(" ")
}

/// Every link; cut links dashed red with a mark on them.
#[function_component(LinksView)]
pub fn links_view(props: &LinksViewProps) -> Html {
    let layout = &props.layout;
    let cut = |a: NodeId, b: NodeId| props.cut.contains(&(a.min(b), a.max(b)));
    // Two keyed lists, each a list of its own: `{ for }` splices its items among their
    // siblings, so links and cut marks in one list shared keys and were diffed by position.
    let polylines: Html = props
        .links
        .iter()
        .map(|&LinkPicture { a, b, observer }| {
            let class = match (cut(a, b), observer) {
                (true, _) => "link cut",
                (false, true) => "link observer",
                (false, false) => "link",
            };
            html! { <polyline key={format!("{a}-{b}")} class={class} points={points(&layout.route(a, b))} data-link={format!("{a}-{b}")} /> }
        })
        .collect();
    let marks: Html = props
        .links
        .iter()
        .filter(|l| cut(l.a, l.b))
        .map(|&LinkPicture { a, b, .. }| {
            let at = point_along(&layout.route(a.min(b), a.max(b)), CUT_AT);
            html! {
                <text key={format!("{a}-{b}")} class="cut-mark" data-link={format!("{}-{}", a.min(b), a.max(b))} x={format!("{:.1}", at.x)} y={format!("{:.1}", at.y + 5.0)}>
                    { "✂" }<title>{ format!("the link n{a}-n{b} is cut: messages on it are lost") }</title>
                </text>
            }
        })
        .collect();
    html! { <g class="links">{ polylines }{ marks }</g> }
}

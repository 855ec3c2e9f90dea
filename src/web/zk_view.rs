//! A ZooKeeper-mode cluster on the page (the race's other side, the pains): its drawing
//! (`page::zk_drawing`, shared with stills) in the geometry its frame's width asks for.

use yew::prelude::*;

use super::frame_size::use_frame_size;
use super::svg_html::html_ref;
use crate::drawing::zk::zk_drawing;
use crate::drawing::zk_layout::ZkGeometry;
use crate::zk::ZkPicture;

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

/// The drawing (`page::zk_drawing`) in the geometry its frame's width asks for.
#[function_component(ZkView)]
pub fn zk_view(props: &ZkViewProps) -> Html {
    let p = &props.picture;
    let (frame, (width, _)) = use_frame_size(props.resizes);
    let g = ZkGeometry::for_width(width, props.zoom, p.brokers.len());
    html! {
        <div class="svg-wrap">{ html_ref(&zk_drawing(p, &g, props.compact, props.reduced_motion).attr("data-fitted", width > 0.0), frame) }</div>
    }
}

//! The legend under the drawing, generated from the table of message kinds and from the epochs
//! whose records are on screen; every abbreviation carries its meaning as a hover title.

use yew::prelude::*;

use crate::drawing::cluster::epoch_colour;
use crate::session::message_kinds::MESSAGE_KINDS;

#[derive(Properties, PartialEq)]
pub struct LegendProps {
    /// The epochs of the log cells drawn.
    pub epochs: Vec<u32>,
}

#[function_component(Legend)]
pub fn legend(props: &LegendProps) -> Html {
    html! {
        <details class="legend" open=true aria-label="Legend">
            <summary class="legend-title">{ "Legend" }</summary>
            <div class="legend-body">
            <p class="how-to-read">{ "Top: the controllers, a Raft quorum on a ring (the crown marks the leader, the active controller). Below: the brokers, which fetch the metadata log by offset from the leader. The orange arc is the timeout a node is waiting out; click a node to act on it." }</p>
            <span class="legend-title">{ "Messages (filled: request, ring: response):" }</span>
            { for MESSAGE_KINDS.iter().map(|k| {
                let (fill, stroke) = if k.response { ("#fff", k.colour) } else { (k.colour, "#fff") };
                html! {
                    <span class="legend-item" title={k.meaning}>
                        <svg width="16" height="16" aria-hidden="true"><circle cx="8" cy="8" r="7.5" fill="#1d2330" /><circle cx="8" cy="8" r="5.5" fill={fill} stroke={stroke} stroke-width="2" /></svg>
                        <abbr class="legend-label" title={k.meaning}>{ k.label }</abbr>{ format!(" {}", k.kind) }
                    </span>
                }
            }) }
            <span class="legend-title">{ "Log cells, by epoch (its number on its first record):" }</span>
            // In an element of its own: `html!` splices a `{ for }` among its siblings, and Yew
            // diffs unkeyed children from the end, so a new epoch would otherwise shift every
            // item before it (each label rewritten with its neighbour's text).
            <span class="legend-epochs">{ for props.epochs.iter().map(|e| html! {
                <span class="legend-item legend-epoch"><svg width="14" height="14" aria-hidden="true"><rect x="0.5" y="0.5" width="12" height="13" fill={epoch_colour(*e)} stroke="#1d2330" stroke-width="0.75" /></svg>{ format!(" epoch {e}") }</span>
            }) }
            if props.epochs.is_empty() { <span class="legend-item">{ "no records yet" }</span> }
            </span>
            <span class="legend-item">{ "faded = not known to be committed by this node yet · " }
                <abbr title="high watermark: records below it are committed, stored on a majority of the controllers">{ "HW" }</abbr>
                { " = high watermark, the dark bar in a strip: records left of it are committed · ✂ = cut link" }
            </span>
            </div>
        </details>
    }
}

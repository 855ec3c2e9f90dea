//! How to read the failover race: what each side draws, the messages' colours and the
//! partition grid's states (a component without props, drawn once, not every frame).

use yew::prelude::*;

use crate::drawing::zk::{ZK_LEGEND, zk_message_colour};
use crate::session::message_kinds::message_kind;

/// The race's legend.
#[function_component(RaceLegend)]
pub fn race_legend() -> Html {
    let dot = |colour: &'static str| {
        html! { <svg width="14" height="14" aria-hidden="true"><circle cx="7" cy="7" r="6" fill={colour} /></svg> }
    };
    let swatch = |class: &'static str| {
        html! { <svg width="14" height="14" aria-hidden="true"><rect class={classes!("run", class)} width="14" height="14" /></svg> }
    };
    html! {
        <div class="legend race-legend" aria-label="How to read the race">
            <p class="how-to-read">{ "Left, KRaft: three controllers (a Raft quorum; the crown marks the active one) and five brokers that fetch the metadata log by offset; or, like for like, three combined nodes (each a controller and a broker, marked \"+ broker\") and two brokers. Right, ZooKeeper mode: the ensemble holds the metadata; one broker (the crown) is the controller. The grid under each side is every partition's state: one cell stands for many partitions. The stopwatches time the controllers; the lead band times the partitions." }</p>
            <div class="legend-group">
                <span class="legend-title">{ "KRaft:" }</span>
                { for ["PreVote", "Vote", "BeginQuorumEpoch", "Fetch", "FetchResponse"].iter().map(|kind| {
                    let style = message_kind(kind);
                    let (colour, label) = (style.colour, style.label);
                    html! { <span class="legend-item">{ dot(colour) }{ format!(" {label} {kind}") }</span> }
                }) }
            </div>
            <div class="legend-group">
                <span class="legend-title">{ "ZooKeeper mode:" }</span>
                { for ZK_LEGEND.iter().map(|(kind, text)| html! {
                    <span class="legend-item">{ dot(zk_message_colour(*kind)) }{ format!(" {text}") }</span>
                }) }
            </div>
            <div class="legend-group">
                <span class="legend-title">{ "Grid:" }</span>
                <span class="legend-item">{ swatch("unknown") }{ " unknown to the controller" }</span>
                <span class="legend-item">{ swatch("loaded") }{ " loaded by the controller" }</span>
                <span class="legend-item">{ swatch("pushed") }{ " fresh at every broker (bands: each broker)" }</span>
                <span class="legend-item">{ swatch("stale") }{ " stale broker cache" }</span>
                <span class="legend-item">{ swatch("served") }{ " has a live leader" }</span>
                <span class="legend-item">{ swatch("leaderless") }{ " no live leader" }</span>
            </div>
        </div>
    }
}

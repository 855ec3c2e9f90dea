//! Nodes as chips (`page::chips`): what an embed too short for a drawing shows in its place
//! (style.css chooses by the frame's height).

use yew::prelude::*;

use crate::page::chips::Chip;

/// The chips of `side`'s nodes, as a list.
pub fn chips(chips: &[Chip], side: &str) -> Html {
    html! {
        <ul class="race-chips" aria-label={format!("{side}: the nodes")}>
            { for chips.iter().map(|c| html! {
                <li class={classes!("chip", c.class)}><b>{ &c.name }</b>{ " " }{ &c.state }</li>
            }) }
        </ul>
    }
}

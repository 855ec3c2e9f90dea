//! A controller's timeout arc, the one part of a node that changes every frame as simulated time
//! passes: a component of its own, so that the node it stands around is drawn again only when
//! its state changes.

use yew::prelude::*;

use crate::session::layout::Point;

#[derive(Properties, PartialEq)]
pub struct TimeoutArcProps {
    pub centre: Point,
    /// The timeout waited out and the fraction of it left (1 = just started).
    pub timeout: (&'static str, f64),
    /// The radius of the node's circle.
    pub radius: f64,
}

/// The arc shrinks as the timeout runs out.
#[function_component(TimeoutArc)]
pub fn timeout_arc(props: &TimeoutArcProps) -> Html {
    let Point { x, y } = props.centre;
    let (name, left) = props.timeout;
    let left = left.clamp(0.0, 1.0);
    let circumference = 2.0 * std::f64::consts::PI * (props.radius + 6.0);
    let dash = circumference * left;
    html! {
        <circle class="timeout" r={(props.radius + 6.0).to_string()} stroke-dasharray={format!("{dash:.1} {circumference:.1}")}
                transform={format!("translate({x} {y}) rotate(-90)")}><title>{ format!("{name}: {:.0}% left", left * 100.0) }</title></circle>
    }
}

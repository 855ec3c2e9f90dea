//! The live invariants: every checked property, green while it holds, red with the offending
//! event once broken.

use yew::prelude::*;

use crate::invariants::names::ALL;
use crate::session::SeenViolation;

#[derive(Properties, PartialEq)]
pub struct InvariantsProps {
    pub violation: Option<SeenViolation>,
    pub events: u64,
}

#[function_component(InvariantsPanel)]
pub fn invariants_panel(props: &InvariantsProps) -> Html {
    let broken = props.violation.as_ref().map(|v| v.violation.invariant);
    html! {
        <section class="panel invariants" aria-labelledby="invariants-heading">
            <h2 id="invariants-heading">{ "Invariants" }</h2>
            <p class="hint">{ format!("checked after every one of {} events", props.events) }</p>
            <InvariantList {broken} />
            if let Some(v) = &props.violation {
                <div class="violation" role="alert">
                    <strong>{ format!("Broken at {}: {}", crate::util::format::seconds(v.at), v.violation.invariant) }</strong>
                    <p>{ &v.violation.detail }</p>
                    <p class="mono">{ format!("after: {}", v.event.trim()) }</p>
                </div>
            }
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct ListProps {
    broken: Option<&'static str>,
}

/// The list of properties, a component of its own so that it is drawn again only when one
/// breaks, not at every event counted above it.
#[function_component(InvariantList)]
fn invariant_list(props: &ListProps) -> Html {
    html! {
        <ul>
            { for ALL.iter().map(|(name, why)| {
                let ok = props.broken != Some(*name);
                html! {
                    <li class={if ok { "ok" } else { "broken" }} title={*why}>
                        <span class="mark" aria-hidden="true">{ if ok { "✓" } else { "✗" } }</span>
                        { *name }
                        <span class="visually-hidden">{ if ok { " holds" } else { " is broken" } }</span>
                    </li>
                }
            }) }
        </ul>
    }
}

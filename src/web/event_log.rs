//! The event log: one line per event, newest first, filterable by node and message kind, with
//! the limits of what a timeline keeps.

use std::rc::Rc;

use yew::prelude::*;

use crate::harness::MS;
use crate::page::{Action, LogFilter, LogView};
use crate::quorum::NodeId;
use crate::session::picture::node_label;
use crate::session::{LOG_LINES, MAX_ACTIONS, WINDOW};
use crate::util::format;

#[derive(Properties, PartialEq)]
pub struct EventLogProps {
    pub log: Rc<LogView>,
    pub nodes: Vec<NodeId>,
    pub filter: LogFilter,
    pub on: Callback<Action>,
}

/// Message kinds offered as filters.
const KINDS: [&str; 12] = [
    "PreVote",
    "Vote",
    "BeginQuorumEpoch",
    "EndQuorumEpoch",
    "Fetch",
    "FetchResponse",
    "DivergingEpoch",
    "SnapshotId",
    "FetchSnapshot",
    "FetchSnapshotResponse",
    "BrokerHeartbeat",
    "BrokerRegistration",
];

#[function_component(EventLog)]
pub fn event_log(props: &EventLogProps) -> Html {
    let filter = props.filter.clone();
    let on_node = {
        let (filter, cb) = (filter.clone(), props.on.clone());
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            cb.emit(Action::Filter(LogFilter { node: value.parse().ok(), ..filter.clone() }));
        })
    };
    let on_kind = {
        let (filter, cb) = (filter.clone(), props.on.clone());
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            cb.emit(Action::Filter(LogFilter {
                kind: (!value.is_empty()).then_some(value),
                ..filter.clone()
            }));
        })
    };
    let on_notable = {
        let (filter, cb) = (filter.clone(), props.on.clone());
        Callback::from(move |e: Event| {
            let checked = e.target_unchecked_into::<web_sys::HtmlInputElement>().checked();
            cb.emit(Action::Filter(LogFilter { notable_only: checked, ..filter.clone() }));
        })
    };
    html! {
        <section class="panel log" aria-labelledby="log-heading">
            <h2 id="log-heading">{ "Event log" }</h2>
            <p class="hint" id="log-limits">{ format!(
                "Keeps the last {} events ({} now); the timeline runs on for as long as the page is open, a scrub reaches back {} simulated minutes, and it records up to {MAX_ACTIONS} actions ({} now).",
                format::count(LOG_LINES as u64), format::count(props.log.kept as u64), WINDOW / (60_000 * MS), props.log.actions
            ) }</p>
            <div class="filters">
                <label>{ "Node " }
                    <select onchange={on_node} aria-label="Show events of node">
                        <option value="" selected={filter.node.is_none()}>{ "all" }</option>
                        { for props.nodes.iter().map(|n| html! {
                            <option value={n.to_string()} selected={filter.node == Some(*n)}>{ node_label(*n) }</option>
                        }) }
                    </select>
                </label>
                <label>{ "Message " }
                    <select onchange={on_kind} aria-label="Show messages of kind">
                        <option value="" selected={filter.kind.is_none()}>{ "all" }</option>
                        { for KINDS.iter().map(|k| html! {
                            <option value={*k} selected={filter.kind.as_deref() == Some(*k)}>{ *k }</option>
                        }) }
                    </select>
                </label>
                <label><input type="checkbox" checked={filter.notable_only} onchange={on_notable} />{ " state changes only" }</label>
            </div>
            <ol class="lines" aria-live="off" tabindex="0" aria-label="Events, newest first">
                { for props.log.lines.iter().map(|(text, notable)| html! { <li class={if *notable { "notable" } else { "" }}>{ text }</li> }) }
            </ol>
        </section>
    }
}

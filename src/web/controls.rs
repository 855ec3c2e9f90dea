//! The control panel: actions on the selected node, cluster-wide actions, the network, topics,
//! and the settings a reset starts from. Every control is a labelled form element or button.

use yew::prelude::*;

use crate::kafka_log::quorum::REPLICATION_HEAD;
use crate::page::Action as PageAction;
use crate::quorum::NodeId;
use crate::session::action::disk_faults;
use crate::session::admin_tools::AdminTools;
use crate::session::picture::{Membership, QuorumPicture};
use crate::session::{Action, Settings};
use crate::sim::simulation::QuorumFormat;

/// The latency sliders' range, in ms (a URL may set up to `Settings::MAX_LATENCY_MS`).
const SLIDER_MAX_LATENCY_MS: u64 = 500;

/// The formats the settings offer, as `kafka-storage format` names them.
const QUORUM_FORMATS: [(QuorumFormat, &str); 3] = [
    (QuorumFormat::InitialControllers, "dynamic (--initial-controllers)"),
    (QuorumFormat::Standalone, "dynamic, grown from one (--standalone)"),
    (QuorumFormat::Static, "static (controller.quorum.voters)"),
];

/// Latency min and max (ms) and drop rate (percent).
/// The network the controls show and change: `Action::Network`'s fields.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NetworkKnobs {
    pub latency_min_ms: u32,
    pub latency_max_ms: u32,
    pub drop_percent: u32,
    pub duplicate_percent: u32,
    pub reorder: bool,
}

impl NetworkKnobs {
    fn action(self) -> Action {
        let NetworkKnobs { latency_min_ms, latency_max_ms, drop_percent, duplicate_percent, reorder } = self;
        Action::Network { latency_min_ms, latency_max_ms, drop_percent, duplicate_percent, reorder }
    }
}

/// The node the controls act on.
#[derive(Clone, Debug, PartialEq)]
pub struct SelectedNode {
    pub id: NodeId,
    pub voter: bool,
    pub running: bool,
    pub membership: Option<Membership>,
    /// The partitions it holds a replica of, a line each, and how many more
    /// (`picture::broker_partitions`).
    pub partitions: (Vec<String>, usize),
}

#[derive(Properties, PartialEq)]
pub struct ControlsProps {
    pub selected: Option<SelectedNode>,
    /// The voter set, its majority and the change under way.
    pub quorum: QuorumPicture,
    pub form: Settings,
    pub network: NetworkKnobs,
    pub topic: (u32, u32),
    /// Every node, for cutting one link.
    pub nodes: Vec<NodeId>,
    pub on: Callback<PageAction>,
}

/// A labelled number field or slider (`input_type` "number" or "range") that reports valid values.
fn number_input(
    input_type: &'static str,
    label: &str,
    id: &str,
    value: u64,
    min: u64,
    max: u64,
    on: Callback<u64>,
) -> Html {
    let oninput = Callback::from(move |e: InputEvent| {
        let input = e.target_unchecked_into::<web_sys::HtmlInputElement>();
        if let Ok(v) = input.value().parse::<u64>() {
            on.emit(v.clamp(min, max));
        }
    });
    html! {
        <label for={id.to_string()}>{ label }
            <input id={id.to_string()} type={input_type} value={value.to_string()} min={min.to_string()} max={max.to_string()} {oninput} />
            if input_type == "range" { <output>{ value }</output> }
        </label>
    }
}

#[function_component(Controls)]
pub fn controls(props: &ControlsProps) -> Html {
    let on = props.on.clone();
    let act = move |action: Action| {
        let on = on.clone();
        Callback::from(move |_: MouseEvent| on.emit(PageAction::Act(action.clone())))
    };
    let form = props.form.clone();
    let edit = |f: fn(&mut Settings, u64)| {
        let (on, form) = (props.on.clone(), form.clone());
        Callback::from(move |v: u64| {
            let mut next = form.clone();
            f(&mut next, v);
            on.emit(PageAction::Edit(next));
        })
    };
    let knobs = props.network;
    let network = |f: fn(u32, NetworkKnobs) -> NetworkKnobs| {
        let on = props.on.clone();
        Callback::from(move |v: u64| on.emit(PageAction::Act(f(v as u32, knobs).action())))
    };
    let reorder = {
        let on = props.on.clone();
        Callback::from(move |e: Event| {
            let reorder = e.target_unchecked_into::<web_sys::HtmlInputElement>().checked();
            on.emit(PageAction::Act(NetworkKnobs { reorder, ..knobs }.action()));
        })
    };
    let (partitions, replication) = props.topic;
    let topic = |f: fn(u32, (u32, u32)) -> (u32, u32)| {
        let on = props.on.clone();
        Callback::from(move |v: u64| {
            let (partitions, replication) = f(v as u32, (partitions, replication));
            on.emit(PageAction::Topic { partitions, replication });
        })
    };
    let check = |f: fn(&mut Settings, bool)| {
        let (on, form) = (props.on.clone(), form.clone());
        Callback::from(move |e: Event| {
            let mut next = form.clone();
            f(&mut next, e.target_unchecked_into::<web_sys::HtmlInputElement>().checked());
            on.emit(PageAction::Edit(next));
        })
    };
    let quorum_format = {
        let (on, form) = (props.on.clone(), form.clone());
        Callback::from(move |e: Event| {
            let name = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            if let Some(quorum) = QuorumFormat::from_name(&name) {
                on.emit(PageAction::Edit(Settings { quorum, ..form.clone() }));
            }
        })
    };
    let reset = props.on.reform(|_: MouseEvent| PageAction::Reset);
    let peer = use_state(|| None::<NodeId>);
    html! {
        <section class="panel controls" aria-labelledby="controls-heading">
            <h2 id="controls-heading">{ "Controls" }</h2>
            <div class="group" role="group" aria-label="Selected node">
                { selected_node(props.selected.as_ref(), &props.quorum, &act) }
                if let Some(node) = &props.selected {
                    { cut_link(node.id, &props.nodes, *peer, peer.setter(), &act) }
                }
            </div>
            <div class="group" role="group" aria-label="Cluster">
                <button onclick={act(Action::KillLeader)} title="K">{ "Kill active controller" }</button>
                <button onclick={act(Action::Resign)} title="G">{ "Leader resigns" }</button>
                <button onclick={act(Action::Heal)} title="H">{ "Heal all links" }</button>
            </div>
            <div class="group quorum" role="group" aria-labelledby="quorum-heading">
                <h3 id="quorum-heading">{ "Quorum" }</h3>
                <p id="quorum-line" class="quorum-line">{ props.quorum.describe() }</p>
                <p id="controller-line" class="quorum-line">{ props.quorum.tools.controller_text() }</p>
                { replication_table(&props.quorum.tools) }
                <button onclick={act(Action::NewController)} title="Start a controller formatted with --no-initial-controllers: it joins as an observer">{ "New controller" }</button>
                <button onclick={act(Action::RemoveLeader)} title="RemoveRaftVoter of the active controller: it leads until the change commits, then resigns">{ "Remove the leader from the voters" }</button>
                if !props.quorum.dynamic {
                    <button onclick={act(Action::UpgradeKRaftVersion)} title="kafka-features upgrade --feature kraft.version=1: the leader writes the first VotersRecord once every voter has sent it UpdateRaftVoter">{ "Upgrade kraft.version to 1" }</button>
                }
            </div>
            <div class="group" role="group" aria-label="Create a topic">
                { number_input("number", "Partitions", "topic-partitions", partitions.into(), 1, 10_000, topic(|v, (_, r)| (v, r))) }
                { number_input("number", "Replicas", "topic-replicas", replication.into(), 1, 4, topic(|v, (p, _)| (p, v))) }
                <button onclick={act(Action::CreateTopic { partitions, replication })}>{ "Create topic" }</button>
            </div>
            <div class="group" role="group" aria-label="Network">
                { number_input("range", "Latency min (ms)", "latency-min", knobs.latency_min_ms.into(), 0, SLIDER_MAX_LATENCY_MS, network(|v, k| NetworkKnobs { latency_min_ms: v.min(k.latency_max_ms), ..k })) }
                { number_input("range", "Latency max (ms)", "latency-max", knobs.latency_max_ms.into(), 0, SLIDER_MAX_LATENCY_MS, network(|v, k| NetworkKnobs { latency_min_ms: k.latency_min_ms.min(v), latency_max_ms: v, ..k })) }
                { number_input("range", "Drop rate (%)", "drop-rate", knobs.drop_percent.into(), 0, 100, network(|v, k| NetworkKnobs { drop_percent: v, ..k })) }
                { number_input("range", "Duplicate rate (%)", "duplicate-rate", knobs.duplicate_percent.into(), 0, 100, network(|v, k| NetworkKnobs { duplicate_percent: v, ..k })) }
                <label class="check" title="TCP keeps a connection's order; with this on, a message may arrive before one sent earlier on its link"><input type="checkbox" id="reorder" checked={knobs.reorder} onchange={reorder} />{ " messages may overtake each other" }</label>
            </div>
            <details class="group settings">
                <summary>{ "Cluster settings (apply with Reset)" }</summary>
                { number_input("number", "Seed", "seed", form.seed, 0, u64::MAX, edit(|s, v| s.seed = v)) }
                { number_input("number", "Controllers", "voters", form.voters.into(), 1, Settings::MAX_VOTERS.into(), edit(|s, v| s.voters = v as u32)) }
                { number_input("number", "Brokers", "brokers", form.brokers.into(), 0, Settings::MAX_BROKERS.into(), edit(|s, v| s.brokers = v as u32)) }
                <label><input type="checkbox" checked={form.pre_vote} onchange={check(|s, v| s.pre_vote = v)} />{ " pre-vote (KIP-996)" }</label>
                <label><input type="checkbox" checked={form.combined} onchange={check(|s, v| s.combined = v)} />{ " combined nodes (process.roles=broker,controller)" }</label>
                <label for="quorum-format">{ "Quorum format" }
                    <select id="quorum-format" onchange={quorum_format}>
                        { for QUORUM_FORMATS.iter().map(|(format, text)| html! { <option value={format.name()} selected={form.quorum == *format}>{ *text }</option> }) }
                    </select>
                </label>
            </details>
            <button class="reset" onclick={reset} title="R">{ "Reset" }</button>
        </section>
    }
}

/// `kafka-metadata-quorum describe --replication` as the active controller would answer it now,
/// headed by the command, under a summary that opens it.
fn replication_table(tools: &AdminTools) -> Html {
    let body = match &tools.described {
        None => {
            html! { <p class="hint">{ "No active controller now: the command waits for one (DescribeQuorum is answered by the leader)." }</p> }
        }
        Some(described) => html! {
            <>
                <div class="describe-scroll" tabindex="0" role="region" aria-label="The replication table">
                    <table class="describe-table mono">
                        <thead><tr>{ for REPLICATION_HEAD.iter().map(|h| html! { <th scope="col">{ *h }</th> }) }</tr></thead>
                        <tbody>
                            { for described.replicas.iter().map(|row| html! {
                                <tr data-node={row.node_id.to_string()}>{ for row.cells().into_iter().map(|cell| html! { <td>{ cell }</td> }) }</tr>
                            }) }
                        </tbody>
                    </table>
                </div>
                <p class="hint">{ "Timestamps: simulated ms since the run began (Kafka's are since 1970). -1: the leader has not heard from that replica in its epoch." }</p>
            </>
        },
    };
    html! {
        <details id="describe-quorum" class="describe-quorum">
            <summary><code>{ "$ kafka-metadata-quorum describe --replication" }</code></summary>
            { body }
        </details>
    }
}

fn selected_node(
    selected: Option<&SelectedNode>,
    quorum: &QuorumPicture,
    act: &impl Fn(Action) -> Callback<MouseEvent>,
) -> Html {
    let Some(node) = selected else {
        return html! { <p class="hint">{ "Click a node (or focus it and press Enter) to crash, restart or isolate it." }</p> };
    };
    let name = format!("n{}", node.id);
    let (joins, leaves) = quorum.names_for_change(node.id);
    let (crash_or_restart, crash_label) = match node.running {
        true => (Action::Crash(node.id), format!("Crash {name}")),
        false => (Action::Restart(node.id), format!("Restart {name}")),
    };
    html! {
        <>
            <p class="selected-name">{ format!("Selected: {name} ({})", if node.voter { "controller" } else { "broker" }) }</p>
            if !node.partitions.0.is_empty() {
                <ul class="replica-list" aria-label={format!("Partitions with a replica on {name}")}>
                    { for node.partitions.0.iter().map(|line| html! { <li>{ line }</li> }) }
                    if node.partitions.1 > 0 { <li>{ format!("and {} more", node.partitions.1) }</li> }
                </ul>
            }
            // One button that turns from Crash to Restart in place, so the keyboard stays on it.
            <button onclick={act(crash_or_restart)}>{ crash_label }</button>
            if node.running {
                <button onclick={act(Action::PowerLoss(node.id))}>{ format!("Cut {name}'s power") }</button>
                <button onclick={act(Action::TornWrite(node.id))}>{ format!("Tear {name}'s next write") }</button>
                <p class="hint faults">{ disk_faults(&name, node.voter) }</p>
            }
            <button onclick={act(Action::Isolate(node.id))} title="I">{ format!("Isolate {name}") }</button>
            if !node.voter && node.running {
                <button onclick={act(Action::ShutDown(node.id))}>{ format!("Shut down {name}") }</button>
            }
            if let Some(member) = node.membership {
                if matches!(member, Membership::Observer | Membership::WipedVoter) {
                    <button onclick={act(Action::AddVoter(node.id))} title="kafka-metadata-quorum add-controller: AddRaftVoter">{ format!("Add {joins} to the voters") }</button>
                }
                if matches!(member, Membership::Voter | Membership::Joining | Membership::WipedVoter) {
                    <button onclick={act(Action::RemoveVoter(node.id))} title="kafka-metadata-quorum remove-controller: RemoveRaftVoter">{ format!("Remove {leaves} from the voters") }</button>
                }
                <button onclick={act(Action::WipeDisk(node.id))} title="Its disk dies: formatted again with a new directory id, it restarts as an observer">{ format!("Wipe {name}'s disk") }</button>
            }
        </>
    }
}

/// Cut the link between the selected node and one other node, both ways.
fn cut_link(
    node: NodeId,
    nodes: &[NodeId],
    peer: Option<NodeId>,
    set_peer: UseStateSetter<Option<NodeId>>,
    act: &impl Fn(Action) -> Callback<MouseEvent>,
) -> Html {
    let others: Vec<NodeId> = nodes.iter().copied().filter(|n| *n != node).collect();
    let chosen = peer.filter(|p| others.contains(p)).or(others.first().copied());
    let onchange = Callback::from(move |e: Event| {
        set_peer.set(e.target_unchecked_into::<web_sys::HtmlSelectElement>().value().parse().ok());
    });
    html! {
        <>
            <label for="cut-peer">{ "Link to" }
                <select id="cut-peer" {onchange}>
                    { for others.iter().map(|n| html! { <option value={n.to_string()} selected={chosen == Some(*n)}>{ format!("n{n}") }</option> }) }
                </select>
            </label>
            if let Some(other) = chosen {
                <button onclick={act(Action::Cut(node, other))}>{ format!("Cut n{node} <-> n{other}") }</button>
            }
        </>
    }
}

//! ZooKeeper mode's other pains, played beside what KRaft does: a small ZooKeeper-mode cluster
//! drawn as in the race, the latest events, the three copies of the truth compared with
//! ZooKeeper cell by cell, each broker's two notions of liveness, and KRaft's answer. The state
//! and its play live in the page reducer (`crate::page::pains`); this draws its view and sends
//! the buttons' actions.

use yew::prelude::*;

use super::chips::chips;
use super::zk_view::ZkView;
use crate::page::chips::zk_chips;
use crate::page::{Action, PainsAction, PainsView};
use crate::util::format;
use crate::zk::pains::Pain;
use crate::zk::{BrokerLiveness, CopyRow, PartitionState};

#[derive(Properties, PartialEq)]
pub struct PainsProps {
    pub view: PainsView,
    pub reduced_motion: bool,
    pub on: Callback<Action>,
    /// How much larger the drawing's type is (presenter mode).
    pub zoom: f64,
    /// How many times the window was resized, for the drawing to measure its frame again.
    pub resizes: u32,
}

/// Which pain, and playback.
fn controls(view: &PainsView, on: &Callback<Action>) -> Html {
    let pick = |pain: Pain| {
        let on = on.clone();
        html! {
            <button class={classes!((pain != view.pain).then_some("secondary"))} aria-pressed={(pain == view.pain).to_string()}
                    onclick={move |_| on.emit(Action::Pain(pain))}>{ pain.title() }</button>
        }
    };
    let send = |action: PainsAction| {
        let on = on.clone();
        Callback::from(move |_: MouseEvent| on.emit(Action::Pains(action)))
    };
    html! {
        <section class="panel race-controls pains-controls" aria-label="Which pain, and playback">
            <div class="race-buttons">
                { for Pain::ALL.into_iter().map(pick) }
            </div>
            <div class="race-buttons">
                <button id="pain-play" disabled={view.finished} onclick={send(PainsAction::TogglePlay)} title="Space">
                    { if view.playing { "Pause" } else { "Play" } }
                </button>
                <button onclick={send(PainsAction::Step)} disabled={view.finished} title="S">{ "Step" }</button>
                <button id="pain-replay" onclick={send(PainsAction::Replay)} title="R">{ "Replay" }</button>
                <output id="pain-clock">{ format!("{} (simulated)", format::seconds(view.now)) }</output>
                if let Some(pace) = &view.pace { <span class="pace">{ pace }</span> }
            </div>
        </section>
    }
}

/// A partition's leader as a cell shows it.
fn leader_text(state: &Option<PartitionState>) -> String {
    match state {
        Some(s) if s.leader >= 0 => format!("b{}", s.leader),
        Some(_) => "none".into(),
        None => "–".into(),
    }
}

/// What a cell that disagrees with ZooKeeper says: the leader it names if that differs, else
/// that its in-sync replicas do.
fn stale_text(state: &Option<PartitionState>, zookeeper: &Option<PartitionState>) -> String {
    match (state, zookeeper) {
        (Some(s), Some(z)) if s.leader == z.leader => "≠isr".into(),
        _ => format!("≠{}", leader_text(state)),
    }
}

/// The copies of the truth, partition by partition; a cell that disagrees with ZooKeeper is
/// marked (outlined, and "≠" before it) with the full state in its title.
fn copies_table(rows: &[CopyRow]) -> Html {
    let zookeeper = rows.first().map_or(&[][..], |r| &r.states[..]);
    let partitions = rows.first().map_or(0, |r| r.states.len());
    let stale_count: usize = rows.iter().map(|r| r.stale.iter().filter(|s| **s).count()).sum();
    html! {
        <table class="copies" data-stale-cells={stale_count.to_string()}>
            <caption>{ "Each partition's leader in each copy of the truth (≠b1: names another leader than ZooKeeper; ≠isr: same leader, other in-sync replicas)" }</caption>
            <thead><tr><th scope="col">{ "copy" }</th>{ for (0..partitions).map(|p| html! { <th scope="col">{ format!("p{p}") }</th> }) }</tr></thead>
            <tbody>
                { for rows.iter().map(|row| html! {
                    <tr class={classes!(row.stale.contains(&true).then_some("stale-row"))}>
                        <th scope="row">{ &row.holder }</th>
                        { for row.states.iter().zip(&row.stale).zip(zookeeper).map(|((state, stale), zookeeper)| {
                            let title = state.map_or("no copy".to_string(), |s| s.to_string());
                            html! {
                                <td class={classes!(stale.then_some("stale"))} title={title}>
                                    { if *stale { stale_text(state, zookeeper) } else { leader_text(state) } }
                                </td>
                            }
                        }) }
                    </tr>
                }) }
            </tbody>
        </table>
    }
}

/// Each broker alive or not in four senses; a broker the senses disagree about is marked.
fn liveness_table(liveness: &[BrokerLiveness]) -> Html {
    let yes = |b: bool| if b { "yes" } else { "no" };
    html! {
        <table class="liveness">
            <caption>{ "Is each broker alive? It depends whom you ask" }</caption>
            <thead><tr><th scope="col">{ "broker" }</th><th scope="col">{ "process" }</th><th scope="col">{ "ZooKeeper session" }</th>
                <th scope="col">{ "controller's live set" }</th><th scope="col">{ "reachable from the controller" }</th></tr></thead>
            <tbody>
                { for liveness.iter().map(|l| {
                    let split = l.in_controller_live_set && !l.reachable_from_controller;
                    html! {
                        <tr class={classes!(split.then_some("split"))}>
                            <th scope="row">{ format!("b{}{}", l.broker, if split { " (split)" } else { "" }) }</th>
                            <td>{ yes(l.process_alive) }</td><td>{ yes(l.registered_in_zookeeper) }</td>
                            <td>{ yes(l.in_controller_live_set) }</td>
                            <td>{ if l.process_alive { yes(l.reachable_from_controller) } else { "–" } }</td>
                        </tr>
                    }
                }) }
            </tbody>
        </table>
    }
}

#[function_component(PainsTab)]
pub fn pains_tab(props: &PainsProps) -> Html {
    let view = &props.view;
    let pain = view.pain;
    let step = pain.kraft_step();
    let on = props.on.clone();
    html! {
        <main class="pains-tab" data-pain={pain.id()}>
            { controls(view, &props.on) }
            <div class="race">
                <section class="panel side-zk" aria-label="ZooKeeper mode">
                    <div class="side-head"><h2>{ "ZooKeeper mode" }</h2><p class="side-state">{ pain.title() }</p></div>
                    <p class="visually-hidden" role="status" id="pain-phase">
                        { if view.seen { "The dead broker's session expired; the watches fired." } else { "A broker has died; its session is still alive." } }
                    </p>
                    { chips(&zk_chips(&view.picture), "ZooKeeper mode") }
                    <ZkView picture={view.picture.clone()} compact={false} reduced_motion={props.reduced_motion} zoom={props.zoom} resizes={props.resizes} />
                    <ol class="pain-events" aria-label="Latest events">
                        { for view.events.iter().map(|event| html! { <li>{ event }</li> }) }
                    </ol>
                    <div class="table-scroll" role="region" aria-label="Copies of the truth" tabindex="0">{ copies_table(&view.copies) }</div>
                    <div class="table-scroll" role="region" aria-label="Liveness" tabindex="0">{ liveness_table(&view.liveness) }</div>
                </section>
                <section class="panel side-kraft" aria-label="KRaft in the same situation">
                    <div class="side-head"><h2>{ "KRaft, in the same situation" }</h2></div>
                    <p class="kraft-answer">{ pain.kraft_answer() }</p>
                    <button class="secondary" onclick={move |_| on.emit(Action::Tour(Some(step - 1)))}>{ format!("See it live: tour step {step}") }</button>
                </section>
            </div>
        </main>
    }
}

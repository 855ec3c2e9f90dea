//! ZooKeeper mode's other pains, played beside what KRaft does: a small ZooKeeper-mode cluster
//! drawn as in the race, the latest events, the three copies of the truth compared with
//! ZooKeeper cell by cell, each broker's two notions of liveness, and KRaft's answer. The state
//! and its play live in the page reducer (`crate::page::pains`); this draws its view and sends
//! the buttons' actions.

use yew::prelude::*;

use super::chips::chips;
use super::still_form::StillFormView;
use super::zk_view::ZkView;
use crate::drawing::pains::{
    AUTHORIZER_CAPTION, AUTHORIZER_HEADS, COPIES_CAPTION, KRAFT_TRACE_HEAD, LIVENESS_CAPTION, LIVENESS_HEADS,
    SURFACE_CAPTION,
};
use crate::page::chips::zk_chips;
use crate::page::{Action, PainsAction, PainsView, StillAction, StillForm};
use crate::teaching::security_surface::SURFACE;
use crate::util::format;
use crate::zk::pains::Pain;

#[derive(Properties, PartialEq)]
pub struct PainsProps {
    pub view: PainsView,
    pub reduced_motion: bool,
    pub on: Callback<Action>,
    /// How much larger the drawing's type is (presenter mode).
    pub zoom: f64,
    /// How many times the window was resized, for the drawing to measure its frame again.
    pub resizes: u32,
    /// Offer "Save picture" (not in an embed, whose frame it would outgrow: E still opens it).
    pub stills: bool,
    /// The "Save picture" form, while it is open.
    pub still: Option<StillForm>,
}

/// Which pain, and playback (and "Save picture" where `stills`).
fn controls(view: &PainsView, stills: bool, on: &Callback<Action>) -> Html {
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
                if stills {
                    <button id="still" class="secondary" title="E" onclick={on.reform(|_: MouseEvent| Action::Still(StillAction::Open))}>{ "Save picture" }</button>
                }
                <output id="pain-clock">{ format!("{} (simulated)", format::seconds(view.now)) }</output>
                if let Some(pace) = &view.pace { <span class="pace">{ pace }</span> }
            </div>
        </section>
    }
}

/// The copies of the truth, partition by partition; a cell that disagrees with ZooKeeper is
/// marked (outlined, and "≠" before it) with the full state in its title.
fn copies_table(view: &PainsView) -> Html {
    let partitions = view.copies.first().map_or(0, |r| r.states.len());
    let rows = view.copy_cells();
    let stale_count: usize =
        rows.iter().map(|(_, cells)| cells.iter().filter(|(_, stale)| *stale).count()).sum();
    html! {
        <table class="copies" data-stale-cells={stale_count.to_string()}>
            <caption>{ COPIES_CAPTION }</caption>
            <thead><tr><th scope="col">{ "copy" }</th>{ for (0..partitions).map(|p| html! { <th scope="col">{ format!("p{p}") }</th> }) }</tr></thead>
            <tbody>
                { for rows.into_iter().zip(&view.copies).map(|((holder, cells), row)| html! {
                    <tr class={classes!(cells.iter().any(|(_, stale)| *stale).then_some("stale-row"))}>
                        <th scope="row">{ holder }</th>
                        { for cells.into_iter().zip(&row.states).map(|((text, stale), state)| {
                            let title = state.map_or("no copy".to_string(), |s| s.to_string());
                            html! { <td class={classes!(stale.then_some("stale"))} title={title}>{ text }</td> }
                        }) }
                    </tr>
                }) }
            </tbody>
        </table>
    }
}

/// Each broker alive or not in four senses; a broker the senses disagree about is marked.
fn liveness_table(view: &PainsView) -> Html {
    html! {
        <table class="liveness">
            <caption>{ LIVENESS_CAPTION }</caption>
            <thead><tr>{ for LIVENESS_HEADS.iter().map(|head| html! { <th scope="col">{ head }</th> }) }</tr></thead>
            <tbody>
                { for view.liveness_cells().into_iter().map(|(name, split, answers)| html! {
                    <tr class={classes!(split.then_some("split"))}>
                        <th scope="row">{ name }</th>
                        { for answers.iter().map(|answer| html! { <td>{ answer }</td> }) }
                    </tr>
                }) }
            </tbody>
        </table>
    }
}

/// Each broker's authorizer asked the second door's question; an answer the rogue ACL allowed
/// is marked.
fn authorizer_table(view: &PainsView) -> Html {
    html! {
        <table class="authorizer" data-allowed={view.authorizer.iter().filter(|r| r.allowed()).count().to_string()}>
            <caption>{ AUTHORIZER_CAPTION }</caption>
            <thead><tr>{ for AUTHORIZER_HEADS.iter().map(|head| html! { <th scope="col">{ head }</th> }) }</tr></thead>
            <tbody>
                { for view.authorizer.iter().map(|row| html! {
                    <tr class={classes!(row.allowed().then_some("split"))}>
                        <th scope="row">{ format!("b{}", row.broker) }</th>
                        <td>{ &row.acl }</td>
                        <td>{ row.answer() }</td>
                    </tr>
                }) }
            </tbody>
        </table>
    }
}

/// ZooKeeper mode's security surface beside KRaft's, each side with its source.
fn surface_table() -> Html {
    html! {
        <table class="surface">
            <caption>{ SURFACE_CAPTION }</caption>
            <thead><tr><th scope="col">{ "aspect" }</th><th scope="col">{ "ZooKeeper mode" }</th><th scope="col">{ "KRaft" }</th></tr></thead>
            <tbody>
                { for SURFACE.iter().map(|row| html! {
                    <tr>
                        <th scope="row">{ row.aspect }</th>
                        <td>{ row.zookeeper_mode }<span class="source">{ format!(" Source: {}.", row.zookeeper_source) }</span></td>
                        <td>{ row.kraft }<span class="source">{ format!(" Source: {}.", row.kraft_source) }</span></td>
                    </tr>
                }) }
            </tbody>
        </table>
    }
}

#[function_component(PainsTab)]
pub fn pains_tab(props: &PainsProps) -> Html {
    let view = &props.view;
    let pain = view.pain;
    let step = crate::teaching::pain_predictions::kraft_step(pain);
    let on = props.on.clone();
    html! {
        <main class="pains-tab" data-pain={pain.id()}>
            { controls(view, props.stills, &props.on) }
            if let Some(form) = &props.still { <StillFormView form={form.clone()} of="pain" on={props.on.clone()} /> }
            <div class="race">
                <section class="panel side-zk" aria-label="ZooKeeper mode">
                    <div class="side-head"><h2>{ "ZooKeeper mode" }</h2><p class="side-state">{ pain.title() }</p></div>
                    <p class="visually-hidden" role="status" id="pain-phase">
                        { pain.phase(view.seen) }
                    </p>
                    { chips(&zk_chips(&view.picture), "ZooKeeper mode") }
                    <ZkView picture={view.picture.clone()} compact={false} reduced_motion={props.reduced_motion} zoom={props.zoom} resizes={props.resizes} />
                    <ol class="pain-events" aria-label="Latest events">
                        { for view.events.iter().map(|event| html! { <li>{ event }</li> }) }
                    </ol>
                    if pain == Pain::Security {
                        <div class="table-scroll" role="region" aria-label="Each broker's authorizer" tabindex="0">{ authorizer_table(view) }</div>
                    } else {
                        <div class="table-scroll" role="region" aria-label="Copies of the truth" tabindex="0">{ copies_table(view) }</div>
                        <div class="table-scroll" role="region" aria-label="Liveness" tabindex="0">{ liveness_table(view) }</div>
                    }
                </section>
                <section class="panel side-kraft" aria-label="KRaft in the same situation">
                    <div class="side-head"><h2>{ "KRaft, in the same situation" }</h2></div>
                    <p class="kraft-answer">{ pain.kraft_answer() }</p>
                    if !view.kraft_trace.is_empty() {
                        <p class="kraft-trace-head">{ KRAFT_TRACE_HEAD }</p>
                        <ol class="pain-events kraft-trace" aria-label="KRaft's requests and answers">
                            { for view.kraft_trace.iter().map(|line| html! { <li>{ line }</li> }) }
                        </ol>
                    }
                    if let Some(step) = step {
                        <button class="secondary" onclick={move |_| on.emit(Action::Tour(Some(step - 1)))}>{ format!("See it live: tour step {step}") }</button>
                    }
                </section>
            </div>
            if pain == Pain::Security {
                <section class="panel surface-panel" aria-label="Security surface">
                    <div class="table-scroll" role="region" aria-label="Security surface table" tabindex="0">{ surface_table() }</div>
                </section>
            }
        </main>
    }
}

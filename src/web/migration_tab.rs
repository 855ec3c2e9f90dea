//! The migration from ZooKeeper mode to KRaft as drawn: which scenario, playback and a scrubber
//! over the whole run, the cluster in transition (`crate::drawing::migration`), where the
//! migration stands in words, the operator's steps in Kafka's order and the faults as buttons,
//! and the latest events. The state and its play live in the page reducer
//! (`crate::page::migration`); this draws its view and sends the controls' actions.

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::chips::chips;
use super::still_form::StillFormView;
use super::svg_html;
use crate::drawing::migration::migration_drawing;
use crate::harness::MS;
use crate::migration::scenarios::SCENARIOS;
use crate::page::migration::{ButtonGroup, MigrationAction, MigrationView};
use crate::page::{Action, StillAction, StillForm};
use crate::util::format;

#[derive(Properties, PartialEq)]
pub struct MigrationProps {
    pub view: MigrationView,
    pub on: Callback<Action>,
    /// Offer "Save picture" (not in an embed: E still opens it).
    pub stills: bool,
    /// The "Save picture" form, while it is open.
    pub still: Option<StillForm>,
    /// The link to the moment last shared.
    pub share: Option<String>,
}

/// Which scenario, playback, the clock and the scrubber.
fn controls(view: &MigrationView, stills: bool, share: Option<&String>, on: &Callback<Action>) -> Html {
    let send = |action: MigrationAction| on.reform(move |_: MouseEvent| Action::Migrating(action));
    let pick = on.reform(|e: Event| {
        let select: HtmlSelectElement = e.target_unchecked_into();
        let id = SCENARIOS.iter().find(|s| s.id == select.value()).map_or(SCENARIOS[0].id, |s| s.id);
        Action::Migration(id)
    });
    let seek = on.reform(|e: InputEvent| {
        let input: HtmlInputElement = e.target_unchecked_into();
        let ms = input.value().parse::<f64>().unwrap_or(0.0).max(0.0);
        Action::Migrating(MigrationAction::Seek((ms * MS as f64) as u64))
    });
    let ended = !view.playing && view.now >= view.end;
    let scenario = view.scenario;
    html! {
        <section class="panel race-controls mig-controls" aria-label="Which migration, and playback">
            <label>{ "Scenario " }
                <select id="mig-scenario" onchange={pick}>
                    { for SCENARIOS.iter().map(|s| html! { <option value={s.id} selected={s.id == view.scenario}>{ s.id }</option> }) }
                </select>
            </label>
            <p class="mig-about">{ view.about }</p>
            <div class="race-buttons">
                <button id="mig-play" onclick={send(MigrationAction::TogglePlay)} disabled={ended} title="Space">
                    { if view.playing { "Pause" } else { "Play" } }
                </button>
                <button onclick={send(MigrationAction::Step)} title="S">{ "Step" }</button>
                <button class="secondary" onclick={on.reform(move |_: MouseEvent| Action::Migration(scenario))} title="R">{ "Replay" }</button>
                <button id="share" class="secondary" onclick={on.reform(|_: MouseEvent| Action::Share)}>{ "Share" }</button>
                if stills {
                    <button id="still" class="secondary" title="E" onclick={on.reform(|_: MouseEvent| Action::Still(StillAction::Open))}>{ "Save picture" }</button>
                }
                <output id="mig-clock">{ format!("{} (simulated)", format::seconds(view.now)) }</output>
                if let Some(pace) = &view.pace { <span class="pace">{ pace }</span> }
            </div>
            <label class="mig-scrub">{ "Moment " }
                <input id="mig-scrub" type="range" min="0" max={(view.end / MS).to_string()} step="1"
                       value={(view.now / MS).to_string()} oninput={seek}
                       aria-valuetext={format::seconds(view.now)} title=", and . go back and forward a second" />
            </label>
            if let Some(url) = share {
                <label class="share-url">{ "Link to this moment " }<input id="share-url" type="text" readonly=true value={url.clone()} /></label>
            }
        </section>
    }
}

/// A group of the operator's steps (or the faults): its title and buttons; a button Kafka would
/// refuse now says why in its title, and pressing it says so in the view.
fn group(group: &ButtonGroup, on: &Callback<Action>) -> Html {
    html! {
        <div class="mig-group" role="group" aria-label={group.title}>
            <span class="mig-group-title">{ group.title }</span>
            <span class="mig-buttons">{ for group.buttons.iter().map(|button| {
                let action = button.action;
                let title = match &button.refused {
                    Some(why) => format!("{}: refused now, {why}", button.label),
                    None => button.label.clone(),
                };
                html! {
                    <button class={classes!("secondary", button.refused.is_some().then_some("refused"))}
                            aria-label={button.label.clone()} title={title}
                            onclick={on.reform(move |_: MouseEvent| Action::Migrating(MigrationAction::Operator(action)))}>
                        { &button.short }
                    </button>
                }
            }) }</span>
            if !group.note.is_empty() {
                <span class="mig-group-note">{ group.note }</span>
            }
        </div>
    }
}

#[function_component(MigrationTab)]
pub fn migration_tab(props: &MigrationProps) -> Html {
    let view = &props.view;
    let on = &props.on;
    html! {
        <main class="migration-tab" data-scenario={view.scenario} data-fingerprint={view.fingerprint.clone()}
              data-driver={view.picture.state_word()}>
            { controls(view, props.stills, props.share.as_ref(), on) }
            if let Some(form) = &props.still { <StillFormView form={form.clone()} of="migration" on={on.clone()} /> }
            <div class="mig-main">
                <figure class="panel mig-figure">
                    { chips(&view.chips, "The migration") }
                    { svg_html::html(&migration_drawing(&view.picture)) }
                </figure>
                <section class="panel mig-standing" aria-label="Where the migration stands">
                    <ul id="mig-standing">{ for view.standing.iter().map(|line| html! { <li>{ line }</li> }) }</ul>
                    <h2>{ "Latest events" }</h2>
                    <ol class="mig-events">{ for view.events.iter().map(|event| html! { <li>{ event }</li> }) }</ol>
                </section>
            </div>
            <section class="panel mig-operator" aria-label="The operator's steps and faults">
                <h2>{ "The operator's steps, in Kafka's order" }</h2>
                { for view.steps.iter().map(|g| group(g, on)) }
                { group(&view.faults, on) }
                <p id="mig-refusal" role="alert">{ view.refusal.clone().unwrap_or_default() }</p>
            </section>
        </main>
    }
}

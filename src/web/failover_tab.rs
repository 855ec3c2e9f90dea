//! The failover race laid out: both sides, their controls and the measured curve. What it does
//! and says is computed natively ([`crate::page::race::RaceScreen`]); this draws that and turns
//! the controls into actions.

use yew::prelude::*;

use super::chart::measured_panel;
use super::chips::chips;
use super::cluster_view::ClusterView;
use super::partition_grid::PartitionGridView;
use super::race_legend::RaceLegend;
use super::still_form::StillFormView;
use super::zk_view::ZkView;
use crate::experiments::failover::KraftRoles;
use crate::harness::MS;
use crate::page::params::Controls as ControlLevel;
use crate::page::race::screen::{KraftSide, RaceControls, ZkSide};
use crate::page::race::size::{MAX_EXP, MIN_EXP};
use crate::page::race::{Playback, RaceFrame, RaceView};
use crate::page::{Action, RaceAction, StillAction, StillForm};
use crate::util::{float, format};

/// How the race is laid out: where (embedded: no chart, no legend, a one-line caption and a compact
/// stacked layout), which controls show, and whether motion is reduced.
#[derive(Clone, Copy)]
pub struct Layout {
    pub frame: RaceFrame,
    pub controls: ControlLevel,
    pub reduced_motion: bool,
    /// How many times the window was resized, for the drawings to measure their frames again.
    pub resizes: u32,
    /// How much larger the drawings' type is (presenter mode).
    pub zoom: f64,
}

impl Layout {
    /// Embedded: the compact stacked layout.
    fn embedded(&self) -> bool {
        self.frame == RaceFrame::Embed
    }
}

/// The failover view of `view`, with the "Save picture" form when `still` is open; its controls
/// send `on` the race's actions.
pub fn failover_tab(
    view: &RaceView,
    layout: Layout,
    still: Option<&StillForm>,
    on: &Callback<Action>,
) -> Html {
    let screen = view.screen(layout.frame);
    let compact = layout.embedded();
    let full = layout.controls == ControlLevel::Full && !compact;
    html! {
        <main class={classes!("failover-tab", compact.then_some("compact"))}>
            if compact { <p class="race-caption">{ &screen.caption }</p> }
            if layout.controls != ControlLevel::None { { controls(&screen.controls, &screen.stage, full, on) } }
            if let Some(form) = still { <StillFormView form={form.clone()} of="race" on={on.clone()} /> }
            if let Some(headline) = &screen.headline { <p id="race-headline" class="race-headline">{ headline }</p> }
            <div class="race">
                if let Some(why) = &screen.why { <p id="race-why" class="race-why">{ why }</p> }
                if let Some(side) = screen.kraft { { kraft_side(side, layout, view.grids_first()) } }
                if let Some(side) = screen.zk { { zk_side(side, layout, view.grids_first()) } }
            </div>
            if !compact {
                <RaceLegend />
                { measured_panel(view.measured(), screen.controls.partitions, layout.resizes) }
            }
        </main>
    }
}

fn controls(c: &RaceControls, stage: &str, full: bool, on: &Callback<Action>) -> Html {
    let send = |action: RaceAction| on.reform(move |_: MouseEvent| Action::Race(action.clone()));
    let on_partitions = on.reform(|e: InputEvent| {
        let exp = e.target_unchecked_into::<web_sys::HtmlInputElement>().value_as_number();
        Action::Race(RaceAction::Partitions(exp))
    });
    let on_roles = on.reform(|e: Event| {
        let value = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
        Action::Race(RaceAction::Roles(KraftRoles::from_name(&value).unwrap_or(KraftRoles::DEDICATED)))
    });
    let on_playback = on.reform(|e: Event| {
        let value = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
        Action::Race(RaceAction::Playback(float::parse(&value).map_or(Playback::Auto, Playback::Fixed)))
    });
    let on_seek = on.reform(|e: InputEvent| {
        let ms = e.target_unchecked_into::<web_sys::HtmlInputElement>().value_as_number();
        Action::Race(RaceAction::Seek((ms.max(0.0) as u64) * MS))
    });
    let can_play = c.prepared && !c.finished;
    html! {
        <section class="panel race-controls" aria-label="Failover race">
            if full {
                <label class="partitions">{ "Partitions " }
                    <input id="partitions" type="range" min={MIN_EXP.to_string()} max={MAX_EXP.to_string()} step="0.05" value={c.exp.to_string()}
                           oninput={on_partitions} aria-valuetext={format::count(c.partitions)} />
                    <output id="partition-count">{ format::count(c.partitions) }</output>
                </label>
                <label>{ "KRaft side " }
                    <select id="kraft-roles" onchange={on_roles}>
                        <option value="dedicated" selected={!c.combined}>{ "3 dedicated controllers, 5 brokers" }</option>
                        <option value="combined" selected={c.combined}>{ "3 combined nodes (controller + broker), 2 brokers: like for like" }</option>
                    </select>
                </label>
            }
            <div class="race-buttons">
                <button id="race-play" class="play" disabled={!can_play} title="Space" onclick={send(RaceAction::TogglePlay)}>{ c.play_label }</button>
                <button id="race-step" disabled={!can_play} title="S" onclick={send(RaceAction::Step)}>{ "Step" }</button>
                <button id="kill-both" disabled={!c.prepared} title="K" onclick={send(RaceAction::Kill)}>{ "Kill both active controllers" }</button>
                <button id="run-again" disabled={!c.running} title="R" onclick={send(RaceAction::RunAgain)}>{ "Run again" }</button>
                if full {
                    <button id="skip-to-end" disabled={!c.running} onclick={send(RaceAction::SkipToEnd)}>{ "Skip to the end" }</button>
                    <button id="race-grids" class="secondary" title="G" disabled={!c.prepared} onclick={send(RaceAction::ToggleGrids)}>{ c.grids_label }</button>
                    <button id="still" class="secondary" title="E" disabled={!c.prepared} onclick={on.reform(|_: MouseEvent| Action::Still(StillAction::Open))}>{ "Save picture" }</button>
                }
                <span id="race-pace" class={classes!("pace", c.pace.is_none().then_some("idle"))} aria-live="off">{ c.pace.clone().unwrap_or_default() }</span>
            </div>
            if full {
                <label>{ "Playback " }
                    <select onchange={on_playback} aria-label="Playback speed">
                        <option value="auto" selected={c.fixed.is_none()}>{ "sports replay (auto)" }</option>
                        { for [0.01, 0.1, 1.0, 10.0, 100.0].iter().map(|s| html! {
                            <option value={s.to_string()} selected={c.fixed == Some(*s)}>{ format!("{}× real time", s) }</option>
                        }) }
                    </select>
                </label>
                <label class="race-scrubber">{ "Since the kill " }
                    <input id="race-timeline" type="range" min="0" max={c.horizon_ms.to_string()} step="1"
                           value={c.elapsed_ms.to_string()} oninput={on_seek} disabled={!c.running}
                           aria-label="Race timeline: drag back to replay" aria-valuetext={c.elapsed.clone()} />
                </label>
            }
            // Not a live region: it changes every frame; each side announces its phases instead.
            <p class="race-stage">{ stage }</p>
        </section>
    }
}

/// A side of the race: its head, caption, nodes (chips in an embed) and drawing, then its
/// partition grid; with `grids_first`, the grid in place of the drawing.
fn kraft_side(side: KraftSide, layout: Layout, grids_first: bool) -> Html {
    html! {
        <section class="panel side-kraft" aria-label="KRaft">
            <p class="visually-hidden" role="status" id="kraft-phase">{ side.phase }</p>
            <div class="side-head">
                <h2>{ side.title }</h2>
                <p class="stopwatch" id="kraft-stopwatch">{ side.stopwatch }</p>
                <p class="side-state">{ side.leader }</p>
                if let Some(spread) = side.spread { <p class="side-state" id="kraft-spread">{ spread }</p> }
            </div>
            <p class="side-caption">{ side.caption }</p>
            if !side.chips.is_empty() { { chips(&side.chips, "KRaft") } }
            if let Some(picture) = side.picture.filter(|_| !grids_first) {
                <ClusterView {picture} selected={None::<u32>} on_select={Callback::noop()} reduced_motion={layout.reduced_motion} legend={false} interactive={false} resizes={layout.resizes} zoom={layout.zoom} fit={false} />
            }
            <PartitionGridView grid={side.grid} side="kraft" band_prefix="n" compact={layout.embedded()} zoom={layout.zoom} resizes={layout.resizes} />
        </section>
    }
}

fn zk_side(side: ZkSide, layout: Layout, grids_first: bool) -> Html {
    html! {
        <section class="panel side-zk" aria-label="ZooKeeper mode">
            <p class="visually-hidden" role="status" id="zk-phase">{ side.phase }</p>
            <div class="side-head">
                <h2>{ "ZooKeeper mode" }</h2>
                <p class="stopwatch" id="zk-stopwatch">{ side.stopwatch }</p>
                <p class="side-state">{ side.summary }</p>
            </div>
            <p class="side-caption">{ side.caption }</p>
            if !side.chips.is_empty() { { chips(&side.chips, "ZooKeeper mode") } }
            if let Some(picture) = side.picture.filter(|_| !grids_first) {
                <ZkView {picture} compact={layout.embedded()} reduced_motion={layout.reduced_motion} zoom={layout.zoom} resizes={layout.resizes} />
            }
            <PartitionGridView grid={side.grid} side="zk" band_prefix="b" compact={layout.embedded()} zoom={layout.zoom} resizes={layout.resizes} />
        </section>
    }
}

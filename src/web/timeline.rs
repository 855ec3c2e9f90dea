//! Play, pause, single step, speed on a log scale, and the timeline scrubber that travels back
//! to any earlier moment.

use yew::prelude::*;

use crate::harness::{MS, Micros};
use crate::page::pacing::{MAX_SPEED_EXP, MIN_SPEED_EXP, QUIET_WARP, skips_quiet};
use crate::page::{Action, StillAction};
use crate::session;
use crate::util::format;

#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    pub now: Micros,
    pub horizon: Micros,
    /// The earliest moment a scrub reaches.
    pub window_start: Micros,
    pub playing: bool,
    pub speed_exp: f64,
    /// Whether quiet stretches are skipped below 1x, and whether the last frame skipped one.
    pub skip_quiet: bool,
    pub skipping: bool,
    /// Embedded with `controls=min`: only play, step, kill the leader and reset.
    pub minimal: bool,
    /// A link to share, once asked for.
    pub share: Option<String>,
    /// Offer "Save picture" (not in an embed, whose frame it would outgrow: E still opens it).
    pub stills: bool,
    pub on: Callback<Action>,
}

#[function_component(Timeline)]
pub fn timeline(props: &TimelineProps) -> Html {
    let on_speed = props.on.reform(|e: InputEvent| {
        let value = e.target_unchecked_into::<web_sys::HtmlInputElement>().value_as_number();
        Action::SpeedExp(value)
    });
    let on_seek = props.on.reform(|e: InputEvent| {
        let ms = e.target_unchecked_into::<web_sys::HtmlInputElement>().value_as_number();
        Action::Seek((ms.max(0.0) as u64) * MS)
    });
    let on_skip = props.on.reform(|e: Event| {
        Action::SkipQuiet(e.target_unchecked_into::<web_sys::HtmlInputElement>().checked())
    });
    let speed = 10f64.powf(props.speed_exp);
    let skip_applies = skips_quiet(props.speed_exp, true);
    let kept = match props.window_start {
        0 => String::new(),
        start => format!(" · kept from {}", format::seconds(start)),
    };
    html! {
        <section class="timeline" aria-label="Time">
            <button class="play" onclick={props.on.reform(|_| Action::TogglePlay)} title="Space"
                    aria-label={if props.playing { "Pause" } else { "Play" }}>
                { if props.playing { "Pause" } else { "Play" } }
            </button>
            <button onclick={props.on.reform(|_| Action::Step)} title="S" aria-label="Step one event">{ "Step" }</button>
            if props.minimal {
                <button onclick={props.on.reform(|_| Action::Act(session::Action::KillLeader))}>{ "Kill active controller" }</button>
                <button onclick={props.on.reform(|_| Action::Reset)}>{ "Reset" }</button>
                <output id="clock">{ format::seconds(props.now) }</output>
            } else {
                <label class="speed">{ "Speed " }
                    <input type="range" min={MIN_SPEED_EXP.to_string()} max={MAX_SPEED_EXP.to_string()} step="0.25"
                           value={props.speed_exp.to_string()} oninput={on_speed} aria-valuetext={format::speed(speed)} />
                    <output>{ format::speed(speed) }</output>
                </label>
                <label class="skip" title="Below 1x, play stretches with nothing but idle fetches and heartbeats faster">
                    <input id="skip-quiet" type="checkbox" checked={props.skip_quiet} disabled={!skip_applies} onchange={on_skip} />
                    { format!(" Skip quiet stretches below 1x ({}x)", QUIET_WARP) }
                </label>
                <output id="skipping" class={classes!("skipping", (!props.skipping).then_some("idle"))} aria-live="off">
                    { if props.skipping { format!("skipping quiet stretches {}x", QUIET_WARP) } else { String::new() } }
                </output>
                <label class="scrubber">{ "Time " }
                    <input id="scrubber" type="range" min={(props.window_start / MS).to_string()} max={(props.horizon / MS).to_string()} step="1" value={(props.now / MS).to_string()}
                           oninput={on_seek} aria-valuetext={format::seconds(props.now)} />
                    <output id="clock">{ format!("{} of {}{kept}", format::seconds(props.now), format::seconds(props.horizon)) }</output>
                </label>
                <button id="share" class="secondary" onclick={props.on.reform(|_| Action::Share)}>{ "Share" }</button>
                if props.stills {
                    <button id="still" class="secondary" title="E" onclick={props.on.reform(|_| Action::Still(StillAction::Open))}>{ "Save picture" }</button>
                }
                if let Some(url) = &props.share {
                    <label class="share-url">{ "Link to this moment " }<input id="share-url" type="text" readonly=true value={url.clone()} /></label>
                }
            }
        </section>
    }
}

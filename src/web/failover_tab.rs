//! The failover race: a KRaft cluster and a ZooKeeper-mode cluster of the same size, drawn side
//! by side and living on one simulated clock, lose their active controllers at once. Stopwatches,
//! a partition grid per side, sports-replay pacing (time-lapse and slow motion, always labelled),
//! play, step, kill, run again, a scrubber that rewinds by deterministic replay, and the
//! measured curve.

use gloo::events::EventListener;
use yew::prelude::*;

use super::chart::{Chart, Point, parse_csv};
use super::cluster_view::ClusterView;
use super::frame_clock::FrameClock;
use super::host;
use super::keys::{listen, shortcut};
use super::partition_grid::PartitionGridView;
use super::zk_view::{ZK_LEGEND, ZkView, phase_text, zk_message_colour};
use crate::float;
use crate::format;
use crate::page::{RaceCommand, RaceRequest, is_race_key};
use crate::playback::speed_label;
use crate::quorum::{MS, Micros, QuorumConfig, RoleKind};
use crate::race::{FailoverRace, RaceMoment, RaceStage, kraft_phase, zk_phase};
use crate::session::host::{Command, HostEvent};
use crate::session::message_kinds::message_kind;
use crate::session::params::Controls as ControlLevel;
use crate::session::picture::{ClusterPicture, picture};

/// Records of image building per call to prepare; a frame calls it until its time budget is used.
const PREPARE_BUDGET: usize = 5_000;
/// Real milliseconds a frame may spend preparing.
const PREPARE_BUDGET_MS: f64 = 6.0;
/// The slider moves log10 of the partition count.
const MIN_EXP: f64 = 1.0;
const MAX_EXP: f64 = 6.35;
/// Most cells a partition grid has.
const GRID_CELLS: u32 = 2_000;
/// Simulated time one fast-forward slice covers.
const FAST_FORWARD_SLICE: Micros = 100_000;
/// Real milliseconds a frame may spend fast-forwarding.
const FAST_FORWARD_BUDGET_MS: f64 = 5.0;
/// Real milliseconds of playback one Step covers.
const STEP_MS: f64 = 500.0;

#[derive(Properties, PartialEq)]
pub struct FailoverProps {
    pub request: RaceRequest,
    /// The host page's latest command (play, pause, step, seek or kill-leader).
    pub host_command: Option<RaceCommand>,
    /// Embedded: no chart, no legend, a one-line caption and a compact stacked layout.
    pub compact: bool,
    pub controls: ControlLevel,
    pub reduced_motion: bool,
    /// Told (with the time since the kill) when the race reaches the tour step's key moment.
    pub on_key: Callback<Micros>,
}

/// Playback: the sports-replay pacing, or a fixed speed chosen by the viewer.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Playback {
    Auto,
    Fixed(f64),
}

impl Playback {
    /// The fixed speed, if one was chosen.
    fn fixed(self) -> Option<f64> {
        match self {
            Playback::Auto => None,
            Playback::Fixed(speed) => Some(speed),
        }
    }
}

pub enum Msg {
    Frame(f64),
    Partitions(f64),
    Playback(String),
    Kill,
    RunAgain,
    TogglePlay,
    Step,
    SkipToEnd,
    Seek(Micros),
    Key(KeyboardEvent),
    Csv(Vec<Point>),
}

pub struct FailoverTab {
    race: Result<FailoverRace, String>,
    /// Kill as soon as ready and fast-forward to this long after the kill, then pause (or play
    /// on, once, for a tour step: `plays_on`).
    script: Option<Micros>,
    plays_on: bool,
    /// The tour step's key moment, and whether it was told.
    key: Option<RaceMoment>,
    key_told: bool,
    /// Fast-forward to the end ("Skip to the end").
    skipping: bool,
    /// Kill both controllers and play as soon as the clusters are ready (Kill while running).
    kill_when_ready: bool,
    playing: bool,
    playback: Playback,
    /// The speed the last frame played at.
    shown_speed: Option<f64>,
    /// The furthest moment the race has reached, for the scrubber.
    horizon: Micros,
    exp: f64,
    clock: FrameClock,
    points: Vec<Point>,
    /// Whether the race's end was told to the host page (told again after a rewind).
    finish_told: bool,
    _keys: Option<EventListener>,
}

fn partitions_for(exp: f64) -> u64 {
    let raw = 10f64.powf(exp).round() as u64;
    let magnitude = 10u64.pow((raw as f64).log10().floor().max(1.0) as u32 - 1);
    (raw / magnitude * magnitude).clamp(10, 2_000_000)
}

impl Component for FailoverTab {
    type Message = Msg;
    type Properties = FailoverProps;

    fn changed(&mut self, ctx: &Context<Self>, old: &Self::Properties) -> bool {
        if ctx.props().request != old.request {
            self.restart(&ctx.props().request);
            self.schedule(ctx);
        }
        if let Some(command) =
            ctx.props().host_command.as_ref().filter(|c| Some(*c) != old.host_command.as_ref())
        {
            self.obey(&command.command);
            self.tell_finish();
            self.tell_key(ctx);
            self.schedule(ctx);
        }
        true
    }

    fn create(ctx: &Context<Self>) -> Self {
        let link = ctx.link().clone();
        yew::platform::spawn_local(async move {
            let text = match gloo::net::http::Request::get("failover.csv").send().await {
                Ok(response) => response.text().await.unwrap_or_default(),
                Err(_) => String::new(),
            };
            link.send_message(Msg::Csv(parse_csv(&text)));
        });
        let mut tab = FailoverTab {
            race: Err(String::new()),
            script: None,
            plays_on: false,
            key: None,
            key_told: false,
            skipping: false,
            kill_when_ready: false,
            playing: false,
            playback: Playback::Auto,
            shown_speed: None,
            horizon: 0,
            exp: 6.0,
            clock: FrameClock::default(),
            points: Vec::new(),
            finish_told: false,
            _keys: listen(ctx.link().callback(Msg::Key)),
        };
        tab.restart(&ctx.props().request);
        tab.schedule(ctx);
        tab
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Self::Message) -> bool {
        match msg {
            Msg::Frame(ts) => self.on_frame(ts),
            Msg::Partitions(exp) => {
                self.exp = exp.clamp(MIN_EXP, MAX_EXP);
                self.race = FailoverRace::new(partitions_for(self.exp), 1).map_err(|e| e.to_string());
                (self.script, self.skipping, self.playing, self.horizon) = (None, false, false, 0);
                self.kill_when_ready = false;
            }
            Msg::Playback(value) => {
                self.playback = float::parse(&value).map_or(Playback::Auto, Playback::Fixed);
            }
            Msg::Kill => self.kill(),
            Msg::RunAgain => self.run_again(),
            Msg::TogglePlay => self.toggle_play(),
            Msg::Step => self.step(),
            Msg::SkipToEnd => (self.skipping, self.script) = (true, None),
            Msg::Seek(t) => self.seek(t),
            Msg::Key(event) => {
                let Some(key) = shortcut(&event).filter(|k| is_race_key(k)) else { return false };
                event.prevent_default();
                match key.as_str() {
                    " " => self.toggle_play(),
                    "s" | "S" => self.step(),
                    "k" | "K" => self.kill(),
                    _ => self.run_again(),
                }
            }
            Msg::Csv(points) => self.points = points,
        }
        self.tell_finish();
        self.tell_key(ctx);
        self.schedule(ctx);
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let props = ctx.props();
        let partitions = partitions_for(self.exp);
        html! {
            <main class={classes!("failover-tab", props.compact.then_some("compact"))}>
                if props.compact { { self.caption() } }
                if props.controls != ControlLevel::None { { self.controls(ctx) } }
                { self.headline(props.compact) }
                <div class="race">
                    { self.kraft_side(props) }
                    { self.zk_side(props) }
                </div>
                if !props.compact {
                    <RaceLegend />
                    <section class="panel" aria-label="Measured unavailability">
                        <h2>{ "Unavailability against partitions" }</h2>
                        <Chart points={self.points.clone()} marker={partitions} />
                        <p class="hint">{ "Measured by the same core (kraftscope failover --csv). ZooKeeper-mode costs are calibrated to published figures: ~37 s to load 1,000,000 partitions plus ~40 s for brokers to apply them (async reads); ~60 s at 100,000 with the 2017 synchronous reads. The simulation simplifies: it models costs per request and per partition, not a real ZooKeeper." }</p>
                    </section>
                }
            </main>
        }
    }
}

/// Run the race in small slices until `target` (or the end) or the frame's time budget is used.
fn fast_forward(race: &mut FailoverRace, target: Option<Micros>) {
    let started = now_ms();
    while now_ms() - started < FAST_FORWARD_BUDGET_MS && !race.finished() {
        let RaceStage::Running { elapsed } = race.stage() else { return };
        let slice = target.map_or(FAST_FORWARD_SLICE, |t| t.saturating_sub(elapsed).min(FAST_FORWARD_SLICE));
        if slice == 0 {
            return;
        }
        race.advance(slice);
    }
}

/// The page's clock in milliseconds, to share a frame's time budget.
fn now_ms() -> f64 {
    gloo::utils::window().performance().map_or(0.0, |p| p.now())
}

/// Prepare the race in small pieces until the frame's time budget is used.
fn prepare(race: &mut FailoverRace) -> Result<(), String> {
    let started = now_ms();
    while matches!(race.stage(), RaceStage::Preparing { .. }) && now_ms() - started < PREPARE_BUDGET_MS {
        race.prepare(PREPARE_BUDGET).map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn elapsed_of(race: &FailoverRace) -> Option<Micros> {
    match race.stage() {
        RaceStage::Running { elapsed } => Some(elapsed),
        _ => None,
    }
}

impl FailoverTab {
    fn restart(&mut self, request: &RaceRequest) {
        self.exp = (request.partitions as f64).log10().clamp(MIN_EXP, MAX_EXP);
        self.race = FailoverRace::new(request.partitions, 1).map_err(|e| e.to_string());
        self.script = request.shown_after_kill_ms.map(|ms| ms * MS);
        (self.plays_on, self.key, self.key_told) = (request.plays_on, request.key, false);
        (self.skipping, self.playing, self.horizon, self.kill_when_ready) = (false, false, 0, false);
    }

    fn busy(&self) -> bool {
        match &self.race {
            Ok(race) => match race.stage() {
                RaceStage::Preparing { .. } => true,
                RaceStage::Running { .. } => {
                    !race.finished() && (self.script.is_some() || self.skipping || self.playing)
                }
                RaceStage::Ready => self.script.is_some() || self.kill_when_ready,
            },
            Err(_) => false,
        }
    }

    /// A host page's command, as the race's own buttons do it.
    fn obey(&mut self, command: &Command) {
        match command {
            Command::Play if !self.playing => self.toggle_play(),
            Command::Pause if self.playing => self.toggle_play(),
            Command::Step => self.step(),
            Command::KillLeader => self.kill(),
            Command::Seek { ms } => self.seek(ms * MS),
            _ => {}
        }
    }

    /// Post `failover-finished` with both stopwatches to the host page when the race ends.
    fn tell_finish(&mut self) {
        let finished = self.race.as_ref().ok().and_then(HostEvent::failover_finished);
        if let Some(event) = finished.as_ref().filter(|_| !self.finish_told) {
            host::emit(event);
        }
        self.finish_told = finished.is_some();
    }

    /// Tell the page when the race reaches the tour step's key moment.
    fn tell_key(&mut self, ctx: &Context<Self>) {
        let Ok(race) = &self.race else { return };
        if let (Some(key), false, Some(elapsed)) = (self.key, self.key_told, elapsed_of(race))
            && key.reached(race)
        {
            self.key_told = true;
            ctx.props().on_key.emit(elapsed);
        }
    }

    fn schedule(&mut self, ctx: &Context<Self>) {
        let busy = self.busy();
        self.clock.keep(busy, ctx.link(), Msg::Frame);
    }

    /// Kill both controllers and play: from the healthy start if the race already ran.
    fn kill(&mut self) {
        let Ok(race) = &mut self.race else { return };
        match race.stage() {
            RaceStage::Preparing { .. } => return,
            RaceStage::Ready => {
                let _ = race.kill();
                self.playing = true;
            }
            RaceStage::Running { .. } => {
                if race.run_again().is_err() {
                    return;
                }
                (self.kill_when_ready, self.playing) = (true, false);
            }
        }
        (self.script, self.plays_on, self.skipping, self.horizon) = (None, false, false, 0);
    }

    /// Both clusters healthy again, waiting for the kill.
    fn run_again(&mut self) {
        if let Ok(race) = &mut self.race
            && race.run_again().is_ok()
        {
            (self.script, self.skipping, self.playing, self.horizon) = (None, false, false, 0);
            self.kill_when_ready = false;
        }
    }

    fn toggle_play(&mut self) {
        let Ok(race) = &self.race else { return };
        match race.stage() {
            RaceStage::Ready => self.kill(),
            RaceStage::Running { .. } if !race.finished() => {
                self.playing = !self.playing;
                (self.script, self.skipping) = (None, false);
            }
            _ => {}
        }
    }

    /// Pause and play half a second of playback at the current pace.
    fn step(&mut self) {
        self.playing = false;
        (self.script, self.plays_on, self.skipping) = (None, false, false);
        let Ok(race) = &mut self.race else { return };
        match race.stage() {
            RaceStage::Ready => {
                let _ = race.kill();
            }
            RaceStage::Running { elapsed } if !race.finished() => {
                let dt = race.playback_step(STEP_MS, self.playback.fixed());
                race.advance(dt);
                self.horizon = self.horizon.max(elapsed + dt);
            }
            _ => {}
        }
    }

    /// Rewind (by replaying the same race from the start) or fast-forward to `t` after the kill.
    fn seek(&mut self, t: Micros) {
        let Ok(race) = &mut self.race else { return };
        let elapsed = match race.stage() {
            RaceStage::Preparing { .. } => return,
            RaceStage::Ready => 0,
            RaceStage::Running { elapsed } => elapsed,
        };
        if t < elapsed && race.run_again().is_err() {
            return;
        }
        (self.script, self.skipping, self.playing, self.kill_when_ready) = (Some(t), false, false, false);
        self.plays_on = false;
    }

    fn on_frame(&mut self, ts: f64) {
        let real_ms = self.clock.tick(ts);
        let playback = self.playback;
        let Ok(race) = &mut self.race else { return };
        self.shown_speed = None;
        match race.stage() {
            RaceStage::Preparing { .. } => {
                if let Err(error) = prepare(race) {
                    self.race = Err(error);
                }
                return;
            }
            RaceStage::Ready if self.script.is_some() || self.kill_when_ready => {
                let _ = race.kill();
                self.playing = std::mem::take(&mut self.kill_when_ready);
            }
            RaceStage::Ready => {}
            RaceStage::Running { elapsed } => match self.script {
                Some(target) if elapsed < target => fast_forward(race, Some(target)),
                Some(_) => {
                    self.script = None;
                    self.playing = std::mem::take(&mut self.plays_on);
                }
                None if self.skipping => fast_forward(race, None),
                None if self.playing => {
                    let pace = race.pace();
                    self.shown_speed = match playback {
                        Playback::Auto => pace.map(|p| p.speed),
                        Playback::Fixed(speed) => Some(speed),
                    };
                    let dt = race.playback_step(real_ms, playback.fixed());
                    race.advance(dt);
                }
                None => {}
            },
        }
        if let Ok(race) = &self.race
            && let Some(elapsed) = elapsed_of(race)
        {
            self.horizon = self.horizon.max(elapsed);
            if race.finished() {
                self.playing = false;
            }
        }
    }

    fn caption(&self) -> Html {
        let size = self.race.as_ref().map_or(String::new(), |r| format::count(r.partitions()));
        html! {
            <p class="race-caption">{ format!("{size} partitions, both controllers killed: KRaft (top) vs ZooKeeper mode") }</p>
        }
    }

    fn controls(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let full = ctx.props().controls == ControlLevel::Full && !ctx.props().compact;
        let partitions = partitions_for(self.exp);
        let stage = self.race.as_ref().map(FailoverRace::stage);
        let prepared = matches!(stage, Ok(RaceStage::Ready | RaceStage::Running { .. }));
        let running = matches!(stage, Ok(RaceStage::Running { .. }));
        let finished = self.race.as_ref().is_ok_and(FailoverRace::finished);
        let elapsed = match stage {
            Ok(RaceStage::Running { elapsed }) => elapsed,
            _ => 0,
        };
        let on_partitions = link.callback(|e: InputEvent| {
            Msg::Partitions(e.target_unchecked_into::<web_sys::HtmlInputElement>().value_as_number())
        });
        let on_playback = link.callback(|e: Event| {
            Msg::Playback(e.target_unchecked_into::<web_sys::HtmlSelectElement>().value())
        });
        let on_seek = link.callback(|e: InputEvent| {
            let ms = e.target_unchecked_into::<web_sys::HtmlInputElement>().value_as_number();
            Msg::Seek((ms.max(0.0) as u64) * MS)
        });
        let play_label = if self.playing { "Pause" } else { "Play" };
        let fixed = match self.playback {
            Playback::Auto => None,
            Playback::Fixed(s) => Some(s),
        };
        let pace = self.shown_speed.filter(|s| *s != 1.0).map(speed_label);
        html! {
            <section class="panel race-controls" aria-label="Failover race">
                if full {
                    <label class="partitions">{ "Partitions " }
                        <input id="partitions" type="range" min={MIN_EXP.to_string()} max={MAX_EXP.to_string()} step="0.05" value={self.exp.to_string()}
                               oninput={on_partitions} aria-valuetext={format::count(partitions)} />
                        <output id="partition-count">{ format::count(partitions) }</output>
                    </label>
                }
                <div class="race-buttons">
                    <button id="race-play" class="play" disabled={!prepared || finished} title="Space" onclick={link.callback(|_| Msg::TogglePlay)}>{ play_label }</button>
                    <button id="race-step" disabled={!prepared || finished} title="S" onclick={link.callback(|_| Msg::Step)}>{ "Step" }</button>
                    <button id="kill-both" disabled={!prepared} title="K" onclick={link.callback(|_| Msg::Kill)}>{ "Kill both active controllers" }</button>
                    <button id="run-again" disabled={!running} title="R" onclick={link.callback(|_| Msg::RunAgain)}>{ "Run again" }</button>
                    if full {
                        <button id="skip-to-end" disabled={!running} onclick={link.callback(|_| Msg::SkipToEnd)}>{ "Skip to the end" }</button>
                    }
                    <span id="race-pace" class={classes!("pace", pace.is_none().then_some("idle"))} aria-live="off">{ pace.unwrap_or_default() }</span>
                </div>
                if full {
                    <label>{ "Playback " }
                        <select onchange={on_playback} aria-label="Playback speed">
                            <option value="auto" selected={fixed.is_none()}>{ "sports replay (auto)" }</option>
                            { for [0.01, 0.1, 1.0, 10.0, 100.0].iter().map(|s| html! {
                                <option value={s.to_string()} selected={fixed == Some(*s)}>{ format!("{}× real time", s) }</option>
                            }) }
                        </select>
                    </label>
                    <label class="race-scrubber">{ "Since the kill " }
                        <input id="race-timeline" type="range" min="0" max={(self.horizon.max(elapsed) / MS).max(1).to_string()} step="1"
                               value={(elapsed / MS).to_string()} oninput={on_seek} disabled={!running}
                               aria-label="Race timeline: drag back to replay" aria-valuetext={format::seconds(elapsed)} />
                    </label>
                }
                { self.stage_text() }
            </section>
        }
    }

    fn stage_text(&self) -> Html {
        let text = match &self.race {
            Err(error) => format!("Cannot prepare: {error}"),
            Ok(race) => match race.stage() {
                RaceStage::Preparing { done, total } => format!(
                    "Building and starting both {}-partition clusters: {}%",
                    format::count(race.partitions()),
                    done * 100 / total.max(1)
                ),
                RaceStage::Ready => {
                    "Both clusters are healthy. Kill both active controllers to start the stopwatches."
                        .to_string()
                }
                RaceStage::Running { .. } if race.finished() => "Both sides recovered.".to_string(),
                RaceStage::Running { elapsed } => {
                    format!("{} since the kill (simulated)", format::seconds(elapsed))
                }
            },
        };
        // Not a live region: it changes every frame; each side announces its phases instead.
        html! { <p class="race-stage">{ text }</p> }
    }

    fn headline(&self, compact: bool) -> Html {
        let Some(headline) = self.race.as_ref().ok().and_then(FailoverRace::headline) else {
            return html! {};
        };
        let why = if compact {
            ""
        } else {
            ": a standby controller already held the log; ZooKeeper mode had to read it all back and push it to every broker"
        };
        html! { <p id="race-headline" class="race-headline">{ format!("{headline}{why}.") }</p> }
    }

    fn kraft_side(&self, props: &FailoverProps) -> Html {
        let Ok(race) = &self.race else { return html! {} };
        let elapsed = elapsed_of(race).unwrap_or(0);
        let shown = race.kraft_recovered_after().unwrap_or(elapsed);
        let drawing =
            race.kraft_sim().map(|sim| picture(sim, &[], QuorumConfig::default().fetch_timeout, None));
        let status = match (race.kraft_recovered_after(), elapsed_of(race)) {
            (Some(t), _) => format!("Back after {}: a new controller committed a metadata change.", format::seconds(t)),
            (None, Some(_)) => {
                "The leader is gone: followers wait out controller.quorum.fetch.timeout.ms, then pre-vote and vote."
                    .to_string()
            }
            (None, None) => {
                "Three controllers; the standbys have already replayed the whole log into their images.".to_string()
            }
        };
        let leader =
            race.kraft_leader().map_or("no active controller: electing".to_string(), |(id, epoch)| {
                format!("active controller n{id}, epoch {epoch}")
            });
        let nearest = self.points.iter().min_by_key(|p| p.0.abs_diff(race.partitions()));
        let spread = nearest.map(|p| {
            format!(
                "One seed's run. Over 21 seeds at {} partitions (kraftscope failover): p50 {:.2} s, p99 {:.2} s.",
                format::count(p.0),
                p.1,
                p.3
            )
        });
        html! {
            <section class="panel side-kraft" aria-label="KRaft">
                <p class="visually-hidden" role="status" id="kraft-phase">{ kraft_phase(race) }</p>
                <div class="side-head">
                    <h2>{ "KRaft" }</h2>
                    <p class="stopwatch" id="kraft-stopwatch">{ format::seconds(shown) }</p>
                    <p class="side-state">{ leader }</p>
                    if let Some(spread) = spread {
                        <p class="side-state" id="kraft-spread">{ spread }</p>
                    }
                </div>
                if let Some(view) = drawing {
                    <p class="side-caption">{ fetch_caption(&view).unwrap_or(status) }</p>
                    <ClusterView picture={view} selected={None::<u32>} on_select={Callback::noop()} reduced_motion={props.reduced_motion} legend={false} interactive={false} />
                } else {
                    <p class="side-caption">{ status }</p>
                }
                <PartitionGridView grid={race.kraft_grid(GRID_CELLS)} side="kraft" band_prefix="n" compact={props.compact} />
            </section>
        }
    }

    fn zk_side(&self, props: &FailoverProps) -> Html {
        let Ok(race) = &self.race else { return html! {} };
        let elapsed = elapsed_of(race);
        let report = race.zk_report();
        let shown = report.as_ref().map_or(elapsed.unwrap_or(0), |r| r.brokers_updated_after);
        let drawing = race.zk().map(|zk| zk.picture());
        let phase = drawing.as_ref().map_or(String::new(), |p| phase_text(p.phase, elapsed.is_some()));
        let summary = report.map_or_else(
            || "not every broker has the new state yet".to_string(),
            |r| format!("controller ready after {}", format::seconds(r.controller_ready_after)),
        );
        html! {
            <section class="panel side-zk" aria-label="ZooKeeper mode">
                <p class="visually-hidden" role="status" id="zk-phase">{ zk_phase(race) }</p>
                <div class="side-head">
                    <h2>{ "ZooKeeper mode" }</h2>
                    <p class="stopwatch" id="zk-stopwatch">{ format::seconds(shown) }</p>
                    <p class="side-state">{ summary }</p>
                </div>
                <p class="side-caption">{ phase }</p>
                if let Some(view) = drawing {
                    <ZkView picture={view} compact={props.compact} reduced_motion={props.reduced_motion} />
                }
                <PartitionGridView grid={race.zk_grid(GRID_CELLS)} side="zk" band_prefix="b" compact={props.compact} />
            </section>
        }
    }
}

/// After the election: the brokers fetch from the new leader from their own offsets.
fn fetch_caption(view: &ClusterPicture) -> Option<String> {
    let leader = view.nodes.iter().find(|n| n.role == Some(RoleKind::Leader))?;
    let brokers: Vec<_> = view.nodes.iter().filter(|n| !n.voter && n.role.is_some()).collect();
    let following = brokers.iter().filter(|b| b.leader == Some(leader.id)).count();
    if leader.epoch <= 1 || following == 0 {
        return None;
    }
    let lag = brokers.iter().filter_map(|b| b.lag).max().unwrap_or(0);
    Some(format!(
        "New leader {} (epoch {}). {following} brokers fetch from it from their own offsets (image @ {}): {} record{} to catch up, not the whole image.",
        leader.label,
        leader.epoch,
        format::count(brokers.iter().map(|b| b.applied_offset).min().unwrap_or(0)),
        lag,
        if lag == 1 { "" } else { "s" }
    ))
}

/// How to read the race (a component without props, so it is drawn once, not every frame).
#[function_component(RaceLegend)]
fn race_legend() -> Html {
    let dot = |colour: &'static str| {
        html! { <svg width="14" height="14" aria-hidden="true"><circle cx="7" cy="7" r="6" fill={colour} /></svg> }
    };
    let swatch = |class: &'static str| {
        html! { <svg width="14" height="14" aria-hidden="true"><rect class={classes!("run", class)} width="14" height="14" /></svg> }
    };
    html! {
        <div class="legend race-legend" aria-label="How to read the race">
            <p class="how-to-read">{ "Left, KRaft: three controllers (a Raft quorum; the crown marks the active one) and five brokers that fetch the metadata log by offset. Right, ZooKeeper mode: the ensemble holds the metadata; one broker (the crown) is the controller. The grid under each side is every partition's state: one cell stands for many partitions." }</p>
            <div class="legend-group">
                <span class="legend-title">{ "KRaft:" }</span>
                { for ["PreVote", "Vote", "BeginQuorumEpoch", "Fetch", "FetchResponse"].iter().map(|kind| {
                    let style = message_kind(kind);
                    let (colour, label) = (style.colour, style.label);
                    html! { <span class="legend-item">{ dot(colour) }{ format!(" {label} {kind}") }</span> }
                }) }
            </div>
            <div class="legend-group">
                <span class="legend-title">{ "ZooKeeper mode:" }</span>
                { for ZK_LEGEND.iter().map(|(kind, text)| html! {
                    <span class="legend-item">{ dot(zk_message_colour(*kind)) }{ format!(" {text}") }</span>
                }) }
            </div>
            <div class="legend-group">
                <span class="legend-title">{ "Grid:" }</span>
                <span class="legend-item">{ swatch("unknown") }{ " unknown to the controller" }</span>
                <span class="legend-item">{ swatch("loaded") }{ " loaded by the controller" }</span>
                <span class="legend-item">{ swatch("pushed") }{ " fresh at every broker (bands: each broker)" }</span>
                <span class="legend-item">{ swatch("stale") }{ " stale broker cache" }</span>
            </div>
        </div>
    }
}

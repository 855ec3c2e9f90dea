//! The failover race: a partition-count slider from 10 to 2,000,000, one button that kills the
//! active controller of a KRaft cluster and of a ZooKeeper-mode cluster of that size, a stopwatch
//! on each side, the ZooKeeper side's cold load as it progresses, and the measured curve.

use yew::prelude::*;

use super::chart::{Chart, Point, parse_csv};
use super::frame_clock::FrameClock;
use crate::format;
use crate::quorum::Micros;
use crate::race::{FailoverRace, RaceStage};
use crate::zk::FailoverPhase;

/// Records of image building per animation frame.
const PREPARE_BUDGET: usize = 25_000;
/// The slider moves log10 of the partition count.
const MIN_EXP: f64 = 1.0;
const MAX_EXP: f64 = 6.35;

/// What the page asks the race for: its size, how far past the kill to show it (a tour step
/// or scenario), and a counter that restarts it.
#[derive(Clone, Debug, PartialEq)]
pub struct RaceRequest {
    pub partitions: u64,
    pub shown_after_kill_ms: Option<u64>,
    pub generation: u32,
}

#[derive(Properties, PartialEq)]
pub struct FailoverProps {
    pub request: RaceRequest,
    /// Embedded: no chart and no explanations.
    pub compact: bool,
}

/// Simulated time one fast-forward slice covers.
const FAST_FORWARD_SLICE: Micros = 250_000;
/// Real milliseconds a frame may spend fast-forwarding.
const FAST_FORWARD_BUDGET_MS: f64 = 12.0;

pub enum Msg {
    Frame(f64),
    Partitions(f64),
    Speed(f64),
    Kill,
    SkipToEnd,
    Csv(Vec<Point>),
}

pub struct FailoverTab {
    race: Result<FailoverRace, String>,
    /// Kill as soon as ready and fast-forward to this long after the kill.
    script: Option<Micros>,
    /// Fast-forward to the end ("Skip to the end").
    skipping: bool,
    exp: f64,
    speed: f64,
    clock: FrameClock,
    points: Vec<Point>,
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
            skipping: false,
            exp: 6.0,
            speed: 10.0,
            clock: FrameClock::default(),
            points: Vec::new(),
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
                self.race = FailoverRace::new(partitions_for(self.exp), 1);
                (self.script, self.skipping) = (None, false);
            }
            Msg::Speed(speed) => self.speed = speed,
            Msg::Kill => {
                if let Ok(race) = &mut self.race {
                    let _ = race.kill();
                }
            }
            Msg::SkipToEnd => self.skipping = true,
            Msg::Csv(points) => self.points = points,
        }
        self.schedule(ctx);
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let partitions = partitions_for(self.exp);
        let on_partitions = link.callback(|e: InputEvent| {
            Msg::Partitions(e.target_unchecked_into::<web_sys::HtmlInputElement>().value_as_number())
        });
        let on_speed = link.callback(|e: Event| {
            Msg::Speed(
                e.target_unchecked_into::<web_sys::HtmlSelectElement>().value().parse().unwrap_or(10.0),
            )
        });
        let stage = self.race.as_ref().map(FailoverRace::stage);
        let ready = matches!(stage, Ok(RaceStage::Ready));
        let running = matches!(stage, Ok(RaceStage::Running { .. }));
        html! {
            <main class="failover-tab">
                <section class="panel race-controls" aria-label="Failover race">
                    <label class="partitions">{ "Partitions " }
                        <input id="partitions" type="range" min={MIN_EXP.to_string()} max={MAX_EXP.to_string()} step="0.05" value={self.exp.to_string()}
                               oninput={on_partitions} aria-valuetext={format::count(partitions)} />
                        <output id="partition-count">{ format::count(partitions) }</output>
                    </label>
                    <label>{ "Playback " }
                        <select onchange={on_speed} aria-label="Playback speed">
                            { for [1.0, 10.0, 30.0, 100.0].iter().map(|s| html! {
                                <option value={s.to_string()} selected={*s == self.speed}>{ format!("{}× real time", s) }</option>
                            }) }
                        </select>
                    </label>
                    <button id="kill-both" disabled={!ready} onclick={link.callback(|_| Msg::Kill)}>{ "Kill both active controllers" }</button>
                    <button disabled={!running} onclick={link.callback(|_| Msg::SkipToEnd)}>{ "Skip to the end" }</button>
                    { self.stage_text() }
                </section>
                <div class="race">
                    { self.kraft_side() }
                    { self.zk_side() }
                </div>
                if !ctx.props().compact {
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
    let clock = gloo::utils::window().performance();
    let now = || clock.as_ref().map_or(0.0, |p| p.now());
    let started = now();
    while now() - started < FAST_FORWARD_BUDGET_MS && !race.finished() {
        let RaceStage::Running { elapsed } = race.stage() else { return };
        let slice = target.map_or(FAST_FORWARD_SLICE, |t| t.saturating_sub(elapsed).min(FAST_FORWARD_SLICE));
        if slice == 0 {
            return;
        }
        race.advance(slice);
    }
}

impl FailoverTab {
    fn restart(&mut self, request: &RaceRequest) {
        self.exp = (request.partitions as f64).log10().clamp(MIN_EXP, MAX_EXP);
        self.race = FailoverRace::new(request.partitions, 1);
        self.script = request.shown_after_kill_ms.map(|ms| ms * 1_000);
        self.skipping = false;
    }

    fn busy(&self) -> bool {
        match &self.race {
            Ok(race) => match race.stage() {
                RaceStage::Preparing { .. } => true,
                RaceStage::Running { elapsed } => {
                    !race.finished() && self.script.is_none_or(|t| elapsed < t || self.skipping)
                }
                RaceStage::Ready => self.script.is_some(),
            },
            Err(_) => false,
        }
    }

    fn schedule(&mut self, ctx: &Context<Self>) {
        let busy = self.busy();
        self.clock.keep(busy, ctx.link(), Msg::Frame);
    }

    fn on_frame(&mut self, ts: f64) {
        let elapsed_ms = self.clock.tick(ts);
        let Ok(race) = &mut self.race else { return };
        match race.stage() {
            RaceStage::Preparing { .. } => {
                if let Err(error) = race.prepare(PREPARE_BUDGET) {
                    self.race = Err(error);
                }
            }
            RaceStage::Ready if self.script.is_some() => {
                let _ = race.kill();
            }
            RaceStage::Ready => {}
            RaceStage::Running { elapsed } => match self.script {
                Some(target) if elapsed < target => fast_forward(race, Some(target)),
                _ if self.skipping => fast_forward(race, None),
                Some(_) => {}
                None => race.advance((elapsed_ms * 1_000.0 * self.speed) as Micros),
            },
        }
    }

    fn stage_text(&self) -> Html {
        let text = match &self.race {
            Err(error) => format!("Cannot prepare: {error}"),
            Ok(race) => match race.stage() {
                RaceStage::Preparing { done, total } => format!(
                    "Building the {}-partition image the KRaft controllers start from: {}%",
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
        html! { <p class="race-stage" role="status">{ text }</p> }
    }

    fn kraft_side(&self) -> Html {
        let Ok(race) = &self.race else { return html! {} };
        let elapsed = match race.stage() {
            RaceStage::Running { elapsed } => elapsed,
            _ => 0,
        };
        let shown = race.kraft_recovered_after().unwrap_or(elapsed);
        let leader =
            race.kraft_leader().map_or("no active controller: electing".to_string(), |(id, epoch)| {
                format!("active controller n{id}, epoch {epoch}")
            });
        let status = match race.kraft_recovered_after() {
            Some(t) => format!(
                "Recovered after {}: a new controller committed a metadata change.",
                format::seconds(t)
            ),
            None if elapsed > 0 => {
                "Followers wait out the fetch timeout, then pre-vote and vote.".to_string()
            }
            None => "Three controllers; the standbys have already replayed the whole log into their images."
                .to_string(),
        };
        html! {
            <section class="panel side-kraft" aria-label="KRaft">
                <h2>{ "KRaft" }</h2>
                <p class="stopwatch" id="kraft-stopwatch">{ format::seconds(shown) }</p>
                <p>{ leader }</p>
                <p>{ status }</p>
            </section>
        }
    }

    fn zk_side(&self) -> Html {
        let Ok(race) = &self.race else { return html! {} };
        let elapsed = match race.stage() {
            RaceStage::Running { elapsed } => elapsed,
            _ => 0,
        };
        let report = race.zk_report();
        let shown = report.as_ref().map_or(elapsed, |r| r.brokers_updated_us);
        let (phase, done, total) = match race.zk_phase() {
            _ if elapsed == 0 => {
                ("Healthy: one controller, brokers registered in ZooKeeper.".to_string(), 0, 1)
            }
            Some(FailoverPhase::AwaitingSessionExpiry { .. }) => {
                ("Waiting for the dead controller's ZooKeeper session to expire…".to_string(), 0, 1)
            }
            Some(FailoverPhase::Electing) => ("Brokers race to create /controller…".to_string(), 0, 1),
            Some(FailoverPhase::LoadingFromZk { read, total }) => (
                format!(
                    "Cold load: reading partition state from ZooKeeper, {} of {}",
                    format::count(read),
                    format::count(total)
                ),
                read,
                total,
            ),
            Some(FailoverPhase::ElectingLeaders { written, total }) => (
                format!(
                    "Electing new leaders for the partitions the dead controller's broker led, {} of {}",
                    format::count(written),
                    format::count(total)
                ),
                written,
                total,
            ),
            Some(FailoverPhase::PushingToBrokers { brokers_done, total }) => (
                format!(
                    "Pushing full-state UpdateMetadata and LeaderAndIsr to every broker: {brokers_done} of {total}"
                ),
                u64::from(brokers_done),
                u64::from(total),
            ),
            Some(FailoverPhase::Ready) | None => ("Done.".to_string(), 1, 1),
        };
        let summary = report.map(|r| {
            format!(
                "Controller ready after {}; every broker updated after {}.",
                format::seconds(r.controller_ready_us),
                format::seconds(r.brokers_updated_us)
            )
        });
        html! {
            <section class="panel side-zk" aria-label="ZooKeeper mode">
                <h2>{ "ZooKeeper mode" }</h2>
                <p class="stopwatch" id="zk-stopwatch">{ format::seconds(shown) }</p>
                <p>{ phase }</p>
                <progress max={total.max(1).to_string()} value={done.to_string()} aria-label="Failover phase progress"></progress>
                if let Some(text) = summary { <p>{ text }</p> }
            </section>
        }
    }
}

//! ZooKeeper mode's other pains, played beside what KRaft does: a small ZooKeeper-mode cluster
//! drawn as in the race, the latest events, the three copies of the truth compared with
//! ZooKeeper cell by cell, each broker's two notions of liveness, and KRaft's answer.

use gloo::events::EventListener;
use yew::prelude::*;

use super::frame_clock::FrameClock;
use super::keys::{listen, shortcut};
use super::zk_view::ZkView;
use crate::format;
use crate::page::{PainRequest, is_race_key};
use crate::playback::speed_label;
use crate::quorum::Micros;
use crate::zk::pains::{self, BROKERS, Pain};
use crate::zk::{CopyRow, PartitionState, TraceLine, ZkCluster, copies};

/// Latest events shown (session pings left out).
const EVENTS_SHOWN: usize = 6;
/// Real milliseconds of playback one Step covers.
const STEP_MS: f64 = 500.0;

#[derive(Properties, PartialEq)]
pub struct PainsProps {
    pub request: PainRequest,
    pub reduced_motion: bool,
    /// Told (with the simulated time) when the pain reaches its moment.
    pub on_key: Callback<Micros>,
    /// Show another pain.
    pub on_pick: Callback<Pain>,
    /// Open a guided-tour step (1-based): KRaft doing it, live.
    pub on_step: Callback<usize>,
}

pub enum Msg {
    Frame(f64),
    TogglePlay,
    Step,
    Replay,
    Key(KeyboardEvent),
}

pub struct PainsTab {
    pain: Pain,
    zk: ZkCluster,
    key_at: Micros,
    ends_at: Micros,
    playing: bool,
    events: Vec<TraceLine>,
    key_told: bool,
    clock: FrameClock,
    _keys: Option<EventListener>,
}

impl PainsTab {
    fn start(&mut self, pain: Pain) {
        let (key_at, ends_at) = pain.moments();
        (self.pain, self.zk, self.key_at, self.ends_at) = (pain, pain.cluster(), key_at, ends_at);
        (self.playing, self.key_told) = (true, false);
        self.events.clear();
    }

    /// Play `real_ms` of the pain at its pace.
    fn play(&mut self, real_ms: f64, ctx: &Context<Self>) {
        let now = self.zk.now();
        let lines =
            self.zk.run_until((now + pains::pace(self.key_at, now).step(now, real_ms)).min(self.ends_at));
        self.events.extend(lines.into_iter().filter(|l| !l.kind.is_ping()));
        let excess = self.events.len().saturating_sub(EVENTS_SHOWN);
        self.events.drain(..excess);
        if self.zk.now() >= self.ends_at {
            self.playing = false;
        }
        if !self.key_told && self.zk.now() >= self.key_at {
            self.key_told = true;
            ctx.props().on_key.emit(self.key_at);
        }
    }

    fn controls(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let finished = self.zk.now() >= self.ends_at;
        let pick = |pain: Pain| {
            let on_pick = ctx.props().on_pick.clone();
            html! {
                <button class={classes!((pain != self.pain).then_some("secondary"))} aria-pressed={(pain == self.pain).to_string()}
                        onclick={move |_| on_pick.emit(pain)}>{ pain.title() }</button>
            }
        };
        let pace = (self.playing).then(|| speed_label(pains::pace(self.key_at, self.zk.now()).speed));
        html! {
            <section class="panel race-controls pains-controls" aria-label="Which pain, and playback">
                <div class="race-buttons">
                    { for Pain::ALL.into_iter().map(pick) }
                </div>
                <div class="race-buttons">
                    <button id="pain-play" disabled={finished} onclick={link.callback(|_| Msg::TogglePlay)} title="Space">
                        { if self.playing { "Pause" } else { "Play" } }
                    </button>
                    <button onclick={link.callback(|_| Msg::Step)} disabled={finished} title="S">{ "Step" }</button>
                    <button id="pain-replay" onclick={link.callback(|_| Msg::Replay)} title="R">{ "Replay" }</button>
                    <output id="pain-clock">{ format!("{} (simulated)", format::seconds(self.zk.now())) }</output>
                    if let Some(pace) = pace { <span class="pace">{ pace }</span> }
                </div>
            </section>
        }
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
fn liveness_table(zk: &ZkCluster) -> Html {
    let yes = |b: bool| if b { "yes" } else { "no" };
    html! {
        <table class="liveness">
            <caption>{ "Is each broker alive? It depends whom you ask" }</caption>
            <thead><tr><th scope="col">{ "broker" }</th><th scope="col">{ "process" }</th><th scope="col">{ "ZooKeeper session" }</th>
                <th scope="col">{ "controller's live set" }</th><th scope="col">{ "reachable from the controller" }</th></tr></thead>
            <tbody>
                { for (0..BROKERS).filter_map(|b| zk.liveness(b).ok()).map(|l| {
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

impl Component for PainsTab {
    type Message = Msg;
    type Properties = PainsProps;

    fn create(ctx: &Context<Self>) -> Self {
        let pain = ctx.props().request.pain;
        let (key_at, ends_at) = pain.moments();
        let mut tab = PainsTab {
            pain,
            zk: pain.cluster(),
            key_at,
            ends_at,
            playing: true,
            events: Vec::new(),
            key_told: false,
            clock: FrameClock::default(),
            _keys: listen(ctx.link().callback(Msg::Key)),
        };
        tab.clock.keep(tab.playing, ctx.link(), Msg::Frame);
        tab
    }

    fn changed(&mut self, ctx: &Context<Self>, old: &Self::Properties) -> bool {
        if ctx.props().request != old.request {
            self.start(ctx.props().request.pain);
            self.clock.keep(self.playing, ctx.link(), Msg::Frame);
        }
        true
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Self::Message) -> bool {
        match msg {
            Msg::Frame(ts) => {
                let real_ms = self.clock.tick(ts);
                if self.playing {
                    self.play(real_ms, ctx);
                }
            }
            Msg::TogglePlay => self.playing = !self.playing && self.zk.now() < self.ends_at,
            Msg::Step => {
                self.playing = false;
                self.play(STEP_MS, ctx);
            }
            Msg::Replay => self.start(self.pain),
            Msg::Key(event) => {
                let Some(key) = shortcut(&event).filter(|k| is_race_key(k)) else { return false };
                event.prevent_default();
                let msg = match key.as_str() {
                    " " => Msg::TogglePlay,
                    "s" | "S" => Msg::Step,
                    "r" | "R" => Msg::Replay,
                    _ => return false,
                };
                return Component::update(self, ctx, msg);
            }
        }
        self.clock.keep(self.playing, ctx.link(), Msg::Frame);
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let props = ctx.props();
        let pain = self.pain;
        let step = pain.kraft_step();
        let on_step = props.on_step.clone();
        let seen = self.zk.now() >= self.key_at;
        let rows = copies(&self.zk);
        html! {
            <main class="pains-tab" data-pain={pain.id()}>
                { self.controls(ctx) }
                <div class="race">
                    <section class="panel side-zk" aria-label="ZooKeeper mode">
                        <div class="side-head"><h2>{ "ZooKeeper mode" }</h2><p class="side-state">{ pain.title() }</p></div>
                        <p class="visually-hidden" role="status" id="pain-phase">
                            { if seen { "The dead broker's session expired; the watches fired." } else { "A broker has died; its session is still alive." } }
                        </p>
                        <ZkView picture={pains::picture(&self.zk, &rows)} compact={false} reduced_motion={props.reduced_motion} />
                        <ol class="pain-events" aria-label="Latest events">
                            { for self.events.iter().map(|l| html! { <li>{ format!("{} {}", format::seconds(l.at), l.kind) }</li> }) }
                        </ol>
                        <div class="table-scroll" role="region" aria-label="Copies of the truth" tabindex="0">{ copies_table(&rows) }</div>
                        <div class="table-scroll" role="region" aria-label="Liveness" tabindex="0">{ liveness_table(&self.zk) }</div>
                    </section>
                    <section class="panel side-kraft" aria-label="KRaft in the same situation">
                        <div class="side-head"><h2>{ "KRaft, in the same situation" }</h2></div>
                        <p class="kraft-answer">{ pain.kraft_answer() }</p>
                        <button class="secondary" onclick={move |_| on_step.emit(step)}>{ format!("See it live: tour step {step}") }</button>
                    </section>
                </div>
            </main>
        }
    }
}

//! The failover race as drawn: a KRaft cluster and a ZooKeeper-mode cluster of the same size
//! side by side, their stopwatches, a partition grid per side, the pace (time-lapse and slow
//! motion, always labelled), play, step, kill, run again, a scrubber, and the measured curve.
//! What the race does lives in [`crate::page::race`]; this only draws it and turns its controls
//! into actions.

use yew::prelude::*;

use super::chart::Chart;
use super::chips::chips;
use super::cluster_view::ClusterView;
use super::partition_grid::PartitionGridView;
use super::zk_view::{ZK_LEGEND, ZkView, phase_text, zk_message_colour};
use crate::experiments::failover::KraftRoles;
use crate::harness::MS;
use crate::harness::playback::speed_label;
use crate::page::chips::{kraft_chips, zk_chips};
use crate::page::race::measured::nearest;
use crate::page::race::size::{MAX_EXP, MIN_EXP};
use crate::page::race::{Playback, RaceView};
use crate::page::{Action, RaceAction};
use crate::quorum::{QuorumConfig, RoleKind};
use crate::race::{FailoverRace, RaceStage, kraft_phase, zk_phase};
use crate::session::message_kinds::message_kind;
use crate::session::params::Controls as ControlLevel;
use crate::session::picture::{ClusterPicture, picture};
use crate::util::float;
use crate::util::format;

/// Most cells a partition grid has.
const GRID_CELLS: u32 = 2_000;

/// How the race is laid out: embedded (no chart, no legend, a one-line caption and a compact
/// stacked layout), which controls show, and whether motion is reduced.
#[derive(Clone, Copy)]
pub struct Layout {
    pub compact: bool,
    pub controls: ControlLevel,
    pub reduced_motion: bool,
    /// How many times the window was resized, for the drawings to measure their frames again.
    pub resizes: u32,
    /// How much larger the drawings' type is (presenter mode).
    pub zoom: f64,
}

/// The failover view of `view`; its controls send `on` the race's actions.
pub fn failover_tab(view: &RaceView, layout: Layout, on: &Callback<Action>) -> Html {
    let drawing = Drawing { view, layout, on };
    let partitions = view.partitions();
    html! {
        <main class={classes!("failover-tab", layout.compact.then_some("compact"))}>
            if layout.compact { { drawing.caption() } }
            if layout.controls != ControlLevel::None { { drawing.controls() } }
            { drawing.headline() }
            <div class="race">
                { drawing.kraft_side() }
                { drawing.zk_side() }
            </div>
            if !layout.compact {
                <RaceLegend />
                <section class="panel" aria-label="Measured unavailability">
                    <h2>{ "Unavailability against partitions" }</h2>
                    <Chart points={view.measured().to_vec()} marker={partitions} />
                    <p class="hint">{ "Measured by the same core (kraftscope failover --csv). ZooKeeper mode follows Kafka 2.4, its costs fitted to published figures: ~37 s to load 1,000,000 partitions plus ~40 s for brokers to apply them (async reads); ~60 s at 100,000 with the 2017 synchronous reads. How the push cost splits per entry, the write and network latencies are estimates (README: Sources). It models costs per request and per partition, not a real ZooKeeper." }</p>
                </section>
            }
        </main>
    }
}

/// The race view being drawn.
struct Drawing<'a> {
    view: &'a RaceView,
    layout: Layout,
    on: &'a Callback<Action>,
}

impl Drawing<'_> {
    /// A callback sending the race `action`.
    fn send(&self, action: RaceAction) -> Callback<MouseEvent> {
        self.on.reform(move |_| Action::Race(action.clone()))
    }

    fn caption(&self) -> Html {
        let size = self.view.race().map_or(String::new(), |r| format::count(r.partitions()));
        let kraft = match self.view.roles() {
            KraftRoles::Combined => "KRaft, combined nodes (top)",
            KraftRoles::Dedicated { .. } => "KRaft (top)",
        };
        html! {
            <p class="race-caption">{ format!("{size} partitions, both controllers killed: {kraft} vs ZooKeeper mode") }</p>
        }
    }

    fn controls(&self) -> Html {
        let view = self.view;
        let full = self.layout.controls == ControlLevel::Full && !self.layout.compact;
        let partitions = view.partitions();
        let stage = view.race().map(FailoverRace::stage);
        let prepared = matches!(stage, Some(RaceStage::Ready | RaceStage::Running { .. }));
        let running = matches!(stage, Some(RaceStage::Running { .. }));
        let finished = view.race().is_some_and(FailoverRace::finished);
        let elapsed = match stage {
            Some(RaceStage::Running { elapsed }) => elapsed,
            _ => 0,
        };
        let on_partitions = self.on.reform(|e: InputEvent| {
            let exp = e.target_unchecked_into::<web_sys::HtmlInputElement>().value_as_number();
            Action::Race(RaceAction::Partitions(exp))
        });
        let on_roles = self.on.reform(|e: Event| {
            let value = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            let roles = KraftRoles::from_name(&value).unwrap_or(KraftRoles::DEDICATED);
            Action::Race(RaceAction::Roles(roles))
        });
        let combined = view.roles() == KraftRoles::Combined;
        let on_playback = self.on.reform(|e: Event| {
            let value = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            Action::Race(RaceAction::Playback(float::parse(&value).map_or(Playback::Auto, Playback::Fixed)))
        });
        let on_seek = self.on.reform(|e: InputEvent| {
            let ms = e.target_unchecked_into::<web_sys::HtmlInputElement>().value_as_number();
            Action::Race(RaceAction::Seek((ms.max(0.0) as u64) * MS))
        });
        let play_label = if view.playing() { "Pause" } else { "Play" };
        let fixed = view.playback().fixed();
        let pace = view.shown_speed().filter(|s| *s != 1.0).map(speed_label);
        html! {
            <section class="panel race-controls" aria-label="Failover race">
                if full {
                    <label class="partitions">{ "Partitions " }
                        <input id="partitions" type="range" min={MIN_EXP.to_string()} max={MAX_EXP.to_string()} step="0.05" value={view.exp().to_string()}
                               oninput={on_partitions} aria-valuetext={format::count(partitions)} />
                        <output id="partition-count">{ format::count(partitions) }</output>
                    </label>
                }
                if full {
                    <label>{ "KRaft side " }
                        <select id="kraft-roles" onchange={on_roles}>
                            <option value="dedicated" selected={!combined}>{ "3 dedicated controllers, 5 brokers" }</option>
                            <option value="combined" selected={combined}>{ "3 combined nodes (controller + broker), 2 brokers: like for like" }</option>
                        </select>
                    </label>
                }
                <div class="race-buttons">
                    <button id="race-play" class="play" disabled={!prepared || finished} title="Space" onclick={self.send(RaceAction::TogglePlay)}>{ play_label }</button>
                    <button id="race-step" disabled={!prepared || finished} title="S" onclick={self.send(RaceAction::Step)}>{ "Step" }</button>
                    <button id="kill-both" disabled={!prepared} title="K" onclick={self.send(RaceAction::Kill)}>{ "Kill both active controllers" }</button>
                    <button id="run-again" disabled={!running} title="R" onclick={self.send(RaceAction::RunAgain)}>{ "Run again" }</button>
                    if full {
                        <button id="skip-to-end" disabled={!running} onclick={self.send(RaceAction::SkipToEnd)}>{ "Skip to the end" }</button>
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
                        <input id="race-timeline" type="range" min="0" max={(view.horizon().max(elapsed) / MS).max(1).to_string()} step="1"
                               value={(elapsed / MS).to_string()} oninput={on_seek} disabled={!running}
                               aria-label="Race timeline: drag back to replay" aria-valuetext={format::seconds(elapsed)} />
                    </label>
                }
                { self.stage_text() }
            </section>
        }
    }

    fn stage_text(&self) -> Html {
        let text = match (self.view.race(), self.view.error()) {
            (_, Some(error)) => format!("Cannot prepare: {error}"),
            (None, None) => String::new(),
            (Some(race), None) => match race.stage() {
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

    fn headline(&self) -> Html {
        let Some(headline) = self.view.race().and_then(FailoverRace::headline) else {
            return html! {};
        };
        let compact = self.layout.compact;
        let why = if compact {
            ""
        } else {
            ": a standby controller already held the log; ZooKeeper mode had to read it all back and push it to every broker"
        };
        let race = self.view.race();
        let lead = race.and_then(FailoverRace::zk_report).filter(|_| !compact).map(|r| {
            let kraft = race.map_or(0, FailoverRace::kraft_leaderless_partitions);
            let kraft_for = race
                .and_then(FailoverRace::kraft_leaders_back_after)
                .filter(|_| kraft > 0)
                .map_or(String::new(), |t| format!(" for {}", format::seconds(t)));
            format!(
                " Partitions without a leader meanwhile: {} on the ZooKeeper side for {}, {}{kraft_for} on the KRaft side.",
                format::count(r.leaderless_partitions),
                r.leaders_back_after.map_or("good".to_string(), format::seconds),
                format::count(kraft)
            )
        });
        html! { <p id="race-headline" class="race-headline">{ format!("{headline}{why}.{}", lead.unwrap_or_default()) }</p> }
    }

    fn kraft_side(&self) -> Html {
        let Some(race) = self.view.race() else { return html! {} };
        let layout = self.layout;
        let elapsed = race.elapsed().unwrap_or(0);
        let shown = race.kraft_recovered_after().unwrap_or(elapsed);
        let drawing =
            race.kraft_sim().map(|sim| picture(sim, &[], QuorumConfig::default().fetch_timeout, None));
        let combined = race.roles() == KraftRoles::Combined;
        let waiting = race.kraft_leaderless_partitions();
        let status = match (race.kraft_recovered_after(), race.elapsed()) {
            (Some(t), _) if waiting > 0 => match race.kraft_leaders_back_after() {
                None => format!(
                    "Back after {}: a new controller committed a metadata change. The killed node's {} partitions wait for its broker session to expire (broker.session.timeout.ms, 9 s from the new controller's start), then it is fenced and they move.",
                    format::seconds(t),
                    format::count(waiting)
                ),
                Some(back) => format!(
                    "Back after {}; the killed node's broker was fenced and its {} partitions led again after {}.",
                    format::seconds(t),
                    format::count(waiting),
                    format::seconds(back)
                ),
            },
            (Some(t), _) => format!("Back after {}: a new controller committed a metadata change.", format::seconds(t)),
            (None, Some(_)) => {
                "The leader is gone: followers wait out controller.quorum.fetch.timeout.ms, then pre-vote and vote."
                    .to_string()
            }
            (None, None) if combined => "Three combined nodes, each a controller and a broker, and two brokers; the standbys have already replayed the whole log into their images.".to_string(),
            (None, None) => {
                "Three controllers; the standbys have already replayed the whole log into their images.".to_string()
            }
        };
        let leader =
            race.kraft_leader().map_or("no active controller: electing".to_string(), |(id, epoch)| {
                format!("active controller n{id}, epoch {epoch}")
            });
        let spread = nearest(self.view.measured(), race.partitions()).map(|p| {
            format!(
                "One seed's run. Over 21 seeds at {} partitions (kraftscope failover{}): p50 {:.2} s, p99 {:.2} s.",
                format::count(p.0),
                if combined { ", dedicated controllers" } else { "" },
                p.1,
                p.3
            )
        });
        html! {
            <section class="panel side-kraft" aria-label="KRaft">
                <p class="visually-hidden" role="status" id="kraft-phase">{ kraft_phase(race) }</p>
                <div class="side-head">
                    <h2>{ if combined { "KRaft, combined nodes" } else { "KRaft" } }</h2>
                    <p class="stopwatch" id="kraft-stopwatch">{ format::seconds(shown) }</p>
                    <p class="side-state">{ leader }</p>
                    if let Some(spread) = spread {
                        <p class="side-state" id="kraft-spread">{ spread }</p>
                    }
                </div>
                if let Some(view) = drawing {
                    <p class="side-caption">{ fetch_caption(&view).unwrap_or(status) }</p>
                    if layout.compact { { chips(&kraft_chips(&view), "KRaft") } }
                    <ClusterView picture={view} selected={None::<u32>} on_select={Callback::noop()} reduced_motion={layout.reduced_motion} legend={false} interactive={false} resizes={layout.resizes} zoom={layout.zoom} />
                } else {
                    <p class="side-caption">{ status }</p>
                }
                <PartitionGridView grid={race.kraft_grid(GRID_CELLS)} side="kraft" band_prefix="n" compact={layout.compact} />
            </section>
        }
    }

    fn zk_side(&self) -> Html {
        let Some(race) = self.view.race() else { return html! {} };
        let layout = self.layout;
        let elapsed = race.elapsed();
        let report = race.zk_report();
        let shown = report.as_ref().map_or(elapsed.unwrap_or(0), |r| r.brokers_updated_after);
        let drawing = race.zk().map(|zk| zk.picture());
        let phase = drawing.as_ref().map_or(String::new(), |p| phase_text(p.phase, elapsed.is_some()));
        let summary = race.zk_summary();
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
                    if layout.compact { { chips(&zk_chips(&view), "ZooKeeper mode") } }
                    <ZkView picture={view} compact={layout.compact} reduced_motion={layout.reduced_motion} zoom={layout.zoom} resizes={layout.resizes} />
                }
                <PartitionGridView grid={race.zk_grid(GRID_CELLS)} side="zk" band_prefix="b" compact={layout.compact} />
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
            <p class="how-to-read">{ "Left, KRaft: three controllers (a Raft quorum; the crown marks the active one) and five brokers that fetch the metadata log by offset; or, like for like, three combined nodes (each a controller and a broker, marked \"+ broker\") and two brokers. Right, ZooKeeper mode: the ensemble holds the metadata; one broker (the crown) is the controller. The grid under each side is every partition's state: one cell stands for many partitions. The stopwatches time the controllers; the lead band times the partitions." }</p>
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
                <span class="legend-item">{ swatch("served") }{ " has a live leader" }</span>
                <span class="legend-item">{ swatch("leaderless") }{ " no live leader" }</span>
            </div>
        </div>
    }
}

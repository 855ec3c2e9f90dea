//! The page: a live cluster driven by one animation frame loop (none while paused), its
//! controls, invariants, event log and timeline, and the failover race against ZooKeeper mode.

use gloo::events::{EventListener, EventListenerOptions};
use gloo::render::{AnimationFrame, request_animation_frame};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::cluster_view::{ClusterView, MESSAGE_LEGEND, epoch_colour, message_style};
use super::controls::{ControlMsg, Controls, SelectedNode};
use super::event_log::{EventLog, LogFilter};
use super::failover_tab::FailoverTab;
use super::invariants_panel::InvariantsPanel;
use super::timeline::{MAX_SPEED_EXP, MIN_SPEED_EXP, Timeline, TimelineMsg};
use crate::metadata::rpc::ControllerRpc;
use crate::quorum::message::FetchResult;
use crate::quorum::{MS, Message, Micros, NodeId};
use crate::session::picture::picture;
use crate::session::{Action, Session, Settings};
use crate::sim::packet::Payload;
use crate::sim::{TraceKind, TraceLine};

/// Quiet stretches (nothing but idle fetches and heartbeats in flight) play this much faster,
/// so waiting out timeouts does not drag while elections and replication play at the set speed.
const QUIET_WARP: f64 = 30.0;
/// Most simulated events processed in one animation frame.
const FRAME_EVENT_BUDGET: usize = 5_000;
/// Longest real time one frame may account for (after the tab was hidden, say).
const MAX_FRAME_MS: f64 = 100.0;
/// How long a lost message is shown falling, in real milliseconds.
const FALL_MS: f64 = 900.0;
/// The full circle of a timeout arc.
const TIMEOUT_FULL: Micros = 2_000 * MS;

#[derive(Properties, PartialEq)]
pub struct AppProps {
    /// The page's query string (`?seed=7&...`).
    pub search: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Cluster,
    Failover,
}

pub enum Msg {
    Frame(f64),
    Timeline(TimelineMsg),
    Control(ControlMsg),
    Select(NodeId),
    Filter(LogFilter),
    Tab(Tab),
    Key(KeyboardEvent),
}

pub struct App {
    session: Session,
    form: Settings,
    playing: bool,
    speed_exp: f64,
    frame: Option<AnimationFrame>,
    last_frame: Option<f64>,
    selected: Option<NodeId>,
    filter: LogFilter,
    falling: Vec<(f64, TraceLine)>,
    notice: Option<String>,
    topic: (u32, u32),
    tab: Tab,
    _keys: Option<EventListener>,
}

impl Component for App {
    type Message = Msg;
    type Properties = AppProps;

    fn create(ctx: &Context<Self>) -> Self {
        if ctx.props().search.contains("panic=1") {
            panic!("deliberate panic requested with ?panic=1 (shows the error panel)");
        }
        let settings = Settings::default();
        let link = ctx.link().clone();
        let keys = gloo::utils::window().dyn_into::<web_sys::EventTarget>().ok().map(|window| {
            let options = EventListenerOptions::enable_prevent_default();
            EventListener::new_with_options(&window, "keydown", options, move |event| {
                if let Some(key) = event.dyn_ref::<KeyboardEvent>() {
                    link.send_message(Msg::Key(key.clone()));
                }
            })
        });
        let mut app = App {
            session: Session::new(settings.clone()),
            form: settings,
            playing: true,
            speed_exp: -1.0,
            frame: None,
            last_frame: None,
            selected: None,
            filter: LogFilter::default(),
            falling: Vec::new(),
            notice: None,
            topic: (6, 2),
            tab: Tab::Cluster,
            _keys: keys,
        };
        app.schedule(ctx);
        app
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Self::Message) -> bool {
        match msg {
            Msg::Frame(ts) => self.on_frame(ts),
            Msg::Timeline(m) => self.on_timeline(m),
            Msg::Control(m) => self.on_control(m),
            Msg::Select(id) => self.selected = if self.selected == Some(id) { None } else { Some(id) },
            Msg::Filter(filter) => self.filter = filter,
            Msg::Tab(tab) => self.tab = tab,
            Msg::Key(event) => {
                if !self.on_key(&event) {
                    return false;
                }
                event.prevent_default();
            }
        }
        self.schedule(ctx);
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let tab = |t: Tab, label: &str| {
            let selected = self.tab == t;
            html! {
                <button role="tab" aria-selected={selected.to_string()} class={classes!("tab", selected.then_some("active"))}
                        onclick={link.callback(move |_| Msg::Tab(t))}>{ label }</button>
            }
        };
        html! {
            <div class="page">
                <header>
                    <h1>{ "kraftscope" }</h1>
                    <p class="tagline">{ "Kafka's KRaft metadata quorum, simulated live: elections, epochs, fetch-by-offset, and failover against ZooKeeper mode." }</p>
                    <nav role="tablist" aria-label="Views">
                        { tab(Tab::Cluster, "Live cluster") }
                        { tab(Tab::Failover, "Failover: KRaft vs ZooKeeper") }
                    </nav>
                </header>
                <div role="status" class="notice" aria-live="polite">{ self.notice.clone().unwrap_or_default() }</div>
                if self.tab == Tab::Cluster { { self.cluster_tab(ctx) } } else { <FailoverTab /> }
            </div>
        }
    }
}

impl App {
    /// Keep exactly one animation frame requested while playing; none while paused.
    fn schedule(&mut self, ctx: &Context<Self>) {
        if self.playing && self.tab == Tab::Cluster {
            if self.frame.is_none() {
                let link = ctx.link().clone();
                self.frame = Some(request_animation_frame(move |ts| link.send_message(Msg::Frame(ts))));
            }
        } else {
            self.frame = None;
            self.last_frame = None;
        }
    }

    fn on_frame(&mut self, ts: f64) {
        self.frame = None;
        let elapsed = self.last_frame.map_or(0.0, |last| (ts - last).clamp(0.0, MAX_FRAME_MS));
        self.last_frame = Some(ts);
        let quiet = self.session.sim().in_flight().all(|(_, _, packet)| is_routine(&packet.payload));
        let factor = 10f64.powf(self.speed_exp) * if quiet { QUIET_WARP } else { 1.0 };
        let before = self.session.now();
        let target = before + (elapsed * 1_000.0 * factor) as Micros;
        self.session.advance_to(target, FRAME_EVENT_BUDGET);
        let lost = self
            .session
            .log()
            .iter()
            .rev()
            .take_while(|l| l.at > before)
            .filter(|l| matches!(l.kind, TraceKind::Lost { .. }));
        self.falling.extend(lost.cloned().map(|l| (ts, l)).collect::<Vec<_>>());
        self.falling.retain(|(shown, _)| ts - *shown < FALL_MS);
    }

    fn on_timeline(&mut self, msg: TimelineMsg) {
        match msg {
            TimelineMsg::TogglePlay => self.playing = !self.playing,
            TimelineMsg::Step => {
                self.playing = false;
                self.session.step();
            }
            TimelineMsg::SpeedExp(exp) => self.speed_exp = exp.clamp(MIN_SPEED_EXP, MAX_SPEED_EXP),
            TimelineMsg::Seek(t) => {
                self.playing = false;
                self.falling.clear();
                self.session.seek(t.min(self.session.horizon()));
            }
        }
    }

    fn on_control(&mut self, msg: ControlMsg) {
        match msg {
            ControlMsg::Act(action) => self.act(action),
            ControlMsg::Edit(form) => self.form = form,
            ControlMsg::Topic { partitions, replication } => self.topic = (partitions, replication),
            ControlMsg::Reset => match self.form.validate() {
                Ok(()) => {
                    self.session = Session::new(self.form.clone());
                    self.selected = None;
                    self.falling.clear();
                    self.notice = Some(format!(
                        "Reset: seed {}, {} controllers, {} brokers",
                        self.form.seed, self.form.voters, self.form.brokers
                    ));
                }
                Err(error) => self.notice = Some(format!("Cannot reset: {error}")),
            },
        }
    }

    fn act(&mut self, action: Action) {
        let text = action_text(&action);
        self.notice = Some(match self.session.act(action) {
            Ok(()) => text,
            Err(error) => format!("{text} refused: {error}"),
        });
    }

    /// Keyboard shortcuts; returns whether the key was used.
    fn on_key(&mut self, event: &KeyboardEvent) -> bool {
        let typing = event
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|e| matches!(e.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA"));
        if typing || event.ctrl_key() || event.meta_key() || event.alt_key() {
            return false;
        }
        match event.key().as_str() {
            " " => self.on_timeline(TimelineMsg::TogglePlay),
            "s" | "S" => self.on_timeline(TimelineMsg::Step),
            "k" | "K" => self.act(Action::KillLeader),
            "h" | "H" => self.act(Action::Heal),
            "g" | "G" => self.act(Action::Resign),
            "r" | "R" => self.on_control(ControlMsg::Reset),
            "i" | "I" => match self.selected {
                Some(id) => self.act(Action::Isolate(id)),
                None => {
                    self.notice = Some("Select a node first (click it, or Tab to it and press Enter)".into())
                }
            },
            _ => return false,
        }
        true
    }

    fn cluster_tab(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let sim = self.session.sim();
        let falling: Vec<TraceLine> = self.falling.iter().map(|(_, l)| l.clone()).collect();
        let view = picture(sim, &falling, TIMEOUT_FULL);
        let selected = self.selected.and_then(|id| {
            view.nodes.iter().find(|n| n.id == id).map(|n| SelectedNode {
                id,
                voter: n.voter,
                running: n.role.is_some(),
            })
        });
        let network = sim.network().config.clone();
        let network = (
            (network.latency_min / MS) as u32,
            (network.latency_max / MS) as u32,
            (network.drop_rate * 100.0).round() as u32,
        );
        let lines = self.filter.shown(self.session.log().iter());
        let nodes: Vec<NodeId> = sim.node_ids().collect();
        html! {
            <main class="cluster-tab">
                <div class="stage">
                    <ClusterView picture={view} selected={self.selected} on_select={link.callback(Msg::Select)} />
                    { legend() }
                    <Timeline now={self.session.now()} horizon={self.session.horizon()} playing={self.playing}
                              speed_exp={self.speed_exp} on={link.callback(Msg::Timeline)} />
                    <EventLog lines={lines} nodes={nodes} filter={self.filter.clone()} on_filter={link.callback(Msg::Filter)} />
                </div>
                <aside class="side">
                    <Controls selected={selected} form={self.form.clone()} network={network} topic={self.topic}
                              on={link.callback(Msg::Control)} />
                    <InvariantsPanel violation={self.session.violation().cloned()} events={sim.events_processed()} />
                </aside>
            </main>
        }
    }
}

/// Idle traffic: fetches, empty fetch responses and heartbeats.
fn is_routine(payload: &Payload) -> bool {
    match payload {
        Payload::Quorum(Message::Fetch { .. }) => true,
        Payload::Quorum(Message::FetchResponse { result: FetchResult::Records(records), .. }) => {
            records.is_empty()
        }
        Payload::Quorum(Message::FetchResponse { result: FetchResult::NotLeader, .. }) => true,
        Payload::Controller(rpc) => matches!(
            rpc,
            ControllerRpc::BrokerHeartbeat { .. } | ControllerRpc::BrokerHeartbeatResponse { .. }
        ),
        Payload::Quorum(_) => false,
    }
}

/// How an action reads in the status line.
fn action_text(action: &Action) -> String {
    match action {
        Action::Crash(n) => format!("Crashed n{n}"),
        Action::Restart(n) => format!("Restarted n{n}"),
        Action::Isolate(n) => format!("Isolated n{n}"),
        Action::Cut(a, b) => format!("Cut n{a} from n{b}"),
        Action::Heal => "Healed all links".into(),
        Action::KillLeader => "Killed the active controller".into(),
        Action::Resign => "The leader resigns (EndQuorumEpoch)".into(),
        Action::CreateTopic { partitions, replication } => {
            format!("Created a topic: {partitions} partitions x{replication}")
        }
        Action::ShutDown(n) => format!("Controlled shutdown of n{n}"),
        Action::Network { latency_min_ms, latency_max_ms, drop_percent } => {
            format!("Network: {latency_min_ms}-{latency_max_ms} ms, {drop_percent}% dropped")
        }
    }
}

fn legend() -> Html {
    html! {
        <div class="legend" aria-label="Legend">
            <span class="legend-title">{ "Messages:" }</span>
            { for MESSAGE_LEGEND.iter().map(|(kind, text)| {
                let (colour, label) = message_style(kind);
                html! { <span class="legend-item"><svg width="14" height="14" aria-hidden="true"><circle cx="7" cy="7" r="6" fill={colour} /></svg>{ format!(" {label} {text}") }</span> }
            }) }
            <span class="legend-title">{ "Log cells:" }</span>
            { for (1..=3).map(|e| html! {
                <span class="legend-item"><svg width="14" height="14" aria-hidden="true"><rect width="12" height="14" fill={epoch_colour(e)} /></svg>{ format!(" epoch {e}") }</span>
            }) }
            <span class="legend-item">{ "faded = not committed yet · bar = high watermark" }</span>
        </div>
    }
}

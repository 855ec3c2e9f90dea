//! The page: a live cluster driven by one animation frame loop (none while paused), its
//! controls, invariants, event log and timeline; the failover race against ZooKeeper mode; the
//! guided tour, presenter mode, embedding and shared links, all configured from the URL.

use gloo::events::EventListener;
use yew::prelude::*;

use super::cluster_view::ClusterView;
use super::controls::{ControlMsg, Controls, SelectedNode};
use super::event_log::{EventLog, LogFilter};
use super::failover_tab::{FailoverTab, RaceRequest};
use super::frame_clock::FrameClock;
use super::help::HelpOverlay;
use super::invariants_panel::InvariantsPanel;
use super::keys::{is_race_key, listen, shortcut};
use super::log_tab::LogTab;
use super::timeline::{MAX_SPEED_EXP, MIN_SPEED_EXP, Timeline, TimelineMsg};
use super::tour::TourPanel;
use crate::metadata::rpc::ControllerRpc;
use crate::quorum::message::FetchResult;
use crate::quorum::{MS, Message, Micros, NodeId, RoleKind};
use crate::session::params::{Controls as ControlLevel, PageParams};
use crate::session::picture::picture;
use crate::session::stories::{self, Story, TOUR, View};
use crate::session::{Action, Session, Settings, TIMELINE_LIMIT};
use crate::sim::packet::Payload;
use crate::sim::{Simulation, TraceKind, TraceLine};

/// Quiet stretches (nothing but idle fetches and heartbeats in flight) play this much faster,
/// so waiting out timeouts does not drag while elections and replication play at the set speed
/// (at the default speed, quiet stretches run at 1.5x).
const QUIET_WARP: f64 = 100.0;
/// Most simulated events processed in one animation frame.
const FRAME_EVENT_BUDGET: usize = 5_000;
/// How long a lost message is shown falling, in real milliseconds.
const FALL_MS: f64 = 900.0;
/// Most lost messages shown falling at once (the newest): at high speed a cut link loses
/// hundreds a frame.
const MAX_FALLING: usize = 40;
/// While playing, the event log is refreshed every this many frames (its text reflows).
const LOG_REFRESH_FRAMES: u32 = 8;
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
    Log,
}

pub enum Msg {
    Frame(f64),
    Timeline(TimelineMsg),
    Control(ControlMsg),
    Select(NodeId),
    Filter(LogFilter),
    Tab(Tab),
    Key(KeyboardEvent),
    Tour(Option<usize>),
    Help(bool),
    DismissNotices,
    /// Race the failover of a cluster the size of an opened metadata log.
    RaceFromLog(u64),
    /// Save the live cluster's metadata log as Kafka's files.
    DownloadLog,
}

pub struct App {
    params: PageParams,
    notices: Vec<String>,
    session: Session,
    form: Settings,
    playing: bool,
    speed_exp: f64,
    clock: FrameClock,
    selected: Option<NodeId>,
    filter: LogFilter,
    falling: Vec<(f64, TraceLine)>,
    status: String,
    topic: (u32, u32),
    tab: Tab,
    tour: Option<usize>,
    race: RaceRequest,
    present: bool,
    help: bool,
    share: Option<String>,
    announcement: String,
    last_leader: Option<(NodeId, u32)>,
    fenced: Vec<NodeId>,
    reduced_motion: bool,
    /// The event log as shown with the trace lines and actions the timeline holds, and frames
    /// since it was refreshed.
    log_lines: Vec<(String, bool)>,
    log_counts: (usize, usize),
    frames_since_log: u32,
    _keys: Option<EventListener>,
}

impl Component for App {
    type Message = Msg;
    type Properties = AppProps;

    fn create(ctx: &Context<Self>) -> Self {
        let (params, notices) = PageParams::parse(&ctx.props().search);
        if params.panic {
            panic!("deliberate panic requested with ?panic=1 (shows the error panel)");
        }
        let keys = listen(ctx.link().callback(Msg::Key));
        let reduced_motion = gloo::utils::window()
            .match_media("(prefers-reduced-motion: reduce)")
            .ok()
            .flatten()
            .is_some_and(|query| query.matches());
        let settings = params.settings.clone();
        let mut app = App {
            notices,
            session: Session::new(settings.clone()),
            form: settings,
            playing: params.autoplay && params.tour.is_none(),
            speed_exp: params.speed.log10(),
            clock: FrameClock::default(),
            selected: None,
            filter: LogFilter::default(),
            falling: Vec::new(),
            status: String::new(),
            topic: (6, 2),
            tab: Tab::Cluster,
            tour: params.tour.map(|step| step - 1),
            race: RaceRequest { partitions: params.partitions, shown_after_kill_ms: None, generation: 0 },
            present: params.present,
            help: false,
            share: None,
            announcement: String::new(),
            last_leader: None,
            fenced: Vec::new(),
            reduced_motion,
            log_lines: Vec::new(),
            log_counts: (0, 0),
            frames_since_log: 0,
            params,
            _keys: keys,
        };
        app.start_over();
        app.frames_since_log = LOG_REFRESH_FRAMES;
        app.refresh_log();
        app.schedule(ctx);
        app
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Self::Message) -> bool {
        match msg {
            Msg::Frame(ts) => self.on_frame(ts),
            Msg::Timeline(m) => self.on_timeline(m),
            Msg::Control(m) => self.on_control(m),
            Msg::Select(id) => self.selected = if self.selected == Some(id) { None } else { Some(id) },
            Msg::Filter(filter) => {
                self.filter = filter;
                self.frames_since_log = LOG_REFRESH_FRAMES;
            }
            Msg::Tab(tab) => self.tab = tab,
            Msg::Key(event) => {
                if !self.on_key(&event) {
                    return false;
                }
                event.prevent_default();
            }
            Msg::Tour(step) => self.go_to_step(step),
            Msg::Help(open) => self.help = open,
            Msg::DismissNotices => self.notices.clear(),
            Msg::RaceFromLog(partitions) => {
                let generation = self.race.generation + 1;
                self.race = RaceRequest { partitions, shown_after_kill_ms: None, generation };
                self.tab = Tab::Failover;
            }
            Msg::DownloadLog => self.status = super::download::save_cluster_log(self.session.sim()),
        }
        self.announce();
        self.refresh_log();
        self.schedule(ctx);
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let chrome = !self.params.embed;
        let class = classes!("page", self.present.then_some("present"), self.params.embed.then_some("embed"));
        // The whole state's fingerprint while paused, for tests comparing a shared link's state.
        let fingerprint =
            (!self.playing && self.tab == Tab::Cluster).then(|| self.session.fingerprint().to_string());
        html! {
            <div class={class} data-fingerprint={fingerprint}>
                if chrome { { self.header(ctx) } }
                if !self.notices.is_empty() {
                    <div class="notices" role="alert">
                        <p>{ "Some URL parameters were not used:" }</p>
                        <ul>{ for self.notices.iter().map(|n| html! { <li>{ n }</li> }) }</ul>
                        <button class="secondary" onclick={link.callback(|_| Msg::DismissNotices)}>{ "Dismiss" }</button>
                    </div>
                }
                <div role="status" class="notice" aria-live="polite">{ &self.status }</div>
                <div id="announcer" class="visually-hidden" role="status" aria-live="assertive">{ &self.announcement }</div>
                if let Some(step) = self.tour {
                    <TourPanel step={step} on_go={link.callback(|s| Msg::Tour(Some(s)))} on_exit={link.callback(|_| Msg::Tour(None))} />
                }
                if self.tab == Tab::Cluster {
                    { self.cluster_tab(ctx) }
                } else if self.tab == Tab::Log {
                    <LogTab on_race={link.callback(Msg::RaceFromLog)} on_download={link.callback(|_| Msg::DownloadLog)} />
                } else {
                    <FailoverTab request={self.race.clone()} compact={self.params.embed} controls={self.params.controls} reduced_motion={self.reduced_motion} />
                }
                if self.help { <HelpOverlay on_close={link.callback(|_| Msg::Help(false))} /> }
            </div>
        }
    }
}

impl App {
    fn header(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let tab = |t: Tab, label: &str| {
            let selected = self.tab == t;
            html! {
                <button role="tab" aria-selected={selected.to_string()} class={classes!("tab", selected.then_some("active"))}
                        onclick={link.callback(move |_| Msg::Tab(t))}>{ label }</button>
            }
        };
        html! {
            <header>
                <h1>{ "kraftscope" }</h1>
                <p class="tagline">{ "Kafka's KRaft metadata quorum, simulated live: elections, epochs, fetch-by-offset, and failover against ZooKeeper mode." }</p>
                <nav role="tablist" aria-label="Views">
                    { tab(Tab::Cluster, "Live cluster") }
                    { tab(Tab::Failover, "Failover: KRaft vs ZooKeeper") }
                    { tab(Tab::Log, "Open a metadata log") }
                </nav>
                <div class="header-buttons">
                    if self.tour.is_none() {
                        <button id="start-tour" class="secondary" onclick={link.callback(|_| Msg::Tour(Some(0)))}>{ "Guided tour" }</button>
                    }
                    <button class="secondary" onclick={link.callback(|_| Msg::Help(true))} aria-label="Keyboard shortcuts">{ "?" }</button>
                </div>
            </header>
        }
    }

    /// Put the page in its initial state: the tour step, the scenario, or the (shared) session.
    fn start_over(&mut self) {
        let story = self.tour.map(|i| &TOUR[i]).or_else(|| self.params.scenario.and_then(stories::find));
        match story {
            Some(story) => self.load_story(story),
            None => {
                let (session, mismatch) = self.params.open_session(self.form.clone());
                self.session = session;
                self.tab = Tab::Cluster;
                if let Some(problem) = self.session.replay_problem() {
                    self.notices.push(format!("actions: {problem}"));
                }
                self.notices.extend(mismatch);
            }
        }
        self.falling.clear();
        self.selected = None;
    }

    fn load_story(&mut self, story: &Story) {
        let seed = self.params.settings.seed;
        match (story.view, story.race) {
            (View::Failover, Some(race)) => {
                let partitions = if self.tour.is_some() { race.partitions } else { self.params.partitions };
                let generation = self.race.generation + 1;
                self.race =
                    RaceRequest { partitions, shown_after_kill_ms: race.shown_after_kill_ms, generation };
                self.tab = Tab::Failover;
            }
            _ => {
                self.session = story.session(seed);
                self.form = self.session.settings().clone();
                self.tab = Tab::Cluster;
            }
        }
    }

    fn go_to_step(&mut self, step: Option<usize>) {
        self.tour = step.map(|s| s.min(TOUR.len() - 1));
        if let Some(step) = self.tour {
            self.playing = false;
            self.load_story(&TOUR[step]);
            self.falling.clear();
            self.set_url(&format!("?tour={}{}", step + 1, if self.present { "&present=1" } else { "" }));
            self.status = format!("Tour step {} of {}: {}", step + 1, TOUR.len(), TOUR[step].title);
        } else {
            self.set_url("?");
        }
    }

    fn set_url(&self, query: &str) {
        if let Ok(history) = gloo::utils::window().history() {
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(query));
        }
    }

    /// Keep exactly one animation frame requested while playing; none while paused.
    fn schedule(&mut self, ctx: &Context<Self>) {
        self.clock.keep(self.playing && self.tab == Tab::Cluster, ctx.link(), Msg::Frame);
    }

    fn on_frame(&mut self, ts: f64) {
        let elapsed = self.clock.tick(ts);
        let quiet = self.session.sim().in_flight().all(|(_, _, packet)| is_routine(&packet.payload));
        // A fast-forward stops as soon as a message worth watching is sent.
        let busy = |sim: &Simulation| quiet && !sim.in_flight().all(|(_, _, p)| is_routine(&p.payload));
        let factor = 10f64.powf(self.speed_exp) * if quiet { QUIET_WARP } else { 1.0 };
        let before = self.session.now();
        let target = before + (elapsed * 1_000.0 * factor) as Micros;
        let clean = self.session.violation().is_none();
        self.session.play_to(target, FRAME_EVENT_BUDGET, &busy);
        if clean && let Some(seen) = self.session.violation() {
            self.playing = false;
            self.status = format!(
                "Paused: an invariant broke ({}); the nodes involved are marked in red",
                seen.violation.invariant
            );
        } else if self.session.at_limit() {
            self.playing = false;
            self.status = format!(
                "The timeline ends at {} simulated minutes, the most one keeps: scrub back, or reset to start a new one",
                TIMELINE_LIMIT / (60_000 * MS)
            );
        }
        if !self.reduced_motion {
            let lost = self
                .session
                .log()
                .iter()
                .rev()
                .take_while(|l| l.at > before)
                .filter(|l| matches!(l.kind, TraceKind::Lost { .. }));
            self.falling.extend(lost.cloned().map(|l| (ts, l)).collect::<Vec<_>>());
        }
        self.falling.retain(|(shown, _)| ts - *shown < FALL_MS);
        self.falling.drain(..self.falling.len().saturating_sub(MAX_FALLING));
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
            TimelineMsg::Share => self.share(),
        }
    }

    fn on_control(&mut self, msg: ControlMsg) {
        match msg {
            ControlMsg::Act(action) => self.act(action),
            ControlMsg::Edit(form) => self.form = form,
            ControlMsg::Topic { partitions, replication } => self.topic = (partitions, replication),
            ControlMsg::Reset => match self.form.validate() {
                Ok(()) if self.tour.is_some() => self.go_to_step(self.tour),
                Ok(()) => {
                    self.params.actions.clear();
                    (self.params.at, self.params.events, self.params.fingerprint) = (None, None, None);
                    self.start_over();
                    self.status = format!(
                        "Reset: seed {}, {} controllers, {} brokers",
                        self.form.seed, self.form.voters, self.form.brokers
                    );
                }
                Err(error) => self.status = format!("Cannot reset: {error}"),
            },
        }
    }

    fn act(&mut self, action: Action) {
        let text = action_text(&action);
        self.status = match self.session.act(action) {
            Ok(()) => text,
            Err(error) => format!("{text} refused: {error}"),
        };
    }

    /// A link that reopens exactly this moment: settings, recorded actions and time (or the
    /// race's size on the failover view).
    fn share(&mut self) {
        let location = gloo::utils::window().location();
        let base =
            format!("{}{}", location.origin().unwrap_or_default(), location.pathname().unwrap_or_default());
        let query = match self.tab {
            Tab::Cluster | Tab::Log => PageParams::share_query(&self.session),
            Tab::Failover => format!(
                "scenario=failover&partitions={}&seed={}",
                self.race.partitions, self.params.settings.seed
            ),
        };
        let url = format!("{base}?{query}");
        let _ = gloo::utils::window().navigator().clipboard().write_text(&url);
        self.status =
            "A link to this moment is below (and on the clipboard where the browser allows).".into();
        self.share = Some(url);
    }

    /// Refresh the event log's lines: at once when paused, every few frames while playing.
    fn refresh_log(&mut self) {
        self.frames_since_log += 1;
        if !self.playing || self.frames_since_log >= LOG_REFRESH_FRAMES {
            self.frames_since_log = 0;
            self.log_lines = self.filter.shown(self.session.log().iter());
            self.log_counts = (self.session.log().len(), self.session.actions().len());
        }
    }

    /// Tell screen readers about a new leader or a broker fenced or unfenced.
    fn announce(&mut self) {
        let sim = self.session.sim();
        let leader = sim.leader().map(|l| (l.id(), l.epoch()));
        let fenced: Vec<NodeId> = sim
            .leader()
            .map(|l| {
                l.applied()
                    .state
                    .image
                    .brokers()
                    .iter()
                    .filter(|(_, b)| b.fenced)
                    .map(|(id, _)| *id)
                    .collect()
            })
            .unwrap_or_default();
        let mut news = Vec::new();
        if leader != self.last_leader {
            if let Some((id, epoch)) = leader {
                news.push(format!("New leader n{id}, epoch {epoch}."));
            }
            self.last_leader = leader;
        }
        news.extend(
            fenced.iter().filter(|b| !self.fenced.contains(b)).map(|b| format!("Broker n{b} fenced.")),
        );
        news.extend(
            self.fenced
                .iter()
                .filter(|b| !fenced.contains(b) && sim.node(**b).is_some())
                .map(|b| format!("Broker n{b} unfenced.")),
        );
        self.fenced = fenced;
        if !news.is_empty() {
            self.announcement = news.join(" ");
        }
    }

    /// Keyboard shortcuts; returns whether the key was used.
    fn on_key(&mut self, event: &KeyboardEvent) -> bool {
        let Some(key) = shortcut(event) else { return false };
        if self.tab == Tab::Failover && is_race_key(&key) {
            return false;
        }
        match key.as_str() {
            " " => self.on_timeline(TimelineMsg::TogglePlay),
            "s" | "S" => self.on_timeline(TimelineMsg::Step),
            "ArrowRight" | "PageDown" => self.go_to_step(Some(self.tour.map_or(0, |s| s + 1))),
            "ArrowLeft" | "PageUp" => self.go_to_step(Some(self.tour.map_or(0, |s| s.saturating_sub(1)))),
            "k" | "K" => self.act(Action::KillLeader),
            "x" | "X" => self.partition_a_node(),
            "h" | "H" => self.act(Action::Heal),
            "g" | "G" => self.act(Action::Resign),
            "r" | "R" => self.on_control(ControlMsg::Reset),
            "p" | "P" => self.present = !self.present,
            "f" | "F" => {
                let _ = gloo::utils::document().document_element().map(|e| e.request_fullscreen());
            }
            "?" => self.help = !self.help,
            "Escape" if self.help => self.help = false,
            _ => return false,
        }
        true
    }

    /// Isolate the selected node, or else a follower controller.
    fn partition_a_node(&mut self) {
        let follower = || {
            self.session
                .sim()
                .running_nodes()
                .find(|n| n.is_voter() && n.role() == RoleKind::Follower)
                .map(|n| n.id())
        };
        match self.selected.or_else(follower) {
            Some(id) => self.act(Action::Isolate(id)),
            None => self.status = "No node to partition: select one first".into(),
        }
    }

    fn cluster_tab(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let sim = self.session.sim();
        let falling: Vec<TraceLine> = self.falling.iter().map(|(_, l)| l.clone()).collect();
        let view = picture(sim, &falling, TIMEOUT_FULL, self.session.violation());
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
        let level = self.params.controls;
        let chrome = !self.params.embed;
        html! {
            <main class="cluster-tab">
                <div class="stage">
                    <ClusterView picture={view} selected={self.selected} on_select={link.callback(Msg::Select)} reduced_motion={self.reduced_motion} legend={chrome} />
                    if level != ControlLevel::None {
                        <Timeline now={self.session.now()} horizon={self.session.horizon()} playing={self.playing}
                                  speed_exp={self.speed_exp} minimal={level == ControlLevel::Min} share={self.share.clone()}
                                  on={link.callback(Msg::Timeline)} on_control={link.callback(Msg::Control)} />
                    }
                    if chrome {
                        <EventLog lines={self.log_lines.clone()} nodes={sim.node_ids().collect::<Vec<_>>()}
                                  kept={self.log_counts.0} actions={self.log_counts.1}
                                  filter={self.filter.clone()} on_filter={link.callback(Msg::Filter)} />
                    }
                </div>
                if level == ControlLevel::Full {
                    <aside class="side">
                        <Controls selected={selected} form={self.form.clone()} network={network} topic={self.topic}
                                  nodes={sim.node_ids().collect::<Vec<_>>()} on={link.callback(Msg::Control)} />
                        <InvariantsPanel violation={self.session.violation().cloned()} events={sim.events_processed()} />
                    </aside>
                }
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

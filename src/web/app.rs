//! The page: a live cluster driven by one animation frame loop (none while paused), its
//! controls, invariants, event log and timeline; the failover race against ZooKeeper mode; the
//! guided tour, presenter mode, embedding and shared links, all configured from the URL.

use gloo::events::EventListener;
use yew::prelude::*;

#[cfg(feature = "full")]
use super::class_mode::ClassQuestion;
use super::cluster_view::ClusterView;
use super::controls::{Controls, NetworkKnobs, SelectedNode};
use super::event_log::EventLog;
#[cfg(feature = "full")]
use super::failover_tab::{Layout, failover_tab};
use super::frame_clock::{FrameClock, now_ms};
use super::help::HelpOverlay;
use super::host;
use super::invariants_panel::InvariantsPanel;
use super::keys::{listen, shortcut};
use super::kiosk::Kiosk;
#[cfg(feature = "full")]
use super::log_drop::PickedFiles;
#[cfg(feature = "full")]
use super::log_reader::{Ask, LogReaderWorker};
#[cfg(feature = "full")]
use super::log_tab::log_tab;
#[cfg(feature = "full")]
use super::migration_tab::MigrationTab;
#[cfg(feature = "full")]
use super::pains_tab::PainsTab;
use super::phone_question::PhoneQuestion;
#[cfg(feature = "full")]
use super::race_question::RaceQuestion;
use super::session_files::SessionFiles;
use super::still_form::StillFormView;
use super::timeline::Timeline;
use super::tour::TourPanel;
use crate::drawing::layout::STAGE_ZOOM;
use crate::harness::MS;
use crate::page::params::Controls as ControlLevel;
#[cfg(feature = "full")]
use crate::page::race::RaceFrame;
use crate::page::{Action, Effect, PageState, QuestionView, Tab};
#[cfg(feature = "full")]
use crate::page::{MetadataLogAction, RaceAction};
use crate::quorum::NodeId;
use crate::session::picture::broker_partitions;
use crate::util::format;

/// Most partitions the selected broker's list shows.
const SHOWN_PARTITIONS: usize = 8;

/// How much larger a compact drawing's type is: more in presenter mode.
fn zoom(present: bool) -> f64 {
    if present { STAGE_ZOOM } else { 1.0 }
}

/// Where the browser keeps the self-check answers (`localStorage`).
const SELF_CHECK_KEY: &str = "kraftscope-self-check";

#[derive(Properties, PartialEq)]
pub struct AppProps {
    /// The page's query string (`?seed=7&...`).
    pub search: String,
}

pub enum Msg {
    Do(Action),
    Frame(f64),
    Key(KeyboardEvent),
    /// The window was resized (or the page first drawn): drawings choose their geometry again.
    Resized,
    /// Files picked or dropped in the log view, all read: they go to the log reader's worker.
    #[cfg(feature = "full")]
    OpenLog(PickedFiles),
}

/// The page: its state (a reducer, `crate::page`), the animation frame loop, the keyboard and
/// kiosk mode's timer.
pub struct App {
    state: PageState,
    clock: FrameClock,
    kiosk: Option<Kiosk>,
    _keys: Option<EventListener>,
    _resize: EventListener,
    /// How many times the window was resized (or the page first drawn).
    resizes: u32,
    /// The callbacks the live view's children get, made once: a callback made in `view` differs
    /// from the last one, so every child given one would be drawn again each frame.
    on: Callback<Action>,
    on_select: Callback<NodeId>,
    /// The metadata-log reader's worker, started when a log is first opened.
    #[cfg(feature = "full")]
    log_reader: Option<LogReaderWorker>,
    /// Where the log view's drop zone hands the files it read.
    #[cfg(feature = "full")]
    on_files: Callback<PickedFiles>,
}

impl Component for App {
    type Message = Msg;
    type Properties = AppProps;

    fn create(ctx: &Context<Self>) -> Self {
        let window = gloo::utils::window();
        let reduced_motion = window
            .match_media("(prefers-reduced-motion: reduce)")
            .ok()
            .flatten()
            .is_some_and(|query| query.matches());
        let location = window.location();
        let base =
            format!("{}{}", location.origin().unwrap_or_default(), location.pathname().unwrap_or_default());
        let state = PageState::with_clock(&ctx.props().search, &base, reduced_motion, now_ms);
        if state.params.panic {
            panic!("deliberate panic requested with ?panic=1 (shows the error panel)");
        }
        host::listen(state.params.origins.clone(), ctx.link().callback(|c| Msg::Do(Action::Host(c))));
        let kiosk =
            state.kiosk.then(|| Kiosk::start(ctx.link().callback(|step| Msg::Do(Action::Kiosk(step)))));
        let mut app = App {
            state,
            clock: FrameClock::default(),
            kiosk,
            _keys: listen(ctx.link().callback(Msg::Key)),
            _resize: {
                let resized = ctx.link().callback(|_| Msg::Resized);
                EventListener::new(&window, "resize", move |_| resized.emit(()))
            },
            resizes: 0,
            on: ctx.link().callback(Msg::Do),
            on_select: ctx.link().callback(|id| Msg::Do(Action::Select(id))),
            #[cfg(feature = "full")]
            log_reader: None,
            #[cfg(feature = "full")]
            on_files: ctx.link().callback(Msg::OpenLog),
        };
        if let Ok(Some(stored)) =
            window.local_storage().map(|s| s.and_then(|s| s.get_item(SELF_CHECK_KEY).ok().flatten()))
        {
            app.state.reduce(Action::RestoreChecks(stored));
        }
        for effect in app.state.opening_effects() {
            app.perform(ctx, effect);
        }
        app.schedule(ctx);
        app
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Self::Message) -> bool {
        let outcome = match msg {
            Msg::Do(action) => self.state.reduce(action),
            Msg::Frame(ts) => {
                let elapsed = self.clock.tick(ts);
                self.state.reduce(Action::Frame { elapsed })
            }
            Msg::Resized => {
                self.resizes += 1;
                return true;
            }
            #[cfg(feature = "full")]
            Msg::OpenLog(files) => {
                let outcome = self.state.reduce(Action::MetadataLog(MetadataLogAction::Opening(files.len())));
                self.ask_log_reader(ctx, Ask::Open(files));
                outcome
            }
            Msg::Key(event) => {
                let Some(key) = shortcut(&event) else { return false };
                let outcome = self.state.reduce(Action::Key(key));
                if outcome.handled {
                    event.prevent_default();
                }
                outcome
            }
        };
        for effect in outcome.effects {
            self.perform(ctx, effect);
        }
        self.schedule(ctx);
        outcome.handled
    }

    fn rendered(&mut self, ctx: &Context<Self>, first_render: bool) {
        if first_render {
            ctx.link().send_message(Msg::Resized);
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let state = &self.state;
        // A phone opened from class mode's code shows its question alone.
        let chrome = !state.params.embed && state.phone.is_none();
        let class =
            classes!("page", state.present.then_some("present"), state.params.embed.then_some("embed"));
        // The whole state's fingerprint while paused (and not replaying a shared session), for
        // tests comparing a shared link's state.
        let fingerprint =
            (!state.live.playing && state.tab == Tab::Cluster && state.live.reopening.is_none())
                .then(|| state.session.fingerprint().to_string());
        html! {
            <div class={class} data-fingerprint={fingerprint} data-speed={format::speed(10f64.powf(state.live.speed_exp))}>
                if chrome { { self.header(ctx) } } else { <div role="banner"><h1 class="visually-hidden">{ "kraftscope" }</h1></div> }
                if !state.notices.is_empty() {
                    <div class="notices" role="alert">
                        <p>{ "Some URL parameters were not used:" }</p>
                        <ul>{ for state.notices.iter().map(|n| html! { <li>{ n }</li> }) }</ul>
                        <button class="secondary" onclick={link.callback(|_| Msg::Do(Action::DismissNotices))}>{ "Dismiss" }</button>
                    </div>
                }
                <div role="status" class="notice" aria-live="polite">{ &state.status }</div>
                if let Some(reopening) = state.live.reopening {
                    <div class="reopening" role="progressbar" aria-label="Replaying the shared session from its seed"
                         aria-valuemin="0" aria-valuemax={(reopening.until / MS).to_string()} aria-valuenow={(state.session.now() / MS).to_string()}>
                        <p>{ format!("Replaying the shared session from its seed: {} of {}", format::seconds(state.session.now()), format::seconds(reopening.until)) }</p>
                        <progress id="reopening" max={(reopening.until / MS).to_string()} value={(state.session.now() / MS).to_string()}></progress>
                    </div>
                }
                if let Some(step) = state.tour.filter(|_| state.tab != Tab::Cluster) {
                    <TourPanel step={step} key_seen={state.key_seen} question={self.view_tour_question()} self_check={state.self_check()} asking={self.view_asking()} on={self.on.clone()}>
                        { self.view_question() }
                    </TourPanel>
                }
                if let Some(phone) = &state.phone {
                    <PhoneQuestion view={phone.view(state.session.now())} on={self.on.clone()} />
                } else {
                    { self.view_shown() }
                }
                { self.class_question() }
                if state.help { <HelpOverlay on_close={link.callback(|_| Msg::Do(Action::Help(false)))} /> }
            </div>
        }
    }
}

impl App {
    /// The view of the tab shown (every tab is drawn here: a tab left out does not compile).
    #[cfg(feature = "full")]
    fn view_shown(&self) -> Html {
        let state = &self.state;
        let still = state.still_open.then(|| state.still.clone());
        match state.tab {
            Tab::Cluster => self.cluster_tab(),
            Tab::Pains => html! {
                <PainsTab view={state.pains.view()} reduced_motion={state.reduced_motion} on={self.on.clone()} zoom={zoom(state.present)} resizes={self.resizes}
                          stills={!state.params.embed} still={still} />
            },
            Tab::Migration => match (&state.recording, &state.migration) {
                (Some(recording), _) => html! {
                    <main class="migration-tab"><p id="mig-recording" role="status">{ recording.progress() }</p></main>
                },
                (None, Some(migration)) => html! {
                    <MigrationTab view={migration.view().clone()} on={self.on.clone()} stills={!state.params.embed} still={still} share={state.share.clone()} />
                },
                (None, None) => {
                    html! { <main class="migration-tab"><p role="alert">{ &state.status }</p></main> }
                }
            },
            Tab::Log => log_tab(
                &state.metadata_log,
                !state.params.embed,
                still.as_ref(),
                state.share.as_ref(),
                &self.on,
                &self.on_files,
            ),
            Tab::Failover => failover_tab(
                &state.race,
                Layout {
                    frame: match (state.params.embed, state.present) {
                        (true, _) => RaceFrame::Embed,
                        (false, true) => RaceFrame::Stage,
                        (false, false) => RaceFrame::Page,
                    },
                    controls: state.params.controls,
                    reduced_motion: state.reduced_motion,
                    resizes: self.resizes,
                    zoom: zoom(state.present),
                },
                still.as_ref(),
                &self.on,
            ),
        }
    }

    /// Whether the view shown holds at its question (the failover race's, before the kill).
    #[cfg(feature = "full")]
    fn view_asking(&self) -> bool {
        self.state.tab == Tab::Failover && self.state.race.asking()
    }

    /// The question the view shown asks, for the tour panel: the failover race's.
    #[cfg(feature = "full")]
    fn view_question(&self) -> Html {
        match self.state.race.question() {
            Some(view) if self.state.tab == Tab::Failover => {
                html! { <RaceQuestion view={view} on={self.on.clone()} /> }
            }
            _ => Html::default(),
        }
    }

    /// The question the view shown asks in the tour panel's own frame: the migration's or the
    /// pain's.
    #[cfg(feature = "full")]
    fn view_tour_question(&self) -> Option<QuestionView> {
        match self.state.tab {
            Tab::Migration => self.state.migration.as_ref().and_then(|m| m.question()),
            Tab::Pains => self.state.pains.question(),
            _ => None,
        }
    }

    /// The first screen's build draws no later view, nor its question.
    #[cfg(not(feature = "full"))]
    fn view_asking(&self) -> bool {
        false
    }

    #[cfg(not(feature = "full"))]
    fn view_tour_question(&self) -> Option<QuestionView> {
        None
    }

    #[cfg(not(feature = "full"))]
    fn view_question(&self) -> Html {
        Html::default()
    }

    /// Class mode's full-screen question while it is open, with its QR code.
    #[cfg(feature = "full")]
    fn class_question(&self) -> Html {
        let state = &self.state;
        let now = state.session.now();
        match (state.question.as_ref(), state.class_code()) {
            (Some(question), Some((link, code))) if question.is_asking(now) => html! {
                <ClassQuestion view={question.view(now)} link={link.clone()} code={code.clone()} on={self.on.clone()} />
            },
            _ => Html::default(),
        }
    }

    /// The first screen's build has no class mode (index.html loads the full page for `class=1`).
    #[cfg(not(feature = "full"))]
    fn class_question(&self) -> Html {
        Html::default()
    }

    /// The first screen's build draws the live cluster only: another view is loading with the
    /// full page (index.html shows its progress).
    #[cfg(not(feature = "full"))]
    fn view_shown(&self) -> Html {
        match self.state.tab {
            Tab::Cluster => self.cluster_tab(),
            Tab::Failover | Tab::Pains | Tab::Migration | Tab::Log => {
                html! { <main class="loading-view"><p>{ "Loading this view…" }</p></main> }
            }
        }
    }

    /// Sends `request` to the log reader's worker, started on the first; its answer, or why it
    /// failed, comes back as an action.
    #[cfg(feature = "full")]
    fn ask_log_reader(&mut self, ctx: &Context<Self>, ask: Ask) {
        let heard = ctx.link().callback(|action| Msg::Do(Action::MetadataLog(action)));
        let reader = match self.log_reader.take() {
            Some(reader) => Ok(reader),
            None => LogReaderWorker::start(heard.clone()),
        };
        match reader.and_then(|reader| reader.send(ask).map(|()| reader)) {
            Ok(reader) => self.log_reader = Some(reader),
            Err(error) => heard.emit(MetadataLogAction::Answered(Err(error))),
        }
    }

    /// Carry out what the page asked the browser to do; how a save went comes back as an action.
    fn perform(&mut self, ctx: &Context<Self>, effect: Effect) {
        let window = gloo::utils::window();
        match effect {
            Effect::SetQuery(query) => {
                if let Ok(history) = window.history() {
                    let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&query));
                }
            }
            Effect::Copy(text) => {
                let _ = window.navigator().clipboard().write_text(&text);
            }
            Effect::ScrollToTop => window.scroll_to_with_x_and_y(0.0, 0.0),
            Effect::Fullscreen => {
                let _ = gloo::utils::document().document_element().map(|e| e.request_fullscreen());
            }
            // Where the browser keeps nothing (storage off), the answers last the page's life.
            Effect::StoreChecks(text) => {
                if let Ok(Some(storage)) = window.local_storage() {
                    let _ = storage.set_item(SELF_CHECK_KEY, &text);
                }
            }
            Effect::Post(event) => host::emit(&event),
            Effect::KioskHold { next, ms } => {
                if let Some(kiosk) = &self.kiosk {
                    kiosk.hold(next, ms);
                }
            }
            Effect::KioskStop => self.kiosk = None,
            #[cfg(feature = "full")]
            Effect::ReadLog(query) => self.ask_log_reader(ctx, Ask::Query(query)),
            #[cfg(feature = "full")]
            Effect::DownloadLog => {
                let report = super::download::save_cluster_log(self.state.session.sim());
                ctx.link().send_message(Msg::Do(Action::Report(report)));
            }
            #[cfg(feature = "full")]
            Effect::Download(file) => {
                if let Err(error) = super::session_files::download(&file) {
                    ctx.link()
                        .send_message(Msg::Do(Action::Report(format!("Cannot save the session: {error}"))));
                }
            }
            Effect::SaveStill(still) => {
                let link = ctx.link().clone();
                super::still_export::save(&still, move |report| {
                    link.send_message(Msg::Do(Action::Report(report)))
                });
            }
            #[cfg(not(feature = "full"))]
            Effect::OpenFullPage(query) => {
                let _ = window.location().replace(&format!("?{query}"));
            }
            #[cfg(feature = "full")]
            Effect::FetchMeasured => {
                let link = ctx.link().clone();
                yew::platform::spawn_local(async move {
                    let text = match gloo::net::http::Request::get("failover.csv").send().await {
                        Ok(response) => response.text().await.unwrap_or_default(),
                        Err(_) => String::new(),
                    };
                    link.send_message(Msg::Do(Action::Race(RaceAction::Measured(text))));
                });
            }
        }
    }
}

impl App {
    /// Keep exactly one animation frame requested while playing; none while paused.
    fn schedule(&mut self, ctx: &Context<Self>) {
        self.clock.keep(self.state.animating(), ctx.link(), Msg::Frame);
    }

    fn header(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        // A phone shows each tab's short label (words of its name), so every tab stays in view.
        let tab = |t: Tab| {
            let (label, short) = t.label();
            let selected = self.state.tab == t;
            html! {
                <button role="tab" aria-selected={selected.to_string()} class={classes!("tab", selected.then_some("active"))}
                        aria-label={label} onclick={link.callback(move |_| Msg::Do(Action::Tab(t)))}>
                    <span class="long">{ label }</span><span class="short">{ short }</span></button>
            }
        };
        html! {
            <header>
                <h1>{ "kraftscope" }</h1>
                <p class="tagline">{ "Kafka's KRaft metadata quorum, simulated live: elections, epochs, fetch-by-offset, and failover against ZooKeeper mode." }</p>
                <nav role="tablist" aria-label="Views">
                    { for Tab::ALL.into_iter().map(tab) }
                </nav>
                <div class="header-buttons">
                    if self.state.tour.is_none() {
                        <button id="start-tour" class="secondary" onclick={link.callback(|_| Msg::Do(Action::Tour(Some(0))))}>{ "Guided tour" }</button>
                    }
                    <button class="secondary" onclick={link.callback(|_| Msg::Do(Action::Help(true)))} aria-label="Keyboard shortcuts">{ "?" }</button>
                </div>
            </header>
        }
    }

    fn cluster_tab(&self) -> Html {
        let state = &self.state;
        let sim = state.session.sim();
        let view = state.live.picture.clone();
        let quorum = view.quorum.clone();
        let selected = state.live.selected.and_then(|id| {
            view.nodes.iter().find(|n| n.id == id).map(|n| SelectedNode {
                id,
                voter: n.voter,
                running: n.role.is_some(),
                membership: n.membership,
                partitions: broker_partitions(sim, id, SHOWN_PARTITIONS),
            })
        });
        let network = sim.network().config.clone();
        let network = NetworkKnobs {
            latency_min_ms: (network.latency_min / MS) as u32,
            latency_max_ms: (network.latency_max / MS) as u32,
            drop_percent: (network.drop_rate * 100.0).round() as u32,
            duplicate_percent: (network.duplicate_rate * 100.0).round() as u32,
            reorder: network.reorder,
        };
        let level = state.params.controls;
        // A phone opened from class mode's code shows its question alone.
        let chrome = !state.params.embed && state.phone.is_none();
        let on = &self.on;
        html! {
            <main class="cluster-tab">
                // On a wide screen the tour's narration stands beside the drawing (CSS), which
                // stays at the top of the page with its transport bar.
                if let Some(step) = state.tour {
                    <TourPanel step={step} key_seen={state.key_seen} question={state.question.as_ref().map(|q| q.view(state.session.now()))} self_check={state.self_check()} on={self.on.clone()} />
                }
                <div class="stage">
                    <ClusterView picture={view} selected={state.live.selected} on_select={self.on_select.clone()} reduced_motion={state.reduced_motion} legend={chrome} resizes={self.resizes} zoom={zoom(state.present)} />
                    if level != ControlLevel::None {
                        <Timeline now={state.session.now()} horizon={state.session.horizon()} window_start={state.session.window_start()}
                                  playing={state.live.playing} speed_exp={state.live.speed_exp} skip_quiet={state.live.skip_quiet} skipping={state.live.skipping()}
                                  minimal={level == ControlLevel::Min} share={state.share.clone()} stills={!state.params.embed} on={on.clone()} />
                    }
                    if state.still_open { <StillFormView form={state.still.clone()} on={on.clone()} /> }
                    if chrome {
                        <EventLog log={state.live.log.clone()} nodes={sim.node_ids().collect::<Vec<_>>()}
                                  filter={state.live.filter.clone()} on={on.clone()} />
                    }
                </div>
                if level == ControlLevel::Full {
                    <aside class="side">
                        <Controls selected={selected} quorum={quorum} form={state.live.form.clone()} network={network} topic={state.live.topic}
                                  nodes={sim.node_ids().collect::<Vec<_>>()} on={on.clone()} />
                        <InvariantsPanel violation={state.session.violation().cloned()} events={sim.events_processed()} />
                        <SessionFiles on={on.clone()} open={state.params.files} />
                    </aside>
                }
            </main>
        }
    }
}

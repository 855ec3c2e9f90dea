//! The page without the DOM: what the viewer sees and chose (view, tour step, playing, speed,
//! selection, filters, notices) around the live session. It changes only through
//! [`PageState::reduce`], one [`Action`] at a time, so the page's behaviour is tested natively;
//! the web front end turns DOM events into actions, draws the state and carries out the
//! [`Effect`]s (address bar, clipboard, full screen). Each view is a sub-state: the live cluster's
//! ([`live`]: playing, speed, selection, filter, forms, the picture drawn), and the failover race,
//! the pains and the opened metadata log with their own actions ([`race`], [`pains`],
//! [`metadata_log`]), compiled with the `full` feature only: the first screen's build carries the
//! live cluster and asks for the full page ([`Effect::OpenFullPage`]) when one of those is opened.

pub mod action;
#[cfg(feature = "full")]
pub mod chips;
pub mod clock;
#[cfg(not(feature = "full"))]
mod first_screen;
pub mod host;
#[cfg(feature = "full")]
mod later;
pub mod live;
pub mod log_filter;
#[cfg(feature = "full")]
pub mod metadata_log;
#[cfg(feature = "full")]
pub mod migration;
pub mod pacing;
#[cfg(feature = "full")]
pub mod pains;
pub mod params;
#[cfg(feature = "full")]
pub mod qr;
pub mod question;
#[cfg(feature = "full")]
pub mod race;
pub mod redraw;
pub mod self_check;
pub mod session_file;
pub mod still;
pub mod views;

#[cfg(feature = "full")]
pub use crate::log_reader::LogQuery;
pub use action::{Action, CommandError, Effect, Outcome};
pub use clock::Clock;
pub use live::{LiveView, LogView, Reopening};
pub use log_filter::LogFilter;
#[cfg(feature = "full")]
pub use metadata_log::{MetadataLogAction, MetadataLogView};
#[cfg(feature = "full")]
pub use pains::{PainsAction, PainsState, PainsView};
pub use question::{Question, QuestionView, Stage};
#[cfg(feature = "full")]
pub use race::{RaceAction, RaceEffect, RaceQuestionView, RaceRequest, RaceView};
pub use self_check::{CheckView, SelfCheckView};
pub use still::{Still, StillAction, StillForm, StillFormat};
pub use views::Tab;

use crate::harness::{MS, Micros};
use crate::page::host::{Command, HostEvent};
use crate::page::params::PageParams;
use crate::quorum::RoleKind;
use crate::session::{self, ActiveController, Session, WINDOW};
#[cfg(feature = "full")]
use crate::teaching::predictions;
use crate::teaching::self_check::{CHECKS, CheckAnswers};
use crate::teaching::stories::{self, Story, TOUR, View};
use crate::util::format;
#[cfg(feature = "full")]
use crate::zk::Pain;

#[cfg(not(feature = "full"))]
use first_screen::takes_the_session_away;
#[cfg(feature = "full")]
use later::takes_the_session_away;
use pacing::{MAX_SPEED_EXP, MIN_SPEED_EXP};

/// What may happen while a shared session is reopening: nothing that acts on the session.
fn allowed_while_reopening(action: &Action) -> bool {
    !matches!(
        action,
        Action::TogglePlay
            | Action::Step
            | Action::Seek(_)
            | Action::Share
            | Action::Act(_)
            | Action::Key(_)
            | Action::Host(_)
    ) && !takes_the_session_away(action)
}

/// Everything the page shows that is not the DOM itself.
pub struct PageState {
    pub params: PageParams,
    /// The page's address without its query, for share links.
    base_url: String,
    pub notices: Vec<String>,
    pub session: Session,
    /// The live cluster view's own state.
    pub live: LiveView,
    /// The status line: what the last action did.
    pub status: String,
    /// A refusal in the status line that speaks of the active controller (there was none), with
    /// the active controller it saw: it goes as soon as that changes.
    refusal: Option<(String, ActiveController)>,
    pub tab: Tab,
    /// The tour step shown (0-based).
    pub tour: Option<usize>,
    /// When the tour step's key moment happened, once it has.
    pub key_seen: Option<Micros>,
    /// The tour step's prediction, if it asks one.
    pub question: Option<Question>,
    /// The chapters' self-checks answered (the browser keeps them).
    pub checks: CheckAnswers,
    /// Class mode: the question full screen, with a QR code of `phone_link`'s link.
    pub class: bool,
    /// What a phone shows (`ask=`): this question alone.
    pub phone: Option<Question>,
    /// Class mode's phone link and QR code for the step's question, encoded once as it loads.
    #[cfg(feature = "full")]
    class_code: Option<(String, qr::Qr)>,
    /// The failover race view.
    #[cfg(feature = "full")]
    pub race: RaceView,
    /// The opened metadata log's view.
    #[cfg(feature = "full")]
    pub metadata_log: MetadataLogView,
    /// The pains view: the pain shown and how far it has played.
    #[cfg(feature = "full")]
    pub pains: PainsState,
    /// The migration view's scenario as it plays, once the view was opened.
    #[cfg(feature = "full")]
    pub migration: Option<migration::MigrationState>,
    /// The migration being recorded, a slice a frame, before it replaces the one shown.
    #[cfg(feature = "full")]
    pub recording: Option<migration::PreparingMigration>,
    /// The query string the page was opened with: the full page keeps its embedding parameters.
    #[cfg(not(feature = "full"))]
    search: String,
    pub present: bool,
    pub help: bool,
    /// The "Save picture" form's choices, and whether it is open.
    pub still: StillForm,
    pub still_open: bool,
    /// A link to this moment, once asked for.
    pub share: Option<String>,
    /// Kiosk mode walks the tour on its own until a key or click.
    pub kiosk: bool,
    pub reduced_motion: bool,
    /// Bounds a frame's work on the race and times opening a metadata log.
    #[cfg(feature = "full")]
    clock: Clock,
}

impl PageState {
    /// The page as the query string `search` asks for, at address `base_url`, without a browser
    /// (its clock stands still). Problems with the parameters become notices.
    pub fn new(search: &str, base_url: &str, reduced_motion: bool) -> PageState {
        PageState::with_clock(search, base_url, reduced_motion, clock::still)
    }

    /// The page as [`PageState::new`] makes it, on the browser's `clock`.
    pub(crate) fn with_clock(search: &str, base_url: &str, reduced_motion: bool, clock: Clock) -> PageState {
        let (params, notices) = PageParams::parse(search);
        let mut state = PageState {
            base_url: base_url.to_string(),
            notices,
            session: Session::new(params.settings.clone()),
            live: LiveView::new(&params),
            status: String::new(),
            refusal: None,
            tab: Tab::Cluster,
            tour: None,
            key_seen: None,
            question: None,
            checks: CheckAnswers::default(),
            class: params.class,
            phone: None,
            #[cfg(feature = "full")]
            class_code: None,
            #[cfg(feature = "full")]
            race: RaceView::new(params.partitions, params.kraft_roles),
            #[cfg(feature = "full")]
            metadata_log: MetadataLogView::default(),
            #[cfg(feature = "full")]
            pains: PainsState::new(Pain::StaleCache),
            #[cfg(feature = "full")]
            migration: None,
            #[cfg(feature = "full")]
            recording: None,
            #[cfg(not(feature = "full"))]
            search: search.to_string(),
            present: params.present || params.class,
            help: false,
            still: StillForm::default(),
            still_open: false,
            share: None,
            kiosk: params.kiosk,
            reduced_motion,
            #[cfg(feature = "full")]
            clock,
            params,
        };
        match state.params.tour.map(|step| step - 1).or(state.kiosk.then_some(0)) {
            Some(step) => state.go_to_step(Some(step), &mut Vec::new()),
            None => state.start_over(),
        }
        // A phone opened from class mode's code: that question alone, with the link's seed.
        if let Some(story) = state.params.ask.and_then(stories::find) {
            state.phone = Question::of(story, state.params.settings.seed, false);
            if state.phone.is_none() {
                state.notices.push(format!("ask: step {} asks nothing with this seed", story.id));
            }
            // The phone shows the question alone: the cluster behind it need not play.
            state.live.playing = false;
        }
        if let Some(tab) = state.params.tab.filter(|_| state.tour.is_none()) {
            state.open_tab(tab);
        }
        #[cfg(feature = "full")]
        state.race.show(state.tab == Tab::Failover);
        #[cfg(not(feature = "full"))]
        let _ = clock;
        state.after_action(true, &mut Vec::new());
        state
    }

    /// What the browser is asked to do as the page opens: kiosk mode's first hold, and what the
    /// view shown needs (the race's measured curve; the full page for a view the first screen's
    /// build does not carry).
    pub fn opening_effects(&mut self) -> Vec<Effect> {
        let view = self.opened_view(None);
        self.kiosk_hold().into_iter().chain(view).collect()
    }

    /// Show `tab`. The pains view opens on its pain's start, as a tour step or a link does.
    fn open_tab(&mut self, tab: Tab) {
        #[cfg(feature = "full")]
        if tab == Tab::Pains && self.tab != Tab::Pains {
            self.pains.start(self.pains.pain());
        }
        #[cfg(feature = "full")]
        if tab == Tab::Migration && self.migration.is_none() {
            self.open_migration(crate::migration::scenarios::IDS[0], &[], None, true);
        }
        self.still_open &= self.tab == tab;
        if self.tab != tab {
            self.share = None;
        }
        self.tab = tab;
    }

    /// In kiosk mode, the hold of the step shown: its reading time (or `hold=`), then the next.
    pub fn kiosk_hold(&self) -> Option<Effect> {
        let step = self.tour.filter(|_| self.kiosk)?;
        let ms = self.params.hold_ms.unwrap_or_else(|| TOUR[step].reading_ms());
        Some(Effect::KioskHold { next: (step + 1) % TOUR.len(), ms })
    }

    /// Whether animation frames should run: playing on the live cluster view or the pains view,
    /// replaying a long shared session, or while the failover race has work to do.
    pub fn animating(&self) -> bool {
        (self.live.playing && self.tab == Tab::Cluster)
            || self.live.reopening.is_some()
            || self.later_view_animating()
    }

    /// The self-check of the chapter the tour step shown ends, if it ends one.
    pub fn self_check(&self) -> Option<SelfCheckView> {
        self.tour.and_then(|step| self_check::view(step, &self.checks))
    }

    /// The tour step shown.
    pub(crate) fn story(&self) -> Option<&'static Story> {
        self.tour.map(|step| &TOUR[step])
    }

    /// Apply one action.
    pub fn reduce(&mut self, action: Action) -> Outcome {
        let mut effects = Vec::new();
        // The race's frames leave the live cluster's event log alone.
        let shown_before = self.tab;
        let race_frame = matches!(action, Action::Frame { .. }) && shown_before == Tab::Failover;
        let refresh_log = !matches!(action, Action::Frame { .. }) || (!race_frame && self.live.log_due());
        if self.live.reopening.is_some() && !allowed_while_reopening(&action) {
            self.status = "Still replaying the shared session: wait until it opens (or Reset)".into();
            return Outcome { handled: true, effects: Vec::new() };
        }
        self.live.begin_action();
        match action {
            Action::Frame { elapsed } => {
                #[cfg(feature = "full")]
                if self.tab == Tab::Failover {
                    let told = self.race.frame(elapsed, self.clock);
                    self.race_told(told, &mut effects);
                }
                self.on_frame(elapsed);
            }
            Action::TogglePlay => self.toggle_play(),
            Action::Predict(Some(index)) if let Some(phone) = self.phone.as_mut() => phone.choose(index),
            Action::Reveal => {
                if let Some(phone) = self.phone.as_mut() {
                    phone.reveal();
                }
            }
            Action::Predict(answer) => self.predict(answer),
            Action::Check { question, option } => effects.extend(self.check(question, option)),
            Action::ResetChecks => {
                self.checks.clear();
                effects.push(Effect::StoreChecks(String::new()));
            }
            Action::RestoreChecks(text) => self.checks = CheckAnswers::parse(&text),
            Action::Step => {
                self.live.playing = false;
                self.session.step();
            }
            Action::SpeedExp(exp) => self.live.speed_exp = exp.clamp(MIN_SPEED_EXP, MAX_SPEED_EXP),
            Action::SkipQuiet(skip) => self.live.skip_quiet = skip,
            Action::Seek(t) => {
                let t = t.clamp(self.session.window_start(), self.session.horizon());
                self.seek(t).expect("a moment inside the window");
            }
            Action::Share => effects.push(self.share()),
            Action::Act(action) => self.act(action),
            Action::Edit(form) => self.live.form = form,
            Action::Topic { partitions, replication } => self.live.topic = (partitions, replication),
            Action::Reset => self.reset(&mut effects),
            Action::Select(id)
                if self.question.as_mut().is_some_and(|q| q.answer_node(id, self.session.now())) =>
            {
                self.live.playing = true;
            }
            Action::Select(id) => {
                self.live.selected = if self.live.selected == Some(id) { None } else { Some(id) }
            }
            Action::Filter(filter) => self.live.filter = filter,
            Action::Tab(tab) => self.open_tab(tab),
            Action::Key(key) => {
                if !self.on_key(&key, &mut effects) {
                    return Outcome::default();
                }
            }
            Action::Tour(step) => self.go_to_step(step, &mut effects),
            Action::ReplayStep => self.go_to_step(self.tour, &mut effects),
            Action::Help(open) => self.help = open,
            Action::Still(action) => self.on_still(action, &mut effects),
            Action::DismissNotices => self.notices.clear(),
            Action::Host(command) => {
                if let Err(error) = self.on_host(command, &mut effects) {
                    effects.push(Effect::Post(HostEvent::Error { error: error.to_string() }));
                }
            }
            Action::Kiosk(step) => self.on_kiosk(step, &mut effects),
            #[cfg(not(feature = "full"))]
            Action::SessionFiles => effects.push(Effect::OpenFullPage(self.full_page_query() + "&files=1")),
            #[cfg(feature = "full")]
            later @ (Action::SaveFile { .. }
            | Action::OpenFile(_)
            | Action::DownloadLog
            | Action::ViewKeySeen(_)
            | Action::Pains(_)
            | Action::Pain(_)
            | Action::Migration(_)
            | Action::Migrating(_)
            | Action::RaceFromLog(_)
            | Action::Race(_)
            | Action::MetadataLog(_)) => self.reduce_later(later, &mut effects),
            Action::Report(status) => self.status = status,
        }
        effects.extend(self.opened_view(Some(shown_before)));
        self.after_action(!race_frame && (refresh_log || !self.live.playing), &mut effects);
        Outcome { handled: true, effects }
    }

    /// The viewer's answer `option` to self-check `question`: stored when it is a new one.
    fn check(&mut self, question: usize, option: usize) -> Option<Effect> {
        let q = CHECKS.get(question)?;
        self.checks.answer(q.id, option).then(|| Effect::StoreChecks(self.checks.to_text()))
    }

    /// Kiosk mode's timer went to `step`; any other kiosk action (a key, a click) stops it.
    fn on_kiosk(&mut self, step: Option<usize>, effects: &mut Vec<Effect>) {
        match step {
            Some(step) if self.kiosk => {
                self.go_to_step(Some(step), effects);
                effects.extend(self.kiosk_hold());
            }
            _ => {
                self.kiosk = false;
                self.status = "Kiosk mode stopped: the tour is yours to drive.".into();
                effects.push(Effect::KioskStop);
            }
        }
    }

    /// Tell the host page what changed, note the tour step's key moment,
    /// and refresh the event log.
    fn after_action(&mut self, refresh_log: bool, effects: &mut Vec<Effect>) {
        self.expire_refusal();
        effects.extend(self.live.observe(&self.session).into_iter().map(Effect::Post));
        // A cluster step's moment is a time of the live timeline (a seek back unsees it); a race
        // step's is the race's own, reported by the failover view.
        let cluster_step = self.story().is_some_and(|story| story.view == View::Cluster);
        if cluster_step && self.key_seen.is_some_and(|at| at > self.session.now()) {
            self.key_seen = None;
        }
        if let Some(story) = self.story()
            && let Some(key) = story.key
            && self.key_seen.is_none()
        {
            let opened = story.opens_at_ms * MS;
            self.key_seen =
                self.session.log().iter().find(|l| l.at >= opened && key.matches(l)).map(|l| l.at);
        }
        let (refusals, answer) = self.live.voter_change_answers(&self.session);
        effects.extend(refusals.into_iter().map(Effect::Post));
        if let Some(answer) = answer {
            self.status = answer;
        }
        if self.tab == Tab::Cluster {
            self.live.draw(&self.session, self.reduced_motion);
        }
        if refresh_log {
            self.live.refresh_log(&self.session);
        }
    }

    /// Put the page in its initial state: the scenario, or the (shared) session.
    fn start_over(&mut self) {
        match self.params.scenario.and_then(stories::find) {
            Some(story) => self.load_story(story),
            None if let Some(id) = self.params.scenario => self.load_migration(id),
            None => {
                self.session = self.params.begin_session(self.live.form.clone());
                self.tab = Tab::Cluster;
                let reopening = Reopening { until: self.params.at.unwrap_or(0) };
                if reopening.until <= Reopening::AT_ONCE {
                    self.session.replay_toward(
                        reopening.until,
                        self.params.events,
                        self.params.applied,
                        usize::MAX,
                    );
                    self.opened();
                } else {
                    self.live.reopening = Some(reopening);
                }
            }
        }
        self.live.selected = None;
    }

    /// A shared session has reached its moment: say what does not match the link.
    fn opened(&mut self) {
        self.live.reopening = None;
        if let Some(problem) = self.session.replay_problem() {
            self.notices.push(format!("actions: {problem}"));
        }
        self.notices.extend(self.params.check_session(&self.session));
    }

    /// Seek the live timeline, pausing (the moment must lie inside the window).
    fn seek(&mut self, t: Micros) -> Result<(), session::SeekError> {
        self.live.playing = false;
        self.session.seek(t)
    }

    /// Open a story at its opening moment; a cluster story plays (its key moment lies ahead).
    fn load_story(&mut self, story: &Story) {
        let seed = self.params.settings.seed;
        (self.key_seen, self.question) = (None, None);
        match (story.view, story.race) {
            #[cfg(feature = "full")]
            (View::Failover, Some(race)) => {
                self.race.open(match self.tour {
                    Some(_) => RaceRequest {
                        partitions: race.partitions,
                        shown_after_kill_ms: Some(race.tour_opens_after_kill_ms),
                        plays_on: true,
                        key: Some(race.key),
                        autoplay: false,
                        // Kiosk mode walks on by itself: its questions are never held at.
                        question: predictions::race_for_story(story.id).filter(|_| !self.kiosk),
                    },
                    // A scenario link: two healthy clusters, killed and played by themselves
                    // unless `autoplay=0`; with `t=` or `at=`, a still that long after the kill.
                    None => RaceRequest {
                        shown_after_kill_ms: self.params.at.map(|at| at / MS),
                        autoplay: self.params.autoplay && self.params.at.is_none(),
                        ..RaceRequest::idle(self.params.partitions)
                    },
                });
                self.tab = Tab::Failover;
            }
            #[cfg(feature = "full")]
            (View::Migration, _) => self.open_migration_step(story),
            #[cfg(feature = "full")]
            (View::Pain(pain), _) => {
                // A scenario link plays it from its start; with `t=` or `at=` it opens paused
                // that far into it, with `autoplay=0` paused at its start.
                match (self.tour, self.params.at) {
                    (None, Some(at)) => self.pains.paused_at(pain, at),
                    (None, None) if !self.params.autoplay => self.pains.paused_at(pain, 0),
                    (None, None) => self.pains.start(pain),
                    // Kiosk mode walks on by itself: its questions are skipped, never held at.
                    (Some(_), _) => self.pains.start_step(pain, self.kiosk),
                }
                self.tab = Tab::Pains;
            }
            // The first screen's build opens the view's tab only: the full page takes over.
            #[cfg(not(feature = "full"))]
            (view, _) if !Tab::showing(view).on_first_screen() => self.tab = Tab::showing(view),
            _ => {
                self.session = story.opening(seed);
                self.live.form = self.session.settings().clone();
                self.tab = Tab::Cluster;
                self.live.playing = self.tour.is_some() || self.params.autoplay;
                // Kiosk mode walks on by itself: its questions are skipped, never held at.
                self.question = self.tour.and_then(|_| Question::of(story, seed, self.kiosk));
                #[cfg(feature = "full")]
                {
                    let base = &self.base_url;
                    self.class_code = self.question.as_ref().filter(|_| self.class).and_then(|q| {
                        let link = q.phone_link(base, seed);
                        qr::Qr::of(&link).map(|code| (link, code))
                    });
                }
            }
        }
    }

    fn go_to_step(&mut self, step: Option<usize>, effects: &mut Vec<Effect>) {
        self.tour = step.map(|s| s.min(TOUR.len() - 1));
        // Leaving the tour leaves its question (a step sets its own as it loads), and the hold
        // at it: the cluster plays on, as it would have without the question.
        if self.tour.is_none() && self.asking() {
            self.live.playing = true;
        }
        #[cfg(feature = "full")]
        if self.tour.is_none() {
            self.race.just_watch();
        }
        self.question = None;
        #[cfg(feature = "full")]
        {
            self.class_code = None;
        }
        match self.tour {
            Some(step) => {
                self.live.playing = false;
                self.load_story(&TOUR[step]);
                self.live.selected = None;
                let present = if self.present { "&present=1" } else { "" };
                effects.push(Effect::SetQuery(format!("?tour={}{present}", step + 1)));
                effects.push(Effect::ScrollToTop);
                self.status = format!("Tour step {} of {}: {}", step + 1, TOUR.len(), TOUR[step].title);
            }
            None => effects.push(Effect::SetQuery("?".into())),
        }
    }

    fn reset(&mut self, effects: &mut Vec<Effect>) {
        match self.live.form.validate() {
            Ok(()) if self.tour.is_some() => self.go_to_step(self.tour, effects),
            Ok(()) => {
                self.params.actions.clear();
                (self.params.at, self.params.events, self.params.applied, self.params.fingerprint) =
                    (None, None, None, None);
                self.start_over();
                let roles = if self.live.form.combined { " (combined nodes)" } else { "" };
                self.status = format!(
                    "Reset: seed {}, {}{roles} formatted {}, {}",
                    self.live.form.seed,
                    format::counted(u64::from(self.live.form.voters), "controller"),
                    self.live.form.quorum.name(),
                    format::counted(u64::from(self.live.form.brokers), "broker")
                );
            }
            Err(error) => self.status = format!("Cannot reset: {error}"),
        }
    }

    fn on_frame(&mut self, elapsed: f64) {
        if let Some(reopening) = &self.live.reopening {
            let (params, until) = (&self.params, reopening.until);
            if self.session.replay_toward(until, params.events, params.applied, pacing::FRAME_EVENT_BUDGET) {
                self.opened();
            }
            return;
        }
        if !self.animating() {
            return;
        }
        #[cfg(feature = "full")]
        if self.tab == Tab::Pains {
            if let Some(at) = self.pains.frame(elapsed) {
                self.view_key_seen(at);
            }
            return;
        }
        #[cfg(feature = "full")]
        if self.tab == Tab::Log {
            self.metadata_log.frame(elapsed);
            return;
        }
        #[cfg(feature = "full")]
        if self.tab == Tab::Migration {
            self.record_migration();
            if let Some(migration) = self.migration.as_mut().filter(|_| self.recording.is_none()) {
                migration.frame(elapsed);
                if let Some(at) = migration.answer_seen() {
                    self.view_key_seen(at);
                }
            }
            return;
        }
        // The live cluster plays only when shown and playing (the race's frames are not its own).
        if !(self.live.playing && self.tab == Tab::Cluster) {
            return;
        }
        let hold = self.question.as_ref().and_then(Question::hold_at);
        if let Some(status) = self.live.play(&mut self.session, elapsed, hold) {
            self.status = status;
        }
        // The step holds at its question until it is answered or skipped.
        if self.asking() {
            self.live.playing = false;
        }
    }

    /// Whether the tour step's question is open: the step holds there.
    fn asking(&self) -> bool {
        self.question.as_ref().is_some_and(|q| q.is_asking(self.session.now()))
    }

    /// Play or pause; playing on from an open question is choosing to just watch.
    fn toggle_play(&mut self) {
        if self.asking() {
            self.predict(None);
        } else {
            self.live.playing = !self.live.playing;
        }
    }

    /// Answer the open question with option `answer`, or (`None`) just watch; either plays on.
    fn predict(&mut self, answer: Option<usize>) {
        #[cfg(feature = "full")]
        if self.tab == Tab::Migration {
            return self.migrating(migration::MigrationAction::Predict(answer));
        }
        #[cfg(feature = "full")]
        if self.tab == Tab::Pains {
            self.pains.reduce(PainsAction::Predict(answer));
            return;
        }
        let now = self.session.now();
        if let Some(question) = self.question.as_mut() {
            self.live.playing |= question.respond(answer, now);
        }
    }

    fn act(&mut self, action: session::Action) {
        let _ = self.act_checked(action);
    }

    /// Do `action`, saying so in the status line; a refusal names its moment and why. One that
    /// speaks of the active controller goes when the active controller changes.
    fn act_checked(&mut self, action: session::Action) -> Result<(), session::ActError> {
        let (asked, done_text, at) = (action.request(), action.describe(), self.session.now());
        let done = self.session.act(action);
        self.status = match &done {
            Ok(()) => done_text,
            Err(error) => format!("{asked}: refused at {}, {error}", format::seconds(at)),
        };
        self.refusal = match &done {
            Err(error) if error.about_active_controller() => {
                Some((self.status.clone(), self.session.active_controller()))
            }
            _ => None,
        };
        done
    }

    /// Clear a refusal about the active controller once there is another (or none any more).
    fn expire_refusal(&mut self) {
        let Some((text, seen)) = &self.refusal else { return };
        if *text != self.status {
            self.refusal = None;
        } else if *seen != self.session.active_controller() {
            self.status.clear();
            self.refusal = None;
        }
    }

    /// A host page's command, through the page's own paths (as the buttons and keys do).
    fn on_host(&mut self, command: Command, effects: &mut Vec<Effect>) -> Result<(), CommandError> {
        let opens = matches!(command, Command::LoadScenario { .. } | Command::TourStep { .. });
        #[cfg(feature = "full")]
        if self.tab == Tab::Failover && !opens {
            return self.command_race(command, effects);
        }
        if self.tab == Tab::Pains && !opens {
            return Err(CommandError::PainShown);
        }
        #[cfg(feature = "full")]
        if self.tab == Tab::Migration && !opens {
            return self.command_migration(command);
        }
        if let Some(action) = command.action() {
            return Ok(self.act_checked(action)?);
        }
        match command {
            Command::Play => self.live.playing = true,
            Command::Pause => self.live.playing = false,
            Command::Step => {
                self.live.playing = false;
                self.session.step();
            }
            Command::Seek { ms } => {
                let furthest = self.session.horizon().max(self.session.now()) + WINDOW;
                if ms * MS > furthest {
                    return Err(CommandError::SeekTooFar { asked: ms * MS, horizon: self.session.horizon() });
                }
                self.seek(ms * MS)?;
            }
            Command::SetSpeed { speed } => {
                self.live.speed_exp = speed.log10().clamp(MIN_SPEED_EXP, MAX_SPEED_EXP)
            }
            Command::LoadScenario { scenario } => {
                let migration = || crate::page::params::migration_scenario(&scenario);
                self.params.scenario = stories::find(&scenario).map(|s| s.id).or_else(migration);
                #[cfg(feature = "full")]
                self.params.ops.clear();
                self.tour = None;
                self.start_over();
            }
            Command::TourStep { step } => self.go_to_step(Some(step - 1), effects),
            _ => {}
        }
        Ok(())
    }

    /// A link that reopens exactly this moment: settings, recorded actions and time (or the
    /// race's size on the failover view).
    fn share(&mut self) -> Effect {
        let query = self.later_view_query().unwrap_or_else(|| PageParams::share_query(&self.session));
        let url = format!("{}?{query}", self.base_url);
        self.status =
            "A link to this moment is below (and on the clipboard where the browser allows).".into();
        self.share = Some(url.clone());
        Effect::Copy(url)
    }

    /// Whether the view shown can be saved as a picture: the live cluster, the failover race and
    /// the pains always; the metadata log view once files are opened in it.
    fn stills_here(&self) -> bool {
        match self.tab {
            Tab::Cluster => true,
            #[cfg(feature = "full")]
            Tab::Failover | Tab::Pains => true,
            #[cfg(feature = "full")]
            Tab::Migration => self.migration.is_some(),
            #[cfg(feature = "full")]
            Tab::Log => self.metadata_log.opened().is_some(),
            #[cfg(not(feature = "full"))]
            _ => false,
        }
    }

    /// The "Save picture" form: its choices, and saving the view shown as it is now (another
    /// view closes the form).
    fn on_still(&mut self, action: StillAction, effects: &mut Vec<Effect>) {
        let form = &mut self.still;
        match action {
            StillAction::Open => self.still_open = self.stills_here(),
            StillAction::Close => self.still_open = false,
            StillAction::Format(format) => form.format = format,
            StillAction::Dark(dark) => form.style.dark = dark,
            StillAction::Caption(caption) => form.style.caption = caption,
            StillAction::Save if self.still_open => {
                let still = match self.tab {
                    #[cfg(feature = "full")]
                    Tab::Failover => form.race_still(&self.race, self.params.settings.seed),
                    #[cfg(feature = "full")]
                    Tab::Pains => Some(form.pains_still(&self.pains.view())),
                    #[cfg(feature = "full")]
                    Tab::Migration => self.migration.as_ref().map(|m| form.migration_still(m.view())),
                    #[cfg(feature = "full")]
                    Tab::Log => self.metadata_log.opened().map(|log| form.log_still(log)),
                    _ => Some(form.still(&self.session, self.params.scenario, self.reduced_motion)),
                };
                match still {
                    Some(still) => {
                        self.status = format!("Saving {}…", still.name);
                        effects.push(Effect::SaveStill(still));
                    }
                    None => {
                        self.status = match self.tab {
                            Tab::Log => "The files are still being read: there is nothing to draw yet.",
                            _ => "The race is still being built: there is nothing to draw yet.",
                        }
                        .into()
                    }
                }
            }
            StillAction::Save => {}
        }
    }

    /// Keyboard shortcuts; returns whether the key was used.
    fn on_key(&mut self, key: &str, effects: &mut Vec<Effect>) -> bool {
        #[cfg(feature = "full")]
        if let Some(used) = self.later_view_key(key, effects) {
            return used;
        }
        match key {
            " " => self.toggle_play(),
            _ if let Some(answer) = prediction_key(key).filter(|_| self.asking()) => self.predict(answer),
            "s" | "S" => {
                self.live.playing = false;
                self.session.step();
            }
            "ArrowRight" | "PageDown" => self.go_to_step(Some(self.tour.map_or(0, |s| s + 1)), effects),
            "ArrowLeft" | "PageUp" => {
                self.go_to_step(Some(self.tour.map_or(0, |s| s.saturating_sub(1))), effects)
            }
            "k" | "K" => self.act(session::Action::KillLeader),
            "x" | "X" => self.partition_a_node(),
            "h" | "H" => self.act(session::Action::Heal),
            "g" | "G" => self.act(session::Action::Resign),
            "r" | "R" => self.reset(effects),
            "p" | "P" => self.present = !self.present,
            "f" | "F" => effects.push(Effect::Fullscreen),
            "e" | "E" if self.stills_here() => self.still_open = !self.still_open,
            "?" => self.help = !self.help,
            "Escape" if self.help => self.help = false,
            "Escape" if self.still_open => self.still_open = false,
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
        match self.live.selected.or_else(follower) {
            Some(id) => self.act(session::Action::Isolate(id)),
            None => self.status = "No node to partition: select one first".into(),
        }
    }
}

/// The key that answers an open question: a digit, its option (0-based); W, just watch.
pub(crate) fn prediction_key(key: &str) -> Option<Option<usize>> {
    match key {
        "w" | "W" => Some(None),
        digit @ ("1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9") => {
            Some(digit.parse::<usize>().ok().map(|n| n - 1))
        }
        _ => None,
    }
}

/// Keys that play the failover race (or the pain) while its view is shown.
pub fn is_race_key(key: &str) -> bool {
    matches!(key, " " | "s" | "S" | "k" | "K" | "r" | "R" | "g" | "G")
}

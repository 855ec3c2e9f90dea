//! The failover race view's state: the race itself (a KRaft and a ZooKeeper-mode cluster that
//! lose their controllers at once), how it plays (paused, playing, stepped, skipping to the end,
//! scripted to a moment by a tour step or a scenario link), the scrubber's reach, the tour step's
//! question (asked before the kill), and which of its moments were told (the tour step's key
//! moment, the end to the host page). It changes
//! through [`RaceView::reduce`], [`RaceView::frame`] and [`RaceView::obey`], each returning what
//! the race tells the page.

pub mod action;
pub mod measured;
pub mod question;
pub mod request;
pub mod screen;
pub mod size;
pub mod speed_choice;
mod work;

pub use action::{RaceAction, RaceEffect};
pub use measured::Point;
pub use question::{RaceQuestion, RaceQuestionView};
pub use request::RaceRequest;
pub use screen::{RaceFrame, RaceScreen};
pub use speed_choice::Playback;

use super::clock::Clock;
use crate::experiments::failover::KraftRoles;
use crate::harness::{MS, Micros};
use crate::page::host::{Command, HostEvent};
use crate::race::{FailoverRace, RaceError, RaceMoment, RaceStage};

/// Real milliseconds of playback one Step covers.
const STEP_MS: f64 = 500.0;

/// The race as the failover view shows it.
pub struct RaceView {
    request: RaceRequest,
    /// How the KRaft side is laid out: dedicated controllers, or combined nodes.
    roles: KraftRoles,
    /// The race, while its view is shown (why it could not be built, if so). The view drops it
    /// when closed: a race can hold a large image.
    race: Option<Result<FailoverRace, RaceError>>,
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
    /// Autoplay: real milliseconds left to show the healthy clusters before killing and playing.
    healthy_hold: Option<f64>,
    playing: bool,
    playback: Playback,
    /// The speed the last frame played at.
    shown_speed: Option<f64>,
    /// The furthest moment the race has reached, for the scrubber.
    horizon: Micros,
    /// The partition slider's exponent.
    exp: f64,
    measured: Vec<Point>,
    /// Whether the race's end was told to the host page (told again after a rewind).
    finish_told: bool,
    /// The tour step's question: the race holds before the kill until it is answered.
    question: Option<RaceQuestion>,
    /// Each side shows its partition grid in place of its drawing.
    grids_first: bool,
}

/// A race of `partitions` partitions with its KRaft side laid out as `roles`, in its preparing
/// stage.
fn build(partitions: u64, roles: KraftRoles) -> Result<FailoverRace, RaceError> {
    FailoverRace::with_roles(partitions, 1, roles)
}

impl RaceView {
    /// The view, closed, asked for an idle race of `partitions` partitions with its KRaft side
    /// laid out as `roles`.
    pub(crate) fn new(partitions: u64, roles: KraftRoles) -> RaceView {
        RaceView {
            request: RaceRequest::idle(partitions),
            roles,
            race: None,
            script: None,
            plays_on: false,
            key: None,
            key_told: false,
            skipping: false,
            kill_when_ready: false,
            healthy_hold: None,
            playing: false,
            playback: Playback::Auto,
            shown_speed: None,
            horizon: 0,
            exp: size::exp_for(partitions),
            measured: Vec::new(),
            finish_told: false,
            question: None,
            grids_first: false,
        }
    }

    /// Whether each side shows its partition grid in place of its drawing.
    pub fn grids_first(&self) -> bool {
        self.grids_first
    }

    /// The race the page asked for last.
    pub fn request(&self) -> &RaceRequest {
        &self.request
    }

    /// The race, while shown and built.
    pub fn race(&self) -> Option<&FailoverRace> {
        self.race.as_ref()?.as_ref().ok()
    }

    /// Why the race could not be built or prepared.
    pub(crate) fn error(&self) -> Option<&RaceError> {
        self.race.as_ref()?.as_ref().err()
    }

    /// Whether the view is shown (it holds a race, or the reason it has none).
    pub fn is_open(&self) -> bool {
        self.race.is_some()
    }

    /// Whether the race plays on by itself.
    pub fn playing(&self) -> bool {
        self.playing
    }

    /// The pacing chosen.
    pub(crate) fn playback(&self) -> Playback {
        self.playback
    }

    /// The speed the last frame played at.
    pub fn shown_speed(&self) -> Option<f64> {
        self.shown_speed
    }

    /// How long after the kill the race stands, once killed.
    pub(crate) fn elapsed(&self) -> Option<Micros> {
        self.race().and_then(FailoverRace::elapsed)
    }

    /// The furthest moment since the kill the race has reached.
    pub fn horizon(&self) -> Micros {
        self.horizon
    }

    /// How the KRaft side is laid out.
    pub fn roles(&self) -> KraftRoles {
        self.roles
    }

    /// The partition slider's exponent.
    pub(crate) fn exp(&self) -> f64 {
        self.exp
    }

    /// The partition count the slider shows.
    pub fn partitions(&self) -> u64 {
        size::partitions_for(self.exp)
    }

    /// The measured curve (empty until fetched).
    pub fn measured(&self) -> &[Point] {
        &self.measured
    }

    /// The tour step's question, as the panel shows it.
    pub fn question(&self) -> Option<RaceQuestionView> {
        self.question.as_ref().map(|q| q.view(self.race()))
    }

    /// Whether the tour step's question is open: the race holds before the kill.
    pub fn asking(&self) -> bool {
        self.question.as_ref().is_some_and(|q| q.is_asking(self.race()))
    }

    /// Whether frames should run: preparing, playing, fast-forwarding, or about to kill (not
    /// while holding at the question).
    pub fn busy(&self) -> bool {
        let Some(race) = self.race() else { return false };
        match race.stage() {
            RaceStage::Preparing { .. } => true,
            RaceStage::Running { .. } => {
                !race.finished() && (self.script.is_some() || self.skipping || self.playing)
            }
            RaceStage::Ready => {
                ((self.script.is_some() || self.kill_when_ready) && !self.asking())
                    || self.healthy_hold.is_some()
            }
        }
    }

    /// Show `request`'s race, from its start.
    pub(crate) fn open(&mut self, request: RaceRequest) {
        self.request = request;
        self.restart();
    }

    /// Keep the race only while its view is `shown`: opened again, the view starts the requested
    /// race afresh; closed, it drops the race.
    pub(crate) fn show(&mut self, shown: bool) {
        if shown && !self.is_open() {
            self.restart();
        } else if !shown {
            self.race = None;
        }
    }

    /// One of the race's controls.
    pub(crate) fn reduce(&mut self, action: RaceAction) -> Vec<RaceEffect> {
        // Playing the race on from its question is choosing to just watch.
        if matches!(
            action,
            RaceAction::Kill
                | RaceAction::TogglePlay
                | RaceAction::Step
                | RaceAction::SkipToEnd
                | RaceAction::Seek(_)
        ) {
            self.just_watch();
        }
        match action {
            RaceAction::Partitions(exp) => {
                self.exp = exp.clamp(size::MIN_EXP, size::MAX_EXP);
                self.rebuild();
            }
            RaceAction::Roles(roles) => {
                self.roles = roles;
                self.rebuild();
            }
            RaceAction::Playback(playback) => self.playback = playback,
            RaceAction::Kill => self.kill(),
            RaceAction::RunAgain => self.run_again(),
            RaceAction::TogglePlay => self.toggle_play(),
            RaceAction::Step => self.step(),
            RaceAction::SkipToEnd => (self.skipping, self.script) = (true, None),
            RaceAction::Seek(t) => self.seek(t),
            RaceAction::Measured(csv) => self.measured = measured::parse_csv(&csv),
            RaceAction::Guess(tenths) => {
                if let Some(question) = &mut self.question {
                    question.set_guess(tenths);
                }
            }
            RaceAction::Predict(guess) => self.predict(guess),
            RaceAction::ToggleGrids => self.grids_first = !self.grids_first,
        }
        self.told()
    }

    /// Predict what the question's slider says, or (`false`) just watch; then the race plays:
    /// on from the tour step's script, or killed as soon as ready.
    fn predict(&mut self, guess: bool) {
        if !self.asking() {
            return;
        }
        if let Some(question) = &mut self.question {
            question.predict(guess);
        }
        if self.script.is_none() {
            (self.kill_when_ready, self.playing, self.healthy_hold) = (true, false, None);
        }
    }

    /// Leave the question open no longer: the viewer plays the race on without predicting.
    pub(crate) fn just_watch(&mut self) {
        if self.asking()
            && let Some(question) = &mut self.question
        {
            question.predict(false);
        }
    }

    /// A host page's command, as the race's own buttons do it.
    pub(crate) fn obey(&mut self, command: &Command) -> Vec<RaceEffect> {
        if matches!(command, Command::Play | Command::Step | Command::KillLeader | Command::Seek { .. }) {
            self.just_watch();
        }
        match command {
            Command::Play if !self.playing => self.toggle_play(),
            Command::Pause => {
                self.healthy_hold = None;
                if self.playing {
                    self.toggle_play();
                }
            }
            Command::Step => self.step(),
            Command::KillLeader => self.kill(),
            Command::Seek { ms } => self.seek(ms * MS),
            _ => {}
        }
        self.told()
    }

    /// An animation frame, `real_ms` after the previous one; `clock` bounds its work.
    pub(crate) fn frame(&mut self, real_ms: f64, clock: Clock) -> Vec<RaceEffect> {
        self.on_frame(real_ms, clock);
        self.told()
    }

    /// A new race of the slider's size and the chosen layout, waiting for the kill.
    fn rebuild(&mut self) {
        self.race = Some(build(self.partitions(), self.roles));
        (self.script, self.skipping, self.playing, self.horizon) = (None, false, false, 0);
        (self.kill_when_ready, self.healthy_hold) = (false, None);
    }

    fn restart(&mut self) {
        let request = &self.request;
        self.exp = size::exp_for(request.partitions);
        self.race = Some(build(request.partitions, self.roles));
        self.script = request.script();
        (self.plays_on, self.key, self.key_told) = (request.plays_on, request.key, false);
        (self.skipping, self.playing, self.horizon, self.kill_when_ready) = (false, false, 0, false);
        self.healthy_hold = (request.autoplay && self.script.is_none()).then_some(request::HEALTHY_HOLD_MS);
        self.question = request.question.map(RaceQuestion::new);
    }

    /// What to tell the page now: the race's end (once per run) and the key moment (once).
    fn told(&mut self) -> Vec<RaceEffect> {
        let mut told = Vec::new();
        let finished = self.race().and_then(HostEvent::failover_finished);
        if let Some(event) = finished.clone().filter(|_| !self.finish_told) {
            told.push(RaceEffect::Post(event));
        }
        self.finish_told = finished.is_some();
        if let (Some(key), false, Some(race)) = (self.key, self.key_told, self.race())
            && let Some(elapsed) = race.elapsed()
            && key.reached(race)
        {
            self.key_told = true;
            told.push(RaceEffect::KeyMoment(elapsed));
        }
        told
    }

    fn race_mut(&mut self) -> Option<&mut FailoverRace> {
        self.race.as_mut()?.as_mut().ok()
    }

    fn kill(&mut self) {
        let Some(race) = self.race_mut() else { return };
        match race.stage() {
            // A kill asked for while the clusters are built (a host page's play or kill-leader
            // right after load-scenario) happens once they are ready.
            RaceStage::Preparing { .. } => (self.kill_when_ready, self.playing) = (true, false),
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
        self.healthy_hold = None;
    }

    fn run_again(&mut self) {
        self.healthy_hold = None;
        if let Some(race) = self.race_mut()
            && race.run_again().is_ok()
        {
            (self.script, self.skipping, self.playing, self.horizon) = (None, false, false, 0);
            self.kill_when_ready = false;
        }
    }

    fn toggle_play(&mut self) {
        let Some(race) = self.race() else { return };
        match race.stage() {
            RaceStage::Preparing { .. } | RaceStage::Ready => self.kill(),
            RaceStage::Running { .. } if !race.finished() => {
                self.playing = !self.playing;
                (self.script, self.skipping) = (None, false);
            }
            _ => {}
        }
    }

    fn step(&mut self) {
        (self.playing, self.healthy_hold) = (false, None);
        (self.script, self.plays_on, self.skipping) = (None, false, false);
        let fixed = self.playback.fixed();
        let Some(race) = self.race_mut() else { return };
        match race.stage() {
            RaceStage::Ready => {
                let _ = race.kill();
            }
            RaceStage::Running { elapsed } if !race.finished() => {
                let dt = race.playback_step(STEP_MS, fixed);
                race.advance(dt);
                self.horizon = self.horizon.max(elapsed + dt);
            }
            _ => {}
        }
    }

    fn seek(&mut self, t: Micros) {
        self.healthy_hold = None;
        let Some(race) = self.race_mut() else { return };
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

    fn on_frame(&mut self, real_ms: f64, clock: Clock) {
        let playback = self.playback;
        self.shown_speed = None;
        let Some(Ok(race)) = &mut self.race else { return };
        match race.stage() {
            RaceStage::Preparing { .. } => {
                if let Err(error) = work::prepare(race, clock) {
                    self.race = Some(Err(error));
                }
                return;
            }
            // The tour step's question holds the race before the kill.
            RaceStage::Ready if self.question.as_ref().is_some_and(RaceQuestion::is_open) => {}
            RaceStage::Ready if self.script.is_some() || self.kill_when_ready => {
                let _ = race.kill();
                self.playing = std::mem::take(&mut self.kill_when_ready);
            }
            RaceStage::Ready => match self.healthy_hold {
                Some(left) if left > real_ms => self.healthy_hold = Some(left - real_ms),
                Some(_) => {
                    let _ = race.kill();
                    (self.playing, self.healthy_hold) = (true, None);
                }
                None => {}
            },
            RaceStage::Running { elapsed } => match self.script {
                Some(target) if elapsed < target => work::fast_forward(race, Some(target), clock),
                Some(_) => {
                    self.script = None;
                    self.playing = std::mem::take(&mut self.plays_on);
                }
                None if self.skipping => work::fast_forward(race, None, clock),
                None if self.playing => {
                    self.shown_speed = match playback {
                        Playback::Auto => race.pace().map(|p| p.speed),
                        Playback::Fixed(speed) => Some(speed),
                    };
                    let dt = race.playback_step(real_ms, playback.fixed());
                    race.advance(dt);
                }
                None => {}
            },
        }
        if let Some(elapsed) = race.elapsed() {
            self.horizon = self.horizon.max(elapsed);
            if race.finished() {
                self.playing = false;
            }
        }
    }
}

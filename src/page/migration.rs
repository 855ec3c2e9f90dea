//! The migration view without the DOM: which migration scenario plays, its timeline (recorded
//! once, seekable, forked by the viewer's own steps and faults), where the play stands at the
//! view's pace, and what the view draws ([`MigrationState::view`]). It changes only through
//! [`MigrationState::reduce`] and [`MigrationState::frame`].

use crate::harness::playback::{Pace, WAIT_SPEED, speed_label};
use crate::harness::{MS, Micros};
use crate::migration::picture::MigrationPicture;
use crate::migration::scenarios::{self, SCENARIOS, Scenario};
use crate::migration::sim::{Action, MigrationConfig};
use crate::migration::timeline::{Recording, Timeline};
use crate::util::format;

use super::chips::{Chip, migration_chips};
use super::question::{Question, QuestionView};
use crate::drawing::cluster::StillStyle;
use crate::drawing::migration::{migration_still, standing_lines};
use crate::drawing::svg::El;
use crate::teaching::migration_predictions;
use crate::teaching::stories::Story;

/// Latest events shown.
pub const EVENTS_SHOWN: usize = 6;
/// Real milliseconds of playback one Step covers.
pub const STEP_MS: f64 = 500.0;
/// The speed through a burst of the migration's story (the claim, the copy and the first push
/// happen within milliseconds): 40 simulated ms a real second.
pub const BURST_SPEED: f64 = 0.04;
/// Notable moments closer than this form one burst.
const BURST_GAP: Micros = 200 * MS;
/// Slow motion starts this long before a burst and lasts this long after it.
const BURST_LEAD: Micros = 2 * MS;
const BURST_TAIL: Micros = 10 * MS;
/// A burst plays for at most this many real milliseconds: faster than [`BURST_SPEED`] if it is
/// long (a large cluster's copy is a burst of half a minute).
const LONGEST_BURST_MS: f64 = 15_000.0;
/// How far past its recorded end a link may take a migration the viewer forked (a link asking
/// more would keep the page busy for minutes).
pub const PAST_END: Micros = 600_000 * MS;
/// How long ZooKeeper is away for the view's fault.
pub const OUTAGE: Micros = 30_000 * MS;
/// The most partitions a migration link may ask for (`partitions=`): the recorded run and its
/// copies are held in the page's memory.
pub const MAX_PARTITIONS: u64 = 200_000;
/// The largest cluster whose fingerprint is shown while paused (it hashes the whole state:
/// on 100,000 partitions, longer than a frame).
pub const FINGERPRINTED: u32 = 10_000;
/// Events times partitions a frame records of a migration not yet recorded: a scenario's own
/// cluster records within the first frame, 100,000 partitions 100 events a frame.
const RECORD_WORK: u64 = 10_000_000;

/// What the viewer can do to the migration shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MigrationAction {
    /// Pause, or play on.
    TogglePlay,
    /// Pause and play [`STEP_MS`] of it.
    Step,
    /// Pause at simulated time `t` (within what the timeline holds).
    Seek(Micros),
    /// An operator's step or a fault, now: the timeline forks here.
    Operator(Action),
    /// Go back or forward this much simulated time, pausing.
    Nudge(i64),
    /// Answer the tour step's question with this option (0-based), or (`None`) just watch;
    /// either plays on.
    Predict(Option<usize>),
}

/// Simulated time the `,` and `.` keys go back and forward.
pub const NUDGE: Micros = 1_000 * MS;

impl MigrationAction {
    /// The view's action for a key: Space plays or pauses, S steps, `,` and `.` go back and
    /// forward a second, K kills the active KRaft controller, Z takes ZooKeeper away.
    pub fn for_key(key: &str) -> Option<MigrationAction> {
        Some(match key {
            " " => MigrationAction::TogglePlay,
            "s" | "S" => MigrationAction::Step,
            "," => MigrationAction::Nudge(-(NUDGE as i64)),
            "." => MigrationAction::Nudge(NUDGE as i64),
            "k" | "K" => MigrationAction::Operator(Action::KillActiveController),
            "z" | "Z" => MigrationAction::Operator(Action::ZkOutage { lasting: OUTAGE }),
            _ => return None,
        })
    }
}

/// One migration as it plays.
pub struct MigrationState {
    scenario: &'static Scenario,
    seed: u64,
    timeline: Timeline,
    playing: bool,
    /// The viewer acted: the play goes on past the recorded end.
    forked: bool,
    /// The stretches of the recorded run played in slow motion.
    bursts: Vec<Burst>,
    /// Why the viewer's last step was refused, until the next action.
    refusal: Option<String>,
    /// The viewer's steps and faults on the timeline, each at its moment (a share link's `ops=`).
    ops: Vec<(Micros, Action)>,
    /// The partitions a link asked for (`None`: the scenario's own cluster).
    partitions: Option<u32>,
    /// A tour step's question: the play holds at it until it is answered or skipped.
    question: Option<Question>,
    /// What it draws now, computed once a change.
    view: MigrationView,
}

/// A migration being recorded before it can play (a large cluster's run takes many frames), and
/// how its link asked to open it.
pub struct PreparingMigration {
    scenario: &'static Scenario,
    seed: u64,
    partitions: Option<u32>,
    recording: Recording,
    ops: Vec<(Micros, Action)>,
    at: Option<Micros>,
    autoplay: bool,
}

impl PreparingMigration {
    /// Scenario `id` with `seed`, on `partitions` if a link asks for them (at most
    /// [`MAX_PARTITIONS`]), to open with the viewer's `ops` taken and paused `at` (playing
    /// from the start without it, unless `autoplay` is off); a size it cannot run, in a notice.
    pub fn new(
        id: &str,
        seed: u64,
        partitions: Option<u64>,
        ops: &[(Micros, Action)],
        at: Option<Micros>,
        autoplay: bool,
    ) -> Result<(PreparingMigration, Vec<String>), String> {
        let scenario = scenarios::find(id).ok_or_else(|| {
            let ids: Vec<&str> = SCENARIOS.iter().map(|s| s.id).collect();
            format!("scenario: '{id}' is not a migration scenario ({})", ids.join(", "))
        })?;
        let mut notices = Vec::new();
        if let Some(asked) = partitions.filter(|p| *p > MAX_PARTITIONS) {
            notices.push(format!(
                "partitions: the migration runs on at most {} partitions, not {}; opening it on {0}",
                format::count(MAX_PARTITIONS),
                format::count(asked)
            ));
        }
        let partitions = partitions.map(|p| p.min(MAX_PARTITIONS) as u32);
        let config = sized(scenario.config(), partitions);
        let recording = Recording::new(scenario, config, seed).map_err(|e| e.to_string())?;
        let preparing =
            PreparingMigration { scenario, seed, partitions, recording, ops: ops.to_vec(), at, autoplay };
        Ok((preparing, notices))
    }

    /// The events a frame records: fewer on a larger cluster, whose events cost more.
    pub fn slice(&self) -> u64 {
        let partitions = sized(self.scenario.config(), self.partitions).partitions();
        (RECORD_WORK / u64::from(partitions).max(1)).max(20)
    }

    /// Records on, at most `budget` events: whether it is done.
    pub fn advance(&mut self, budget: u64) -> Result<bool, String> {
        self.recording.advance(&mut { budget }).map_err(|e| e.to_string())
    }

    /// How far the recording has got, in words.
    pub fn progress(&self) -> String {
        let size = format::count(u64::from(sized(self.scenario.config(), self.partitions).partitions()));
        match self.recording.progress() {
            (run, None) => format!(
                "Running {} on {size} partitions: {} of the migration simulated…",
                self.scenario.id,
                format::seconds(run)
            ),
            (done, Some(end)) => format!(
                "Playing {} on {size} partitions again for the scrubber: {} of {}…",
                self.scenario.id,
                format::seconds(done),
                format::seconds(end)
            ),
        }
    }

    /// The migration, opened as its link asked, once [`PreparingMigration::advance`] is done;
    /// what the link asked that cannot be, in the notices.
    pub fn finish(self) -> Result<(MigrationState, Vec<String>), String> {
        let timeline = self.recording.finish().ok_or("the recording has not ended")?;
        let mut state = MigrationState::recorded(self.scenario, self.seed, self.partitions, timeline);
        let notices = state.take(&self.ops, self.at, self.autoplay);
        state.refresh();
        Ok((state, notices))
    }
}

/// `config` on `partitions` (in topics of its size), unchecked (the sweep checks the invariants
/// after every event; here that would cost more than the run).
fn sized(config: MigrationConfig, partitions: Option<u32>) -> MigrationConfig {
    match partitions {
        Some(p) => {
            MigrationConfig { topics: p.div_ceil(config.partitions_per_topic), checked: false, ..config }
        }
        None => config,
    }
}

/// An operator's step or a fault the view offers, and whether it can be taken now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OperatorButton {
    pub action: Action,
    /// What it does, in full.
    pub label: String,
    /// Its button's words within its group (`broker 2`).
    pub short: String,
    /// Why it cannot be taken now (it stays in view: a refusal says what Kafka waits for).
    pub refused: Option<String>,
}

/// Said where the operator finalizes: until then ZooKeeper is a second door to the metadata
/// (the pains' `zk-security`); finalizing closes it.
pub const FINALIZE_NOTE: &str = "Until you finalize, ZooKeeper is still a second door to the metadata: keep zookeeper.set.acl=true and ZooKeeper's own authentication (SASL or mTLS) on its ports 2181, 2888 and 3888. Finalizing closes it: the controllers stop writing ZooKeeper, and ACLs and credentials live only as records of the log, changed through the controller.";

/// One of the operator's steps (its buttons: one, or one a broker), or the faults.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ButtonGroup {
    pub title: &'static str,
    pub buttons: Vec<OperatorButton>,
    /// What the operator should know at this step, in a sentence (empty for most).
    pub note: &'static str,
}

/// What the migration view draws, computed from the state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MigrationView {
    pub scenario: &'static str,
    pub about: &'static str,
    pub now: Micros,
    pub end: Micros,
    pub playing: bool,
    /// The pace's label while playing.
    pub pace: Option<String>,
    pub picture: MigrationPicture,
    /// The nodes as chips, where the drawing would be too small to read.
    pub chips: Vec<Chip>,
    pub standing: Vec<String>,
    /// The latest notable events, oldest first, each with its time.
    pub events: Vec<String>,
    /// The operator's steps in Kafka's order (then rolling back), and the faults.
    pub steps: Vec<ButtonGroup>,
    pub faults: ButtonGroup,
    pub refusal: Option<String>,
    /// The whole simulation's fingerprint while paused ([`MigrationState::fingerprint`]).
    pub fingerprint: Option<String>,
}

impl MigrationState {
    /// Scenario `id` with `seed`, recorded, at its start and playing.
    pub fn new(id: &str, seed: u64) -> Result<MigrationState, String> {
        MigrationState::open(id, seed, &[], None, true).map(|(state, _)| state)
    }

    /// Scenario `id` with `seed` as a link opens it, recorded at once: the viewer's `ops` taken
    /// at their moments, then paused `at` (playing from the start without it, unless `autoplay`
    /// is off). A step refused or a moment past the end is said in the notices returned; the
    /// rest is kept.
    pub fn open(
        id: &str,
        seed: u64,
        ops: &[(Micros, Action)],
        at: Option<Micros>,
        autoplay: bool,
    ) -> Result<(MigrationState, Vec<String>), String> {
        let (mut preparing, _) = PreparingMigration::new(id, seed, None, ops, at, autoplay)?;
        preparing.advance(u64::MAX)?;
        preparing.finish()
    }

    /// Tour step `story`'s migration with `seed`, paused at the step's moment with its
    /// question (its answer read from the scenario's own run); `skipped` (kiosk mode), playing
    /// on from there instead.
    pub fn for_step(story: &Story, seed: u64, skipped: bool) -> Result<MigrationState, String> {
        let script = story.migration.ok_or_else(|| format!("{} shows no migration", story.id))?;
        let scenario = scenarios::find(script.scenario)
            .ok_or_else(|| format!("{}: no migration scenario {}", story.id, script.scenario))?;
        let run = scenario.run(seed).map_err(|refused| format!("{}: {refused}", story.id))?;
        let opens_at = script
            .opens_at(run.trace())
            .ok_or_else(|| format!("{}: its moment never comes with seed {seed}", story.id))?;
        let (mut state, _) = MigrationState::open(script.scenario, seed, &[], Some(opens_at), false)?;
        state.question = migration_predictions::for_story(story.id).and_then(|p| {
            let outcome = p.outcome(run.trace(), state.timeline.sim())?;
            Some(Question::worded(story.id, p.question, outcome, p.why, skipped))
        });
        state.playing = !state.asking();
        state.refresh();
        Ok(state)
    }

    fn recorded(
        scenario: &'static Scenario,
        seed: u64,
        partitions: Option<u32>,
        mut timeline: Timeline,
    ) -> MigrationState {
        let bursts = bursts(&timeline);
        timeline.seek(0);
        MigrationState {
            scenario,
            seed,
            timeline,
            playing: true,
            forked: false,
            bursts,
            refusal: None,
            ops: Vec::new(),
            partitions,
            question: None,
            // Drawn once the link's steps are taken ([`PreparingMigration::finish`]).
            view: MigrationView::default(),
        }
    }

    /// The viewer's `ops` taken at their moments, then paused `at` (or from the start, playing
    /// unless `autoplay` is off); what cannot be, in words.
    fn take(&mut self, ops: &[(Micros, Action)], at: Option<Micros>, autoplay: bool) -> Vec<String> {
        let id = self.scenario.id;
        let mut notices = Vec::new();
        let reachable = |state: &MigrationState, t: Micros, what: &str| {
            let furthest = state.timeline.end() + PAST_END;
            (t <= furthest).then_some(t).ok_or_else(|| {
                format!(
                    "{what}: {} is more than {} past the end of {id} at {}",
                    format::seconds(t),
                    format::seconds(PAST_END),
                    format::seconds(state.timeline.end())
                )
            })
        };
        for (t, op) in ops {
            if let Err(far) = reachable(self, *t, "ops") {
                notices.push(format!("{far}; the steps from there on are not taken"));
                break;
            }
            self.timeline.play_to(*t);
            self.reduce(MigrationAction::Operator(*op));
            if let Some(refusal) = self.refusal.take() {
                notices.push(format!("ops: at {}, {refusal}", format::seconds(*t)));
            }
        }
        let end = self.timeline.end();
        match at {
            Some(t) if !self.forked && t > end => {
                notices.push(format!(
                    "t: {} is past the end of {id}, which runs {}; opening at its end",
                    format::seconds(t),
                    format::seconds(end)
                ));
                self.reduce(MigrationAction::Seek(end));
            }
            Some(t) => match reachable(self, t, "t") {
                Ok(t) => {
                    self.timeline.play_to(t);
                    self.playing = false;
                }
                Err(far) => {
                    notices.push(format!("{far}; opening at the end"));
                    self.reduce(MigrationAction::Seek(end));
                }
            },
            None => {
                self.timeline.seek(0);
                self.playing = autoplay;
            }
        }
        notices
    }

    /// The query string of a link that reopens this moment: the scenario, the seed, the viewer's
    /// steps and (paused) the moment, to the microsecond.
    pub fn share_query(&self) -> String {
        let mut query = format!("scenario={}&seed={}", self.scenario.id, self.seed);
        if let Some(partitions) = self.partitions {
            query.push_str(&format!("&partitions={partitions}"));
        }
        if !self.ops.is_empty() {
            let ops: Vec<String> =
                self.ops.iter().map(|(t, op)| format!("{}:{}", format::exact_ms(*t), op.code())).collect();
            query.push_str(&format!("&ops={}", ops.join("~")));
        }
        if !self.playing {
            query.push_str(&format!("&t={}", format::exact_ms(self.now())));
        }
        query
    }

    /// The whole simulation's fingerprint (as 16 hex digits), for a link's reopened state.
    pub fn fingerprint(&self) -> String {
        format!("{:016x}", self.timeline.sim().fingerprint())
    }

    /// The scenario and seed shown.
    pub fn scenario(&self) -> (&'static str, u64) {
        (self.scenario.id, self.seed)
    }

    /// Whether it plays (animation frames are wanted).
    pub fn playing(&self) -> bool {
        self.playing
    }

    /// Where its timeline ends (so far).
    pub fn end(&self) -> Micros {
        self.timeline.end()
    }

    /// Why the viewer's last step was refused, if it was.
    pub fn refused(&self) -> Option<&str> {
        self.refusal.as_deref()
    }

    fn now(&self) -> Micros {
        self.timeline.sim().now()
    }

    /// The pace it plays at now: slow motion through a burst, [`WAIT_SPEED`] between them, never
    /// skipping the next burst's start.
    fn pace(&self) -> Pace {
        let now = self.now();
        match self.bursts.iter().find(|b| b.to > now) {
            Some(b) if b.from <= now => Pace { speed: b.speed, until: Some(b.to) },
            Some(b) => Pace { speed: WAIT_SPEED, until: Some(b.from) },
            None => Pace { speed: WAIT_SPEED, until: None },
        }
    }

    /// One action of the viewer's.
    pub fn reduce(&mut self, action: MigrationAction) {
        self.refusal = None;
        match action {
            // Playing on from an open question is choosing to just watch.
            MigrationAction::TogglePlay if self.asking() => self.predict(None),
            MigrationAction::TogglePlay => {
                self.playing = !self.playing && (self.forked || self.now() < self.timeline.end());
            }
            MigrationAction::Predict(answer) => self.predict(answer),
            MigrationAction::Step => {
                self.playing = false;
                self.play(STEP_MS);
            }
            MigrationAction::Seek(t) => {
                self.playing = false;
                self.timeline.seek(t);
            }
            MigrationAction::Nudge(by) => {
                self.playing = false;
                self.timeline.seek(self.now().saturating_add_signed(by));
            }
            MigrationAction::Operator(step) => match self.timeline.act(step) {
                Ok(()) => {
                    let now = self.now();
                    // The question was about the recorded run, which this step leaves.
                    if self.question.as_ref().is_some_and(|q| q.answer_seen(now).is_none()) {
                        self.question = None;
                    }
                    self.ops.retain(|(t, _)| *t <= now);
                    self.ops.push((now, step));
                    self.forked = true;
                    self.bursts.retain(|b| b.from < self.timeline.end());
                }
                Err(refused) => self.refusal = Some(format!("{step}: refused, {refused}")),
            },
        }
        self.refresh();
    }

    /// An animation frame `real_ms` after the previous one: plays on while playing.
    pub fn frame(&mut self, real_ms: f64) {
        if self.playing {
            self.play(real_ms);
            self.refresh();
        }
    }

    /// Answer the open question with option `answer`, or (`None`) just watch; either plays on.
    fn predict(&mut self, answer: Option<usize>) {
        let now = self.now();
        if let Some(question) = self.question.as_mut() {
            self.playing |= question.respond(answer, now);
        }
    }

    /// Whether a tour step's question is open: the play holds there.
    pub fn asking(&self) -> bool {
        self.question.as_ref().is_some_and(|q| q.is_asking(self.now()))
    }

    /// The tour step's question as the tour panel shows it now.
    pub fn question(&self) -> Option<QuestionView> {
        self.question.as_ref().map(|q| q.view(self.now()))
    }

    /// When the tour step's answer played, once the play has reached it.
    pub fn answer_seen(&self) -> Option<Micros> {
        self.question.as_ref().and_then(|q| q.answer_seen(self.now()))
    }

    /// Play `real_ms` at the pace, holding at an open question; a recorded run stops at its
    /// end, a forked one plays on.
    fn play(&mut self, real_ms: f64) {
        let now = self.now();
        let hold = self.question.as_ref().and_then(Question::hold_at).filter(|at| *at >= now);
        let to = now + self.pace().step(now, real_ms);
        let to = hold.map_or(to, |at| to.min(at));
        if self.forked {
            self.timeline.play_to(to);
        } else {
            self.timeline.seek(to.min(self.timeline.end()));
            if self.now() >= self.timeline.end() {
                self.playing = false;
            }
        }
        if self.asking() {
            self.playing = false;
        }
    }

    /// What the view draws now.
    pub fn view(&self) -> &MigrationView {
        &self.view
    }

    fn refresh(&mut self) {
        self.view = self.drawn();
    }

    /// What the view draws, computed.
    fn drawn(&self) -> MigrationView {
        let sim = self.timeline.sim();
        let picture = MigrationPicture::of(sim);
        let mut events: Vec<String> = sim
            .trace()
            .iter()
            .rev()
            .filter(|l| l.kind.notable())
            .take(EVENTS_SHOWN)
            .map(|l| format!("{} {}", format::seconds(l.at), l.kind))
            .collect();
        events.reverse();
        let button = |action: Action, short: String| OperatorButton {
            action,
            label: action.to_string(),
            short,
            refused: sim.check(action).err().map(|e| e.0),
        };
        let one = |title, action: Action, short: &str| ButtonGroup {
            title,
            buttons: vec![button(action, short.into())],
            note: "",
        };
        let each = |title, step: fn(u32) -> Action| ButtonGroup {
            title,
            buttons: (0..sim.config().brokers).map(|b| button(step(b), format!("broker {b}"))).collect(),
            note: "",
        };
        let steps = vec![
            one("1. Provision the KRaft controllers", Action::ProvisionControllers, "provision"),
            each("2. Roll the brokers into migration mode", Action::BrokerToMigrationMode),
            each("3. Roll the brokers into KRaft mode", Action::BrokerToKraft),
            ButtonGroup {
                note: FINALIZE_NOTE,
                ..one("4. Finalize: controllers without the migration flag", Action::Finalize, "finalize")
            },
            one("Or, before finalizing: roll back", Action::RollBack, "roll back"),
            each("then roll the brokers back to ZooKeeper mode", Action::BrokerToZkMode),
        ];
        // A button's words are part of its name (what a screen reader says): whole, as here.
        let whole = |action: Action| button(action, action.to_string());
        let mut faults =
            vec![whole(Action::KillActiveController), whole(Action::ZkOutage { lasting: OUTAGE })];
        faults.extend((0..sim.config().brokers).map(|b| match sim.running_in(b) {
            Some(_) => button(Action::KillBroker(b), format!("kill broker {b}")),
            None => button(Action::RestartBroker(b), format!("restart broker {b}")),
        }));
        faults.extend(
            (0..sim.config().brokers)
                .map(|b| button(Action::CutFromZk(b), format!("cut broker {b} off ZooKeeper"))),
        );
        let faults = ButtonGroup { title: "Faults, at any moment", buttons: faults, note: "" };
        MigrationView {
            scenario: self.scenario.id,
            about: self.scenario.about,
            now: sim.now(),
            end: self.timeline.end(),
            playing: self.playing,
            pace: self.playing.then(|| speed_label(self.pace().speed)),
            standing: std::iter::once(picture.standing()).chain(standing_lines(&picture)).collect(),
            chips: migration_chips(&picture),
            picture,
            events,
            steps,
            faults,
            refusal: self.refusal.clone(),
            fingerprint: (!self.playing && sim.config().partitions() <= FINGERPRINTED)
                .then(|| self.fingerprint()),
        }
    }
}

impl MigrationView {
    /// Its still (Save picture, `kraftscope render --view migration`): the drawing, where the
    /// migration stands and the latest events, in `style`.
    pub fn still(&self, style: &StillStyle) -> El {
        migration_still(&self.picture, &self.events, style, self.now)
    }
}

/// The stretches of the recorded run around its notable moments (a broker starting in a mode
/// counts too), each played in slow motion (a long one faster, within [`LONGEST_BURST_MS`]).
fn bursts(timeline: &Timeline) -> Vec<Burst> {
    let mut bursts: Vec<(Micros, Micros)> = Vec::new();
    let moments = timeline.sim().trace().iter().filter(|l| l.kind.notable()).map(|l| l.at);
    for at in moments {
        match bursts.last_mut() {
            Some((_, to)) if at <= *to + BURST_GAP => *to = at,
            _ => bursts.push((at, at)),
        }
    }
    let burst = |(from, to): (Micros, Micros)| {
        let (from, to) = (from.saturating_sub(BURST_LEAD), to + BURST_TAIL);
        let speed = BURST_SPEED.max((to - from) as f64 / MS as f64 / LONGEST_BURST_MS);
        Burst { from, to, speed }
    };
    bursts.into_iter().map(burst).collect()
}

/// A stretch of the recorded run played in slow motion, at its speed.
struct Burst {
    from: Micros,
    to: Micros,
    speed: f64,
}

//! The migration view without the DOM: which migration scenario plays, its timeline (recorded
//! once, seekable, forked by the viewer's own steps and faults), where the play stands at the
//! view's pace, and what the view draws ([`MigrationState::view`]). It changes only through
//! [`MigrationState::reduce`] and [`MigrationState::frame`].

use crate::harness::playback::{Pace, WAIT_SPEED, speed_label};
use crate::harness::{MS, Micros};
use crate::migration::picture::MigrationPicture;
use crate::migration::scenarios::{self, SCENARIOS, Scenario};
use crate::migration::sim::Action;
use crate::migration::timeline::Timeline;
use crate::util::format;

use super::chips::{Chip, migration_chips};
use super::migration_drawing::{migration_still, standing_lines};
use crate::session::cluster_drawing::StillStyle;
use crate::session::svg::El;

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
/// How far past its recorded end a link may take a migration the viewer forked (a link asking
/// more would keep the page busy for minutes).
pub const PAST_END: Micros = 600_000 * MS;
/// How long ZooKeeper is away for the view's fault.
pub const OUTAGE: Micros = 30_000 * MS;

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
    bursts: Vec<(Micros, Micros)>,
    /// Why the viewer's last step was refused, until the next action.
    refusal: Option<String>,
    /// The viewer's steps and faults on the timeline, each at its moment (a share link's `ops=`).
    ops: Vec<(Micros, Action)>,
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

/// One of the operator's steps (its buttons: one, or one a broker), or the faults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ButtonGroup {
    pub title: &'static str,
    pub buttons: Vec<OperatorButton>,
}

/// What the migration view draws, computed from the state.
#[derive(Clone, Debug, PartialEq)]
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
        let scenario = scenarios::find(id).ok_or_else(|| {
            let ids: Vec<&str> = SCENARIOS.iter().map(|s| s.id).collect();
            format!("scenario: '{id}' is not a migration scenario ({})", ids.join(", "))
        })?;
        let mut timeline = Timeline::record(scenario, scenario.config(), seed).map_err(|e| e.to_string())?;
        let bursts = bursts(&timeline);
        timeline.seek(0);
        Ok(MigrationState {
            scenario,
            seed,
            timeline,
            playing: true,
            forked: false,
            bursts,
            refusal: None,
            ops: Vec::new(),
        })
    }

    /// Scenario `id` with `seed` as a link opens it: the viewer's `ops` taken at their moments,
    /// then paused `at` (playing from the start without it, unless `autoplay` is off). A step
    /// refused or a moment past the end is said in the notices returned; the rest is kept.
    pub fn open(
        id: &str,
        seed: u64,
        ops: &[(Micros, Action)],
        at: Option<Micros>,
        autoplay: bool,
    ) -> Result<(MigrationState, Vec<String>), String> {
        let mut state = MigrationState::new(id, seed)?;
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
            if let Err(far) = reachable(&state, *t, "ops") {
                notices.push(format!("{far}; the steps from there on are not taken"));
                break;
            }
            state.timeline.play_to(*t);
            state.reduce(MigrationAction::Operator(*op));
            if let Some(refusal) = state.refusal.take() {
                notices.push(format!("ops: at {}, {refusal}", format::seconds(*t)));
            }
        }
        let end = state.timeline.end();
        match at {
            Some(t) if !state.forked && t > end => {
                notices.push(format!(
                    "t: {} is past the end of {id}, which runs {}; opening at its end",
                    format::seconds(t),
                    format::seconds(end)
                ));
                state.reduce(MigrationAction::Seek(end));
            }
            Some(t) => match reachable(&state, t, "t") {
                Ok(t) => {
                    state.timeline.play_to(t);
                    state.playing = false;
                }
                Err(far) => {
                    notices.push(format!("{far}; opening at the end"));
                    state.reduce(MigrationAction::Seek(end));
                }
            },
            None => {
                state.timeline.seek(0);
                state.playing = autoplay;
            }
        }
        Ok((state, notices))
    }

    /// The query string of a link that reopens this moment: the scenario, the seed, the viewer's
    /// steps and (paused) the moment, to the microsecond.
    pub fn share_query(&self) -> String {
        let mut query = format!("scenario={}&seed={}", self.scenario.id, self.seed);
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
        match self.bursts.iter().find(|(_, to)| *to > now) {
            Some((from, to)) if *from <= now => Pace { speed: BURST_SPEED, until: Some(*to) },
            Some((from, _)) => Pace { speed: WAIT_SPEED, until: Some(*from) },
            None => Pace { speed: WAIT_SPEED, until: None },
        }
    }

    /// One action of the viewer's.
    pub fn reduce(&mut self, action: MigrationAction) {
        self.refusal = None;
        match action {
            MigrationAction::TogglePlay => {
                self.playing = !self.playing && (self.forked || self.now() < self.timeline.end());
            }
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
                    self.ops.retain(|(t, _)| *t <= now);
                    self.ops.push((now, step));
                    self.forked = true;
                    self.bursts.retain(|(from, _)| *from < self.timeline.end());
                }
                Err(refused) => self.refusal = Some(format!("{step}: refused, {refused}")),
            },
        }
    }

    /// An animation frame `real_ms` after the previous one: plays on while playing.
    pub fn frame(&mut self, real_ms: f64) {
        if self.playing {
            self.play(real_ms);
        }
    }

    /// Play `real_ms` at the pace; a recorded run stops at its end, a forked one plays on.
    fn play(&mut self, real_ms: f64) {
        let now = self.now();
        let to = now + self.pace().step(now, real_ms);
        if self.forked {
            self.timeline.play_to(to);
        } else {
            self.timeline.seek(to.min(self.timeline.end()));
            if self.now() >= self.timeline.end() {
                self.playing = false;
            }
        }
    }

    /// What the view draws now.
    pub fn view(&self) -> MigrationView {
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
        };
        let each = |title, step: fn(u32) -> Action| ButtonGroup {
            title,
            buttons: (0..sim.config().brokers).map(|b| button(step(b), format!("broker {b}"))).collect(),
        };
        let steps = vec![
            one("1. Provision the KRaft controllers", Action::ProvisionControllers, "provision"),
            each("2. Roll the brokers into migration mode", Action::BrokerToMigrationMode),
            each("3. Roll the brokers into KRaft mode", Action::BrokerToKraft),
            one("4. Finalize: controllers without the migration flag", Action::Finalize, "finalize"),
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
        let faults = ButtonGroup { title: "Faults, at any moment", buttons: faults };
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
            fingerprint: (!self.playing).then(|| self.fingerprint()),
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
/// counts too), each played in slow motion.
fn bursts(timeline: &Timeline) -> Vec<(Micros, Micros)> {
    let mut bursts: Vec<(Micros, Micros)> = Vec::new();
    let moments = timeline.sim().trace().iter().filter(|l| l.kind.notable()).map(|l| l.at);
    for at in moments {
        match bursts.last_mut() {
            Some((_, to)) if at <= *to + BURST_GAP => *to = at,
            _ => bursts.push((at, at)),
        }
    }
    bursts.into_iter().map(|(from, to)| (from.saturating_sub(BURST_LEAD), to + BURST_TAIL)).collect()
}

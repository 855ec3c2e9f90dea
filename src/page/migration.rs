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

use super::migration_drawing::standing_lines;

/// Latest events shown.
pub const EVENTS_SHOWN: usize = 6;
/// Real milliseconds of playback one Step covers.
pub const STEP_MS: f64 = 500.0;
/// The speed through a burst of the migration's story (the claim, the copy and the first push
/// happen within milliseconds): 20 simulated ms a real second.
pub const BURST_SPEED: f64 = 0.02;
/// Notable moments closer than this form one burst.
const BURST_GAP: Micros = 200 * MS;
/// Slow motion starts this long before a burst and lasts this long after it.
const BURST_LEAD: Micros = 2 * MS;
const BURST_TAIL: Micros = 10 * MS;
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
}

/// An operator's step or a fault the view offers, and whether it can be taken now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OperatorButton {
    pub action: Action,
    pub label: String,
    /// Why it cannot be taken now (it stays in view: a refusal says what Kafka waits for).
    pub refused: Option<String>,
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
    pub standing: Vec<String>,
    /// The latest notable events, oldest first, each with its time.
    pub events: Vec<String>,
    /// The operator's steps in Kafka's order, then the faults.
    pub steps: Vec<OperatorButton>,
    pub faults: Vec<OperatorButton>,
    pub refusal: Option<String>,
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
        Ok(MigrationState { scenario, seed, timeline, playing: true, forked: false, bursts, refusal: None })
    }

    /// The scenario and seed shown.
    pub fn scenario(&self) -> (&'static str, u64) {
        (self.scenario.id, self.seed)
    }

    /// Whether it plays (animation frames are wanted).
    pub fn playing(&self) -> bool {
        self.playing
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
            MigrationAction::Operator(step) => match self.timeline.act(step) {
                Ok(()) => {
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
        let button = |action: Action| OperatorButton {
            action,
            label: action.to_string(),
            refused: sim.check(action).err().map(|e| e.0),
        };
        let brokers = sim.config().brokers;
        let each = |step: fn(u32) -> Action| (0..brokers).map(step).collect::<Vec<_>>();
        let steps = std::iter::once(Action::ProvisionControllers)
            .chain(each(Action::BrokerToMigrationMode))
            .chain(each(Action::BrokerToKraft))
            .chain([Action::Finalize, Action::RollBack])
            .chain(each(Action::BrokerToZkMode))
            .map(button)
            .collect();
        let restart = |b: u32| match sim.running_in(b) {
            Some(_) => Action::KillBroker(b),
            None => Action::RestartBroker(b),
        };
        let faults = [Action::KillActiveController, Action::ZkOutage { lasting: OUTAGE }]
            .into_iter()
            .chain((0..brokers).map(restart))
            .map(button)
            .collect();
        MigrationView {
            scenario: self.scenario.id,
            about: self.scenario.about,
            now: sim.now(),
            end: self.timeline.end(),
            playing: self.playing,
            pace: self.playing.then(|| speed_label(self.pace().speed)),
            standing: std::iter::once(picture.standing()).chain(standing_lines(&picture)).collect(),
            picture,
            events,
            steps,
            faults,
            refusal: self.refusal.clone(),
        }
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

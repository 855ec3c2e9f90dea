//! A live, steerable simulation for the page: a cluster, the user's recorded actions, the event
//! log and the invariants checked after every event. Everything is replayable from the seed and
//! the actions, which gives time travel (seek back, act to fork a new future) and shared links.

pub mod action;
pub mod admin_tools;
pub mod checkpoint;
pub mod culprits;
pub mod fingerprint;
pub mod message_kinds;
pub mod picture;
pub mod settings;
pub mod summary;

use std::collections::VecDeque;
use std::fmt;

use crate::harness::Micros;
use crate::invariants::{Checker, Violation};
use crate::quorum::NodeId;
use crate::sim::{ActionError, Simulation, TraceLine};

pub use action::{Action, RecordedAction};
pub use checkpoint::SeekError;
use checkpoint::{Checkpoint, Checkpoints};
pub use fingerprint::Fingerprint;
pub use settings::{Settings, SettingsError};

/// Trace lines the event log keeps.
pub const LOG_LINES: usize = 4_000;
/// How far back a scrub reaches: at least this much simulated time behind the furthest moment
/// (the whole session while it is shorter). The timeline itself has no end.
pub const WINDOW: Micros = 600_000 * crate::harness::MS;
/// The latest moment a shared link, a session file or the host page may name: a simulated day,
/// which reopening replays from the seed (the page shows its progress).
pub const LINK_LIMIT: Micros = 24 * 3_600_000 * crate::harness::MS;
/// The most actions a timeline records, so that a page left playing stays bounded.
pub const MAX_ACTIONS: usize = 500;

/// Why the session refused an action; a refused action is not recorded and changes nothing.
#[derive(Clone, Debug, PartialEq)]
pub enum ActError {
    /// The timeline already holds [`MAX_ACTIONS`] actions.
    TimelineFull,
    /// An isolation or a cut names a node the cluster does not have.
    NoSuchNode(NodeId),
    /// A kill of the active controller while there is none.
    NoControllerToKill,
    /// An isolation of the active controller while there is none.
    NoControllerToIsolate,
    /// Network settings outside the page's limits.
    NetworkOutOfRange,
    /// A new controller while the page already draws [`Settings::MAX_VOTERS`] of them.
    TooManyControllers,
    /// A removal of the active controller while there is none.
    NoControllerToRemove,
    /// The simulation refused the action.
    Refused(ActionError),
}

impl fmt::Display for ActError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActError::TimelineFull => write!(
                f,
                "this timeline already holds {MAX_ACTIONS} actions, the most one keeps; reset to start a new one"
            ),
            ActError::NoSuchNode(id) => write!(f, "there is no node n{id}"),
            ActError::NoControllerToKill | ActError::NoControllerToIsolate => {
                write!(f, "no controller is active at this moment (no leader of the quorum)")
            }
            ActError::NetworkOutOfRange => write!(f, "network settings out of range"),
            ActError::TooManyControllers => write!(
                f,
                "the page draws at most {} controllers: reset with fewer to add another",
                Settings::MAX_VOTERS
            ),
            ActError::NoControllerToRemove => write!(
                f,
                "no controller is active at this moment (no leader of the quorum; RemoveRaftVoter goes to the leader)"
            ),
            ActError::Refused(error) => fmt::Display::fmt(error, f),
        }
    }
}

impl std::error::Error for ActError {}

impl ActError {
    /// Whether the refusal speaks of the active controller (there is none): it stops being
    /// true as soon as one is elected.
    pub fn about_active_controller(&self) -> bool {
        matches!(
            self,
            ActError::NoControllerToKill
                | ActError::NoControllerToIsolate
                | ActError::NoControllerToRemove
                | ActError::Refused(ActionError::NoLeader | ActionError::NoActiveController)
        )
    }
}

impl From<ActionError> for ActError {
    fn from(error: ActionError) -> Self {
        ActError::Refused(error)
    }
}

/// The active controller's node and epoch, if one is active.
pub type ActiveController = Option<(NodeId, crate::quorum::Epoch)>;

/// A broken invariant and when.
#[derive(Clone, Debug, PartialEq)]
pub struct SeenViolation {
    pub at: Micros,
    pub violation: Violation,
    /// The trace line of the event after which it was seen.
    pub event: String,
}

/// A steerable simulation with its history.
pub struct Session {
    settings: Settings,
    sim: Simulation,
    checker: Checker,
    /// Every recorded action; those from `applied` on lie ahead of the simulation (after a seek
    /// back) and are replayed as it gets there, until a new action forks the timeline.
    actions: Vec<RecordedAction>,
    applied: usize,
    topics_created: u32,
    log: VecDeque<TraceLine>,
    violation: Option<SeenViolation>,
    /// Recorded actions that could not be replayed (a damaged shared link).
    replay_problem: Option<String>,
    horizon: Micros,
    /// Copies of the state every [`checkpoint::EVERY`] of simulated time, newest last, reaching
    /// back over [`WINDOW`]: a seek restores the nearest one and replays from there.
    checkpoints: Checkpoints,
}

impl Session {
    /// A fresh cluster as `settings` describe it (they must be valid).
    pub fn new(settings: Settings) -> Session {
        Session::replay(settings, Vec::new(), 0)
    }

    /// A session that replays `actions` as it runs, positioned at time `until`.
    pub fn replay(settings: Settings, actions: Vec<RecordedAction>, until: Micros) -> Session {
        Session::reopen(settings, actions, until, None, None)
    }

    /// A session positioned at an exact moment: time `until` after `events` events (several
    /// events can share a microsecond, and a single step stops between them) with `applied` of
    /// the recorded actions carried out (an action made at a moment is carried out there, so
    /// the same time and event count come before and after it); every event up to `until` and
    /// every action due by then when they are not given.
    pub(crate) fn reopen(
        settings: Settings,
        actions: Vec<RecordedAction>,
        until: Micros,
        events: Option<u64>,
        applied: Option<usize>,
    ) -> Session {
        let mut session = Session::replaying(settings, actions, until);
        session.replay_toward(until, events, applied, usize::MAX);
        session
    }

    /// A session at time 0 that will replay `actions` as it runs toward `until` (its horizon):
    /// [`Session::replay_toward`] carries it there in steps, for a page that shows progress.
    pub(crate) fn replaying(settings: Settings, actions: Vec<RecordedAction>, until: Micros) -> Session {
        let mut sim = Simulation::new(settings.cluster_config(), settings.seed);
        sim.enable_trace();
        let horizon = actions.last().map_or(0, |a| a.at).max(until);
        let mut session = Session {
            settings,
            sim,
            checker: Checker::default(),
            actions,
            applied: 0,
            topics_created: 0,
            log: VecDeque::new(),
            violation: None,
            replay_problem: None,
            horizon,
            checkpoints: Checkpoints::default(),
        };
        session.collect_trace();
        session.checkpoints.push(session.checkpoint());
        session
    }

    /// Run on toward the moment `until` (after `events` events, with `applied` of the recorded
    /// actions carried out, when given), processing at most `budget` events; true once there.
    pub(crate) fn replay_toward(
        &mut self,
        until: Micros,
        events: Option<u64>,
        applied: Option<usize>,
        budget: usize,
    ) -> bool {
        let caps = (events.unwrap_or(u64::MAX), applied.unwrap_or(usize::MAX));
        self.run(until, budget, caps, None)
    }

    /// The settings the session started from.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The simulation.
    pub fn sim(&self) -> &Simulation {
        &self.sim
    }

    /// The active controller and its epoch: the running leader of the highest epoch, the one the
    /// crown marks (`Simulation::leader`; in Kafka, the controller `QuorumController.claim` made
    /// active when its node became the Raft leader).
    pub fn active_controller(&self) -> ActiveController {
        self.sim.leader().map(|leader| (leader.id(), leader.epoch()))
    }

    /// The current simulated time.
    pub fn now(&self) -> Micros {
        self.sim.now()
    }

    /// Events processed so far: with `now`, the exact moment of the timeline.
    pub fn events(&self) -> u64 {
        self.sim.events_processed()
    }

    /// A fingerprint of the whole state of the cluster at this moment.
    pub fn fingerprint(&self) -> Fingerprint {
        Fingerprint::of(&self.sim)
    }

    /// The furthest time this timeline has reached.
    pub fn horizon(&self) -> Micros {
        self.horizon
    }

    /// How many checkpoints the session keeps (at most [`checkpoint::KEPT`]).
    pub fn checkpoints_kept(&self) -> usize {
        self.checkpoints.len()
    }

    /// The earliest moment a seek can reach: time 0 while the session is short, later the
    /// oldest checkpoint kept (at least [`WINDOW`] behind the horizon).
    pub fn window_start(&self) -> Micros {
        self.checkpoints.oldest_at()
    }

    /// Every recorded action of the timeline.
    pub fn actions(&self) -> &[RecordedAction] {
        &self.actions
    }

    /// How many of the recorded actions have been carried out (the rest lie ahead).
    pub fn applied_actions(&self) -> usize {
        self.applied
    }

    /// The latest trace lines, oldest first.
    pub fn log(&self) -> &VecDeque<TraceLine> {
        &self.log
    }

    /// Why some recorded actions could not be replayed, if that happened.
    pub fn replay_problem(&self) -> Option<&str> {
        self.replay_problem.as_deref()
    }

    /// The first invariant violation seen, if any.
    pub fn violation(&self) -> Option<&SeenViolation> {
        self.violation.as_ref()
    }

    fn collect_trace(&mut self) {
        for line in self.sim.take_trace() {
            if self.log.len() == LOG_LINES {
                self.log.pop_front();
            }
            self.log.push_back(line);
        }
    }

    fn step_checked(&mut self) -> bool {
        if !self.sim.step() {
            return false;
        }
        self.collect_trace();
        if self.violation.is_none()
            && let Err(violation) = self.checker.after_event(&self.sim)
        {
            let event = self.log.back().map(|l| l.to_string()).unwrap_or_default();
            self.violation = Some(SeenViolation { at: self.sim.now(), violation, event });
        }
        if self.checkpoints.due(self.sim.now()) {
            let checkpoint = self.checkpoint();
            self.checkpoints.push(checkpoint);
        }
        true
    }

    /// A copy of the state from which running on gives what this session gives.
    fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            sim: self.sim.clone(),
            checker: self.checker.clone(),
            applied: self.applied,
            topics_created: self.topics_created,
            log: self.log.clone(),
            violation: self.violation.clone(),
        }
    }

    /// Put the state back to `checkpoint`'s (the recorded actions stay).
    fn restore(&mut self, checkpoint: Checkpoint) {
        let Checkpoint { sim, checker, applied, topics_created, log, violation } = checkpoint;
        (self.sim, self.checker, self.applied, self.topics_created, self.log, self.violation) =
            (sim, checker, applied, topics_created, log, violation);
    }

    /// Apply recorded actions that happened before the next event, up to time `limit` and until
    /// `cap` of them have been carried out.
    fn apply_due_actions(&mut self, limit: Micros, cap: usize) {
        while let Some(recorded) = self.actions.get(self.applied).filter(|_| self.applied < cap) {
            let processed = self.sim.events_processed();
            let next = self.sim.next_event_time();
            // Events run in time order, so an action is out of reach once its event count has
            // passed, or once the next event lies after its time (before reaching its count).
            let missed = match recorded.events.cmp(&processed) {
                std::cmp::Ordering::Less => true,
                std::cmp::Ordering::Equal => next.is_some_and(|n| n < recorded.at),
                std::cmp::Ordering::Greater => next.is_none_or(|n| n > recorded.at),
            };
            if missed {
                let dropped = self.actions.len() - self.applied;
                self.replay_problem = Some(format!(
                    "{dropped} recorded action(s) from {} on could not be replayed at the moment they were made; they were dropped",
                    crate::util::format::seconds(recorded.at)
                ));
                self.actions.truncate(self.applied);
                return;
            }
            if recorded.events != processed || recorded.at > limit {
                return;
            }
            let (at, action) = (recorded.at, recorded.action.clone());
            self.sim.warp_to(at);
            let _ = self.execute(&action);
            self.applied += 1;
            self.collect_trace();
        }
    }

    /// Process one event (single step). Returns false when nothing is scheduled.
    pub fn step(&mut self) -> bool {
        let Some(next) = self.sim.next_event_time() else { return false };
        self.apply_due_actions(next, usize::MAX);
        let stepped = self.step_checked();
        self.horizon = self.horizon.max(self.now());
        stepped
    }

    /// Advance to time `t`, processing at most `budget` events; when the budget runs out it
    /// stops after finishing the current instant. Returns true when `t` was reached.
    pub fn advance_to(&mut self, t: Micros, budget: usize) -> bool {
        self.run(t, budget, (u64::MAX, usize::MAX), None)
    }

    /// Like [`Session::advance_to`], but stop right after the event that breaks the first
    /// invariant (so that the moment of the violation is what is shown), or after an event at
    /// which `stop` holds (a fast-forward that reaches something worth watching).
    pub(crate) fn play_to(&mut self, t: Micros, budget: usize, stop: &dyn Fn(&Simulation) -> bool) -> bool {
        self.run(t, budget, (u64::MAX, usize::MAX), Some(stop))
    }

    /// Like `advance_to`, processing no more than `events` events since the start and carrying
    /// out no more than `applied` recorded actions, and stopping early where `stop` says so.
    fn run(
        &mut self,
        t: Micros,
        budget: usize,
        (events, applied): (u64, usize),
        stop: Option<&dyn Fn(&Simulation) -> bool>,
    ) -> bool {
        let clean = self.violation.is_none();
        let mut done = 0usize;
        loop {
            self.apply_due_actions(t, applied);
            let due = self.sim.next_event_time().filter(|at| *at <= t);
            // Stopped by its event count, a link's moment from another timeline (a damaged or
            // foreign link) can still have events due before its time: the session then stays at
            // its last event rather than skip them, and `PageParams::check_session` says so.
            let Some(next) = due.filter(|_| self.sim.events_processed() < events) else {
                if due.is_none() {
                    self.sim.warp_to(t);
                }
                break;
            };
            if done >= budget && next > self.now() {
                self.horizon = self.horizon.max(self.now());
                return false;
            }
            self.step_checked();
            done += 1;
            if let Some(stop) = stop
                && ((clean && self.violation.is_some()) || stop(&self.sim))
            {
                self.horizon = self.horizon.max(self.now());
                return false;
            }
        }
        self.horizon = self.horizon.max(self.now());
        true
    }

    /// Move to time `t` of this timeline: from the latest checkpoint at or before `t` when
    /// that is behind the present or further ahead than it, then forward by running (the
    /// recorded actions ahead are carried out again). A moment before the window is refused.
    pub fn seek(&mut self, t: Micros) -> Result<(), SeekError> {
        let starts = self.window_start();
        if t < starts {
            return Err(SeekError::BeforeWindow { asked: t, starts });
        }
        let now = (self.now(), self.events());
        if let Some(checkpoint) = self.checkpoints.latest_at_or_before(t)
            && (t < now.0 || checkpoint.position() > now)
        {
            self.restore(checkpoint.clone());
        }
        self.advance_to(t, usize::MAX);
        Ok(())
    }

    /// Do `action` now. Acting at a point in the past forks the timeline: the actions that were
    /// ahead are dropped. A refused action is not recorded and changes nothing.
    pub fn act(&mut self, action: Action) -> Result<(), ActError> {
        if self.applied >= MAX_ACTIONS {
            return Err(ActError::TimelineFull);
        }
        let (at, events) = (self.now(), self.sim.events_processed());
        self.execute(&action).inspect_err(|_| {
            self.sim.take_trace();
        })?;
        self.actions.truncate(self.applied);
        self.actions.push(RecordedAction { at, events, action });
        self.applied = self.actions.len();
        self.horizon = self.now();
        // The future the checkpoints ahead of this moment saw is gone.
        self.checkpoints.forget_after((at, events));
        self.collect_trace();
        Ok(())
    }

    fn execute(&mut self, action: &Action) -> Result<(), ActError> {
        let sim = &mut self.sim;
        match action {
            Action::Crash(n) => Ok(sim.crash(*n)?),
            Action::Restart(n) => Ok(sim.restart(*n)?),
            Action::PowerLoss(n) => Ok(sim.power_loss(*n)?),
            Action::TornWrite(n) => Ok(sim.tear_next_write(*n)?),
            Action::Isolate(n) => known_node(sim, *n).map(|n| sim.isolate(n)),
            Action::Cut(a, b) => known_node(sim, *a).and_then(|a| known_node(sim, *b).map(|b| sim.cut(a, b))),
            Action::Heal => {
                sim.heal_all();
                Ok(())
            }
            Action::KillLeader => {
                let leader = sim.leader().map(|l| l.id()).ok_or(ActError::NoControllerToKill)?;
                Ok(sim.crash(leader)?)
            }
            Action::IsolateLeader => {
                let leader = sim.leader().map(|l| l.id()).ok_or(ActError::NoControllerToIsolate)?;
                sim.isolate(leader);
                Ok(())
            }
            Action::Resign => {
                sim.resign_leader()?;
                Ok(())
            }
            Action::CreateTopic { partitions, replication } => {
                let name = format!("topic-{}", self.topics_created + 1);
                sim.create_topic(&name, *partitions, *replication)?;
                self.topics_created += 1;
                Ok(())
            }
            Action::ShutDown(n) => Ok(sim.shut_down_broker(*n)?),
            Action::Network { latency_min_ms, latency_max_ms, drop_percent, duplicate_percent, reorder } => {
                if latency_min_ms > latency_max_ms
                    || *latency_max_ms > Settings::MAX_LATENCY_MS
                    || *drop_percent > 100
                    || *duplicate_percent > 100
                {
                    return Err(ActError::NetworkOutOfRange);
                }
                sim.set_network(settings::network(
                    *latency_min_ms,
                    *latency_max_ms,
                    *drop_percent,
                    *duplicate_percent,
                    *reorder,
                ));
                Ok(())
            }
            Action::NewController => {
                if sim.controller_ids().len() >= Settings::MAX_VOTERS as usize {
                    return Err(ActError::TooManyControllers);
                }
                sim.provision_controller();
                Ok(())
            }
            Action::AddVoter(n) => {
                sim.add_voter(*n)?;
                Ok(())
            }
            Action::RemoveVoter(n) => {
                sim.remove_voter(*n)?;
                Ok(())
            }
            Action::RemoveLeader => {
                let leader = sim.leader().map(|l| l.id()).ok_or(ActError::NoControllerToRemove)?;
                sim.remove_voter(leader)?;
                Ok(())
            }
            Action::WipeDisk(n) => {
                sim.wipe_disk(*n)?;
                Ok(())
            }
            Action::UpgradeKRaftVersion => {
                sim.upgrade_kraft_version()?;
                Ok(())
            }
        }
    }
}

fn known_node(sim: &Simulation, id: NodeId) -> Result<NodeId, ActError> {
    sim.node_ids().find(|n| *n == id).ok_or(ActError::NoSuchNode(id))
}

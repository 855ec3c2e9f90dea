//! The migration from ZooKeeper mode to KRaft as one simulation on one clock, following Kafka
//! 3.9: a ZooKeeper-mode cluster (the ensemble, its controller broker, the brokers and their
//! caches), the KRaft controllers of a 3.9 quorum with their metadata log ([`super::log`]), the
//! migration driver on each ([`super::driver`]), and the operator's steps and the faults as
//! [`Action`]s. Everything the driver does to ZooKeeper, the log and the brokers goes through
//! this module's [`MigrationClient`], on the one event queue.
//!
//! Simplified, and said so where it matters:
//! - the quorum's election and replication are timings (fetch timeout, election backoff, one
//!   commit latency) rather than the Raft protocol, which is the 4.3.1 model's;
//! - a rolling restart with controlled shutdown moves no partition leader; a broker's ISR is not
//!   grown back after it returns;
//! - the ZooKeeper-mode controller is modelled until it resigns (it handles no change before the
//!   claim); after a rollback its election and its first full push are modelled, not its work;
//! - ZooKeeper holds topics and partition states only (no configs, ACLs, quotas or tokens), a
//!   ZooKeeper outage expires no session (the ensemble's new leader renews them), and a broker
//!   that starts during an outage registers at once (Kafka's waits for the connection);
//! - changes published while the driver is busy are written as one.

use std::collections::{BTreeSet, VecDeque};
use std::fmt::{self, Write};
use std::rc::Rc;

use crate::harness::{EventQueue, MS, Micros, format_time};
use crate::util::rng::Rng;
use crate::zk::column::ColumnBuilder;
use crate::zk::partition::NO_LEADER;
use crate::zk::store::{SessionId, SessionStatus, WatchFired, ZkRequestKind, ZkStore, ZnodeData};
use crate::zk::{BrokerId, BrokerSet, ReplicaAssignment, SharedColumn, TopicLayout, ZkCosts, ZnodePath};

use super::controller::{ActivationRecord, ControllerMigration, ControllerWrite, admits};
use super::copy::{self, CopiedRecord, CopyReport};
use super::driver::{
    DriverImage, DriverNote, LeaderAndEpoch, MetadataChange, MigrationClient, MigrationDriver,
};
use super::log::{Delta, MetaRecord, MetadataLog, PartitionImage};
use super::state::{MigrationDriverState, OffsetAndEpoch, ZkMigrationLeadershipState, ZkMigrationState};
use super::zk_client::{self, StateWrite};

/// The first KRaft controller's node id, as Kafka's migration guide numbers them (brokers keep
/// their ZooKeeper-mode `broker.id` as `node.id`).
pub const FIRST_CONTROLLER_ID: i32 = 3000;
/// `broker.heartbeat.interval.ms` (2 s).
const HEARTBEAT_INTERVAL: Micros = 2_000 * MS;
/// `broker.session.timeout.ms` (9 s).
const BROKER_SESSION_TIMEOUT: Micros = 9_000 * MS;
/// `controller.quorum.fetch.timeout.ms` (2 s): followers call an election after this silence.
const FETCH_TIMEOUT: Micros = 2_000 * MS;
/// `controller.quorum.election.timeout.ms` (1 s): the first election of a new quorum.
const ELECTION_TIMEOUT: Micros = 1_000 * MS;
/// `controller.quorum.election.backoff.max.ms` (1 s): a candidate's random backoff.
const ELECTION_BACKOFF_MAX: Micros = 1_000 * MS;
/// `/controller_epoch` of the ZooKeeper-mode controller the cluster starts with.
const FIRST_ZK_EPOCH: u32 = 1;
/// The highest leader epoch a partition starts with (a cluster that has lived a while).
const STARTING_LEADER_EPOCHS: u64 = 5;

mod client;
mod config;
mod steps;
mod trace;
mod world;

use client::entries_of;

pub use config::{Action, BrokerMode, MigrationConfig, MigrationSabotage, ZK_CUT};
pub use trace::{TraceKind, TraceLine, Violation, invariants};

/// UpdateMetadata and LeaderAndIsr from the KRaft controller to a ZooKeeper-mode broker
/// (`MigrationPropagator`): each partition's leader and leader epoch.
#[derive(Clone, Debug)]
struct Rpc {
    full: bool,
    zk_epoch: u32,
    entries: Rc<[(u32, i32, u32)]>,
}

#[derive(Clone, Debug)]
enum Event {
    Operator(Action),
    Commit,
    Elect {
        after_epoch: i32,
    },
    DriverTurn {
        id: i32,
    },
    PollDue {
        id: i32,
        generation: u64,
    },
    CopyBatch {
        copy: u64,
        records: Rc<[MetaRecord]>,
    },
    CopyEnd {
        copy: u64,
    },
    CopyCommitted {
        copy: u64,
        to: OffsetAndEpoch,
    },
    ZkWatch(WatchFired),
    Rpc {
        broker: BrokerId,
        rpc: Rc<Rpc>,
    },
    Fetch {
        broker: BrokerId,
        entries: Rc<[(u32, i32, u32)]>,
        upto: i64,
    },
    Heartbeat {
        broker: BrokerId,
        generation: u64,
    },
    StaleCheck {
        broker: BrokerId,
        heartbeat: Micros,
    },
    BrokerUp {
        broker: BrokerId,
        mode: BrokerMode,
    },
    ControllerUp {
        id: i32,
    },
    /// A controller's fatal fault: it stops, and is restarted later.
    Fatal {
        id: i32,
    },
    /// `/controller` is free: the ZooKeeper-mode brokers race for it.
    ZkElection,
    /// A session not pinged since its broker died or was cut off times out.
    SessionExpiry {
        session: SessionId,
    },
    /// A cut broker's link to ZooKeeper is back.
    ZkLinkBack {
        broker: BrokerId,
        session: SessionId,
    },
    ZkBack,
}

/// What a driver is told, in its queue's order.
#[derive(Clone, Debug)]
enum DriverInput {
    LeaderChange(LeaderAndEpoch),
    Publish(DriverImage, MetadataChange, Rc<Delta>),
    Poll,
    CopyDone(Result<OffsetAndEpoch, String>),
}

#[derive(Clone, Debug)]
struct Broker {
    mode: BrokerMode,
    alive: bool,
    session: Option<SessionId>,
    /// Leader and leader epoch per partition, as this broker knows them.
    cache: SharedColumn<(i32, u32)>,
    /// The highest leader epoch it ever saw per partition (for the invariant).
    seen: SharedColumn<u32>,
    zk_epoch: u32,
    /// The last offset of the metadata log it replicated (as an observer), -1 for none.
    replicated: i64,
    registered: bool,
    last_heartbeat: Micros,
    heartbeats: u64,
    busy_until: Micros,
    /// Its last start failed (its previous session still held `/brokers/ids`): it stays down
    /// until the operator starts it again.
    start_failed: bool,
    /// Its link to ZooKeeper is cut ([`Action::CutFromZk`]).
    cut_from_zk: bool,
}

#[derive(Clone, Debug)]
struct Controller {
    id: i32,
    alive: bool,
    migration: ControllerMigration,
    driver: Option<MigrationDriver>,
    inbox: VecDeque<DriverInput>,
    free_at: Micros,
    turn_scheduled: bool,
    poll_generation: u64,
}

/// The copy under way: which one, for which leader.
#[derive(Clone, Debug)]
struct Copying {
    id: u64,
    leader: i32,
}

/// Everything but the drivers: what a driver's calls reach.
#[derive(Clone, Debug)]
struct World {
    config: MigrationConfig,
    layout: TopicLayout,
    assignment: ReplicaAssignment,
    zk: ZkStore,
    zk_controller: Option<BrokerId>,
    brokers: Vec<Broker>,
    log: MetadataLog,
    /// The migration state the active controller holds (the last one appended).
    appended_migration: ZkMigrationState,
    leader: Option<(i32, i32)>,
    epoch: i32,
    now: Micros,
    /// Where the driver's current call has got to on the clock.
    cursor: Micros,
    zk_down: Option<(Micros, Micros)>,
    copying: Option<Copying>,
    next_copy: u64,
    /// What the last copy read and how long it took.
    last_copy: Option<CopyReport>,
    last_delta: Rc<Delta>,
    /// The latest commit time an [`Event::Commit`] is queued for (a batch's records share one).
    commit_scheduled: Option<Micros>,
    /// The brokers the active controller's propagator has sent the full state to.
    pushed_to: BrokerSet,
    queue: EventQueue<Event>,
    trace: Vec<TraceLine>,
    violations: Vec<Violation>,
    rng: Rng,
    finalized: bool,
    rolled_back: bool,
}

/// The migration simulation. A clone is a checkpoint: it runs on exactly as the original does
/// (see [`super::timeline`]).
#[derive(Clone, Debug)]
pub struct MigrationSim {
    world: World,
    controllers: Vec<Controller>,
    /// Events run so far: with the clock, the exact moment of the run.
    events: u64,
    /// The operator's inputs so far, where each came, for a replay to give them again.
    inputs: Vec<Input>,
}

/// An operator's input to a run and the moment it came: after `events` events, at `at`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub events: u64,
    pub at: Micros,
    pub what: InputKind,
}

/// What the operator did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// [`MigrationSim::act`], admitted.
    Act(Action),
    /// [`MigrationSim::schedule`]: the action at a later time.
    Schedule(Micros, Action),
    /// [`MigrationSim::note_refusal`].
    Refusal(Action, ActionError),
}

/// Why an action cannot be taken now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionError(pub String);

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl MigrationSim {
    /// A ZooKeeper-mode cluster at t=0: every broker registered in ZooKeeper, a controller broker
    /// (chosen by `seed`) at `/controller_epoch` 1, every partition led by its preferred replica
    /// at a leader epoch the seed picks, every cache up to date; the KRaft controllers not yet
    /// provisioned.
    pub fn new(config: MigrationConfig, seed: u64) -> Result<MigrationSim, String> {
        let mut rng = Rng::new(seed);
        if !(1..=crate::zk::partition::MAX_BROKERS).contains(&config.brokers) {
            return Err(format!(
                "brokers: 1 to {}, not {}",
                crate::zk::partition::MAX_BROKERS,
                config.brokers
            ));
        }
        if !(1..=9).contains(&config.controllers) {
            return Err(format!("controllers: 1 to 9, not {}", config.controllers));
        }
        let layout = TopicLayout::new(config.topics, config.partitions_per_topic).ok_or_else(|| {
            format!("{} topics of {} partitions", config.topics, config.partitions_per_topic)
        })?;
        let assignment = ReplicaAssignment::new(config.brokers, config.replication_factor, 0);
        let mut states = ColumnBuilder::new();
        let mut caches = ColumnBuilder::new();
        let mut seen = ColumnBuilder::new();
        for p in 0..layout.partitions() {
            let mut state = assignment.initial_state(p, FIRST_ZK_EPOCH);
            state.leader_epoch = rng.below(STARTING_LEADER_EPOCHS + 1) as u32;
            states.push(state);
            caches.push((state.leader, state.leader_epoch));
            seen.push(state.leader_epoch);
        }
        let (caches, seen) = (caches.finish(), seen.finish());
        let mut zk = ZkStore::new(layout, &config.costs, states.finish());
        let mut brokers = Vec::new();
        for id in 0..config.brokers {
            let session = zk.open_session(id, 0);
            let data = ZnodeData::BrokerRegistration { broker_id: id };
            zk.create(ZnodePath::BrokerId(id), data, Some(session)).map_err(|e| e.to_string())?;
            brokers.push(Broker {
                mode: BrokerMode::Zk,
                alive: true,
                session: Some(session),
                cache: caches.clone(),
                seen: seen.clone(),
                zk_epoch: FIRST_ZK_EPOCH,
                replicated: -1,
                registered: false,
                last_heartbeat: 0,
                heartbeats: 0,
                busy_until: 0,
                start_failed: false,
                cut_from_zk: false,
            });
        }
        let controller = rng.below(u64::from(config.brokers)) as BrokerId;
        let session = brokers[controller as usize].session.expect("opened above");
        let data = ZnodeData::Controller { broker_id: controller, kraft_epoch: None };
        zk.create(ZnodePath::Controller, data, Some(session)).map_err(|e| e.to_string())?;
        zk.set_data(ZnodePath::ControllerEpoch, ZnodeData::ControllerEpoch(FIRST_ZK_EPOCH), None)
            .map_err(|e| e.to_string())?;
        zk.exists(ZnodePath::Controller, Some(session)).map_err(|e| e.to_string())?;
        let controllers = (0..config.controllers as i32)
            .map(|i| Controller {
                id: FIRST_CONTROLLER_ID + i,
                alive: false,
                migration: ControllerMigration {
                    enabled: true,
                    version_migrates: true,
                    version_has_transactions: true,
                },
                driver: None,
                inbox: VecDeque::new(),
                free_at: 0,
                turn_scheduled: false,
                poll_generation: 0,
            })
            .collect();
        let partitions = layout.partitions();
        let world = World {
            config,
            layout,
            assignment,
            zk,
            zk_controller: Some(controller),
            brokers,
            log: MetadataLog::new(partitions),
            appended_migration: ZkMigrationState::None,
            leader: None,
            epoch: 0,
            now: 0,
            cursor: 0,
            zk_down: None,
            copying: None,
            next_copy: 0,
            last_copy: None,
            last_delta: Rc::new(Delta::default()),
            commit_scheduled: None,
            pushed_to: BrokerSet::EMPTY,
            queue: EventQueue::default(),
            trace: Vec::new(),
            violations: Vec::new(),
            rng,
            finalized: false,
            rolled_back: false,
        };
        Ok(MigrationSim { world, controllers, events: 0, inputs: Vec::new() })
    }

    pub fn now(&self) -> Micros {
        self.world.now
    }

    pub fn trace(&self) -> &[TraceLine] {
        &self.world.trace
    }

    pub fn violations(&self) -> &[Violation] {
        &self.world.violations
    }

    /// The active controller's driver state (`None` without an active controller running one).
    pub fn driver_state(&self) -> Option<MigrationDriverState> {
        let (leader, _) = self.world.leader?;
        self.controller(leader)?.driver.as_ref().map(MigrationDriver::state)
    }

    /// The log's migration state (committed).
    pub fn log_migration_state(&self) -> ZkMigrationState {
        self.world.log.image().migration
    }

    /// Records the log holds that ZooKeeper does not (`ZkWriteBehindLag`): the committed end
    /// less `/migration`'s offset, once the copy has been recorded there.
    pub fn write_behind_lag(&self) -> Option<i64> {
        self.world.write_behind_lag()
    }

    /// Kafka 3.9's dead end: the copy committed (the log says MIGRATION) but its controller
    /// stopped before writing `/migration`, so every later leader's driver finds "an active
    /// migration, but the ZK state does not" and stays INACTIVE
    /// (`WaitForControllerQuorumEvent`): nothing is dual-written again.
    pub fn stranded(&self) -> bool {
        let recorded = matches!(
            self.world.zk.inspect(ZnodePath::Migration).map(|n| n.data),
            Some(ZnodeData::Migration { kraft_metadata_offset, .. }) if kraft_metadata_offset > 0
        );
        self.log_migration_state() == ZkMigrationState::Migration
            && !recorded
            && self.driver_state() == Some(MigrationDriverState::Inactive)
    }

    /// What the last copy read, its batches, and how long its reads and commits took.
    pub(crate) fn last_copy(&self) -> Option<&CopyReport> {
        self.world.last_copy.as_ref()
    }

    /// The KRaft leader and its epoch.
    pub(crate) fn leader(&self) -> Option<(i32, i32)> {
        self.world.leader
    }

    /// The mode a running broker registered with KRaft in (since it last started), if it has.
    pub fn registered_as(&self, broker: BrokerId) -> Option<BrokerMode> {
        let b = self.world.brokers.get(broker as usize)?;
        (b.alive && b.registered).then_some(b.mode)
    }

    /// Whether the log says POST_MIGRATION: the controllers were rolled without the flag.
    pub fn finalized(&self) -> bool {
        self.world.finalized
    }

    /// The broker holding `/controller` as ZooKeeper-mode controller, if one does.
    pub fn zk_controller(&self) -> Option<BrokerId> {
        self.world.zk_controller
    }

    /// The KRaft controllers' ids, each with whether it runs.
    pub(crate) fn controllers(&self) -> impl Iterator<Item = (i32, bool)> + '_ {
        self.controllers.iter().map(|c| (c.id, c.alive))
    }

    /// The quorum's epoch (0 before its first election).
    pub(crate) fn kraft_epoch(&self) -> i32 {
        self.world.epoch
    }

    /// Until when ZooKeeper is unreachable, while it is.
    pub(crate) fn zk_down_until(&self) -> Option<Micros> {
        self.world.zk_down_until()
    }

    /// Whether the operator rolled the cluster back to ZooKeeper mode.
    pub(crate) fn rolled_back(&self) -> bool {
        self.world.rolled_back
    }

    /// Whether a broker holds a ZooKeeper session.
    pub(crate) fn has_zk_session(&self, broker: BrokerId) -> bool {
        self.world.brokers.get(broker as usize).is_some_and(|b| b.session.is_some())
    }

    /// The mode a running broker runs in (`None` while it is down).
    /// Whether a broker's link to ZooKeeper is cut ([`Action::CutFromZk`]).
    pub(crate) fn cut_from_zk(&self, broker: BrokerId) -> bool {
        self.world.brokers.get(broker as usize).is_some_and(|b| b.alive && b.cut_from_zk)
    }

    /// Whether a broker's last start failed, so that it stays down until started again.
    pub fn start_failed(&self, broker: BrokerId) -> bool {
        self.world.brokers.get(broker as usize).is_some_and(|b| b.start_failed)
    }

    pub fn running_in(&self, broker: BrokerId) -> Option<BrokerMode> {
        let b = self.world.brokers.get(broker as usize)?;
        b.alive.then_some(b.mode)
    }

    /// The mode a broker runs in (or, while a roll restarts it, the mode it comes back in).
    pub fn broker_mode(&self, broker: BrokerId) -> Option<BrokerMode> {
        self.world.brokers.get(broker as usize).map(|b| b.mode)
    }

    /// The last offset of the metadata log a broker has replicated (-1 for none): a broker in
    /// migration mode or in KRaft mode fetches the log as an observer.
    pub fn broker_replicated(&self, broker: BrokerId) -> Option<i64> {
        self.world.brokers.get(broker as usize).map(|b| b.replicated)
    }

    /// The leader epoch broker `broker` knows for partition `partition`.
    pub fn broker_leader_epoch(&self, broker: BrokerId, partition: u32) -> Option<u32> {
        let b = self.world.brokers.get(broker as usize)?;
        b.cache.get(partition as usize).map(|(_, epoch)| *epoch)
    }

    pub fn zk(&self) -> &ZkStore {
        &self.world.zk
    }

    pub fn log(&self) -> &MetadataLog {
        &self.world.log
    }

    pub fn config(&self) -> &MigrationConfig {
        &self.world.config
    }

    /// Takes `action` now: checked at once (an error changes nothing), then run as the next event.
    pub fn act(&mut self, action: Action) -> Result<(), ActionError> {
        self.world.admissible(action)?;
        self.record(InputKind::Act(action));
        let now = self.world.now;
        self.world.queue.push(now, Event::Operator(action));
        Ok(())
    }

    /// Whether `action` would be taken now, or why not (what [`MigrationSim::act`] answers).
    #[cfg(feature = "full")]
    pub(crate) fn check(&self, action: Action) -> Result<(), ActionError> {
        self.world.admissible(action)
    }

    /// Notes in the trace an operator's step that was refused.
    pub(crate) fn note_refusal(&mut self, action: Action, refused: ActionError) {
        self.record(InputKind::Refusal(action, refused.clone()));
        self.world.note(TraceKind::Refused { action, why: refused.0 });
    }

    /// Takes `action` at `at` (checked then: a refusal goes in the trace).
    pub(crate) fn schedule(&mut self, at: Micros, action: Action) {
        self.record(InputKind::Schedule(at, action));
        let at = at.max(self.world.now);
        self.world.queue.push(at, Event::Operator(action));
    }

    fn record(&mut self, what: InputKind) {
        self.inputs.push(Input { events: self.events, at: self.world.now, what });
    }

    /// The operator's inputs so far, in order.
    pub fn inputs(&self) -> &[Input] {
        &self.inputs
    }

    /// Events run so far.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// Runs on to `until` as the run that took `inputs` did: each input given again at its
    /// moment (after as many events, at its time), the events up to `until` run, the clock set
    /// there. From a fresh simulation, or from a clone of one on that road, it reaches what that
    /// run held at `until`.
    pub fn replay(&mut self, inputs: &[Input], until: Micros) {
        let mut unlimited = u64::MAX;
        self.replay_some(inputs, until, &mut unlimited);
    }

    /// [`MigrationSim::replay`] in slices: at most `budget` events (what it runs is taken
    /// from it); whether it reached `until`. Called again, it goes on where it stopped.
    pub(crate) fn replay_some(&mut self, inputs: &[Input], until: Micros, budget: &mut u64) -> bool {
        loop {
            let next = inputs.get(self.inputs.len()).filter(|i| i.at <= until);
            match next {
                Some(input) if input.events == self.events => {
                    self.world.now = self.world.now.max(input.at);
                    match input.what.clone() {
                        InputKind::Act(action) => {
                            if let Err(refused) = self.act(action) {
                                self.note_refusal(action, refused);
                            }
                        }
                        InputKind::Schedule(at, action) => self.schedule(at, action),
                        InputKind::Refusal(action, refused) => self.note_refusal(action, refused),
                    }
                }
                _ if *budget == 0 => return false,
                _ if self.world.queue.peek_time().is_some_and(|at| at <= until) => {
                    *budget -= 1;
                    self.step();
                }
                _ => break,
            }
        }
        self.world.now = self.world.now.max(until);
        true
    }

    /// A 64-bit hash of the whole state (every field of the world, the controllers and their
    /// drivers, the event queue and the random generators): two runs at the same moment agree
    /// on it only if they agree on everything.
    pub fn fingerprint(&self) -> u64 {
        let mut hash = crate::util::hash::TextHash(self.events);
        let _ = write!(hash, "{:?}{:?}", self.world, self.controllers);
        hash.0
    }

    /// Runs the next event; false when none is left.
    pub(crate) fn step(&mut self) -> bool {
        let Some((at, event)) = self.world.queue.pop() else { return false };
        self.world.now = at;
        self.events += 1;
        self.handle(event);
        true
    }

    /// Runs every event up to `until`, then sets the clock there.
    pub fn run_until(&mut self, until: Micros) {
        while self.world.queue.peek_time().is_some_and(|at| at <= until) {
            self.step();
        }
        self.world.now = self.world.now.max(until);
    }

    /// Runs until `done` holds (checked after each event), at most until `limit`; whether it held.
    pub fn run_until_that(&mut self, limit: Micros, done: impl Fn(&MigrationSim) -> bool) -> bool {
        let mut unlimited = u64::MAX;
        self.run_some(limit, &done, &mut unlimited) == Some(true)
    }

    /// [`MigrationSim::run_until_that`] in slices: at most `budget` events (what it runs is
    /// taken from it); whether `done` held once it ends, `None` while it has not. Called again,
    /// it goes on where it stopped.
    pub(crate) fn run_some(
        &mut self,
        limit: Micros,
        done: &dyn Fn(&MigrationSim) -> bool,
        budget: &mut u64,
    ) -> Option<bool> {
        while !done(self) {
            if self.world.queue.peek_time().is_none_or(|at| at > limit) {
                self.world.now = self.world.now.max(limit);
                return Some(done(self));
            }
            if *budget == 0 {
                return None;
            }
            *budget -= 1;
            self.step();
        }
        Some(true)
    }

    fn controller(&self, id: i32) -> Option<&Controller> {
        self.controllers.iter().find(|c| c.id == id)
    }

    fn controller_index(&self, id: i32) -> Option<usize> {
        self.controllers.iter().position(|c| c.id == id)
    }

    fn handle(&mut self, event: Event) {
        match event {
            Event::Operator(action) => self.on_action(action),
            Event::Commit => self.on_commit(),
            Event::Elect { after_epoch } => self.on_elect(after_epoch),
            Event::DriverTurn { id } => self.on_driver_turn(id),
            Event::PollDue { id, generation } => {
                if let Some(i) = self.controller_index(id)
                    && self.controllers[i].poll_generation == generation
                {
                    self.give(i, DriverInput::Poll);
                }
            }
            Event::CopyBatch { copy, records } => self.world.on_copy_batch(copy, &records),
            Event::CopyEnd { copy } => self.world.on_copy_end(copy),
            Event::CopyCommitted { copy, to } => {
                if let Some(copying) = self.world.copying.take_if(|c| c.id == copy)
                    && let Some(i) = self.controller_index(copying.leader)
                {
                    self.give(i, DriverInput::CopyDone(Ok(to)));
                }
            }
            Event::ZkWatch(fired) => self.world.on_zk_watch(fired),
            Event::Rpc { broker, rpc } => self.world.on_rpc(broker, &rpc),
            Event::Fetch { broker, entries, upto } => self.world.on_fetch(broker, &entries, upto),
            Event::Heartbeat { broker, generation } => self.world.on_heartbeat(broker, generation),
            Event::StaleCheck { broker, heartbeat } => self.world.on_stale_check(broker, heartbeat),
            Event::BrokerUp { broker, mode } => self.world.on_broker_up(broker, mode),
            Event::ControllerUp { id } => self.on_controller_up(id),
            Event::Fatal { id } => {
                self.stop_controller(id);
                let at = self.world.now + self.world.config.restart;
                self.world.queue.push(at, Event::ControllerUp { id });
            }
            Event::ZkElection => self.world.on_zk_election(),
            Event::SessionExpiry { session } => self.world.on_session_expiry(session),
            Event::ZkLinkBack { broker, session } => self.world.on_zk_link_back(broker, session),
            Event::ZkBack => {
                let lag = self.world.write_behind_lag();
                self.world.zk_down = None;
                self.world.note(TraceKind::ZkBack { lag });
            }
        }
    }

    fn on_controller_up(&mut self, id: i32) {
        let Some(i) = self.controller_index(id) else { return };
        if self.world.rolled_back || self.controllers[i].alive {
            return;
        }
        let c = &mut self.controllers[i];
        c.alive = true;
        if c.migration.enabled {
            c.driver = Some(MigrationDriver::new(id, self.world.rng.fork()));
        }
        self.world.note(TraceKind::ControllerUp { id });
        self.load_image(i);
        if let Some((leader, epoch)) = self.world.leader {
            self.give(i, DriverInput::LeaderChange(LeaderAndEpoch { leader: Some(leader), epoch }));
        } else if !self.world.queue.iter().any(|(_, e)| matches!(e, Event::Elect { .. })) {
            let backoff = self.world.rng.below(ELECTION_BACKOFF_MAX);
            let at = self.world.now + FETCH_TIMEOUT + backoff;
            self.world.queue.push(at, Event::Elect { after_epoch: self.world.epoch });
        }
    }

    /// A majority of live controllers elects one of them (the seed picks which) in the next
    /// epoch; it truncates what was not committed and activates (`ActivationRecordsGenerator`).
    fn on_elect(&mut self, after_epoch: i32) {
        if self.world.epoch != after_epoch || self.world.leader.is_some() || self.world.rolled_back {
            return;
        }
        let live: Vec<usize> = (0..self.controllers.len()).filter(|i| self.controllers[*i].alive).collect();
        if live.len() * 2 <= self.controllers.len() {
            return;
        }
        let winner = live[self.world.rng.below(live.len() as u64) as usize];
        let id = self.controllers[winner].id;
        self.world.epoch += 1;
        let epoch = self.world.epoch;
        let truncated = self.world.log.truncate_uncommitted();
        self.world.appended_migration = self.world.log.image().migration;
        self.world.leader = Some((id, epoch));
        self.world.note(TraceKind::LeaderElected { id, epoch, truncated });
        let migration = self.controllers[winner].migration;
        let open = self.world.log.open_transaction();
        match migration.activation(self.world.log.is_empty(), open, self.world.log.image().migration) {
            Ok(records) => {
                let names = records.iter().map(|r| activation_name(*r)).collect();
                self.world.note(TraceKind::Activated { id, records: names });
                for record in records {
                    self.world.append(ControllerWrite::CompleteActivation, activation_record(record));
                }
            }
            Err(why) => self.world.note(TraceKind::NoActivation { id, why }),
        }
        for c in &self.controllers {
            if c.alive && !self.world.log.image().ready_controllers.contains_key(&c.id) {
                let record =
                    MetaRecord::RegisterController { id: c.id, zk_migration_ready: c.migration.enabled };
                self.world.append(ControllerWrite::RegisterController, record);
            }
        }
        if self.world.appended_migration == ZkMigrationState::PostMigration && !self.world.finalized {
            self.world.finalized = true;
            self.world.note(TraceKind::MigrationOver);
        }
        for i in 0..self.controllers.len() {
            if self.controllers[i].alive {
                self.give(i, DriverInput::LeaderChange(LeaderAndEpoch { leader: Some(id), epoch }));
            }
        }
    }

    /// Commits what is due and publishes it: to the active controller's driver, and to the
    /// KRaft brokers, which fetch it.
    fn on_commit(&mut self) {
        let Some(delta) = self.world.log.commit_until(self.world.now) else { return };
        let upto = self.world.log.image().highest.offset;
        let partitions = delta.partitions.len();
        if partitions > 0 || delta.transaction {
            self.world.note(TraceKind::Published { upto, partitions, transaction: delta.transaction });
        }
        let entries = entries_of(&delta);
        let latency = self.world.config.costs.network_latency;
        // Every broker with the quorum's address fetches the log as an observer: a KRaft broker
        // applies it; a broker in migration mode only replicates it (its cache is fed by the
        // controller's UpdateMetadata and LeaderAndIsr, `KafkaServer` 3.9).
        for (id, broker) in self.world.brokers.iter().enumerate() {
            if broker.alive && broker.mode != BrokerMode::Zk {
                let entries = entries.clone();
                let fetch = Event::Fetch { broker: id as BrokerId, entries, upto };
                self.world.queue.push(self.world.now + latency, fetch);
            }
        }
        let change = MetadataChange { topics: delta.topics, cluster: delta.cluster, snapshot: false };
        let driver_image = self.world.driver_image();
        let delta = Rc::new(delta);
        for i in 0..self.controllers.len() {
            if self.controllers[i].alive {
                self.give(i, DriverInput::Publish(driver_image.clone(), change, delta.clone()));
            }
        }
    }

    /// A starting controller's metadata loader publishes the committed image it read.
    fn load_image(&mut self, i: usize) {
        if self.world.log.high_watermark() > 0 {
            let image = self.world.driver_image();
            let change = MetadataChange { topics: true, cluster: true, snapshot: false };
            self.give(i, DriverInput::Publish(image, change, Rc::new(Delta::default())));
        }
    }

    /// Queues `input` for controller `i`'s driver, which takes it when it is free.
    fn give(&mut self, i: usize, input: DriverInput) {
        let c = &mut self.controllers[i];
        if c.driver.is_none() {
            return;
        }
        c.inbox.push_back(input);
        if !c.turn_scheduled {
            c.turn_scheduled = true;
            let at = self.world.now.max(c.free_at);
            self.world.queue.push(at, Event::DriverTurn { id: c.id });
        }
    }

    /// The driver takes its next input (blocked in the copy, only the copy's end).
    fn on_driver_turn(&mut self, id: i32) {
        let Some(i) = self.controller_index(id) else { return };
        let now = self.world.now;
        let c = &mut self.controllers[i];
        c.turn_scheduled = false;
        let Some(driver) = c.driver.as_mut() else { return };
        if c.free_at > now {
            c.turn_scheduled = true;
            self.world.queue.push(c.free_at, Event::DriverTurn { id });
            return;
        }
        // ZooKeeper unreachable: the driver's thread blocks in its next request
        // (`retryRequestsUntilConnected`) until the ensemble answers again.
        if let Some((from, until)) = self.world.zk_down
            && (from..until).contains(&now)
            && self.world.leader.is_some_and(|(leader, _)| leader == id)
        {
            c.free_at = until;
            c.turn_scheduled = true;
            self.world.queue.push(until, Event::DriverTurn { id });
            self.world.note(TraceKind::DriverBlocked { id, until });
            return;
        }
        let next = match driver.copying() {
            true => c.inbox.iter().position(|input| matches!(input, DriverInput::CopyDone(_))),
            false => (!c.inbox.is_empty()).then_some(0),
        };
        let Some(mut input) = next.and_then(|at| c.inbox.remove(at)) else { return };
        // Changes published while the driver was busy are taken as one, with the latest image
        // (Kafka's driver takes them one by one; ZooKeeper and the brokers end the same).
        if let DriverInput::Publish(image, change, delta) = &mut input {
            while let Some(at) = c.inbox.iter().position(|i| matches!(i, DriverInput::Publish(..))) {
                let Some(DriverInput::Publish(later, more, newer)) = c.inbox.remove(at) else { break };
                *image = later;
                change.topics |= more.topics;
                change.cluster |= more.cluster;
                let merged = Rc::make_mut(delta);
                merged.partitions.merge(&newer.partitions);
                merged.topics |= newer.topics;
                merged.cluster |= newer.cluster;
                merged.transaction |= newer.transaction;
            }
        }
        self.world.cursor = now;
        let mut poll_in = None;
        let notes = match input {
            DriverInput::LeaderChange(leader) => {
                poll_in = Some(0);
                driver.on_controller_change(leader, &mut self.world)
            }
            DriverInput::Publish(image, change, delta) => {
                self.world.last_delta = delta;
                let published = driver.on_metadata_update(image, change, &mut self.world);
                if published.wake {
                    poll_in = Some(0);
                }
                published.notes
            }
            DriverInput::Poll => {
                let step = driver.poll(&mut self.world);
                poll_in = Some(step.poll_in);
                step.notes
            }
            DriverInput::CopyDone(result) => {
                poll_in = Some(0);
                driver.on_copy_done(result, &mut self.world)
            }
        };
        let wrote = notes.iter().any(|n| matches!(n, DriverNote::DualWrote { .. } | DriverNote::Reconciled));
        for note in notes {
            self.world.note(TraceKind::Driver { id, note });
        }
        if wrote {
            self.world.check_zk_equals_image();
        }
        let c = &mut self.controllers[i];
        c.free_at = self.world.cursor;
        self.world.cursor = 0;
        if let Some(delay) = poll_in {
            c.poll_generation += 1;
            let generation = c.poll_generation;
            self.world.queue.push(c.free_at + delay, Event::PollDue { id, generation });
        }
        if !c.inbox.is_empty() && !c.turn_scheduled {
            c.turn_scheduled = true;
            self.world.queue.push(c.free_at, Event::DriverTurn { id });
        }
    }
}

/// Kafka's name for an activation record.
fn activation_name(record: ActivationRecord) -> String {
    match record {
        ActivationRecord::AbortTransaction { .. } => "AbortTransaction".into(),
        ActivationRecord::BeginTransaction { .. } => "BeginTransaction".into(),
        ActivationRecord::Bootstrap => "bootstrap records".into(),
        ActivationRecord::MigrationState(state) => format!("ZkMigrationState({})", state.name()),
        ActivationRecord::EndTransaction => "EndTransaction".into(),
    }
}

fn activation_record(record: ActivationRecord) -> MetaRecord {
    match record {
        ActivationRecord::AbortTransaction { .. } => MetaRecord::AbortTransaction,
        ActivationRecord::BeginTransaction { name } => MetaRecord::BeginTransaction { name },
        ActivationRecord::Bootstrap => MetaRecord::Bootstrap,
        ActivationRecord::MigrationState(state) => MetaRecord::MigrationState(state),
        ActivationRecord::EndTransaction => MetaRecord::EndTransaction,
    }
}

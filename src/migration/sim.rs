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
//! - ZooKeeper holds topics and partition states only (no configs, ACLs, quotas or tokens), and a
//!   ZooKeeper outage expires no session (the ensemble's new leader renews them);
//! - changes published while the driver is busy are written as one.

use std::collections::{BTreeSet, VecDeque};
use std::fmt::{self, Write};
use std::rc::Rc;

use crate::harness::{EventQueue, MS, Micros, format_time};
use crate::util::rng::Rng;
use crate::zk::column::ColumnBuilder;
use crate::zk::partition::NO_LEADER;
use crate::zk::store::{SessionId, WatchFired, ZkRequestKind, ZkStore, ZnodeData};
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

/// Deliberate bugs that break the migration's invariants (`--sabotage`), each in the code it
/// breaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MigrationSabotage {
    /// `handleDelta` forgets the last partition of each change.
    pub dual_write_drops_a_partition: bool,
    /// The copy writes every partition's leader epoch as 0, as for a missing state znode.
    pub copy_resets_leader_epochs: bool,
    /// `maybeFenceStaleBroker` runs in PRE_MIGRATION (the write gate lets it through).
    pub fence_in_premigration: bool,
    /// An ISR shrink keeps the leader epoch while ZooKeeper-mode brokers may register (Kafka
    /// 3.9 before `triggerLeaderEpochBumpForIsrShrinkIfNeeded`, and this model before #62).
    pub isr_shrink_keeps_leader_epoch: bool,
}

impl MigrationSabotage {
    /// The names accepted by `--sabotage`, each with what it breaks.
    pub const NAMES: [(&'static str, &'static str); 4] = [
        ("dual-write-drops-a-partition", "dual-write forgets the last partition of each change"),
        ("copy-resets-leader-epochs", "the copy writes every leader epoch as 0"),
        ("fence-in-premigration", "fence stale brokers while the log says PRE_MIGRATION"),
        ("isr-shrink-keeps-leader-epoch", "an ISR shrink in migration keeps the partition's leader epoch"),
    ];

    /// Switch on the bug with this `--sabotage` name; false if it names none of these.
    pub fn enable(&mut self, name: &str) -> bool {
        match name {
            "dual-write-drops-a-partition" => self.dual_write_drops_a_partition = true,
            "copy-resets-leader-epochs" => self.copy_resets_leader_epochs = true,
            "fence-in-premigration" => self.fence_in_premigration = true,
            "isr-shrink-keeps-leader-epoch" => self.isr_shrink_keeps_leader_epoch = true,
            _ => return false,
        }
        true
    }
}

/// A cluster to migrate, and the costs it runs at.
#[derive(Clone, Debug)]
pub struct MigrationConfig {
    /// ZooKeeper-mode brokers, ids from 0.
    pub brokers: u32,
    pub topics: u32,
    pub partitions_per_topic: u32,
    pub replication_factor: u32,
    /// KRaft controllers, ids from [`FIRST_CONTROLLER_ID`].
    pub controllers: u32,
    /// The ensemble's and the network's costs (Kafka 1.1 on: pipelined requests).
    pub costs: ZkCosts,
    /// From a record's append to its commit (estimate: a Fetch round to a majority and an fsync
    /// on a LAN).
    pub commit_latency: Micros,
    /// How long a process takes to stop and start again in a roll (estimate).
    pub restart: Micros,
    /// Check the invariants after every event.
    pub checked: bool,
    pub sabotage: MigrationSabotage,
}

impl MigrationConfig {
    /// A small cluster for scenarios and the sweep: 4 brokers, 6 topics of 2 partitions, 3
    /// replicas each, 3 controllers.
    pub fn small() -> MigrationConfig {
        MigrationConfig {
            brokers: 4,
            topics: 6,
            partitions_per_topic: 2,
            replication_factor: 3,
            controllers: 3,
            costs: ZkCosts::async_reads(),
            commit_latency: 5 * MS,
            restart: 5_000 * MS,
            checked: true,
            sabotage: MigrationSabotage::default(),
        }
    }

    pub fn partitions(&self) -> u32 {
        self.topics * self.partitions_per_topic
    }
}

/// An operator's step, or a fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Start the KRaft controllers with `zookeeper.metadata.migration.enable=true`.
    ProvisionControllers,
    /// Restart a broker with the migration flag and the quorum's address.
    BrokerToMigrationMode(BrokerId),
    /// Restart a broker as a KRaft broker (`process.roles=broker`).
    BrokerToKraft(BrokerId),
    /// Roll the controllers without the migration flag.
    Finalize,
    /// Kafka's documented rollback, once no broker runs in KRaft mode (the guide's first roll
    /// restarts each in migration mode): the controllers deprovisioned, then `/controller` and
    /// `/migration` deleted, so that a broker in migration mode is elected ZooKeeper-mode
    /// controller at once. The brokers are then rolled with [`Action::BrokerToZkMode`].
    RollBack,
    /// After a rollback, restart a broker without the migration flag (the guide's last roll).
    BrokerToZkMode(BrokerId),
    /// The active KRaft controller's process dies (restarted `restart` later).
    KillActiveController,
    /// The ensemble is unreachable for this long.
    ZkOutage { lasting: Micros },
    /// A broker's process dies.
    KillBroker(BrokerId),
    /// A dead broker starts again, in the mode it had.
    RestartBroker(BrokerId),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::ProvisionControllers => write!(f, "provision the KRaft controllers in migration mode"),
            Action::BrokerToMigrationMode(b) => write!(f, "restart broker {b} in migration mode"),
            Action::BrokerToKraft(b) => write!(f, "restart broker {b} as a KRaft broker"),
            Action::Finalize => write!(f, "roll the controllers without the migration flag (finalize)"),
            Action::RollBack => {
                write!(f, "roll back: deprovision the controllers, delete /controller and /migration")
            }
            Action::BrokerToZkMode(b) => {
                write!(f, "restart broker {b} in ZooKeeper mode, the migration flag removed")
            }
            Action::KillActiveController => write!(f, "kill the active KRaft controller"),
            Action::ZkOutage { lasting } => write!(f, "ZooKeeper unreachable for {} ms", lasting / MS),
            Action::KillBroker(b) => write!(f, "kill broker {b}"),
            Action::RestartBroker(b) => write!(f, "restart broker {b}"),
        }
    }
}

/// What a broker runs as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrokerMode {
    /// A ZooKeeper-mode broker.
    Zk,
    /// A ZooKeeper-mode broker with the migration flag: registered with KRaft too.
    Migrating,
    /// A KRaft broker.
    Kraft,
}

/// A line of the migration's trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceKind {
    Operator(Action),
    Refused {
        action: Action,
        why: String,
    },
    ControllersStarted {
        ids: Vec<i32>,
    },
    LeaderElected {
        id: i32,
        epoch: i32,
        truncated: usize,
    },
    Activated {
        id: i32,
        records: Vec<String>,
    },
    NoActivation {
        id: i32,
        why: String,
    },
    ControllerDown {
        id: i32,
    },
    ControllerUp {
        id: i32,
    },
    Driver {
        id: i32,
        note: DriverNote,
    },
    ZkControllerResigned {
        broker: BrokerId,
    },
    BrokerDown {
        broker: BrokerId,
        clean: bool,
    },
    BrokerUp {
        broker: BrokerId,
        mode: BrokerMode,
    },
    BrokerRegistered {
        broker: BrokerId,
        migrating: bool,
    },
    RegistrationRefused {
        broker: BrokerId,
        why: String,
    },
    WriteRefused {
        write: ControllerWrite,
        log: ZkMigrationState,
    },
    BrokerUnfenced {
        broker: BrokerId,
        /// Partitions without a leader that got one with the unfence.
        leaders_elected: u32,
    },
    BrokerFenced {
        broker: BrokerId,
        leaders_moved: usize,
        /// Of those, the partitions left without a leader (no other live replica in the ISR).
        leaderless: usize,
        /// ISRs it left with their leader kept, whose leader epoch went up.
        isr_bumps: usize,
    },
    CopyBatch {
        records: usize,
        committed_by: Micros,
    },
    CopyLost {
        with_leader: i32,
    },
    Published {
        upto: i64,
        partitions: usize,
        transaction: bool,
    },
    RpcApplied {
        broker: BrokerId,
        full: bool,
        partitions: usize,
        zk_epoch: u32,
    },
    RpcRejected {
        broker: BrokerId,
        zk_epoch: u32,
        known: u32,
    },
    /// A KRaft broker applies partitions it fetched from the log.
    Fetched {
        broker: BrokerId,
        partitions: usize,
    },
    ZkDown {
        until: Micros,
    },
    /// ZooKeeper answers again; how many records ZooKeeper is behind (none while `/migration`
    /// records no copy).
    ZkBack {
        lag: Option<i64>,
    },
    DriverBlocked {
        id: i32,
        until: Micros,
    },
    /// Partition states written to ZooKeeper in dual-write or a reconcile, in one batch per
    /// topic (`updateTopicPartitions`), each waited on: the last done at `done`.
    ZkStatesWritten {
        partitions: usize,
        batches: usize,
        done: Micros,
    },
    /// A ZooKeeper-mode broker won `/controller` (after its holder stopped, or after a rollback).
    ZkControllerElected {
        broker: BrokerId,
        zk_epoch: u32,
        above_epoch: usize,
    },
    MigrationOver,
    Violation {
        invariant: &'static str,
        detail: String,
    },
}

impl TraceKind {
    /// Whether it is a step of the migration's story (`--notable`): the operator's steps, the
    /// quorum's leaders, the driver's changes of state and its claims, copies and pushes, the
    /// ZooKeeper controller's end, the outages, and anything broken.
    pub fn notable(&self) -> bool {
        match self {
            TraceKind::Driver { note, .. } => !matches!(
                note,
                DriverNote::QuorumNotReady
                    | DriverNote::BrokersNotReady { .. }
                    | DriverNote::ImageBehind { .. }
                    | DriverNote::DualWrote { .. }
                    | DriverNote::Transition { from: MigrationDriverState::Uninitialized, .. }
            ),
            TraceKind::Operator(_)
            | TraceKind::Refused { .. }
            | TraceKind::LeaderElected { .. }
            | TraceKind::Activated { .. }
            | TraceKind::NoActivation { .. }
            | TraceKind::ZkControllerResigned { .. }
            | TraceKind::ZkControllerElected { .. }
            | TraceKind::CopyBatch { .. }
            | TraceKind::CopyLost { .. }
            | TraceKind::BrokerFenced { .. }
            | TraceKind::ZkDown { .. }
            | TraceKind::ZkBack { .. }
            | TraceKind::DriverBlocked { .. }
            | TraceKind::RpcRejected { .. }
            | TraceKind::ZkStatesWritten { .. }
            | TraceKind::MigrationOver
            | TraceKind::Violation { .. } => true,
            TraceKind::BrokerUnfenced { leaders_elected, .. } => *leaders_elected > 0,
            _ => false,
        }
    }
}

impl fmt::Display for BrokerMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BrokerMode::Zk => "ZooKeeper mode",
            BrokerMode::Migrating => "migration mode",
            BrokerMode::Kraft => "KRaft mode",
        })
    }
}

impl fmt::Display for TraceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceKind::Operator(action) => write!(f, "operator: {action}"),
            TraceKind::Refused { action, why } => write!(f, "operator: {action}: refused, {why}"),
            TraceKind::ControllersStarted { ids } => write!(f, "controllers {ids:?} start, the log empty"),
            TraceKind::LeaderElected { id, epoch, truncated } => {
                write!(f, "controller {id} leads epoch {epoch}")?;
                match truncated {
                    0 => Ok(()),
                    n => write!(f, " ({n} uncommitted records truncated)"),
                }
            }
            TraceKind::Activated { id, records } if records.is_empty() => {
                write!(f, "controller {id} activates, writing nothing")
            }
            TraceKind::Activated { id, records } => {
                write!(f, "controller {id} activates: {}", records.join(", "))
            }
            TraceKind::NoActivation { id, why } => write!(f, "controller {id} cannot activate: {why}"),
            TraceKind::ControllerDown { id } => write!(f, "controller {id} down"),
            TraceKind::ControllerUp { id } => write!(f, "controller {id} up"),
            TraceKind::Driver { id, note } => write!(f, "driver {id}: {note}"),
            TraceKind::ZkControllerResigned { broker } => {
                write!(f, "broker {broker} hears /controller changed and resigns as ZooKeeper controller")
            }
            TraceKind::BrokerDown { broker, clean } => {
                write!(f, "broker {broker} {}", if *clean { "shuts down" } else { "dies" })
            }
            TraceKind::BrokerUp { broker, mode } => write!(f, "broker {broker} starts in {mode}"),
            TraceKind::BrokerRegistered { broker, migrating } => write!(
                f,
                "broker {broker} registers with KRaft{}",
                if *migrating { " as a migrating ZooKeeper broker" } else { "" }
            ),
            TraceKind::RegistrationRefused { broker, why } => {
                write!(f, "broker {broker}'s registration refused: {why}")
            }
            TraceKind::WriteRefused { write, log } => {
                write!(f, "{write:?} refused: NOT_CONTROLLER while the log says {}", log.name())
            }
            TraceKind::BrokerUnfenced { broker, leaders_elected: 0 } => write!(f, "broker {broker} unfenced"),
            TraceKind::BrokerUnfenced { broker, leaders_elected } => {
                write!(
                    f,
                    "broker {broker} unfenced, {} elected",
                    crate::util::format::counted(u64::from(*leaders_elected), "leader")
                )
            }
            TraceKind::BrokerFenced { broker, leaders_moved, leaderless, isr_bumps } => {
                write!(f, "broker {broker} fenced (no heartbeat for 9 s), {leaders_moved} leaders moved")?;
                if *leaderless > 0 {
                    write!(f, " ({leaderless} to none: no other replica in the ISR is alive)")?;
                }
                if *isr_bumps > 0 {
                    write!(
                        f,
                        ", {} shrunk with a higher leader epoch (for the ZooKeeper-mode brokers)",
                        crate::util::format::counted(*isr_bumps as u64, "ISR")
                    )?;
                }
                Ok(())
            }
            TraceKind::CopyBatch { records, committed_by } => {
                write!(
                    f,
                    "copy: a batch of {records} records appended, committed by {}",
                    format_time(*committed_by)
                )
            }
            TraceKind::CopyLost { with_leader } => write!(f, "copy: lost with controller {with_leader}"),
            TraceKind::Published { upto, partitions, transaction } => {
                write!(f, "log committed to offset {upto}: {partitions} partitions changed")?;
                if *transaction {
                    f.write_str(" (a transaction ended)")?;
                }
                Ok(())
            }
            TraceKind::RpcApplied { broker, full, partitions, zk_epoch } => write!(
                f,
                "broker {broker} applies a {} UpdateMetadata/LeaderAndIsr of {partitions} partitions, controller epoch {zk_epoch}",
                if *full { "full" } else { "delta" }
            ),
            TraceKind::RpcRejected { broker, zk_epoch, known } => {
                write!(
                    f,
                    "broker {broker} rejects controller epoch {zk_epoch}: STALE_CONTROLLER_EPOCH (knows {known})"
                )
            }
            TraceKind::Fetched { broker, partitions } => {
                write!(f, "broker {broker} (KRaft) applies {partitions} partitions fetched from the log")
            }
            TraceKind::ZkDown { until } => write!(f, "ZooKeeper unreachable until {}", format_time(*until)),
            TraceKind::ZkBack { lag: Some(lag) } => {
                write!(f, "ZooKeeper back; ZooKeeper is {lag} records behind the log")
            }
            TraceKind::ZkBack { lag: None } => write!(f, "ZooKeeper back; /migration records no copy yet"),
            TraceKind::DriverBlocked { id, until } => {
                write!(f, "driver {id} blocks retrying ZooKeeper until {}", format_time(*until))
            }
            TraceKind::ZkStatesWritten { partitions, batches, done } => write!(
                f,
                "ZooKeeper: {} written in {}, done at {}",
                crate::util::format::counted(*partitions as u64, "partition state"),
                crate::util::format::counted(*batches as u64, "per-topic batch"),
                format_time(*done)
            ),
            TraceKind::ZkControllerElected { broker, zk_epoch, above_epoch } => {
                write!(f, "broker {broker} wins /controller: ZooKeeper controller at epoch {zk_epoch}")?;
                match above_epoch {
                    0 => Ok(()),
                    n => write!(
                        f,
                        "; {n} state znodes carry a higher controller_epoch (the KRaft epoch): their elections would abort (KAFKA-20488)"
                    ),
                }
            }
            TraceKind::MigrationOver => {
                write!(f, "POST_MIGRATION: ZooKeeper is no longer written; no rollback from here")
            }
            TraceKind::Violation { invariant, detail } => write!(f, "VIOLATION {invariant}: {detail}"),
        }
    }
}

/// One line of the trace.
pub type TraceLine = crate::harness::TraceLine<TraceKind>;

/// A broken invariant, and when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub at: Micros,
    pub invariant: &'static str,
    pub detail: String,
}

/// The invariants' names.
pub mod invariants {
    pub const ZK_EQUALS_IMAGE: &str = "zk-equals-image";
    pub const LEADER_EPOCHS_NEVER_GO_BACK: &str = "leader-epochs-never-go-back";
    pub const PREMIGRATION_WRITES: &str = "premigration-writes";
    /// While brokers may register in ZooKeeper mode, dual-write never changes a partition's ISR
    /// in ZooKeeper without raising its leader epoch: a ZooKeeper-mode broker ignores a
    /// LeaderAndIsr whose leader epoch is not higher than the one it has, so its leader epoch
    /// would lag the ISR it must act on.
    pub const ISR_CHANGES_RAISE_LEADER_EPOCHS: &str = "isr-changes-raise-leader-epochs";
    pub const ALL: [&str; 4] =
        [ZK_EQUALS_IMAGE, LEADER_EPOCHS_NEVER_GO_BACK, PREMIGRATION_WRITES, ISR_CHANGES_RAISE_LEADER_EPOCHS];
}

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
    /// A dead broker's ZooKeeper session times out.
    SessionExpiry {
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
        let now = self.world.now;
        self.world.zk_down.filter(|(from, until)| *from <= now && now < *until).map(|(_, until)| until)
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
    pub(crate) fn running_in(&self, broker: BrokerId) -> Option<BrokerMode> {
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
    pub fn check(&self, action: Action) -> Result<(), ActionError> {
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
                _ if self.world.queue.peek_time().is_some_and(|at| at <= until) => {
                    self.step();
                }
                _ => break,
            }
        }
        self.world.now = self.world.now.max(until);
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
    pub fn run_until_that(&mut self, limit: Micros, mut done: impl FnMut(&MigrationSim) -> bool) -> bool {
        while !done(self) {
            if self.world.queue.peek_time().is_none_or(|at| at > limit) {
                self.world.now = self.world.now.max(limit);
                return done(self);
            }
            self.step();
        }
        true
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
            Event::SessionExpiry { session } => {
                let now = self.world.now;
                if let crate::zk::store::SessionStatus::Expired { fired, .. } =
                    self.world.zk.check_session(session, now)
                {
                    self.world.deliver_watches(fired);
                }
            }
            Event::ZkBack => {
                let lag = self.world.write_behind_lag();
                self.world.zk_down = None;
                self.world.note(TraceKind::ZkBack { lag });
            }
        }
    }

    fn on_action(&mut self, action: Action) {
        if let Err(ActionError(why)) = self.world.admissible(action) {
            self.world.note(TraceKind::Refused { action, why });
            return;
        }
        self.world.note(TraceKind::Operator(action));
        let now = self.world.now;
        match action {
            Action::ProvisionControllers => {
                for c in &mut self.controllers {
                    c.alive = true;
                    c.driver = Some(MigrationDriver::new(c.id, self.world.rng.fork()));
                }
                let ids = self.controllers.iter().map(|c| c.id).collect();
                self.world.note(TraceKind::ControllersStarted { ids });
                let backoff = self.world.rng.below(ELECTION_BACKOFF_MAX);
                self.world.queue.push(now + ELECTION_TIMEOUT + backoff, Event::Elect { after_epoch: 0 });
            }
            Action::BrokerToMigrationMode(b) => self.world.restart_broker(b, BrokerMode::Migrating),
            Action::BrokerToZkMode(b) => self.world.restart_broker(b, BrokerMode::Zk),
            Action::BrokerToKraft(b) => self.world.restart_broker(b, BrokerMode::Kraft),
            Action::RestartBroker(b) => {
                let mode = self.world.brokers[b as usize].mode;
                self.world.queue.push(now, Event::BrokerUp { broker: b, mode });
            }
            Action::KillBroker(b) => self.world.kill_broker(b),
            Action::ZkOutage { lasting } => {
                let until = now + lasting;
                self.world.zk_down = Some((now, until));
                self.world.note(TraceKind::ZkDown { until });
                self.world.queue.push(until, Event::ZkBack);
            }
            Action::KillActiveController => {
                if let Some((id, _)) = self.world.leader {
                    self.stop_controller(id);
                    let restart = self.world.config.restart;
                    self.world.queue.push(now + restart, Event::ControllerUp { id });
                }
            }
            Action::Finalize => self.finalize(),
            Action::RollBack => self.roll_back(),
        }
    }

    /// A controller's process stops: its driver with it; a leader leaves the quorum leaderless
    /// until the others' fetch timeout and an election.
    fn stop_controller(&mut self, id: i32) {
        let Some(i) = self.controller_index(id) else { return };
        let c = &mut self.controllers[i];
        c.alive = false;
        c.driver = None;
        c.inbox.clear();
        c.poll_generation += 1;
        c.free_at = 0;
        c.turn_scheduled = false;
        self.world.note(TraceKind::ControllerDown { id });
        if self.world.leader.is_some_and(|(leader, _)| leader == id) {
            self.world.leader = None;
            if let Some(copying) = self.world.copying.take() {
                self.world.note(TraceKind::CopyLost { with_leader: copying.leader });
            }
            let backoff = self.world.rng.below(ELECTION_BACKOFF_MAX);
            let at = self.world.now + FETCH_TIMEOUT + backoff;
            self.world.queue.push(at, Event::Elect { after_epoch: self.world.epoch });
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
                merged.partitions.extend(newer.partitions.iter().map(|(p, s)| (*p, *s)));
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

    /// Each controller restarted without the flag, the leader last: its successor, activated
    /// without the flag on a log saying MIGRATION, writes POST_MIGRATION.
    fn finalize(&mut self) {
        for c in &mut self.controllers {
            c.migration.enabled = false;
            c.driver = None;
            c.inbox.clear();
            c.poll_generation += 1;
        }
        if let Some((id, _)) = self.world.leader {
            self.stop_controller(id);
            let now = self.world.now;
            self.world.queue.push(now + self.world.config.restart, Event::ControllerUp { id });
        }
    }

    /// Kafka's rollback before finalizing (ops.html): brokers back in ZooKeeper mode, the
    /// controllers deprovisioned, `/controller` and `/migration` deleted; then the brokers race
    /// for `/controller` and the winner loads the state znodes, which dual-write kept.
    fn roll_back(&mut self) {
        for id in self.controllers.iter().map(|c| c.id).collect::<Vec<_>>() {
            if self.controller(id).is_some_and(|c| c.alive) {
                self.stop_controller(id);
            }
        }
        let w = &mut self.world;
        w.rolled_back = true;
        w.leader = None;
        w.copying = None;
        for znode in [ZnodePath::Controller, ZnodePath::Migration] {
            let _ = w.zk.delete(znode, None);
        }
        // Every broker in migration mode runs Kafka's ZooKeeper controller code (`KafkaServer`
        // starts `KafkaController` whatever the flag) and watches `/controller`: its deletion
        // fires `ControllerChangeHandler.handleDeletion`, `Reelect`, and `elect()` races to
        // create it, one watch delivery later.
        let at = w.now + w.config.costs.network_latency;
        w.queue.push(at, Event::ZkElection);
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

impl World {
    fn note(&mut self, kind: TraceKind) {
        if let TraceKind::Violation { invariant, detail } = &kind {
            self.violations.push(Violation { at: self.now, invariant, detail: detail.clone() });
        }
        self.trace.push(TraceLine { at: self.now, kind });
    }

    fn violation(&mut self, invariant: &'static str, detail: String) {
        self.note(TraceKind::Violation { invariant, detail });
    }

    fn write_behind_lag(&self) -> Option<i64> {
        let node = self.zk.inspect(ZnodePath::Migration)?;
        match node.data {
            ZnodeData::Migration { kraft_metadata_offset, .. } if kraft_metadata_offset >= 0 => {
                Some(self.log.image().highest.offset - kraft_metadata_offset)
            }
            _ => None,
        }
    }

    /// Whether `action` can be taken now.
    fn admissible(&self, action: Action) -> Result<(), ActionError> {
        let broker = |b: BrokerId| {
            self.brokers.get(b as usize).ok_or_else(|| {
                ActionError(format!("no broker {b}: brokers are 0 to {}", self.brokers.len() - 1))
            })
        };
        let refuse = |why: &str| Err(ActionError(why.to_string()));
        let after_rollback =
            matches!(action, Action::KillBroker(_) | Action::RestartBroker(_) | Action::BrokerToZkMode(_));
        if self.rolled_back && !after_rollback {
            return refuse("the cluster was rolled back to ZooKeeper mode");
        }
        let in_kraft_mode = self.brokers.iter().position(|b| b.mode == BrokerMode::Kraft);
        match action {
            Action::ProvisionControllers if self.epoch > 0 || !self.log.is_empty() => {
                refuse("the controllers are already provisioned")
            }
            Action::BrokerToMigrationMode(b) if broker(b)?.mode == BrokerMode::Migrating => {
                refuse("that broker is already in migration mode")
            }
            Action::BrokerToMigrationMode(_) if self.finalized => {
                refuse("the migration was finalized: a broker goes back to migration mode only before")
            }
            Action::BrokerToZkMode(_) if !self.rolled_back => {
                refuse("a broker leaves migration mode only after the rollback deleted /controller")
            }
            Action::BrokerToZkMode(b) if broker(b)?.mode == BrokerMode::Zk => {
                refuse("that broker is already in ZooKeeper mode")
            }
            Action::BrokerToKraft(b) if broker(b)?.mode != BrokerMode::Migrating => {
                refuse("only a broker in migration mode moves to KRaft mode")
            }
            Action::BrokerToKraft(_) if self.log.image().migration != ZkMigrationState::Migration => {
                refuse("the copy has not committed (the log does not say MIGRATION)")
            }
            Action::Finalize if self.finalized => refuse("already finalized"),
            Action::Finalize if self.log.image().migration != ZkMigrationState::Migration => {
                refuse("the copy has not committed (the log does not say MIGRATION)")
            }
            Action::RollBack if self.finalized => refuse(
                "the migration was finalized: ZooKeeper is no longer written, so it is behind the log for good",
            ),
            Action::RollBack if let Some(b) = in_kraft_mode => Err(ActionError(format!(
                "broker {b} runs in KRaft mode: restart it in migration mode first, while the controllers run"
            ))),
            Action::KillActiveController if self.leader.is_none() => refuse("no KRaft controller is active"),
            Action::ZkOutage { .. } if self.zk_down.is_some() => refuse("ZooKeeper is already unreachable"),
            Action::ZkOutage { lasting } if lasting == 0 || lasting > 3_600_000 * MS => {
                refuse("an outage lasts 1 ms to an hour")
            }
            Action::KillBroker(b) if !broker(b)?.alive => refuse("that broker is already down"),
            Action::RestartBroker(b) if broker(b)?.alive => refuse("that broker is running"),
            _ => Ok(()),
        }
    }

    /// The active controller appends `record` for `write`, unless the PRE_MIGRATION gate refuses
    /// it (`QuorumController.ControllerWriteEvent.run`); its offset.
    fn append(&mut self, write: ControllerWrite, record: MetaRecord) -> Option<usize> {
        let (_, epoch) = self.leader?;
        let gate = self.appended_migration;
        let sabotaged =
            self.config.sabotage.fence_in_premigration && write == ControllerWrite::MaybeFenceStaleBroker;
        if !admits(write, gate) && !sabotaged {
            self.note(TraceKind::WriteRefused { write, log: gate });
            return None;
        }
        if self.config.checked && !admits(write, gate) {
            self.violation(
                invariants::PREMIGRATION_WRITES,
                format!("{write:?} appended while the log says {}", gate.name()),
            );
        }
        if let MetaRecord::MigrationState(state) = record {
            self.appended_migration = state;
        }
        let commits_at = self.now.max(self.cursor) + self.config.commit_latency;
        let offset = self.log.append(epoch, record, commits_at);
        if self.commit_scheduled != Some(commits_at) {
            self.commit_scheduled = Some(commits_at);
            self.queue.push(commits_at, Event::Commit);
        }
        Some(offset)
    }

    fn driver_image(&self) -> DriverImage {
        let image = self.log.image();
        DriverImage {
            zk_migration_state: image.migration,
            highest: image.highest,
            has_brokers: !image.brokers.is_empty(),
            migrating_zk_brokers: image
                .brokers
                .iter()
                .filter(|(_, b)| b.migrating_zk_broker)
                .map(|(id, _)| *id as i32)
                .collect(),
            quorum_ready: !image.ready_controllers.is_empty()
                && image.ready_controllers.len() == self.config.controllers as usize
                && image.ready_controllers.values().all(|ready| *ready),
        }
    }

    /// A driver call waits out a ZooKeeper outage (`retryRequestsUntilConnected`).
    fn wait_for_zookeeper(&mut self) {
        if let Some((from, until)) = self.zk_down
            && self.cursor >= from
            && self.cursor < until
        {
            if let Some((id, _)) = self.leader {
                self.note(TraceKind::DriverBlocked { id, until });
            }
            self.cursor = until;
        }
    }

    /// `count` ZooKeeper requests from the driver, pipelined as Kafka's client pipelines them.
    fn zk_requests(&mut self, kind: ZkRequestKind, count: u64) {
        self.wait_for_zookeeper();
        self.cursor = self.zk.submit(self.cursor, kind, count, self.config.costs.zk_max_in_flight_requests);
    }

    /// A roll: a clean shutdown (its ZooKeeper session closed at once), then a start in `mode`.
    fn restart_broker(&mut self, b: BrokerId, mode: BrokerMode) {
        let broker = &mut self.brokers[b as usize];
        let was_alive = broker.alive;
        broker.alive = false;
        broker.mode = mode;
        broker.registered = false;
        broker.heartbeats += 1;
        if let Some(session) = broker.session.take() {
            let fired = self.zk.close_session(session);
            self.deliver_watches(fired);
            self.controller_gone(b, self.now);
        }
        if was_alive {
            self.note(TraceKind::BrokerDown { broker: b, clean: true });
        }
        let at = self.now + self.config.restart;
        self.queue.push(at, Event::BrokerUp { broker: b, mode });
    }

    fn kill_broker(&mut self, b: BrokerId) {
        let broker = &mut self.brokers[b as usize];
        broker.alive = false;
        broker.heartbeats += 1;
        self.note(TraceKind::BrokerDown { broker: b, clean: false });
        self.controller_gone(b, self.now + self.config.costs.zk_session_timeout + 1);
        // Its ZooKeeper session expires a session timeout later: its znodes go then.
        if let Some(session) = self.brokers[b as usize].session.take() {
            let at = self.now + self.config.costs.zk_session_timeout;
            self.queue.push(at, Event::SessionExpiry { session });
        }
    }

    /// `/controller` is free (its holder stopped, or a rollback deleted it): a live
    /// ZooKeeper-mode broker (the seed picks which wins the race) creates it at the next
    /// `/controller_epoch` (`KafkaController.elect`), loads the state znodes and pushes them in
    /// full. After a rollback, a state znode whose `controller_epoch` (the KRaft epoch dual-write
    /// stamped) exceeds the new epoch makes that partition's next election abort (KAFKA-20488).
    fn on_zk_election(&mut self) {
        let live: Vec<BrokerId> = (0..self.config.brokers)
            .filter(|b| self.brokers[*b as usize].alive && self.brokers[*b as usize].session.is_some())
            .collect();
        if live.is_empty() || self.zk.inspect(ZnodePath::Controller).is_some() {
            return;
        }
        let winner = live[self.rng.below(live.len() as u64) as usize];
        let epoch = self.zk_controller_epoch() + 1;
        let _ = self.zk.set_data(ZnodePath::ControllerEpoch, ZnodeData::ControllerEpoch(epoch), None);
        let data = ZnodeData::Controller { broker_id: winner, kraft_epoch: None };
        let session = self.brokers[winner as usize].session;
        let _ = self.zk.create(ZnodePath::Controller, data, session);
        let _ = self.zk.exists(ZnodePath::Controller, session);
        self.zk_controller = Some(winner);
        let above = (0..self.layout.partitions())
            .filter_map(|p| self.zk.inspect(self.layout.state_path(p)).and_then(|n| n.partition_state()))
            .filter(|s| s.controller_epoch > epoch)
            .count();
        self.note(TraceKind::ZkControllerElected { broker: winner, zk_epoch: epoch, above_epoch: above });
        let rpc = Rc::new(Rpc { full: true, zk_epoch: epoch, entries: self.zk_entries() });
        for b in live {
            self.send_rpc(b, rpc.clone(), self.now);
        }
    }

    fn deliver_watches(&mut self, fired: Vec<WatchFired>) {
        let at = self.now.max(self.cursor) + self.config.costs.network_latency;
        for watch in fired {
            self.queue.push(at, Event::ZkWatch(watch));
        }
    }

    /// The ZooKeeper-mode controller's watch on `/controller`: a KRaft controller took it, so
    /// it resigns (`ControllerChangeHandler` → `maybeResign`).
    fn on_zk_watch(&mut self, fired: WatchFired) {
        if fired.path == ZnodePath::Controller && self.zk_controller == Some(fired.watcher) {
            self.zk_controller = None;
            self.note(TraceKind::ZkControllerResigned { broker: fired.watcher });
        }
    }

    /// The ZooKeeper-mode controller's broker stopped: `/controller` goes with its session (at
    /// once on a clean shutdown, at the session's expiry on a crash), and the others race.
    fn controller_gone(&mut self, b: BrokerId, at: Micros) {
        if self.zk_controller == Some(b) {
            self.zk_controller = None;
            self.queue.push(at + self.config.costs.network_latency, Event::ZkElection);
        }
    }

    fn on_broker_up(&mut self, b: BrokerId, mode: BrokerMode) {
        let broker = &mut self.brokers[b as usize];
        if broker.alive {
            return;
        }
        broker.alive = true;
        broker.mode = mode;
        broker.registered = false;
        broker.zk_epoch = 0;
        self.note(TraceKind::BrokerUp { broker: b, mode });
        if mode != BrokerMode::Kraft {
            let session = self.zk.open_session(b, self.now);
            let data = ZnodeData::BrokerRegistration { broker_id: b };
            let _ = self.zk.create(ZnodePath::BrokerId(b), data, Some(session));
            self.brokers[b as usize].session = Some(session);
            if self.zk.inspect(ZnodePath::Controller).is_none() {
                self.queue.push(self.now, Event::ZkElection);
            }
            // Before the claim, the ZooKeeper controller sends a starting broker the full state
            // from ZooKeeper (`onBrokerStartup`); after it, the KRaft controller's next push.
            if self.zk_controller.is_some() {
                let entries = self.zk_entries();
                let epoch = self.zk_controller_epoch();
                self.send_rpc(b, Rc::new(Rpc { full: true, zk_epoch: epoch, entries }), self.now);
            }
        }
        // With the quorum's address it fetches the whole log as an observer; a KRaft broker
        // loads its image from it.
        if mode != BrokerMode::Zk {
            let entries = if mode == BrokerMode::Kraft { self.image_entries() } else { Rc::from([]) };
            let at = self.now + self.config.costs.network_latency;
            let upto = self.log.image().highest.offset;
            self.queue.push(at, Event::Fetch { broker: b, entries, upto });
            self.heartbeat_now(b);
        }
    }

    /// `/controller_epoch` as it stands.
    fn zk_controller_epoch(&self) -> u32 {
        match self.zk.inspect(ZnodePath::ControllerEpoch).map(|n| n.data) {
            Some(ZnodeData::ControllerEpoch(epoch)) => epoch,
            _ => FIRST_ZK_EPOCH,
        }
    }

    /// Every partition as ZooKeeper's state znodes hold it.
    fn zk_entries(&self) -> Rc<[(u32, i32, u32)]> {
        (0..self.layout.partitions())
            .filter_map(|p| {
                let state = self.zk.inspect(self.layout.state_path(p))?.partition_state()?;
                Some((p, state.leader, state.leader_epoch))
            })
            .collect()
    }

    /// Every partition as the log's image holds it.
    fn image_entries(&self) -> Rc<[(u32, i32, u32)]> {
        let image = self.log.image();
        (0..self.layout.partitions())
            .filter_map(|p| image.partitions[p as usize].map(|s| (p, s.leader, s.leader_epoch)))
            .collect()
    }

    fn heartbeat_now(&mut self, b: BrokerId) {
        let broker = &mut self.brokers[b as usize];
        broker.heartbeats += 1;
        let generation = broker.heartbeats;
        self.queue.push(self.now, Event::Heartbeat { broker: b, generation });
    }

    /// A broker's heartbeat to the active controller (`BrokerLifecycleManager`): it registers
    /// first (`registerBroker`), then heartbeats, and is unfenced once registered and heard from
    /// (`processBrokerHeartbeat`); every `broker.heartbeat.interval.ms`.
    fn on_heartbeat(&mut self, b: BrokerId, generation: u64) {
        let broker = &self.brokers[b as usize];
        if !broker.alive || broker.heartbeats != generation {
            return;
        }
        let now = self.now;
        self.queue.push(now + HEARTBEAT_INTERVAL, Event::Heartbeat { broker: b, generation });
        if self.leader.is_none() || self.rolled_back {
            return;
        }
        let migrating = broker.mode == BrokerMode::Migrating;
        if !broker.registered {
            // `ClusterControlManager.zkRegistrationAllowed`: the controllers' migration flag, gone
            // once they are rolled without it to finalize.
            let rules = ControllerMigration {
                enabled: !self.finalized,
                version_migrates: true,
                version_has_transactions: true,
            };
            if let Err(why) = rules.admits_registration(migrating, self.appended_migration) {
                self.note(TraceKind::RegistrationRefused { broker: b, why: why.to_string() });
                return;
            }
            let record = MetaRecord::RegisterBroker { id: b, migrating_zk_broker: migrating };
            if self.append(ControllerWrite::RegisterBroker, record).is_some() {
                self.brokers[b as usize].registered = true;
                self.note(TraceKind::BrokerRegistered { broker: b, migrating });
            }
            return;
        }
        self.brokers[b as usize].last_heartbeat = now;
        self.queue.push(now + BROKER_SESSION_TIMEOUT, Event::StaleCheck { broker: b, heartbeat: now });
        if self.log.image().brokers.get(&b).is_some_and(|r| r.fenced)
            && self
                .append(
                    ControllerWrite::ProcessBrokerHeartbeat,
                    MetaRecord::BrokerFencing { id: b, fenced: false },
                )
                .is_some()
        {
            let leaders_elected = self.elect_leaderless(b);
            self.note(TraceKind::BrokerUnfenced { broker: b, leaders_elected });
        }
    }

    /// With `unfenced`'s unfence, a leader for every partition without one
    /// (`ReplicationControlManager.handleBrokerUnfenced`: `generateLeaderAndIsrUpdates` over
    /// `partitionsWithNoLeader`): a clean election, the first replica in sync and active, which
    /// bumps the leader and partition epochs. The unfenced broker counts as active, as
    /// `brokerToAdd` does there, the image still showing it fenced. Returns how many got one.
    fn elect_leaderless(&mut self, unfenced: BrokerId) -> u32 {
        let active: BrokerSet = self
            .log
            .image()
            .brokers
            .iter()
            .filter(|(id, r)| !r.fenced || **id == unfenced)
            .map(|(id, _)| *id)
            .collect();
        let mut elected = 0;
        for p in 0..self.layout.partitions() {
            let Some(state) = self.log.image().partitions[p as usize] else { continue };
            if state.leader != NO_LEADER {
                continue;
            }
            let Some(leader) =
                self.assignment.replicas(p).find(|r| state.isr.contains(*r) && active.contains(*r))
            else {
                continue;
            };
            let next = PartitionImage {
                leader: leader as i32,
                leader_epoch: state.leader_epoch + 1,
                partition_epoch: state.partition_epoch + 1,
                ..state
            };
            if self
                .append(
                    ControllerWrite::ProcessBrokerHeartbeat,
                    MetaRecord::Partition { index: p, state: next },
                )
                .is_some()
            {
                elected += 1;
            }
        }
        elected
    }

    /// `maybeFenceStaleBroker`: no heartbeat for `broker.session.timeout.ms`, so the broker is
    /// fenced and its partitions' leadership moves (`ReplicationControlManager.handleBrokerFenced`).
    fn on_stale_check(&mut self, b: BrokerId, heartbeat: Micros) {
        if self.brokers[b as usize].last_heartbeat != heartbeat
            || self.brokers[b as usize].alive && self.brokers[b as usize].registered
            || self.leader.is_none()
            || self.rolled_back
            || self.log.image().brokers.get(&b).is_none_or(|r| r.fenced)
        {
            return;
        }
        let fence = MetaRecord::BrokerFencing { id: b, fenced: true };
        if self.append(ControllerWrite::MaybeFenceStaleBroker, fence).is_none() {
            return;
        }
        let active: BrokerSet = self
            .log
            .image()
            .brokers
            .iter()
            .filter(|(id, r)| !r.fenced && **id != b)
            .map(|(id, _)| *id)
            .collect();
        // `ClusterControlManager.zkRegistrationAllowed`: the controllers' migration flag (and a
        // metadata.version that migrates), until they are rolled without it to finalize.
        let zk_registration_allowed = !self.finalized;
        let (mut moved, mut leaderless, mut isr_bumps) = (0, 0, 0);
        let keeps_epoch = self.config.sabotage.isr_shrink_keeps_leader_epoch;
        for p in 0..self.layout.partitions() {
            let Some(state) = self.log.image().partitions[p as usize] else { continue };
            if !state.isr.contains(b) {
                continue;
            }
            let isr = if state.isr.len() > 1 { state.isr.without(b) } else { state.isr };
            let mut next = PartitionImage { isr, partition_epoch: state.partition_epoch + 1, ..state };
            if state.leader == b as i32 {
                let leader = self.assignment.replicas(p).find(|r| isr.contains(*r) && active.contains(*r));
                next.leader = leader.map_or(NO_LEADER, |r| r as i32);
                next.leader_epoch = state.leader_epoch + 1;
                moved += 1;
                leaderless += usize::from(leader.is_none());
            } else if zk_registration_allowed && isr != state.isr && !keeps_epoch {
                // `PartitionChangeBuilder.triggerLeaderEpochBumpForIsrShrinkIfNeeded`: while
                // ZooKeeper-mode brokers may still register, an ISR shrink bumps the leader epoch
                // too, for their sake (their replica managers need it).
                next.leader_epoch = state.leader_epoch + 1;
                isr_bumps += 1;
            }
            self.append(
                ControllerWrite::MaybeFenceStaleBroker,
                MetaRecord::Partition { index: p, state: next },
            );
        }
        self.note(TraceKind::BrokerFenced { broker: b, leaders_moved: moved, leaderless, isr_bumps });
    }

    fn send_rpc(&mut self, b: BrokerId, rpc: Rc<Rpc>, sent_at: Micros) {
        let costs = &self.config.costs;
        let build = rpc.entries.len() as u64 * costs.update_metadata_per_partition_per_broker;
        let apply = rpc.entries.len() as u64 * costs.broker_apply_per_partition;
        let broker = &mut self.brokers[b as usize];
        let arrives = sent_at + build + costs.network_latency;
        let applied = broker.busy_until.max(arrives) + apply;
        broker.busy_until = applied;
        self.queue.push(applied, Event::Rpc { broker: b, rpc });
    }

    /// A ZooKeeper-mode broker applies UpdateMetadata/LeaderAndIsr, fenced by the controller epoch
    /// (`KafkaApis`: STALE_CONTROLLER_EPOCH).
    fn on_rpc(&mut self, b: BrokerId, rpc: &Rpc) {
        let broker = &self.brokers[b as usize];
        if !broker.alive || broker.mode == BrokerMode::Kraft {
            return;
        }
        if rpc.zk_epoch < broker.zk_epoch {
            let known = broker.zk_epoch;
            self.note(TraceKind::RpcRejected { broker: b, zk_epoch: rpc.zk_epoch, known });
            return;
        }
        self.brokers[b as usize].zk_epoch = rpc.zk_epoch;
        self.apply_to_cache(b, &rpc.entries);
        let (full, partitions, zk_epoch) = (rpc.full, rpc.entries.len(), rpc.zk_epoch);
        self.note(TraceKind::RpcApplied { broker: b, full, partitions, zk_epoch });
    }

    /// A KRaft broker applies what it fetched.
    fn on_fetch(&mut self, b: BrokerId, entries: &[(u32, i32, u32)], upto: i64) {
        let broker = &mut self.brokers[b as usize];
        if !broker.alive || broker.mode == BrokerMode::Zk {
            return;
        }
        broker.replicated = broker.replicated.max(upto);
        if broker.mode == BrokerMode::Kraft && !entries.is_empty() {
            self.apply_to_cache(b, entries);
            self.note(TraceKind::Fetched { broker: b, partitions: entries.len() });
        }
    }

    fn apply_to_cache(&mut self, b: BrokerId, entries: &[(u32, i32, u32)]) {
        let checked = self.config.checked;
        let broker = &mut self.brokers[b as usize];
        let mut back = None;
        for &(p, leader, epoch) in entries {
            let seen = broker.seen.get(p as usize).copied().unwrap_or(0);
            if checked && epoch < seen && back.is_none() {
                back = Some((p, seen, epoch));
            }
            broker.cache.set(p as usize, (leader, epoch));
            broker.seen.set(p as usize, seen.max(epoch));
        }
        if let Some((p, seen, epoch)) = back {
            let mode = broker.mode;
            self.violation(
                invariants::LEADER_EPOCHS_NEVER_GO_BACK,
                format!(
                    "broker {b} ({mode}) saw partition {p}'s leader epoch go from {seen} back to {epoch}"
                ),
            );
        }
    }

    /// Before dual-write writes partition states, while brokers may register in ZooKeeper mode:
    /// none changes a partition's ISR in ZooKeeper without raising its leader epoch.
    fn check_isr_changes_raise_leader_epochs(&mut self, writes: &[StateWrite]) {
        if !self.config.checked || self.finalized {
            return;
        }
        let lags = writes.iter().find_map(|w| {
            let path = ZnodePath::PartitionState { topic: w.topic, partition: w.partition };
            let zk = self.zk.inspect(path)?.partition_state()?;
            (w.isr != zk.isr && w.leader_epoch <= zk.leader_epoch).then(|| {
                format!(
                    "topic {} partition {}: ISR {} -> {} written at leader epoch {} (ZooKeeper had {})",
                    w.topic, w.partition, zk.isr, w.isr, w.leader_epoch, zk.leader_epoch
                )
            })
        });
        if let Some(detail) = lags {
            self.violation(invariants::ISR_CHANGES_RAISE_LEADER_EPOCHS, detail);
        }
    }

    /// After a dual-write or a reconcile: ZooKeeper's partition states hold the image's leader,
    /// leader epoch and ISR.
    fn check_zk_equals_image(&mut self) {
        if !self.config.checked {
            return;
        }
        let image = self.log.image();
        let differs = (0..self.layout.partitions()).find_map(|p| {
            let kraft = image.partitions[p as usize]?;
            let zk = self.zk.inspect(self.layout.state_path(p))?.partition_state()?;
            let same = (zk.leader, zk.leader_epoch, zk.isr) == (kraft.leader, kraft.leader_epoch, kraft.isr);
            (!same).then(|| {
                format!(
                    "partition {p}: ZooKeeper has {zk}, the log leader {} epoch {}",
                    kraft.leader, kraft.leader_epoch
                )
            })
        });
        if let Some(detail) = differs {
            self.violation(invariants::ZK_EQUALS_IMAGE, detail);
        }
    }

    fn on_copy_batch(&mut self, copy: u64, records: &[MetaRecord]) {
        if self.copying.as_ref().is_none_or(|c| c.id != copy) {
            return;
        }
        let committed_by = self.now + self.config.commit_latency;
        for record in records {
            self.append(ControllerWrite::MigrationRecords, record.clone());
        }
        self.note(TraceKind::CopyBatch { records: records.len(), committed_by });
    }

    /// `completeMigration`: `ZkMigrationStateRecord(MIGRATION)` and EndTransaction, waited on.
    fn on_copy_end(&mut self, copy: u64) {
        if self.copying.as_ref().is_none_or(|c| c.id != copy) {
            return;
        }
        self.append(
            ControllerWrite::MigrationRecords,
            MetaRecord::MigrationState(ZkMigrationState::Migration),
        );
        if let Some(offset) = self.append(ControllerWrite::MigrationRecords, MetaRecord::EndTransaction) {
            let epoch = self.epoch;
            let at = self.now + self.config.commit_latency;
            let to = OffsetAndEpoch { offset: offset as i64, epoch };
            self.queue.push(at, Event::CopyCommitted { copy, to });
        }
    }

    /// ZooKeeper's partition states, read as the copy and the reconcile read them
    /// (`iterateTopics`), from `start`; each batch handed to `batch` with when it was read.
    fn read_topics(&mut self, mut batch: impl FnMut(Vec<CopiedRecord>, Micros) -> Micros) -> CopyReport {
        self.wait_for_zookeeper();
        let start = self.cursor;
        let report = copy::migrate_topics(&mut self.zk, &self.assignment, start, &mut batch);
        self.cursor = report.done_at;
        report
    }
}

impl MigrationClient for World {
    fn recover_migration_state(&mut self, state: ZkMigrationLeadershipState) -> ZkMigrationLeadershipState {
        self.zk_requests(ZkRequestKind::Read, 1);
        zk_client::get_or_create_migration_state(&mut self.zk, state).unwrap_or(state)
    }

    fn claim_controller_leadership(
        &mut self,
        state: ZkMigrationLeadershipState,
    ) -> ZkMigrationLeadershipState {
        self.zk_requests(ZkRequestKind::Read, 2);
        self.zk_requests(ZkRequestKind::Write, 1);
        match zk_client::claim_controller_leadership(&mut self.zk, state) {
            Ok(claimed) => {
                self.deliver_watches(claimed.fired);
                claimed.state
            }
            Err(_) => state,
        }
    }

    fn set_migration_state(&mut self, state: ZkMigrationLeadershipState) -> ZkMigrationLeadershipState {
        self.zk_requests(ZkRequestKind::Write, 1);
        zk_client::set_migration_state(&mut self.zk, state).unwrap_or(state)
    }

    fn read_broker_ids(&mut self) -> BTreeSet<i32> {
        self.zk_requests(ZkRequestKind::Read, 1);
        let children = self.zk.get_children(ZnodePath::BrokerIds, None).unwrap_or_default();
        children
            .iter()
            .filter_map(|path| match path {
                ZnodePath::BrokerId(id) => Some(*id as i32),
                _ => None,
            })
            .collect()
    }

    fn brokers_in_assignments(&mut self) -> BTreeSet<i32> {
        self.zk_requests(ZkRequestKind::Read, u64::from(self.layout.topics()));
        let mut named = BrokerSet::EMPTY;
        for p in 0..self.layout.partitions() {
            named = named.union(self.assignment.replica_set(p));
            if named.len() == self.config.brokers {
                break;
            }
        }
        named.iter().map(|b| b as i32).collect()
    }

    /// `beginMigration` (BeginTransaction, waited on), then the reads of `iterateTopics`, each
    /// batch appended when read and waited on, then `completeMigration` at [`Event::CopyEnd`].
    fn start_copy(&mut self, _: &ZkMigrationLeadershipState) {
        let Some((leader, _)) = self.leader else { return };
        let id = self.next_copy;
        self.next_copy += 1;
        self.copying = Some(Copying { id, leader });
        self.append(ControllerWrite::MigrationRecords, MetaRecord::BeginTransaction { name: "ZK Migration" });
        self.cursor += self.config.commit_latency;
        let latency = self.config.commit_latency;
        let (layout, resets) = (self.layout, self.config.sabotage.copy_resets_leader_epochs);
        let mut batches: Vec<(Micros, Rc<[MetaRecord]>)> = Vec::new();
        let report = self.read_topics(|records, at| {
            batches.push((at, records.into_iter().filter_map(|r| copied(r, layout, resets)).collect()));
            at + latency
        });
        self.last_copy = Some(report);
        for (at, records) in batches {
            self.queue.push(at, Event::CopyBatch { copy: id, records });
        }
        self.queue.push(self.cursor, Event::CopyEnd { copy: id });
    }

    fn abort_migration(&mut self) {
        if let Some((id, _)) = self.leader {
            self.queue.push(self.cursor, Event::Fatal { id });
        }
    }

    /// `handleTopicsSnapshot`: ZooKeeper read again in full (`iterateTopics`), and each
    /// partition whose registration differs from the image's written: the whole registration
    /// compared (`PartitionRegistration.equals`), the partition epoch (in ZooKeeper, the state
    /// znode's version) included, so a partition whose changes were written fewer times than
    /// KRaft made them is written again.
    fn write_image(&mut self, state: ZkMigrationLeadershipState) -> ZkMigrationLeadershipState {
        let layout = self.layout;
        let mut in_zk: Vec<(u32, PartitionImage)> = Vec::new();
        self.read_topics(|records, at| {
            for record in records {
                if let Some(MetaRecord::Partition { index, state }) = copied(record, layout, false) {
                    in_zk.push((index, state));
                }
            }
            at
        });
        let image = self.log.image();
        let writes: Vec<StateWrite> = in_zk
            .iter()
            .filter_map(|&(p, zk)| {
                let kraft = image.partitions[p as usize]?;
                (kraft != zk).then(|| state_write(layout, p, kraft))
            })
            .collect();
        self.write_states(state, &writes)
    }

    /// `handleDelta`: each partition the change touched written as the image now holds it.
    fn write_delta(&mut self, state: ZkMigrationLeadershipState) -> ZkMigrationLeadershipState {
        let layout = self.layout;
        let mut writes: Vec<StateWrite> =
            self.last_delta.partitions.iter().map(|(p, kraft)| state_write(layout, *p, *kraft)).collect();
        if self.config.sabotage.dual_write_drops_a_partition {
            writes.pop();
        }
        self.write_states(state, &writes)
    }

    fn send_full_rpcs(&mut self, zk_controller_epoch: i32) {
        let entries = self.image_entries();
        self.propagate(true, entries, zk_controller_epoch);
    }

    fn send_delta_rpcs(&mut self, zk_controller_epoch: i32) {
        // A broker newly among the targets (registered, unfenced: after a restart too) gets the
        // full state first (`MigrationPropagator.publishMetadata`, `calculateBrokerChanges`).
        let targets = self.rpc_targets();
        self.pushed_to = self.pushed_to.intersection(targets.iter().copied().collect());
        let fresh: Vec<BrokerId> = targets.into_iter().filter(|b| !self.pushed_to.contains(*b)).collect();
        if !fresh.is_empty() {
            let rpc = Rc::new(Rpc {
                full: true,
                zk_epoch: zk_controller_epoch.max(0) as u32,
                entries: self.image_entries(),
            });
            for b in fresh {
                self.pushed_to = self.pushed_to.with(b);
                self.send_rpc(b, rpc.clone(), self.cursor);
            }
        }
        let entries = entries_of(&self.last_delta);
        if !entries.is_empty() {
            self.propagate(false, entries, zk_controller_epoch);
        }
    }
}

impl World {
    /// Fenced writes of partition states, topic by topic: `KRaftMigrationZkWriter` hands each
    /// topic's changed partitions to its own `updateTopicPartitions` (`handleTopicsDelta`,
    /// `handleTopicsSnapshot`), a batch whose last write advances `/migration`, waited on before
    /// the next. The state with `/migration`'s new version; a fenced driver writes nothing more.
    fn write_states(
        &mut self,
        mut state: ZkMigrationLeadershipState,
        writes: &[StateWrite],
    ) -> ZkMigrationLeadershipState {
        self.check_isr_changes_raise_leader_epochs(writes);
        let (mut partitions, mut batches) = (0, 0);
        for topic in writes.chunk_by(|a, b| a.topic == b.topic) {
            self.wait_for_zookeeper();
            match zk_client::update_partition_states(&mut self.zk, state, topic, self.cursor) {
                Ok((next, done)) => {
                    (self.cursor, state) = (done, next);
                    (partitions, batches) = (partitions + topic.len(), batches + 1);
                }
                Err(_) => break,
            }
        }
        if batches > 0 {
            self.note(TraceKind::ZkStatesWritten { partitions, batches, done: self.cursor });
        }
        state
    }

    /// `MigrationPropagator`: to each ZooKeeper-mode broker registered with KRaft and unfenced.
    fn propagate(&mut self, full: bool, entries: Rc<[(u32, i32, u32)]>, zk_epoch: i32) {
        let rpc = Rc::new(Rpc { full, zk_epoch: zk_epoch.max(0) as u32, entries });
        let targets = self.rpc_targets();
        if full {
            self.pushed_to = targets.iter().copied().collect();
        }
        let (sent_at, pushed_to) = (self.cursor, self.pushed_to);
        for b in targets.into_iter().filter(|b| pushed_to.contains(*b)) {
            self.send_rpc(b, rpc.clone(), sent_at);
        }
    }

    /// The ZooKeeper-mode brokers registered with KRaft as migrating and unfenced.
    fn rpc_targets(&self) -> Vec<BrokerId> {
        let image = self.log.image();
        image
            .brokers
            .iter()
            .filter(|(id, r)| {
                r.migrating_zk_broker
                    && !r.fenced
                    && self.brokers[**id as usize].mode == BrokerMode::Migrating
            })
            .map(|(id, _)| *id)
            .collect()
    }
}

/// A change's partitions as UpdateMetadata and a fetch carry them: leader and leader epoch.
fn entries_of(delta: &Delta) -> Rc<[(u32, i32, u32)]> {
    delta.partitions.iter().map(|(p, s)| (*p, s.leader, s.leader_epoch)).collect()
}

/// A record the copy read, as the log holds it.
fn copied(record: CopiedRecord, layout: TopicLayout, resets_epochs: bool) -> Option<MetaRecord> {
    match record {
        CopiedRecord::Topic { topic, .. } => Some(MetaRecord::Topic { topic }),
        CopiedRecord::Partition { topic, partition, isr, leader, leader_epoch, partition_epoch, .. } => {
            let index = layout.index(topic, partition)? as u32;
            let leader_epoch = if resets_epochs { 0 } else { leader_epoch };
            Some(MetaRecord::Partition {
                index,
                state: PartitionImage { leader, leader_epoch, isr, partition_epoch },
            })
        }
    }
}

fn state_write(layout: TopicLayout, index: u32, state: PartitionImage) -> StateWrite {
    let (topic, partition) = layout.locate(index);
    StateWrite { topic, partition, leader: state.leader, leader_epoch: state.leader_epoch, isr: state.isr }
}

//! What a run traces, and the invariants it checks.

use super::*;

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
    /// The ensemble expired the session of a broker cut off from it, deleting its ephemeral
    /// znodes.
    SessionExpired {
        broker: BrokerId,
        deleted: Vec<ZnodePath>,
    },
    /// A cut broker reaches ZooKeeper again; whether its session had expired.
    ZkLinkBack {
        broker: BrokerId,
        expired: bool,
    },
    /// Its registration found `/brokers/ids/broker` held by its previous process's session
    /// (which expires at `held_until`): the startup fails and the process exits.
    BrokerStartFailed {
        broker: BrokerId,
        held_until: Option<Micros>,
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
            | TraceKind::BrokerStartFailed { .. }
            | TraceKind::SessionExpired { .. }
            | TraceKind::ZkLinkBack { .. }
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
            TraceKind::SessionExpired { broker, deleted } => {
                let deleted: Vec<String> = deleted.iter().map(ToString::to_string).collect();
                write!(
                    f,
                    "ZooKeeper expires broker {broker}'s session, unheard from for 18 s: {} deleted",
                    deleted.join(" and ")
                )
            }
            TraceKind::ZkLinkBack { broker, expired: true } => write!(
                f,
                "broker {broker} reaches ZooKeeper again, its session gone: a new session, /brokers/ids/{broker} registered again, a run for /controller if it is free"
            ),
            TraceKind::ZkLinkBack { broker, expired: false } => write!(
                f,
                "broker {broker} reaches ZooKeeper again, its session alive (ZooKeeper was unreachable: nothing expired it)"
            ),
            TraceKind::BrokerStartFailed { broker, held_until } => {
                write!(
                    f,
                    "broker {broker} fails to start: /brokers/ids/{broker} is still held by the session of the process that died"
                )?;
                if let Some(at) = held_until {
                    write!(f, " (it expires at {})", format_time(*at))?;
                }
                write!(f, "; NODEEXISTS, the process exits")
            }
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
                fenced(f, *broker, *leaders_moved, *leaderless, *isr_bumps)
            }
            TraceKind::CopyBatch { records, committed_by } => {
                let by = format_time(*committed_by);
                write!(f, "copy: a batch of {records} records appended, committed by {by}")
            }
            TraceKind::CopyLost { with_leader } => write!(f, "copy: lost with controller {with_leader}"),
            TraceKind::Published { upto, partitions, transaction } => {
                let ended = if *transaction { " (a transaction ended)" } else { "" };
                write!(f, "log committed to offset {upto}: {partitions} partitions changed{ended}")
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
                zk_controller_elected(f, *broker, *zk_epoch, *above_epoch)
            }
            TraceKind::MigrationOver => {
                write!(f, "POST_MIGRATION: ZooKeeper is no longer written; no rollback from here")
            }
            TraceKind::Violation { invariant, detail } => write!(f, "VIOLATION {invariant}: {detail}"),
        }
    }
}

/// A broker fenced, the leaders moved off it (and how many to none) and the ISRs shrunk.
fn fenced(
    f: &mut fmt::Formatter<'_>,
    broker: BrokerId,
    leaders_moved: usize,
    leaderless: usize,
    isr_bumps: usize,
) -> fmt::Result {
    write!(f, "broker {broker} fenced (no heartbeat for 9 s), {leaders_moved} leaders moved")?;
    if leaderless > 0 {
        write!(f, " ({leaderless} to none: no other replica in the ISR is alive)")?;
    }
    if isr_bumps > 0 {
        write!(
            f,
            ", {} shrunk with a higher leader epoch (for the ZooKeeper-mode brokers)",
            crate::util::format::counted(isr_bumps as u64, "ISR")
        )?;
    }
    Ok(())
}

/// A ZooKeeper-mode controller elected after a rollback, and the state znodes whose epoch is
/// above its own.
fn zk_controller_elected(
    f: &mut fmt::Formatter<'_>,
    broker: BrokerId,
    zk_epoch: u32,
    above_epoch: usize,
) -> fmt::Result {
    write!(f, "broker {broker} wins /controller: ZooKeeper controller at epoch {zk_epoch}")?;
    match above_epoch {
        0 => Ok(()),
        n => write!(
            f,
            "; {n} state znodes carry a higher controller_epoch (the KRaft epoch): their elections would abort (KAFKA-20488)"
        ),
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

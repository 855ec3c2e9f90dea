//! What a drawing of a migration shows at one moment, read from a [`MigrationSim`]: the
//! ZooKeeper ensemble and the three znodes the migration turns on, the KRaft controllers, the
//! brokers with their modes, the links in use, who acts as controller on each side with its
//! epoch, and where the migration stands (the driver's state, the log's migration state, the
//! copy's progress, how long no controller acts). Pure data: the page and `kraftscope render`
//! draw it.

use crate::harness::Micros;
use crate::zk::{BrokerId, ZnodeData, ZnodePath};

use super::driver::DriverNote;
use super::phases;
use super::sim::{BrokerMode, MigrationSim, TraceKind};
use super::state::{MigrationDriverState, ZkMigrationState};

/// The driver's states a migration walks, in order (`MigrationDriverState`), as the row of
/// steps shows them: every state after UNINITIALIZED and INACTIVE.
pub const STEPS: &[MigrationDriverState] = MigrationDriverState::ALL.split_at(2).1;

/// Who holds `/controller`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ControllerZnode {
    /// Nobody: a broker's election is due.
    #[default]
    Free,
    /// A ZooKeeper-mode broker, as ZooKeeper-mode controller.
    Broker(BrokerId),
    /// A KRaft controller's claim, with its KRaft epoch (`kraftControllerEpoch`).
    Kraft { id: i32, epoch: i32 },
}

/// The znodes the migration turns on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ZkPart {
    pub controller: ControllerZnode,
    /// `/controller_epoch`.
    pub controller_epoch: u32,
    /// `/migration`: the offset and epoch of the log it records as written to ZooKeeper (none
    /// before the copy, or once deleted).
    pub migration: Option<(i64, i32)>,
    /// ZooKeeper is unreachable until then.
    pub down_until: Option<Micros>,
}

/// A KRaft controller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ControllerPart {
    pub id: i32,
    pub alive: bool,
    /// It leads the quorum (at [`MigrationPicture::kraft_epoch`]).
    pub leader: bool,
}

/// A broker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BrokerPart {
    pub id: BrokerId,
    /// The mode it runs in, or restarts in.
    pub mode: BrokerMode,
    pub alive: bool,
    /// It holds a ZooKeeper session (ZooKeeper mode, with or without migration).
    pub zk_session: bool,
    /// Its link to ZooKeeper is cut: no ping reaches the ensemble, its session expires or has.
    pub cut_from_zk: bool,
    /// Registered with the KRaft controllers (in migration or KRaft mode), and fenced there.
    pub registered: bool,
    pub fenced: bool,
    /// It is the ZooKeeper-mode controller.
    pub zk_controller: bool,
}

/// A link in use at this moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Link {
    /// A broker's ZooKeeper session.
    Session(BrokerId),
    /// A broker fetching the metadata log from the KRaft leader.
    Fetch(BrokerId),
    /// The KRaft controller's UpdateMetadata and LeaderAndIsr to a ZooKeeper-mode broker.
    Rpcs(BrokerId),
    /// The KRaft leader writing to ZooKeeper (the claim, the copy's reads, dual-write).
    DualWrite,
}

/// The copy's progress: records and batches committed, of those read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopyProgress {
    pub records: usize,
    pub records_total: usize,
    pub batches: usize,
    pub batches_total: usize,
}

/// A migration at one moment, as drawn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MigrationPicture {
    pub now: Micros,
    pub zk: ZkPart,
    pub controllers: Vec<ControllerPart>,
    /// The quorum's epoch (0 before its first leader).
    pub kraft_epoch: i32,
    pub brokers: Vec<BrokerPart>,
    pub links: Vec<Link>,
    /// The active controller's driver state (none without an active controller).
    pub driver: Option<MigrationDriverState>,
    /// The committed `ZkMigrationStateRecord`.
    pub log_state: ZkMigrationState,
    pub copy: Option<CopyProgress>,
    /// How long no controller has acted: since the ZooKeeper-mode controller resigned, until
    /// every ZooKeeper-mode broker applied the KRaft controller's first push (then fixed).
    pub no_controller: Option<(Micros, bool)>,
    /// Records of the log ZooKeeper is behind.
    pub lag: Option<i64>,
    pub stranded: bool,
    pub finalized: bool,
    pub rolled_back: bool,
}

impl MigrationPicture {
    /// The picture of `sim` now.
    pub fn of(sim: &MigrationSim) -> MigrationPicture {
        let now = sim.now();
        let leader = sim.leader();
        let zk = sim.zk();
        let controller = match zk.inspect(ZnodePath::Controller).map(|n| n.data) {
            Some(ZnodeData::Controller { broker_id, kraft_epoch: Some(epoch) }) => {
                ControllerZnode::Kraft { id: broker_id as i32, epoch }
            }
            Some(ZnodeData::Controller { broker_id, kraft_epoch: None }) => {
                ControllerZnode::Broker(broker_id)
            }
            _ => ControllerZnode::Free,
        };
        let controller_epoch = match zk.inspect(ZnodePath::ControllerEpoch).map(|n| n.data) {
            Some(ZnodeData::ControllerEpoch(epoch)) => epoch,
            _ => 0,
        };
        let migration = match zk.inspect(ZnodePath::Migration).map(|n| n.data) {
            Some(ZnodeData::Migration { kraft_metadata_offset, kraft_metadata_epoch, .. })
                if kraft_metadata_offset >= 0 =>
            {
                Some((kraft_metadata_offset, kraft_metadata_epoch))
            }
            _ => None,
        };
        let image = sim.log().image();
        let brokers: Vec<BrokerPart> = (0..sim.config().brokers)
            .map(|id| {
                let registration = image.brokers.get(&id);
                BrokerPart {
                    id,
                    mode: sim.broker_mode(id).unwrap_or(BrokerMode::Zk),
                    alive: sim.running_in(id).is_some(),
                    zk_session: sim.has_zk_session(id),
                    cut_from_zk: sim.cut_from_zk(id),
                    registered: sim.registered_as(id).is_some(),
                    fenced: registration.is_some_and(|r| r.fenced),
                    zk_controller: sim.zk_controller() == Some(id),
                }
            })
            .collect();
        let driver = sim.driver_state();
        let mut links: Vec<Link> =
            brokers.iter().filter(|b| b.zk_session).map(|b| Link::Session(b.id)).collect();
        if leader.is_some() {
            let fetching = |b: &&BrokerPart| b.alive && b.mode != BrokerMode::Zk;
            links.extend(brokers.iter().filter(fetching).map(|b| Link::Fetch(b.id)));
            let pushing = driver.is_some_and(|d| d >= MigrationDriverState::KraftControllerToBrokerComm);
            let rpcs =
                |b: &&BrokerPart| pushing && b.alive && b.mode == BrokerMode::Migrating && b.registered;
            links.extend(brokers.iter().filter(rpcs).map(|b| Link::Rpcs(b.id)));
            if driver.is_some_and(|d| d >= MigrationDriverState::BecomeController) && !sim.finalized() {
                links.push(Link::DualWrite);
            }
        }
        MigrationPicture {
            now,
            zk: ZkPart { controller, controller_epoch, migration, down_until: sim.zk_down_until() },
            controllers: sim
                .controllers()
                .map(|(id, alive)| ControllerPart { id, alive, leader: leader.is_some_and(|(l, _)| l == id) })
                .collect(),
            kraft_epoch: sim.kraft_epoch(),
            brokers,
            links,
            driver,
            log_state: image.migration,
            copy: copy_progress(sim),
            no_controller: phases::no_controller(sim)
                .map(|(from, to)| (to.unwrap_or(now) - from, to.is_some())),
            lag: sim.write_behind_lag(),
            stranded: sim.stranded(),
            finalized: sim.finalized(),
            rolled_back: sim.rolled_back(),
        }
    }

    /// Where the migration stands, in a word or Kafka's name of the driver's state.
    pub fn state_word(&self) -> &'static str {
        match self.driver {
            _ if self.rolled_back => "rolled back",
            _ if self.finalized => "POST_MIGRATION",
            _ if self.stranded => "stranded",
            Some(state) => state.name(),
            None => "no active KRaft controller",
        }
    }

    /// Where the migration stands, in a sentence.
    pub fn standing(&self) -> String {
        if self.rolled_back {
            return "Rolled back: a ZooKeeper-mode controller again, the KRaft controllers gone".into();
        }
        if self.finalized {
            return "Finalized (POST_MIGRATION): KRaft alone; ZooKeeper is no longer written, and its door to the metadata is closed".into();
        }
        if self.stranded {
            return "Stranded: the log says MIGRATION but /migration records no copy, so every driver stays INACTIVE; Kafka 3.9 cannot leave this without an operator".into();
        }
        match self.driver {
            None if self.controllers.iter().all(|c| !c.alive) && self.kraft_epoch == 0 => {
                "ZooKeeper mode: the KRaft controllers are not provisioned yet".into()
            }
            None => "No active KRaft controller: the quorum elects one".into(),
            Some(state) => format!("{}: {}", state.name(), explain(state)),
        }
    }
}

/// What the driver does in `state`.
fn explain(state: MigrationDriverState) -> &'static str {
    match state {
        MigrationDriverState::Uninitialized | MigrationDriverState::Inactive => "not migrating",
        MigrationDriverState::WaitForControllerQuorum => "waiting for every controller to be ready",
        MigrationDriverState::WaitForBrokers => "waiting for every broker to register in migration mode",
        MigrationDriverState::BecomeController => "claiming /controller in ZooKeeper",
        MigrationDriverState::ZkMigration => "copying ZooKeeper's metadata into the log",
        MigrationDriverState::SyncKraftToZk => "reconciling ZooKeeper with the log",
        MigrationDriverState::KraftControllerToBrokerComm => {
            "pushing the full state to the ZooKeeper-mode brokers"
        }
        MigrationDriverState::DualWrite => "every change goes to the log and to ZooKeeper",
    }
}

/// The copy's progress from its batches in the trace (the latest copy: an aborted one starts
/// again).
fn copy_progress(sim: &MigrationSim) -> Option<CopyProgress> {
    let report = sim.last_copy()?;
    let trace = sim.trace();
    let started = trace
        .iter()
        .rposition(|l| matches!(l.kind, TraceKind::Driver { note: DriverNote::CopyStarted, .. }))?;
    let committed: Vec<usize> = trace[started..]
        .iter()
        .filter_map(|l| match l.kind {
            TraceKind::CopyBatch { records, committed_by } if committed_by <= sim.now() => Some(records),
            _ => None,
        })
        .collect();
    Some(CopyProgress {
        records: committed.iter().sum(),
        records_total: report.records,
        batches: committed.len(),
        batches_total: report.batches.len(),
    })
}

//! The KIP-500 experiment: kill the active controller and measure how long metadata is
//! unavailable, in KRaft (a standby that already holds the image wins an election) and in
//! ZooKeeper mode (the new controller cold-loads every partition, then pushes full state).

use std::fmt;
use std::sync::Arc;

use crate::experiments::elections::Distribution;
use crate::harness::{MS, Micros};
use crate::metadata::record::MetadataRecord;
use crate::metadata::state::{AppliedMetadata, MetadataDisk, MetadataSnapshot};
use crate::metadata::synthetic::{
    PARTITIONS_PER_TOPIC, dedicated_brokers, snapshot_record_count, snapshot_records,
};
use crate::quorum::snapshot::SnapshotId;
use crate::quorum::{NodeId, Record};
use crate::sim::{ActionError, ClusterConfig, Simulation};
use crate::util::broker_set::BrokerId;
use crate::zk::{ZkClusterConfig, ZkClusterError, ZkCosts, ZkFailoverReport, measure_failover_of};

/// Brokers in both modes' clusters.
pub const BROKERS: u32 = 5;
/// KRaft controllers (voters).
const CONTROLLERS: u32 = 3;
/// The most partitions the experiment accepts.
pub const MAX_PARTITIONS: u64 = 5_000_000;
/// Time the KRaft cluster runs steadily before the kill.
const WARM_UP: Micros = 8_000 * MS;
/// Give up on a KRaft failover after this long.
pub const KRAFT_LIMIT: Micros = 120_000 * MS;
/// How often the probe retries its metadata change while there is no active controller.
const PROBE_EVERY: Micros = MS;

/// How the KRaft cluster's processes are laid out (`process.roles`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KraftRoles {
    /// Three dedicated controllers, and this many dedicated brokers running beside them (the
    /// snapshot always holds [`BROKERS`] brokers, 101 up).
    Dedicated { brokers: u32 },
    /// Three combined nodes (each a controller and a broker, ids 1 to 3) and dedicated brokers
    /// 101 up, [`BROKERS`] brokers in all: the layout of ZooKeeper mode's cluster, where the
    /// controller is one of the brokers, so one kill takes out the active controller and a broker
    /// on both sides.
    Combined,
}

impl KraftRoles {
    /// The race's and the page's default: dedicated controllers beside [`BROKERS`] brokers.
    pub const DEDICATED: KraftRoles = KraftRoles::Dedicated { brokers: BROKERS };

    /// The like-for-like layout's and the dedicated layout's names, as URLs and the command line
    /// spell them.
    pub fn name(self) -> &'static str {
        match self {
            KraftRoles::Dedicated { .. } => "dedicated",
            KraftRoles::Combined => "combined",
        }
    }

    /// The layout named `name`, with dedicated brokers beside dedicated controllers.
    pub(crate) fn from_name(name: &str) -> Option<KraftRoles> {
        match name {
            "dedicated" => Some(KraftRoles::DEDICATED),
            "combined" => Some(KraftRoles::Combined),
            _ => None,
        }
    }

    /// The brokers of the snapshot, by id.
    pub(crate) fn broker_ids(self) -> Vec<BrokerId> {
        match self {
            KraftRoles::Dedicated { .. } => dedicated_brokers(BROKERS),
            KraftRoles::Combined => {
                (1..=CONTROLLERS).chain(dedicated_brokers(BROKERS - CONTROLLERS)).collect()
            }
        }
    }

    fn cluster(self) -> ClusterConfig {
        let (observers, combined) = match self {
            KraftRoles::Dedicated { brokers } => (brokers, false),
            KraftRoles::Combined => (BROKERS - CONTROLLERS, true),
        };
        ClusterConfig { voters: CONTROLLERS, observers, combined, ..ClusterConfig::default() }
    }
}

/// Why the experiment gave no measurement.
#[derive(Clone, Debug, PartialEq)]
pub enum FailoverError {
    /// The partition count is 0 or above [`MAX_PARTITIONS`].
    Partitions(u64),
    /// The KRaft cluster had not elected a leader when it had settled.
    NoLeaderBeforeKill,
    /// A kill was asked with no active controller.
    NoActiveController,
    /// The simulation refused the kill.
    Kill(ActionError),
    /// No new controller committed the probe within [`KRAFT_LIMIT`].
    NoRecovery,
    /// No new controller committed the probe in the trial with this seed.
    NoRecoveryWithSeed(u64),
    /// Zero trials were asked for.
    NoTrials,
    /// The ZooKeeper-mode cluster could not be built or run.
    ZooKeeper(ZkClusterError),
}

impl fmt::Display for FailoverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FailoverError::Partitions(partitions) => {
                write!(f, "partitions must be between 1 and {MAX_PARTITIONS}, got {partitions}")
            }
            FailoverError::NoLeaderBeforeKill => write!(f, "no leader was elected before the kill"),
            FailoverError::NoActiveController => write!(f, "there is no active controller"),
            FailoverError::Kill(error) => fmt::Display::fmt(error, f),
            FailoverError::NoRecovery => {
                write!(f, "no new controller committed within {} s", KRAFT_LIMIT / 1_000_000)
            }
            FailoverError::NoRecoveryWithSeed(seed) => write!(f, "seed {seed}: no new controller committed"),
            FailoverError::NoTrials => write!(f, "no trials were run"),
            FailoverError::ZooKeeper(error) => fmt::Display::fmt(error, f),
        }
    }
}

impl std::error::Error for FailoverError {}

impl From<ActionError> for FailoverError {
    fn from(error: ActionError) -> Self {
        FailoverError::Kill(error)
    }
}

impl From<ZkClusterError> for FailoverError {
    fn from(error: ZkClusterError) -> Self {
        FailoverError::ZooKeeper(error)
    }
}

/// One row of the experiment.
#[derive(Clone, Debug, PartialEq)]
pub struct FailoverRow {
    pub partitions: u64,
    /// KRaft with dedicated controllers: from the kill until a new active controller committed
    /// a metadata change, over seeds, and the partitions the killed node led (none).
    pub kraft: Option<KraftFailovers>,
    /// KRaft with combined nodes: the same, the killed node also a broker.
    pub kraft_combined: Option<KraftFailovers>,
    /// ZooKeeper mode: the controller-ready and brokers-updated times.
    pub zk: Option<ZkFailoverReport>,
}

/// Builds the synthetic snapshot every controller's disk holds, in slices of records so a page
/// can spread the work over frames.
pub struct SnapshotBuilder {
    records: Box<dyn Iterator<Item = MetadataRecord>>,
    state: AppliedMetadata,
    total: u64,
}

impl SnapshotBuilder {
    /// A snapshot of `partitions` partitions on the [`BROKERS`] brokers of `roles`.
    pub fn new(partitions: u64, roles: KraftRoles) -> Result<SnapshotBuilder, FailoverError> {
        check_partitions(partitions)?;
        let total = snapshot_record_count(partitions, BROKERS);
        Ok(SnapshotBuilder {
            records: Box::new(snapshot_records(partitions, &roles.broker_ids())),
            state: AppliedMetadata::default(),
            total,
        })
    }

    /// Apply up to `budget` more records; returns the progress.
    pub(crate) fn step(&mut self, budget: usize) -> (u64, u64) {
        for record in self.records.by_ref().take(budget) {
            self.state.apply(0, &Record::Data(record.into()));
        }
        self.progress()
    }

    /// (records applied, records in all).
    pub(crate) fn progress(&self) -> (u64, u64) {
        (self.state.applied_offset, self.total)
    }

    /// Finish the remaining records and return the snapshot.
    pub fn finish(mut self) -> Arc<MetadataSnapshot> {
        self.step(usize::MAX);
        let id = SnapshotId { end_offset: self.state.applied_offset, epoch: 0 };
        Arc::new(MetadataSnapshot { id, state: self.state })
    }
}

/// A KRaft cluster of three controllers (dedicated or combined, with or without brokers)
/// started from a snapshot, whose active controller can be killed and whose recovery is timed
/// by a probe: a ConfigRecord offered from the moment of the kill until a new active controller
/// commits it.
pub struct KraftFailover {
    sim: Simulation,
    killed_at: Option<Micros>,
    /// The killed node, and the partitions it led in the active controller's image at the kill.
    killed: Option<NodeId>,
    leaderless: u64,
    probe: Option<u64>,
    recovered_after: Option<Micros>,
    leaders_back_after: Option<Micros>,
}

impl KraftFailover {
    /// Start the servers of `roles` from `snapshot` (built for the same `roles`) and let them
    /// elect a leader and settle.
    pub(crate) fn new(
        snapshot: Arc<MetadataSnapshot>,
        seed: u64,
        roles: KraftRoles,
    ) -> Result<KraftFailover, FailoverError> {
        let mut failover = KraftFailover::starting(snapshot, seed, roles);
        while !failover.warm_up(usize::MAX) {}
        failover.settled()
    }

    /// The cluster just started from `snapshot`, before it has settled: run
    /// [`warm_up`](Self::warm_up) until it returns true (in slices, to spread the work). The
    /// snapshot's brokers were running when it was taken and keep their registrations
    /// ([`Simulation::resuming`]): at millions of partitions, registering again would fence each
    /// broker and move every partition it leads, in one controller event.
    pub(crate) fn starting(snapshot: Arc<MetadataSnapshot>, seed: u64, roles: KraftRoles) -> KraftFailover {
        let mut disk = MetadataDisk::default();
        disk.log.install_snapshot(snapshot);
        let sim = Simulation::resuming(roles.cluster(), seed, disk);
        KraftFailover {
            sim,
            killed_at: None,
            killed: None,
            leaderless: 0,
            probe: None,
            recovered_after: None,
            leaders_back_after: None,
        }
    }

    /// Run the steady time before the kill, at most `events` events further; true once it is
    /// over. Counted in events, not simulated time: at millions of partitions one event (a
    /// broker's first ISR scan) can take milliseconds, and several fall on the same instant.
    pub(crate) fn warm_up(&mut self, events: usize) -> bool {
        let due = |sim: &mut Simulation| sim.next_event_time().is_some_and(|at| at <= WARM_UP);
        for _ in 0..events {
            if !due(&mut self.sim) {
                break;
            }
            self.sim.step();
        }
        if !due(&mut self.sim) {
            self.sim.run_until(WARM_UP);
        }
        self.sim.now() >= WARM_UP
    }

    /// (simulated time warmed up, all of it).
    pub(crate) fn warm_up_progress(&self) -> (Micros, Micros) {
        (self.sim.now().min(WARM_UP), WARM_UP)
    }

    /// The cluster once warmed up, if it elected a leader.
    pub(crate) fn settled(self) -> Result<KraftFailover, FailoverError> {
        if self.sim.leader().is_none() {
            return Err(FailoverError::NoLeaderBeforeKill);
        }
        Ok(self)
    }

    /// The cluster.
    pub(crate) fn sim(&self) -> &Simulation {
        &self.sim
    }

    /// Crash the active controller now.
    pub(crate) fn kill(&mut self) -> Result<(), FailoverError> {
        let leader = self.sim.leader().ok_or(FailoverError::NoActiveController)?;
        let id = leader.id();
        let image = &leader.applied().state.image;
        self.leaderless = image.partitions().filter(|(_, _, p)| p.leader == id as i32).count() as u64;
        self.sim.crash(id)?;
        (self.killed_at, self.killed) = (Some(self.sim.now()), Some(id));
        Ok(())
    }

    /// Partitions the killed node led: none while controllers are not brokers.
    pub(crate) fn leaderless_partitions(&self) -> u64 {
        self.leaderless
    }

    /// Partitions the killed node led that still have no live leader: until the new active
    /// controller's fencing of it (its session expired: `ReplicationControlManager
    /// .maybeFenceOneStaleBroker`) commits, with every leadership it held moved to another ISR
    /// member.
    pub(crate) fn leaderless_now(&self) -> u64 {
        if self.leaders_back_after.is_some() { 0 } else { self.leaderless }
    }

    /// From the kill until every partition the killed node led had a live leader again in the
    /// committed metadata: `Some(0)` when it led none.
    pub(crate) fn leaders_back_after(&self) -> Option<Micros> {
        self.leaders_back_after
    }

    /// When the active controller was killed (simulated time).
    pub fn killed_at(&self) -> Option<Micros> {
        self.killed_at
    }

    /// How long metadata was unavailable, once a new controller committed the probe.
    pub(crate) fn recovered_after(&self) -> Option<Micros> {
        self.recovered_after
    }

    /// Run until `elapsed` after the kill, or until both a new controller committed the probe
    /// and every partition has a live leader again, looking every millisecond.
    pub(crate) fn advance(&mut self, elapsed: Micros) {
        let Some(killed_at) = self.killed_at else { return };
        loop {
            if self.recovered_after.is_none() && self.probe.is_none() {
                self.probe = self.sim.alter_config("cluster", "failover.probe", "1").ok();
            }
            let committed = self
                .sim
                .leader()
                .and_then(|l| l.high_watermark())
                .is_some_and(|hw| self.probe.is_some_and(|p| hw > p));
            if committed && self.recovered_after.is_none() {
                self.recovered_after = Some(self.sim.now() - killed_at);
            }
            if self.leaders_back_after.is_none() && self.leaders_back() {
                self.leaders_back_after = Some(self.sim.now() - killed_at);
            }
            let done = self.recovered_after.is_some() && self.leaders_back_after.is_some();
            if done || self.sim.now() >= killed_at + elapsed {
                return;
            }
            self.sim.run_until(self.sim.now() + PROBE_EVERY);
        }
    }

    /// Whether no partition is led by the killed node in the active controller's committed
    /// image, which has fenced it (the fencing record comes last, after the leadership moves).
    fn leaders_back(&self) -> bool {
        if self.leaderless == 0 {
            return true;
        }
        let (Some(leader), Some(killed)) = (self.sim.leader(), self.killed) else { return false };
        let image = &leader.applied().state.image;
        image.brokers().get(&killed).is_some_and(|b| b.fenced) && !image.leads_any(killed)
    }

    /// Keep the cluster running until `elapsed` after the kill, also after recovery (to show
    /// the brokers following the new leader).
    pub fn run_to(&mut self, elapsed: Micros) {
        if let Some(killed_at) = self.killed_at
            && self.sim.now() < killed_at + elapsed
        {
            self.sim.run_until(killed_at + elapsed);
        }
    }
}

/// A snapshot of an image with `partitions` partitions on the [`BROKERS`] brokers of `roles`.
pub(crate) fn synthetic_snapshot(
    partitions: u64,
    roles: KraftRoles,
) -> Result<Arc<MetadataSnapshot>, FailoverError> {
    Ok(SnapshotBuilder::new(partitions, roles)?.finish())
}

/// KRaft with dedicated controllers: the simulated time from killing the active controller
/// until a new one commits a metadata change, for a cluster holding `partitions` partitions.
pub fn measure_kraft_failover(partitions: u64, seed: u64) -> Result<Micros, FailoverError> {
    let roles = KraftRoles::Dedicated { brokers: 0 };
    let mut failover = KraftFailover::new(synthetic_snapshot(partitions, roles)?, seed, roles)?;
    failover.kill()?;
    failover.advance(KRAFT_LIMIT);
    failover.recovered_after().ok_or(FailoverError::NoRecovery)
}

/// KRaft failovers over seeds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KraftFailovers {
    /// From the kill until a new active controller committed a metadata change.
    pub recovery: Distribution,
    /// Partitions the killed node led (the most in any trial): none while the controllers are
    /// dedicated, so every partition keeps its leader and serves throughout.
    pub leaderless_partitions: u64,
    /// From the kill until those partitions had a live leader again (zero when there were none).
    pub leaders_back: Distribution,
}

/// KRaft over `trials` seeds from `first_seed`: the distribution of unavailability for a
/// cluster of `roles` holding `partitions` partitions (the snapshot is built once).
pub fn measure_kraft_failovers(
    partitions: u64,
    first_seed: u64,
    trials: usize,
    roles: KraftRoles,
) -> Result<KraftFailovers, FailoverError> {
    let snapshot = synthetic_snapshot(partitions, roles)?;
    let mut leaderless_partitions = 0;
    let samples = (first_seed..first_seed + trials as u64)
        .map(|seed| {
            let mut failover = KraftFailover::new(snapshot.clone(), seed, roles)?;
            failover.kill()?;
            leaderless_partitions = leaderless_partitions.max(failover.leaderless_partitions());
            failover.advance(KRAFT_LIMIT);
            let failed = FailoverError::NoRecoveryWithSeed(seed);
            let recovery = failover.recovered_after().ok_or(failed.clone())?;
            Ok((recovery, failover.leaders_back_after().ok_or(failed)?))
        })
        .collect::<Result<Vec<_>, FailoverError>>()?;
    let (recoveries, backs): (Vec<Micros>, Vec<Micros>) = samples.into_iter().unzip();
    let recovery = Distribution::of(recoveries).ok_or(FailoverError::NoTrials)?;
    let leaders_back = Distribution::of(backs).ok_or(FailoverError::NoTrials)?;
    Ok(KraftFailovers { recovery, leaderless_partitions, leaders_back })
}

/// ZooKeeper mode with `costs`: the new controller's cold load and full-state push, of the
/// cluster the KRaft side runs ([`zk_cluster`]).
pub fn measure_zk_failover(
    partitions: u64,
    costs: &ZkCosts,
    seed: u64,
) -> Result<ZkFailoverReport, FailoverError> {
    check_partitions(partitions)?;
    Ok(measure_failover_of(zk_cluster(partitions, costs.clone()), seed)?)
}

/// The ZooKeeper-mode cluster of the same shape as the KRaft side's snapshot: [`BROKERS`]
/// brokers and `partitions` (at most [`MAX_PARTITIONS`]) in topics of up to
/// [`PARTITIONS_PER_TOPIC`], so both sides describe one cluster.
pub fn zk_cluster(partitions: u64, costs: ZkCosts) -> ZkClusterConfig {
    let partitions = partitions.min(MAX_PARTITIONS) as u32;
    ZkClusterConfig::topics_of(partitions, PARTITIONS_PER_TOPIC as u32, BROKERS, costs)
}

fn check_partitions(partitions: u64) -> Result<(), FailoverError> {
    if partitions == 0 || partitions > MAX_PARTITIONS {
        return Err(FailoverError::Partitions(partitions));
    }
    Ok(())
}

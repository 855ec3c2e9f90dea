//! The side-by-side failover the page animates: one KRaft cluster and one ZooKeeper-mode
//! cluster of the same size, both losing their active controller at the same moment and run on
//! one shared clock. Preparation (building a large image) and running both proceed in slices,
//! so a page can spread them over animation frames.

mod moment;
mod pace;
mod phases;

use std::fmt;
use std::sync::Arc;

use crate::experiments::failover::{FailoverError, KraftFailover, KraftRoles, SnapshotBuilder, zk_cluster};
use crate::harness::{MS, Micros};
use crate::metadata::state::MetadataSnapshot;
use crate::sim::Simulation;
use crate::util::format;
use crate::zk::{
    FailoverPhase, PartitionGrid, ZkCluster, ZkClusterBuilder, ZkClusterError, ZkCosts, ZkFailoverReport,
};

pub use moment::RaceMoment;
pub use phases::{kraft_phase, zk_phase};

/// Either side's state in one line while the two clusters are being built.
pub const BUILDING: &str = "building the cluster, nothing killed yet";

/// ZooKeeper-mode time the cluster runs steadily before the kill.
const ZK_WARM_UP: Micros = 2_000 * MS;
/// KRaft's steady time before the kill is run one event at a time (at millions of partitions
/// a broker's first ISR scan is one costly event, and all five fall on the same instant).
const KRAFT_WARM_UP_EVENTS: usize = 1;

/// Where a race stands.
#[derive(Clone, Debug, PartialEq)]
pub enum RaceStage {
    /// Building the image every KRaft controller starts from, then the ZooKeeper-mode cluster:
    /// units of work done of total.
    Preparing { done: u64, total: u64 },
    /// Both clusters are healthy, waiting for the kill.
    Ready,
    /// Both controllers were killed this long ago (simulated).
    Running { elapsed: Micros },
}

/// Why a race could not be built or could not go on.
#[derive(Clone, Debug, PartialEq)]
pub enum RaceError {
    /// The KRaft side: a partition count out of range, no leader after settling, a refused kill.
    Kraft(FailoverError),
    /// The ZooKeeper-mode cluster could not be built.
    ZooKeeper(ZkClusterError),
    /// The clusters are still being prepared (or settling).
    NotReady,
    /// The kill was asked a second time.
    AlreadyKilled,
}

impl fmt::Display for RaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RaceError::Kraft(error) => fmt::Display::fmt(error, f),
            RaceError::ZooKeeper(error) => fmt::Display::fmt(error, f),
            RaceError::NotReady => write!(f, "the clusters are not ready yet"),
            RaceError::AlreadyKilled => write!(f, "the controllers were already killed"),
        }
    }
}

impl std::error::Error for RaceError {}

impl From<FailoverError> for RaceError {
    fn from(error: FailoverError) -> Self {
        RaceError::Kraft(error)
    }
}

impl From<ZkClusterError> for RaceError {
    fn from(error: ZkClusterError) -> Self {
        RaceError::ZooKeeper(error)
    }
}

/// A failover race.
pub struct FailoverRace {
    partitions: u64,
    seed: u64,
    roles: KraftRoles,
    builder: Option<SnapshotBuilder>,
    zk_builder: Option<ZkClusterBuilder>,
    /// What both clusters are started from, kept so the race can run again without rebuilding.
    prepared: Option<(Arc<MetadataSnapshot>, ZkClusterBuilder)>,
    snapshot: Option<Arc<MetadataSnapshot>>,
    kraft: Option<KraftFailover>,
    /// The KRaft cluster has started but not yet run its steady time before the kill.
    warming: bool,
    zk: Option<ZkCluster>,
    zk_killed_at: Micros,
    elapsed: Option<Micros>,
}

impl FailoverRace {
    /// A race at `partitions` partitions (validated), in its preparing stage, with Kafka's
    /// pipelined ZooKeeper reads, and its KRaft side's processes laid out as `roles`.
    pub fn with_roles(partitions: u64, seed: u64, roles: KraftRoles) -> Result<FailoverRace, RaceError> {
        let builder = SnapshotBuilder::new(partitions, roles)?;
        let zk_builder = ZkClusterBuilder::new(zk_cluster(partitions, ZkCosts::async_reads()), seed)?;
        Ok(FailoverRace {
            partitions,
            seed,
            roles,
            builder: Some(builder),
            zk_builder: Some(zk_builder),
            prepared: None,
            snapshot: None,
            kraft: None,
            warming: false,
            zk: None,
            zk_killed_at: 0,
            elapsed: None,
        })
    }

    /// The partition count.
    pub fn partitions(&self) -> u64 {
        self.partitions
    }

    /// How the KRaft side's processes are laid out.
    pub fn roles(&self) -> KraftRoles {
        self.roles
    }

    /// The stage.
    pub fn stage(&self) -> RaceStage {
        if let Some(builder) = &self.builder {
            let (done, total) = builder.progress();
            return RaceStage::Preparing { done, total: total + self.partitions };
        }
        if let Some(zk) = &self.zk_builder {
            let (done, total) = zk.progress();
            return RaceStage::Preparing { done: self.partitions + done, total: self.partitions + total };
        }
        if let Some(kraft) = self.kraft.as_ref().filter(|_| self.warming) {
            let (done, total) = kraft.warm_up_progress();
            return RaceStage::Preparing { done, total };
        }
        match self.elapsed {
            None => RaceStage::Ready,
            Some(elapsed) => RaceStage::Running { elapsed },
        }
    }

    /// Do up to `budget` units of preparation: records of the KRaft image, then partitions of
    /// the ZooKeeper-mode cluster; both clusters start once both are built, and the KRaft
    /// cluster then runs its steady time before the kill in slices.
    pub fn prepare(&mut self, budget: usize) -> Result<(), RaceError> {
        if self.warming {
            let kraft = self.kraft.as_mut().ok_or(RaceError::NotReady)?;
            if kraft.warm_up(KRAFT_WARM_UP_EVENTS) {
                self.warming = false;
                let kraft = self.kraft.take().ok_or(RaceError::NotReady)?;
                self.kraft = Some(kraft.settled()?);
            }
            return Ok(());
        }
        if let Some(builder) = &mut self.builder {
            let (done, total) = builder.step(budget);
            if done == total {
                self.snapshot = self.builder.take().map(SnapshotBuilder::finish);
            }
            return Ok(());
        }
        let Some(builder) = &mut self.zk_builder else { return Ok(()) };
        builder.step(budget as u64);
        if builder.is_done() {
            let builder = self.zk_builder.take().ok_or(RaceError::NotReady)?;
            let snapshot = self.snapshot.take().ok_or(RaceError::NotReady)?;
            self.prepared = Some((snapshot, builder));
            self.run_again()?;
        }
        Ok(())
    }

    /// Start both clusters afresh from what was prepared; once [`prepare`](Self::prepare) has
    /// run the KRaft cluster's steady time, both are healthy and wait for the kill. The same
    /// seed gives the same race, so this also rewinds it.
    pub fn run_again(&mut self) -> Result<(), RaceError> {
        let (snapshot, builder) = self.prepared.as_ref().ok_or(RaceError::NotReady)?;
        let kraft = KraftFailover::starting(snapshot.clone(), self.seed, self.roles);
        let mut zk = builder.clone().finish()?;
        zk.run_until(ZK_WARM_UP);
        (self.kraft, self.zk, self.elapsed, self.warming) = (Some(kraft), Some(zk), None, true);
        Ok(())
    }

    /// Kill both active controllers at the same moment.
    pub fn kill(&mut self) -> Result<(), RaceError> {
        let (Some(kraft), Some(zk), false) = (&mut self.kraft, &mut self.zk, self.warming) else {
            return Err(RaceError::NotReady);
        };
        if self.elapsed.is_some() {
            return Err(RaceError::AlreadyKilled);
        }
        kraft.kill()?;
        self.zk_killed_at = zk.now();
        zk.kill_controller(self.zk_killed_at);
        zk.run_until(self.zk_killed_at);
        self.elapsed = Some(0);
        Ok(())
    }

    /// Run both clusters `dt` further on the shared clock.
    pub fn advance(&mut self, dt: Micros) {
        let (Some(kraft), Some(zk), Some(elapsed)) = (&mut self.kraft, &mut self.zk, &mut self.elapsed)
        else {
            return;
        };
        *elapsed += dt;
        kraft.advance(*elapsed);
        kraft.run_to(*elapsed);
        zk.run_until(self.zk_killed_at + *elapsed);
    }

    /// Whether both sides have recovered: controllers back, and on the KRaft side every
    /// partition led again (ZooKeeper mode's report waits for its last push).
    pub fn finished(&self) -> bool {
        self.kraft_recovered_after().is_some()
            && self.kraft_leaders_back_after().is_some()
            && self.zk_report().is_some()
    }

    /// KRaft's unavailability, once over.
    pub fn kraft_recovered_after(&self) -> Option<Micros> {
        self.kraft.as_ref().and_then(KraftFailover::recovered_after)
    }

    /// Partitions the killed KRaft node led: none while the controllers are dedicated.
    pub fn kraft_leaderless_partitions(&self) -> u64 {
        self.kraft.as_ref().map_or(0, KraftFailover::leaderless_partitions)
    }

    /// When every partition the killed KRaft node led had a live leader again.
    pub fn kraft_leaders_back_after(&self) -> Option<Micros> {
        self.kraft.as_ref().and_then(KraftFailover::leaders_back_after)
    }

    /// The KRaft cluster's leader and epoch now.
    pub(crate) fn kraft_leader(&self) -> Option<(u32, u32)> {
        self.kraft.as_ref()?.sim().leader().map(|l| (l.id(), l.epoch()))
    }

    /// The KRaft cluster, once prepared.
    pub(crate) fn kraft_sim(&self) -> Option<&Simulation> {
        self.kraft.as_ref().map(KraftFailover::sim)
    }

    /// The ZooKeeper-mode cluster, once prepared.
    pub fn zk(&self) -> Option<&ZkCluster> {
        self.zk.as_ref()
    }

    /// ZooKeeper mode's progress through its failover.
    pub fn zk_phase(&self) -> Option<FailoverPhase> {
        self.zk.as_ref().map(ZkCluster::failover_progress)
    }

    /// Whether the two clusters are still being built (nothing to draw yet).
    pub fn preparing(&self) -> bool {
        matches!(self.stage(), RaceStage::Preparing { .. })
    }

    /// How long after the kill the race stands, once killed.
    pub(crate) fn elapsed(&self) -> Option<Micros> {
        match self.stage() {
            RaceStage::Running { elapsed } => Some(elapsed),
            _ => None,
        }
    }

    /// The ZooKeeper side's state in one line, from the state its brokers' caches are drawn
    /// from: before the kill (and after a run again) every cache holds the controller's state.
    pub fn zk_summary(&self) -> String {
        match (self.elapsed(), self.zk_report()) {
            _ if self.preparing() => BUILDING.to_string(),
            (None, _) => "every broker's cache holds the controller's state".to_string(),
            (Some(_), None) => "not every broker has the new state yet".to_string(),
            (Some(_), Some(report)) => {
                format!("controller ready after {}", format::seconds(report.controller_ready_after))
            }
        }
    }

    /// ZooKeeper mode's report, once every broker has the new state.
    pub fn zk_report(&self) -> Option<ZkFailoverReport> {
        self.zk.as_ref()?.failover_report()
    }

    /// The KRaft side's partition grid: every standby controller and every broker already
    /// holds the whole image (replayed from the log before the kill), so every cell is known;
    /// with combined nodes, the partitions the killed one led lack a leader until it is fenced.
    pub fn kraft_grid(&self, max_cells: u32) -> PartitionGrid {
        let mut grid = PartitionGrid::empty(self.partitions, max_cells);
        let Some(sim) = self.kraft_sim() else { return grid };
        grid.loaded = grid.cells;
        grid.leaderless = self.kraft.as_ref().map_or(0, KraftFailover::leaderless_now);
        grid.pushed = sim
            .running_servers()
            .filter(|s| s.broker().is_some())
            .map(|s| s.node())
            .filter(|n| n.applied().state.image.partition_count() as u64 == self.partitions)
            .map(|n| (n.id(), grid.cells))
            .collect();
        grid
    }

    /// The ZooKeeper side's partition grid, once prepared.
    pub fn zk_grid(&self, max_cells: u32) -> PartitionGrid {
        self.zk.as_ref().map_or_else(
            || PartitionGrid::empty(self.partitions, max_cells),
            |zk| zk.partition_grid(max_cells),
        )
    }

    /// When both sides' controllers are back: how many times sooner KRaft's was, as a headline.
    pub fn headline(&self) -> Option<String> {
        let kraft = self.kraft_recovered_after()?;
        let zk = self.zk_report()?.brokers_updated_after;
        Some(headline(kraft, zk))
    }
}

/// "KRaft's controller was back 49x sooner", from the two sides' controller unavailability.
pub fn headline(kraft: Micros, zk: Micros) -> String {
    let ratio = zk as f64 / kraft.max(1) as f64;
    if ratio >= 1.05 {
        let shown = if ratio >= 10.0 { format!("{ratio:.0}") } else { format!("{ratio:.1}") };
        format!("KRaft's controller was back {shown}\u{d7} sooner")
    } else if ratio <= 0.95 {
        format!("ZooKeeper mode's controller was back {:.1}\u{d7} sooner", 1.0 / ratio)
    } else {
        "Both controllers were back at about the same time".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::{FailoverRace, RaceError, RaceStage, headline};
    use crate::experiments::failover::{
        BROKERS, FailoverError, KraftFailover, KraftRoles, SnapshotBuilder, measure_zk_failover,
    };
    use crate::quorum::QuorumConfig;
    use crate::zk::ZkCosts;

    fn ready(partitions: u64, seed: u64) -> FailoverRace {
        let mut race = FailoverRace::with_roles(partitions, seed, KraftRoles::DEDICATED).unwrap();
        while let RaceStage::Preparing { .. } = race.stage() {
            race.prepare(1_000).unwrap();
        }
        race
    }

    fn run(race: &mut FailoverRace) -> (u64, u64) {
        race.kill().unwrap();
        while !race.finished() {
            race.advance(50_000);
        }
        (race.kraft_recovered_after().unwrap(), race.zk_report().unwrap().brokers_updated_after)
    }

    #[test]
    fn a_race_run_in_slices_matches_the_one_call_measurements() {
        let mut race = ready(20_000, 3);
        let (kraft, zk) = run(&mut race);
        let roles = KraftRoles::DEDICATED;
        let snapshot = SnapshotBuilder::new(20_000, roles).unwrap().finish();
        let mut one_call = KraftFailover::new(snapshot, 3, roles).unwrap();
        one_call.kill().unwrap();
        one_call.advance(crate::experiments::failover::KRAFT_LIMIT);
        assert_eq!(Some(kraft), one_call.recovered_after());
        let config = QuorumConfig::default();
        assert!(kraft < config.fetch_timeout + 2 * config.election_timeout);
        let report = race.zk_report().unwrap();
        let measured = measure_zk_failover(20_000, &ZkCosts::async_reads(), 3).unwrap();
        assert_eq!(
            report.brokers_updated_after - report.session_expired_after,
            measured.brokers_updated_after - measured.session_expired_after
        );
        assert!(kraft * 2 < zk);
    }

    #[test]
    fn running_again_replays_the_same_race() {
        let mut race = ready(5_000, 2);
        let first = run(&mut race);
        race.run_again().unwrap();
        assert!(matches!(race.stage(), RaceStage::Preparing { .. }), "the KRaft cluster settles first");
        assert_eq!(race.kill(), Err(RaceError::NotReady));
        while let RaceStage::Preparing { .. } = race.stage() {
            race.prepare(1_000).unwrap();
        }
        assert_eq!(race.stage(), RaceStage::Ready);
        assert_eq!(run(&mut race), first);
        assert_eq!(race.kill(), Err(RaceError::AlreadyKilled));
    }

    /// The grids say which partitions have a live leader: on the KRaft side every one all along
    /// (the dead controller led none), on the ZooKeeper side all but the dead broker's fifth
    /// until the push that names their new leaders.
    #[test]
    fn the_kraft_grid_is_whole_from_the_kill_while_zookeeper_fills_up() {
        let mut race = ready(30_000, 1);
        race.kill().unwrap();
        race.advance(1_000);
        let kraft = race.kraft_grid(2_000);
        assert_eq!((kraft.cells, kraft.loaded, kraft.pushed_to_all()), (2_000, 2_000, 2_000));
        assert_eq!(kraft.pushed.len(), BROKERS as usize);
        assert_eq!((kraft.partitions, kraft.leaderless), (30_000, 0));
        assert_eq!(race.zk_grid(2_000).loaded, 0);
        assert_eq!(race.zk_grid(2_000).leaderless, 30_000 / u64::from(BROKERS));
        let (mut loaded, mut leaderless) = (0, u64::MAX);
        while !race.finished() {
            race.advance(100_000);
            let zk = race.zk_grid(2_000);
            assert!(zk.loaded >= loaded && zk.leaderless <= leaderless);
            assert_eq!(race.kraft_grid(2_000).leaderless, 0);
            (loaded, leaderless) = (zk.loaded, zk.leaderless);
        }
        assert_eq!((race.zk_grid(2_000).pushed_to_all(), race.zk_grid(2_000).leaderless), (2_000, 0));
    }

    #[test]
    fn the_headline_is_computed_from_both_times() {
        assert_eq!(headline(1_700_000, 82_200_000), "KRaft's controller was back 48\u{d7} sooner");
        assert_eq!(headline(1_000_000, 2_500_000), "KRaft's controller was back 2.5\u{d7} sooner");
        assert_eq!(headline(1_000_000, 1_010_000), "Both controllers were back at about the same time");
        let mut race = ready(2_000, 1);
        assert_eq!(race.headline(), None);
        let (kraft, zk) = run(&mut race);
        assert_eq!(race.headline(), Some(headline(kraft, zk)));
    }

    #[test]
    fn bad_sizes_and_early_kills_are_refused() {
        let out_of_range = |n| Some(RaceError::Kraft(FailoverError::Partitions(n)));
        assert_eq!(FailoverRace::with_roles(0, 1, KraftRoles::DEDICATED).err(), out_of_range(0));
        assert_eq!(
            FailoverRace::with_roles(10_000_000, 1, KraftRoles::DEDICATED).err(),
            out_of_range(10_000_000)
        );
        let mut race = FailoverRace::with_roles(100, 1, KraftRoles::DEDICATED).unwrap();
        assert_eq!(race.kill(), Err(RaceError::NotReady));
        assert_eq!(race.run_again(), Err(RaceError::NotReady));
    }
}

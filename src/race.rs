//! The side-by-side failover the page animates: one KRaft cluster and one ZooKeeper-mode
//! cluster of the same size, both losing their active controller at the same moment and run on
//! one shared clock. Preparation (building a large image) and running both proceed in slices,
//! so a page can spread them over animation frames.

use crate::failover::{BROKERS, KraftFailover, SnapshotBuilder};
use crate::quorum::Micros;
use crate::zk::{FailoverPhase, ZkCluster, ZkClusterBuilder, ZkClusterConfig, ZkCosts, ZkFailoverReport};

/// ZooKeeper-mode time the cluster runs steadily before the kill.
const ZK_WARM_UP: Micros = 2_000_000;

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

/// A failover race.
pub struct FailoverRace {
    partitions: u64,
    seed: u64,
    builder: Option<SnapshotBuilder>,
    zk_builder: Option<ZkClusterBuilder>,
    kraft: Option<KraftFailover>,
    zk: Option<ZkCluster>,
    zk_killed_at: Micros,
    elapsed: Option<Micros>,
}

impl FailoverRace {
    /// A race at `partitions` partitions (validated), in its preparing stage.
    pub fn new(partitions: u64, seed: u64) -> Result<FailoverRace, String> {
        let builder = SnapshotBuilder::new(partitions)?;
        let config =
            ZkClusterConfig::single_partition_topics(partitions as u32, BROKERS, ZkCosts::async_reads());
        let zk_builder = ZkClusterBuilder::new(config, seed).map_err(|e| e.to_string())?;
        Ok(FailoverRace {
            partitions,
            seed,
            builder: Some(builder),
            zk_builder: Some(zk_builder),
            kraft: None,
            zk: None,
            zk_killed_at: 0,
            elapsed: None,
        })
    }

    /// The partition count.
    pub fn partitions(&self) -> u64 {
        self.partitions
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
        match self.elapsed {
            None => RaceStage::Ready,
            Some(elapsed) => RaceStage::Running { elapsed },
        }
    }

    /// Do up to `budget` units of preparation: records of the KRaft image, then partitions of
    /// the ZooKeeper-mode cluster; each cluster starts once built.
    pub fn prepare(&mut self, budget: usize) -> Result<(), String> {
        if let Some(builder) = &mut self.builder {
            let (done, total) = builder.step(budget);
            if done == total {
                let snapshot = self.builder.take().map(SnapshotBuilder::finish).ok_or("no builder")?;
                self.kraft = Some(KraftFailover::new(snapshot, self.seed)?);
            }
            return Ok(());
        }
        let Some(builder) = &mut self.zk_builder else { return Ok(()) };
        builder.step(budget as u64);
        if builder.is_done() {
            let builder = self.zk_builder.take().ok_or("no builder")?;
            let mut zk = builder.finish().map_err(|e| e.to_string())?;
            zk.run_until(ZK_WARM_UP);
            self.zk = Some(zk);
        }
        Ok(())
    }

    /// Kill both active controllers at the same moment.
    pub fn kill(&mut self) -> Result<(), String> {
        let (Some(kraft), Some(zk)) = (&mut self.kraft, &mut self.zk) else {
            return Err("the clusters are not ready yet".into());
        };
        if self.elapsed.is_some() {
            return Err("the controllers were already killed".into());
        }
        kraft.kill()?;
        self.zk_killed_at = zk.now();
        zk.kill_controller(self.zk_killed_at);
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
        zk.run_until(self.zk_killed_at + *elapsed);
    }

    /// Whether both sides have recovered.
    pub fn finished(&self) -> bool {
        self.kraft_recovered_after().is_some() && self.zk_report().is_some()
    }

    /// KRaft's unavailability, once over.
    pub fn kraft_recovered_after(&self) -> Option<Micros> {
        self.kraft.as_ref().and_then(KraftFailover::recovered_after)
    }

    /// The KRaft cluster's leader and epoch now.
    pub fn kraft_leader(&self) -> Option<(u32, u32)> {
        self.kraft.as_ref()?.sim().leader().map(|l| (l.id(), l.epoch()))
    }

    /// ZooKeeper mode's progress through its failover.
    pub fn zk_phase(&self) -> Option<FailoverPhase> {
        self.zk.as_ref().map(ZkCluster::failover_progress)
    }

    /// ZooKeeper mode's report, once every broker has the new state.
    pub fn zk_report(&self) -> Option<ZkFailoverReport> {
        self.zk.as_ref()?.failover_report()
    }
}

#[cfg(test)]
mod tests {
    use super::{FailoverRace, RaceStage};
    use crate::failover::{measure_kraft_failover, measure_zk_failover};
    use crate::zk::ZkCosts;

    #[test]
    fn a_race_run_in_slices_matches_the_one_call_measurements() {
        let mut race = FailoverRace::new(20_000, 3).unwrap();
        while let RaceStage::Preparing { .. } = race.stage() {
            race.prepare(1_000).unwrap();
        }
        race.kill().unwrap();
        while !race.finished() {
            race.advance(50_000);
        }
        assert_eq!(race.kraft_recovered_after(), Some(measure_kraft_failover(20_000, 3).unwrap()));
        let zk = race.zk_report().unwrap();
        let measured = measure_zk_failover(20_000, &ZkCosts::async_reads(), 3).unwrap();
        assert_eq!(
            zk.brokers_updated_us - zk.session_expired_us,
            measured.brokers_updated_us - measured.session_expired_us
        );
        assert!(race.kraft_recovered_after().unwrap() * 2 < zk.brokers_updated_us);
    }

    #[test]
    fn bad_sizes_and_early_kills_are_refused() {
        assert!(FailoverRace::new(0, 1).is_err());
        assert!(FailoverRace::new(10_000_000, 1).is_err());
        let mut race = FailoverRace::new(100, 1).unwrap();
        assert!(race.kill().is_err());
    }
}

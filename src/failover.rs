//! The KIP-500 experiment: kill the active controller and measure how long metadata is
//! unavailable, in KRaft (a standby that already holds the image wins an election) and in
//! ZooKeeper mode (the new controller cold-loads every partition, then pushes full state).

use std::sync::Arc;

use crate::metadata::synthetic::snapshot_records;
use crate::quorum::applied::AppliedState;
use crate::quorum::disk::Disk;
use crate::quorum::snapshot::{Snapshot, SnapshotId};
use crate::quorum::{MS, Micros, Record};
use crate::sim::{ClusterConfig, Simulation};
use crate::zk::{ZkCosts, ZkFailoverReport, measure_failover};

/// Brokers in both modes' clusters.
pub const BROKERS: u32 = 5;
/// The most partitions the experiment accepts.
pub const MAX_PARTITIONS: u64 = 5_000_000;
/// Time the KRaft cluster runs steadily before the kill.
const WARM_UP: Micros = 8_000 * MS;
/// Give up on a KRaft failover after this long.
const KRAFT_LIMIT: Micros = 120_000 * MS;
/// How often the probe retries its metadata change while there is no active controller.
const PROBE_EVERY: Micros = MS;

/// One row of the experiment.
#[derive(Clone, Debug, PartialEq)]
pub struct FailoverRow {
    pub partitions: u64,
    /// KRaft: from the kill until a new active controller committed a metadata change.
    pub kraft: Option<Micros>,
    /// ZooKeeper mode: the controller-ready and brokers-updated times.
    pub zk: Option<ZkFailoverReport>,
}

/// A snapshot of an image with `partitions` partitions on [`BROKERS`] brokers, as every
/// controller's disk holds it before the experiment.
pub fn synthetic_snapshot(partitions: u64) -> Arc<Snapshot> {
    let mut state = AppliedState::default();
    for record in snapshot_records(partitions, BROKERS) {
        state.apply(0, &Record::Metadata(record.into()));
    }
    Arc::new(Snapshot { id: SnapshotId { end_offset: state.applied_offset, epoch: 0 }, state })
}

/// KRaft: three controllers start from a snapshot of `partitions` partitions, elect a leader
/// and run; then the active controller is killed. Returns the simulated time until a new active
/// controller commits a ConfigRecord that a probe keeps offering from the moment of the kill.
pub fn measure_kraft_failover(partitions: u64, seed: u64) -> Result<Micros, String> {
    check_partitions(partitions)?;
    let mut disk = Disk::default();
    disk.log.install_snapshot(synthetic_snapshot(partitions));
    let config = ClusterConfig { voters: 3, observers: 0, ..ClusterConfig::default() };
    let mut sim = Simulation::with_disk(config, seed, disk);
    sim.run_until(WARM_UP);
    let old = sim.leader().map(|l| l.id()).ok_or("no leader was elected before the kill")?;
    let killed_at = sim.now();
    sim.crash(old)?;
    let mut probe = None;
    while sim.now() < killed_at + KRAFT_LIMIT {
        if probe.is_none() {
            probe = sim.alter_config("cluster", "failover.probe", "1").ok();
        }
        if let (Some(offset), Some(leader)) = (probe, sim.leader())
            && leader.high_watermark().is_some_and(|hw| hw > offset)
        {
            return Ok(sim.now() - killed_at);
        }
        sim.run_until(sim.now() + PROBE_EVERY);
    }
    Err(format!("no new controller committed within {} s", KRAFT_LIMIT / 1_000_000))
}

/// ZooKeeper mode with `costs`: the new controller's cold load and full-state push.
pub fn measure_zk_failover(partitions: u64, costs: &ZkCosts, seed: u64) -> Result<ZkFailoverReport, String> {
    check_partitions(partitions)?;
    measure_failover(partitions, BROKERS, costs, seed).map_err(|e| e.to_string())
}

fn check_partitions(partitions: u64) -> Result<(), String> {
    if partitions == 0 || partitions > MAX_PARTITIONS {
        return Err(format!("partitions must be between 1 and {MAX_PARTITIONS}, got {partitions}"));
    }
    Ok(())
}

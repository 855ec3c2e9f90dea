//! Controller failover as an experiment: its timeline (kill, session expiry, `/controller`
//! created, state loaded, brokers updated), a progress phase for a UI, and a one-call
//! measurement over a fresh cluster.

use super::cluster::{RequestCounters, ZkCluster};
use super::config::{ZkClusterConfig, ZkClusterError};
use super::costs::ZkCosts;
use super::partition::BrokerId;
use super::store::{SessionId, ZkStats};
use crate::harness::{MS, Micros};

/// Virtual time the cluster runs steadily before [`measure_failover`] kills the controller.
const WARM_UP: Micros = 10_000 * MS;

/// How long [`measure_failover`] waits for the failover to complete (one virtual day).
const MAX_FAILOVER: Micros = 86_400_000 * MS;

/// Where a controller failover stands, for a progress bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailoverPhase {
    /// No failover in progress: the last one (if any) completed.
    Ready,
    /// The dead controller's ephemeral `/controller` lives until its session expires.
    AwaitingSessionExpiry { expires_at: Micros },
    /// `/controller` is gone; brokers race to create it and the winner bumps the epoch.
    Electing,
    /// The new controller cold-loads from ZooKeeper: `topics_read` of the `topics` assignment
    /// znodes, then `read` of the `total` partition state znodes.
    LoadingFromZk { topics_read: u64, topics: u64, read: u64, total: u64 },
    /// It takes the dead brokers' replicas out of every ISR, reading and writing each state
    /// znode (the replica state machine's OfflineReplica transition).
    RemovingFromIsr { written: u64, total: u64 },
    /// It elects leaders for partitions whose leader died, reading and writing each state znode.
    ElectingLeaders { written: u64, total: u64 },
    /// It pushes UpdateMetadata and LeaderAndIsr (the `full_state` it loaded, then what
    /// changed); brokers apply them.
    PushingToBrokers { full_state: bool, brokers_done: u32, total: u32 },
}

/// Virtual times (absolute) of one failover's milestones.
pub(super) struct FailoverTimeline {
    pub killed_at: Micros,
    pub old_controller: BrokerId,
    pub old_session: SessionId,
    pub session_expired_at: Option<Micros>,
    pub controller_created_at: Option<Micros>,
    pub new_controller: Option<BrokerId>,
    /// The new controller's first push (an index of `ZkCluster::pushes`).
    pub first_push: Option<usize>,
    /// When the cold load ended (`initializeControllerContext` done).
    pub loaded_at: Option<Micros>,
    pub ready_at: Option<Micros>,
    /// State znodes the new controller wrote: taking dead replicas out of ISRs (the replica
    /// state machine) and electing leaders (the partition state machine).
    pub isr_writes: u64,
    pub election_writes: u64,
    /// When every live broker had applied the state the new controller loaded.
    pub full_state_at: Option<Micros>,
    pub brokers_updated_at: Option<Micros>,
    /// The partitions the dead controller's broker led (no live leader from the kill on), those
    /// of them still without a live leader that knows it, and when the last one got one (its
    /// new leader applied the LeaderAndIsr naming it).
    pub leaderless: Vec<bool>,
    pub leaderless_total: u64,
    pub leaderless_left: u64,
    pub leaders_back_at: Option<Micros>,
    zk_at_kill: ZkStats,
    requests_at_kill: RequestCounters,
}

impl FailoverTimeline {
    pub(crate) fn new(
        (killed_at, old_controller, old_session): (Micros, BrokerId, SessionId),
        leaderless: Vec<bool>,
        zk_at_kill: ZkStats,
        requests_at_kill: RequestCounters,
    ) -> Self {
        let leaderless_total = leaderless.iter().filter(|l| **l).count() as u64;
        FailoverTimeline {
            leaderless,
            leaderless_total,
            leaderless_left: leaderless_total,
            leaders_back_at: (leaderless_total == 0).then_some(killed_at),
            killed_at,
            old_controller,
            old_session,
            session_expired_at: None,
            controller_created_at: None,
            new_controller: None,
            first_push: None,
            loaded_at: None,
            ready_at: None,
            full_state_at: None,
            isr_writes: 0,
            election_writes: 0,
            brokers_updated_at: None,
            zk_at_kill,
            requests_at_kill,
        }
    }
}

/// The outcome of one controller failover; durations are from the kill unless named otherwise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZkFailoverReport {
    pub partitions: u32,
    pub brokers: u32,
    pub old_controller: BrokerId,
    pub new_controller: BrokerId,
    /// Until the dead controller's session expired and `/controller` vanished.
    pub session_expired_after: Micros,
    /// Until a broker created the new `/controller`.
    pub controller_elected_after: Micros,
    /// From `/controller` creation until the controller had read every topic and partition
    /// state znode (`initializeControllerContext`).
    pub cold_load: Micros,
    /// Until the new controller was ready to serve: loaded, UpdateMetadata sent, the dead
    /// replicas out of the ISRs and the offline partitions' leaders written.
    pub controller_ready_after: Micros,
    /// From the end of the cold load until every live broker had applied the state loaded
    /// (the full UpdateMetadata and LeaderAndIsr, sent before the ISR and leader writes).
    pub full_state_push: Micros,
    /// Until every live broker had applied the new controller's full state and the changes:
    /// clients can find every partition's leader from any broker.
    pub brokers_updated_after: Micros,
    /// Partitions the dead controller's broker led: without a live leader from the kill.
    pub leaderless_partitions: u64,
    /// Until the last of them had a live leader that knew it (LeaderAndIsr applied); `None`
    /// when some had no live replica left to lead. The other partitions keep their leaders and
    /// serve throughout.
    pub leaders_back_after: Option<Micros>,
    pub znode_reads: u64,
    pub znode_writes: u64,
    /// Of those, the replica state machine's (dead replicas out of the ISRs) and the partition
    /// state machine's (new leaders); the rest are the race's claims.
    pub isr_writes: u64,
    pub election_writes: u64,
    pub watches_fired: u64,
    /// UpdateMetadata and LeaderAndIsr requests sent by the new controller.
    pub requests_sent: u64,
}

impl ZkCluster {
    /// Where the most recent controller failover stands.
    pub fn failover_progress(&self) -> FailoverPhase {
        let Some(f) = self.failover.as_ref().filter(|f| f.brokers_updated_at.is_none()) else {
            return FailoverPhase::Ready;
        };
        if let Some(phase) = self.controller_phase() {
            return phase;
        }
        match self.store.session_expires_at(f.old_session) {
            Some(expires_at) => FailoverPhase::AwaitingSessionExpiry { expires_at },
            None => FailoverPhase::Electing,
        }
    }

    /// The report of the most recent controller failover, once every broker is updated.
    pub(crate) fn failover_report(&self) -> Option<ZkFailoverReport> {
        let f = self.failover.as_ref()?;
        let since_kill = |at: Micros| at - f.killed_at;
        let created = f.controller_created_at?;
        let ready = f.ready_at?;
        let loaded = f.loaded_at?;
        let zk = self.store.stats();
        Some(ZkFailoverReport {
            partitions: self.layout.partitions(),
            brokers: self.config.brokers,
            old_controller: f.old_controller,
            new_controller: f.new_controller?,
            session_expired_after: since_kill(f.session_expired_at?),
            controller_elected_after: since_kill(created),
            cold_load: loaded - created,
            controller_ready_after: since_kill(ready),
            full_state_push: f.full_state_at? - loaded,
            brokers_updated_after: since_kill(f.brokers_updated_at?),
            leaderless_partitions: f.leaderless_total,
            leaders_back_after: f.leaders_back_at.map(since_kill),
            znode_reads: zk.reads - f.zk_at_kill.reads,
            znode_writes: zk.writes - f.zk_at_kill.writes,
            isr_writes: f.isr_writes,
            election_writes: f.election_writes,
            watches_fired: zk.watches_fired - f.zk_at_kill.watches_fired,
            requests_sent: self.requests.sent - f.requests_at_kill.sent,
        })
    }
}

/// Kills the controller of a steady cluster of `partitions` single-partition topics on
/// `brokers` brokers and runs until every surviving broker holds the new controller's state.
pub fn measure_failover(
    partitions: u64,
    brokers: u32,
    costs: &ZkCosts,
    seed: u64,
) -> Result<ZkFailoverReport, ZkClusterError> {
    let count = u32::try_from(partitions).map_err(|_| ZkClusterError::PartitionCount(partitions))?;
    measure_failover_of(ZkClusterConfig::single_partition_topics(count, brokers, costs.clone()), seed)
}

/// Kills the controller of a steady cluster shaped by `config` and runs until every surviving
/// broker holds the new controller's state.
pub fn measure_failover_of(config: ZkClusterConfig, seed: u64) -> Result<ZkFailoverReport, ZkClusterError> {
    fail_over(&mut ZkCluster::new(config, seed)?)
}

/// Runs a fresh `cluster` steadily for a while, kills its controller and runs until the
/// failover completes.
fn fail_over(cluster: &mut ZkCluster) -> Result<ZkFailoverReport, ZkClusterError> {
    cluster.run_until(WARM_UP);
    cluster.kill_controller(WARM_UP);
    loop {
        if let Some(report) = cluster.failover_report() {
            return Ok(report);
        }
        if cluster.now() > WARM_UP + MAX_FAILOVER || cluster.step().is_none() {
            return Err(ZkClusterError::FailoverStalled { at: cluster.now() });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::zk::ZkClusterBuilder;

    #[test]
    fn failover_goes_through_every_phase_in_order() {
        let config = ZkClusterConfig::single_partition_topics(20_000, 4, ZkCosts::async_reads());
        let mut cluster = ZkCluster::new(config, 3).expect("valid cluster");
        assert_eq!(cluster.failover_progress(), FailoverPhase::Ready);
        cluster.kill_controller(MS);
        let mut seen = Vec::new();
        while cluster.failover_report().is_none() {
            cluster.step();
            let phase = std::mem::discriminant(&cluster.failover_progress());
            if seen.last() != Some(&phase) {
                seen.push(phase);
            }
        }
        let expected = [
            FailoverPhase::AwaitingSessionExpiry { expires_at: 0 },
            FailoverPhase::Electing,
            FailoverPhase::LoadingFromZk { topics_read: 0, topics: 0, read: 0, total: 0 },
            FailoverPhase::PushingToBrokers { full_state: true, brokers_done: 0, total: 0 },
            FailoverPhase::RemovingFromIsr { written: 0, total: 0 },
            FailoverPhase::ElectingLeaders { written: 0, total: 0 },
            FailoverPhase::PushingToBrokers { full_state: false, brokers_done: 0, total: 0 },
            FailoverPhase::Ready,
        ]
        .map(|p| std::mem::discriminant(&p));
        assert_eq!(seen, expected, "Kafka 2.4's onControllerFailover order");
    }

    /// The page names the pass it is in: topic assignments first, then partition states.
    #[test]
    fn the_load_reports_its_assignment_pass_before_its_state_pass() {
        let config = ZkClusterConfig {
            partitions: 20_000,
            partitions_per_topic: 50,
            ..ZkClusterConfig::single_partition_topics(20_000, 4, ZkCosts::async_reads())
        };
        let mut cluster = ZkCluster::new(config, 3).expect("valid cluster");
        cluster.kill_controller(MS);
        let mut seen = Vec::new();
        while cluster.failover_report().is_none() {
            cluster.step();
            if let FailoverPhase::LoadingFromZk { topics_read, topics, read, total } =
                cluster.failover_progress()
            {
                assert_eq!((topics, total), (400, 20_000));
                assert!(read == 0 || topics_read == topics, "states only once every assignment is read");
                seen.push((topics_read, read));
            }
        }
        assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0 && w[0].1 <= w[1].1), "never goes back");
        assert!(seen.iter().any(|(t, r)| (1..400).contains(t) && *r == 0), "the first pass is seen part-way");
        assert!(seen.iter().any(|(t, r)| *t == 400 && (1..20_000).contains(r)), "then the second");
    }

    #[test]
    fn a_cluster_built_in_small_steps_fails_over_exactly_like_one_built_at_once() {
        let config = ZkClusterConfig::single_partition_topics(30_000, 5, ZkCosts::async_reads());
        let mut builder = ZkClusterBuilder::new(config.clone(), 7).expect("valid config");
        let mut calls = 0;
        while !builder.is_done() {
            builder.step(1_234);
            calls += 1;
        }
        assert_eq!(calls, 25);
        let stepped = fail_over(&mut builder.finish().expect("fully built"));
        let at_once = fail_over(&mut ZkCluster::new(config, 7).expect("valid cluster"));
        assert!(at_once.is_ok());
        assert_eq!(stepped, at_once);
    }

    #[test]
    fn rejects_partition_counts_beyond_the_index_range() {
        let result = measure_failover(u64::MAX, 3, &ZkCosts::async_reads(), 1);
        assert_eq!(result, Err(ZkClusterError::PartitionCount(u64::MAX)));
    }
}

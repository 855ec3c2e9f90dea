//! The KIP-500 experiment: KRaft failover costs about one election whatever the partition
//! count, while ZooKeeper mode grows with partitions.

use kraftscope::experiments::failover::{
    BROKERS, FailoverError, KraftRoles, SnapshotBuilder, measure_kraft_failover, measure_kraft_failovers,
    measure_zk_failover,
};
use kraftscope::harness::MS;
use kraftscope::metadata::config::MetadataConfig;
use kraftscope::metadata::state::MetadataDisk;
use kraftscope::sim::{ClusterConfig, Simulation};
use kraftscope::zk::{ZkClusterConfig, ZkCosts, measure_failover_of};

#[test]
fn kraft_failover_is_about_one_election_at_any_size() {
    let small = measure_kraft_failover(1_000, 1).unwrap();
    let large = measure_kraft_failover(200_000, 1).unwrap();
    assert_eq!(small, large, "the partition count changed the KRaft failover time");
    let config = kraftscope::quorum::QuorumConfig::default();
    let bound = config.fetch_timeout + 2 * config.election_timeout;
    for seed in 1..=5 {
        let t = measure_kraft_failover(10_000, seed).unwrap();
        assert!(t < bound, "seed {seed}: {} ms is more than fetch timeout + an election", t / MS);
    }
}

#[test]
fn zookeeper_mode_grows_linearly_with_partitions() {
    let costs = ZkCosts::async_reads();
    let at = |p| measure_zk_failover(p, &costs, 1).unwrap();
    let (a, b) = (at(100_000), at(200_000));
    let growth = (b.brokers_updated_after - a.brokers_updated_after) as f64;
    let (c, d) = (at(400_000), at(500_000));
    let later_growth = (d.brokers_updated_after - c.brokers_updated_after) as f64;
    assert!((growth / later_growth - 1.0).abs() < 0.1, "not linear: +{growth} then +{later_growth}");
    assert!(d.brokers_updated_after > 10 * measure_kraft_failover(500_000, 1).unwrap());
}

#[test]
fn bad_sizes_are_refused_naming_the_size() {
    assert_eq!(measure_kraft_failover(0, 1), Err(FailoverError::Partitions(0)));
    let huge = measure_zk_failover(50_000_000, &ZkCosts::async_reads(), 1);
    assert_eq!(huge, Err(FailoverError::Partitions(50_000_000)));
}

/// Partition availability, measured on both sides: the ZooKeeper-mode controller is also a
/// broker, so the partitions it led have no live leader until the new controller's
/// LeaderAndIsr reaches their new leaders; the killed KRaft controller leads none.
#[test]
fn only_the_zookeeper_side_loses_partition_leaders_and_gets_them_back_with_its_last_push() {
    let kraft = measure_kraft_failovers(1_000, 1, 3, KraftRoles::Dedicated { brokers: 0 }).unwrap();
    assert_eq!((kraft.leaderless_partitions, kraft.leaders_back.p99), (0, 0));
    let zk = measure_zk_failover(1_000, &ZkCosts::async_reads(), 1).unwrap();
    assert_eq!(zk.leaderless_partitions, 1_000 / u64::from(BROKERS), "its share as preferred leader");
    let back = zk.leaders_back_after.expect("every partition has another replica");
    assert!(zk.controller_ready_after < back, "leaders come with the push after ready");
    assert!(back <= zk.brokers_updated_after);
}

/// The like-for-like race: with combined nodes the killed KRaft controller is also a broker,
/// leading the same share of partitions as ZooKeeper mode's controller broker. They get a
/// leader once the new active controller fences it, a broker session timeout (9 s) after it
/// became active, whatever the partition count; ZooKeeper mode's grow with its cold load.
#[test]
fn with_combined_nodes_both_sides_lose_the_same_leaders_and_kraft_gets_them_back_after_a_session() {
    let session = MetadataConfig::default().session_timeout;
    let zk = measure_zk_failover(100_000, &ZkCosts::async_reads(), 1).unwrap();
    let mut backs = Vec::new();
    for partitions in [1_000, 100_000] {
        let combined = measure_kraft_failovers(partitions, 1, 3, KraftRoles::Combined).unwrap();
        assert_eq!(combined.leaderless_partitions, partitions / u64::from(BROKERS));
        let (recovery, back) = (combined.recovery.p50, combined.leaders_back.p50);
        assert!(
            back > session.max(recovery) && back < recovery + session + session / 4,
            "{back} after {recovery}"
        );
        backs.push(back);
    }
    assert_eq!(zk.leaderless_partitions, 100_000 / u64::from(BROKERS));
    assert!(backs[1] * 2 < zk.leaders_back_after.unwrap(), "{backs:?} against {zk:?}");
}

/// With one replica a partition whose broker died has no one to lead it: the failover still
/// completes and says so.
#[test]
fn a_single_replica_partition_of_the_dead_controller_stays_leaderless() {
    let config = ZkClusterConfig {
        replication_factor: 1,
        ..ZkClusterConfig::single_partition_topics(100, 5, ZkCosts::async_reads())
    };
    let report = measure_failover_of(config, 1).unwrap();
    assert_eq!((report.leaderless_partitions, report.leaders_back_after), (20, None));
}

/// Fourteen seconds of a cluster of three controllers and five brokers started from a
/// snapshot whose brokers are registered (epoch 0) and lead every partition: each broker's
/// epoch after, and how many placement changes the leader applied beyond the snapshot's.
/// (Started brokers are new incarnations: refused with DUPLICATE_BROKER_REGISTRATION until
/// the sessions the new active controller gave the snapshot's registrations expire, 9 s.)
fn from_a_running_cluster(resume: bool) -> (Vec<Option<u64>>, u64) {
    let roles = KraftRoles::DEDICATED;
    let snapshot = SnapshotBuilder::new(2_000, roles).unwrap().finish();
    let before = snapshot.state.state.placement_changes;
    let mut disk = MetadataDisk::default();
    disk.log.install_snapshot(snapshot);
    let config = ClusterConfig { voters: 3, observers: 5, ..ClusterConfig::default() };
    let mut sim =
        if resume { Simulation::resuming(config, 7, disk) } else { Simulation::with_disk(config, 7, disk) };
    sim.run_until(14_000 * MS);
    let epochs = sim.running_servers().filter_map(|s| s.broker()).map(|b| b.broker_epoch()).collect();
    (epochs, sim.leader().unwrap().applied().state.placement_changes - before)
}

#[test]
fn resumed_brokers_keep_their_registration_and_their_partitions() {
    let (epochs, moved) = from_a_running_cluster(true);
    assert_eq!(epochs, vec![Some(0); 5], "every broker kept the snapshot's registration");
    assert_eq!(moved, 0, "no broker was fenced and no partition moved");
    let (epochs, moved) = from_a_running_cluster(false);
    assert!(epochs.iter().all(|e| e.is_some_and(|e| e > 0)), "started brokers register anew: {epochs:?}");
    assert!(moved > 0, "a new incarnation is fenced first and its partitions move");
}

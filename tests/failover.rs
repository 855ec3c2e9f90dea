//! The KIP-500 experiment: KRaft failover costs about one election whatever the partition
//! count, while ZooKeeper mode grows with partitions.

use kraftscope::failover::{FailoverError, measure_kraft_failover, measure_zk_failover};
use kraftscope::quorum::MS;
use kraftscope::zk::ZkCosts;

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

//! Brokers keep a local copy of the metadata log: a restarted broker fetches only the records
//! it missed; taking snapshots does not move the log start, so with Kafka's retention a lagging
//! broker still fetches records; one that fell behind a log start the cleaner moved catches up
//! through a snapshot.

use kraftscope::harness::MS;
use kraftscope::sim::{ClusterConfig, Simulation};

fn cluster(snapshot_bytes: u64, retention_bytes: u64) -> Simulation {
    let mut config = ClusterConfig { voters: 3, observers: 2, ..ClusterConfig::default() };
    config.quorum.max_record_bytes_between_snapshots = snapshot_bytes;
    config.quorum.max_retention_bytes = retention_bytes;
    config.quorum.log_clean_interval = 500 * MS;
    let mut sim = Simulation::new(config, 3);
    sim.run_until(6000 * MS);
    sim
}

/// `metadata.max.retention.bytes`' default, 100 MiB.
const KAFKA_RETENTION: u64 = 100 * 1024 * 1024;

fn leader_end(sim: &Simulation) -> u64 {
    sim.leader().expect("a leader after 6 s").log().end_offset()
}

#[test]
fn a_restarted_broker_fetches_only_what_it_missed() {
    let mut sim = cluster(0, KAFKA_RETENTION);
    sim.create_topic("big", 500, 2).unwrap();
    sim.run_until(7000 * MS);
    sim.crash(101).unwrap();
    sim.create_topic("small", 2, 2).unwrap();
    sim.run_until(7500 * MS);
    let (had, missed_until) = (sim.disk_of_down_node(101).unwrap().log.end_offset(), leader_end(&sim));
    sim.restart(101).unwrap();
    while sim.node(101).unwrap().log().end_offset() < missed_until {
        assert!(sim.step(), "the simulation ran dry before n101 caught up");
    }
    // Every record it fetched lies beyond what its disk had (the controller may have written
    // more meanwhile, its new registration moving partitions back to it).
    let restarted = sim.server(101).unwrap().fetched();
    let full = sim.server(102).unwrap().fetched();
    let end = sim.node(101).unwrap().log().end_offset();
    assert_eq!(restarted.records, end - had, "n101 fetched records it already had");
    let leader = sim.leader().unwrap().log();
    let missed: u64 =
        (had..end).map(|o| leader.get(o).expect("in the leader's log").record.size_bytes()).sum();
    assert_eq!(restarted.bytes, missed, "the bytes of the records it missed, no more");
    assert!(
        restarted.bytes < full.bytes && had * 2 > end,
        "restart fetched {} bytes of records {had}..{end}, a full fetch {}",
        restarted.bytes,
        full.bytes
    );
}

#[test]
fn a_broker_behind_the_log_start_loads_a_snapshot_and_matches_the_controller() {
    let mut sim = cluster(2000, 8000);
    sim.crash(102).unwrap();
    for (i, name) in ["events", "orders", "clicks"].iter().enumerate() {
        sim.create_topic(name, 50, 2).unwrap();
        sim.run_until(6000 * MS + (i as u64 + 1) * 500 * MS);
    }
    sim.run_until(8000 * MS);
    let start = sim.leader().unwrap().log().start_offset();
    assert!(start > sim.disk_of_down_node(102).unwrap().log.end_offset(), "the log start moved past n102");
    sim.restart(102).unwrap();
    let caught_up = |sim: &Simulation| {
        let leader = sim.leader().map(|l| l.applied().applied_offset);
        sim.node(102).is_some_and(|b| Some(b.applied().applied_offset) == leader)
    };
    sim.run_until(10_000 * MS);
    while !caught_up(&sim) && sim.now() < 30_000 * MS {
        sim.run_until(sim.now() + 100 * MS);
    }
    let broker = sim.node(102).unwrap();
    assert_eq!(broker.snapshots_loaded(), 1);
    let leader = sim.leader().unwrap();
    assert_eq!(broker.applied().applied_offset, leader.applied().applied_offset);
    assert_eq!(broker.applied().state.image, leader.applied().state.image);
    assert_eq!(broker.applied().state.image.partition_count(), 150);
}

#[test]
fn with_kafkas_retention_snapshots_leave_the_log_start_and_a_lagging_broker_fetches_records() {
    let mut sim = cluster(4000, KAFKA_RETENTION);
    sim.crash(102).unwrap();
    sim.create_topic("events", 150, 2).unwrap();
    sim.run_until(8000 * MS);
    let leader = sim.leader().unwrap();
    assert!(!leader.log().snapshots().is_empty(), "the leader took snapshots");
    assert_eq!(leader.log().start_offset(), 0, "taking a snapshot does not move the log start");
    sim.restart(102).unwrap();
    sim.run_until(12_000 * MS);
    let broker = sim.node(102).unwrap();
    assert_eq!(broker.snapshots_loaded(), 0, "n102 fetched records, not a snapshot");
    assert_eq!(broker.applied().state.image.partition_count(), 150);
}

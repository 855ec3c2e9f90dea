//! `kraftscope migration`: how long each phase of a migration from ZooKeeper mode takes (Kafka
//! 3.9), and how long no controller acts, by partition count.

use std::time::Instant;

use kraftscope::migration::phases::{self, Phases};

use super::args::Args;

/// The most partitions one row may have.
const MAX_PARTITIONS: u64 = 2_000_000;

pub(crate) fn run(args: &Args) -> Result<bool, String> {
    args.only(&["partitions", "partitions-per-topic", "seed"])?;
    let sizes: Vec<u64> = args.list("partitions", "1000,100000,1000000")?;
    if let Some(bad) = sizes.iter().find(|n| !(1..=MAX_PARTITIONS).contains(*n)) {
        return Err(format!("--partitions: 1 to {MAX_PARTITIONS} each, not {bad}"));
    }
    let per_topic: u32 = args.get("partitions-per-topic", 1)?;
    if !(1..=10_000).contains(&per_topic) {
        return Err("--partitions-per-topic must be between 1 and 10000".into());
    }
    let seed: u64 = args.get("seed", 1)?;
    let first = phases::config(1, per_topic);
    println!(
        "Migration from ZooKeeper mode to KRaft, Kafka 3.9: {} brokers, {} controllers, topics of {per_topic} partition(s), {} replicas",
        first.brokers, first.controllers, first.replication_factor
    );
    println!(
        "ZooKeeper: {} us a read, {} in flight; KRaft: {} ms to commit a batch. Simulated seconds:",
        first.costs.zk_read_latency,
        first.costs.zk_max_in_flight_requests,
        first.commit_latency / 1_000
    );
    println!("{}   wall s", Phases::HEAD);
    for &partitions in &sizes {
        let started = Instant::now();
        let p =
            phases::measure(phases::config(partitions as u32, per_topic), seed).map_err(|e| e.to_string())?;
        println!("{} {:>8.2}", p.row(), started.elapsed().as_secs_f64());
    }
    println!(
        "no controller: from the ZooKeeper controller's resignation to the first KRaft push applied by every broker"
    );
    Ok(true)
}

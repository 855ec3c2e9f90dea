//! `kraftscope failover`: the KRaft vs ZooKeeper-mode controller failover table.

use std::time::Instant;

use kraftscope::experiments::failover::{
    FailoverError, FailoverRow, KraftFailovers, KraftRoles, measure_kraft_failovers, measure_zk_failover,
};
use kraftscope::harness::MS;
use kraftscope::zk::ZkCosts;

use super::args::Args;

pub(crate) fn run(args: &Args) -> Result<bool, String> {
    args.only(&["partitions", "mode", "csv", "detail", "zk-preset", "seed", "kraft-trials", "kraft-roles"])?;
    let sizes: Vec<u64> = args.list("partitions", "1000,10000,100000,1000000,2000000")?;
    let (kraft, zk) = match args.text("mode").unwrap_or("both") {
        "both" => (true, true),
        "kraft" => (true, false),
        "zk" => (false, true),
        other => return Err(format!("--mode must be both, kraft or zk, not '{other}'")),
    };
    let (preset_name, costs) = match args.text("zk-preset").unwrap_or("async") {
        "async" => ("async reads (Kafka 1.1+)", ZkCosts::async_reads()),
        "sync-2017" => ("sync reads (2017)", ZkCosts::sync_reads_2017()),
        other => return Err(format!("--zk-preset must be async or sync-2017, not '{other}'")),
    };
    let (dedicated, combined) = match args.text("kraft-roles").unwrap_or("both") {
        "both" => (kraft, kraft),
        "dedicated" => (kraft, false),
        "combined" => (false, kraft),
        other => return Err(format!("--kraft-roles must be both, dedicated or combined, not '{other}'")),
    };
    let seed: u64 = args.get("seed", 1)?;
    let trials: usize = args.get("kraft-trials", 21)?;
    if !(1..=1000).contains(&trials) {
        return Err("--kraft-trials must be between 1 and 1000".into());
    }
    let started = Instant::now();
    let mut rows = Vec::new();
    for &partitions in &sizes {
        let text = |e: FailoverError| e.to_string();
        let measure = |on: bool, roles: KraftRoles| -> Result<Option<KraftFailovers>, String> {
            on.then(|| measure_kraft_failovers(partitions, seed, trials, roles).map_err(text)).transpose()
        };
        let kraft = measure(dedicated, KraftRoles::Dedicated { brokers: 0 })?;
        let kraft_combined = measure(combined, KraftRoles::Combined)?;
        let zk = if zk { Some(measure_zk_failover(partitions, &costs, seed).map_err(text)?) } else { None };
        rows.push(FailoverRow { partitions, kraft, kraft_combined, zk });
    }
    if args.has("csv") {
        print_csv(&rows);
    } else {
        print_table(&rows, preset_name);
        if args.has("detail") {
            print_detail(&rows);
        }
        println!("measured in {:.2} s of wall time", started.elapsed().as_secs_f64());
    }
    Ok(true)
}

fn ms(micros: u64) -> String {
    format!("{:.0}", micros as f64 / MS as f64)
}

/// The failover curve, one row per size: KRaft's recovery (p50, p99) and ZooKeeper mode's until
/// every broker holds the new state (the page's chart reads the first four columns), then
/// partition availability on both sides: how many partitions the killed node led (no live
/// leader from the kill) and, in ZooKeeper mode, until the last of them had a live leader again;
/// then the combined-node KRaft curve: recovery p50, the partitions its killed node led, and
/// until they had a live leader again (p50).
fn print_csv(rows: &[FailoverRow]) {
    println!(
        "partitions,kraft_ms,zk_ms,kraft_p99_ms,kraft_leaderless_partitions,zk_leaderless_partitions,zk_leaders_back_ms,\
         kraft_combined_ms,kraft_combined_leaderless_partitions,kraft_combined_leaders_back_ms"
    );
    for row in rows {
        let kraft = row.kraft.map_or(String::new(), |k| ms(k.recovery.p50));
        let zk = row.zk.as_ref().map_or(String::new(), |z| ms(z.brokers_updated_after));
        let p99 = row.kraft.map_or(String::new(), |k| ms(k.recovery.p99));
        let kraft_leaderless = row.kraft.map_or(String::new(), |k| k.leaderless_partitions.to_string());
        let zk_leaderless = row.zk.as_ref().map_or(String::new(), |z| z.leaderless_partitions.to_string());
        let zk_back = row.zk.as_ref().and_then(|z| z.leaders_back_after).map_or(String::new(), ms);
        let combined = row.kraft_combined.map_or(",,".to_string(), |k| {
            format!("{},{},{}", ms(k.recovery.p50), k.leaderless_partitions, ms(k.leaders_back.p50))
        });
        println!(
            "{},{kraft},{zk},{p99},{kraft_leaderless},{zk_leaderless},{zk_back},{combined}",
            row.partitions
        );
    }
}

fn print_table(rows: &[FailoverRow], preset: &str) {
    println!(
        "controller failover: metadata unavailability after killing the active controller (simulated time)"
    );
    println!("KRaft: until a new active controller commits a metadata change (p50 and p99 over seeds)");
    println!(
        "KRaft combined (3 nodes each a controller and a broker): the same, and until the killed node's \
         partitions have a live leader again (p50)"
    );
    println!(
        "ZooKeeper mode ({preset}): until the new controller is ready / until every broker has the new state"
    );
    println!(
        "{:>12} {:>12} {:>12} {:>14} {:>16} {:>16} {:>20} {:>8}",
        "partitions",
        "KRaft p50 ms",
        "KRaft p99 ms",
        "combined ms",
        "combined leaders",
        "ZK ready ms",
        "ZK brokers done ms",
        "ZK/KRaft"
    );
    for row in rows {
        let kraft = row.kraft.map_or("-".to_string(), |k| ms(k.recovery.p50));
        let p99 = row.kraft.map_or("-".to_string(), |k| ms(k.recovery.p99));
        let combined = row.kraft_combined.map_or("-".to_string(), |k| ms(k.recovery.p50));
        let leaders = row.kraft_combined.map_or("-".to_string(), |k| ms(k.leaders_back.p50));
        let ready = row.zk.as_ref().map_or("-".to_string(), |z| ms(z.controller_ready_after));
        let done = row.zk.as_ref().map_or("-".to_string(), |z| ms(z.brokers_updated_after));
        let ratio = match (row.kraft, &row.zk) {
            (Some(k), Some(z)) if k.recovery.p50 > 0 => {
                format!("{:.0}x", z.brokers_updated_after as f64 / k.recovery.p50 as f64)
            }
            _ => "-".to_string(),
        };
        println!(
            "{:>12} {kraft:>12} {p99:>12} {combined:>14} {leaders:>16} {ready:>16} {done:>20} {ratio:>8}",
            row.partitions
        );
    }
}

/// Partition availability on both sides, then ZooKeeper mode's requests per failover, the
/// writes split as Kafka 2.4's state machines make them.
fn print_detail(rows: &[FailoverRow]) {
    println!("partitions without a live leader after the kill (the others keep serving):");
    for row in rows {
        if let Some(k) = row.kraft {
            let n = k.leaderless_partitions;
            let why = if n == 0 { "the killed controller is not a broker" } else { "led by the killed node" };
            println!("{:>12} partitions: KRaft {n} ({why})", row.partitions);
        }
        if let Some(k) = row.kraft_combined {
            println!(
                "{:>12} partitions: KRaft combined {} (led by the killed node's broker), back after {} ms \
                 (p50; its session expires and the new controller fences it)",
                row.partitions,
                k.leaderless_partitions,
                ms(k.leaders_back.p50)
            );
        }
        if let Some(z) = &row.zk {
            let back = z.leaders_back_after.map_or("some never (no live replica left)".to_string(), |at| {
                format!("the last back after {} ms", ms(at))
            });
            let n = z.leaderless_partitions;
            println!(
                "{:>12} partitions: ZooKeeper mode {n} (led by the controller's broker), {back}",
                row.partitions
            );
        }
    }
    println!("ZooKeeper mode's requests during the failover (Kafka 2.4's onControllerFailover):");
    for row in rows {
        let Some(z) = &row.zk else { continue };
        let claims = z.znode_writes - z.isr_writes - z.election_writes;
        println!(
            "{:>12} partitions: {} znode reads; {} znode writes = {} dead replicas out of ISRs \
             (ReplicaStateMachine) + {} new leaders (PartitionStateMachine) + {claims} claims of \
             /controller; {} watches fired; {} requests to brokers",
            row.partitions,
            z.znode_reads,
            z.znode_writes,
            z.isr_writes,
            z.election_writes,
            z.watches_fired,
            z.requests_sent
        );
    }
}

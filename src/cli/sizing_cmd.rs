//! `kraftscope quorum-sizing`: for each number of voters, how many must agree, how many may
//! fail, the commit latency and the leaderless time after a leader dies, at given link latencies.

use std::time::Instant;

use kraftscope::experiments::sizing::{failures_tolerated, majority, measure};
use kraftscope::harness::{MS, Micros};
use kraftscope::quorum::QuorumConfig;
use kraftscope::sim::NetworkConfig;
use kraftscope::util::format::seconds;

use super::args::Args;
use super::elections_cmd::voters;

/// The most trials per row.
const MAX_TRIALS: usize = 10_000;
/// The slowest one-way link latency a row may ask for.
const MAX_LATENCY: Micros = 1_000 * MS;

pub(crate) fn run(args: &Args) -> Result<bool, String> {
    args.only(&["voters", "latency", "trials", "first-seed"])?;
    let counts = voters(args, "1,3,4,5,7")?;
    let trials: usize = args.get("trials", 200)?;
    if trials == 0 || trials > MAX_TRIALS {
        return Err(format!("--trials must be between 1 and {MAX_TRIALS}"));
    }
    let latencies = args
        .list::<String>("latency", "1-5,20-40")?
        .iter()
        .map(|range| latency(range))
        .collect::<Result<Vec<_>, _>>()?;
    let first_seed: u64 = args.get("first-seed", 1)?;
    let quorum = QuorumConfig::default();
    println!(
        "{trials} trials per row; Kafka's defaults: election timeout {} ms, fetch timeout {} ms, append linger {} ms",
        quorum.election_timeout / MS,
        quorum.fetch_timeout / MS,
        quorum.append_linger / MS
    );
    println!(
        "{:>6} {:>8} {:>9} {:>10} {:>10} {:>10} {:>14} {:>14}",
        "voters",
        "majority",
        "tolerates",
        "link",
        "commit p50",
        "commit p99",
        "leaderless p50",
        "leaderless p99"
    );
    let started = Instant::now();
    for network in &latencies {
        for &voters in &counts {
            let row = measure(voters, network, trials, first_seed).map_err(|e| e.to_string())?;
            let link = format!("{}-{} ms", network.latency_min / MS, network.latency_max / MS);
            let (p50, p99) = match row.leaderless {
                Some(d) => (seconds(d.p50), seconds(d.p99)),
                None => ("-".to_string(), "-".to_string()),
            };
            println!(
                "{voters:>6} {:>8} {:>9} {link:>10} {:>10} {:>10} {p50:>14} {p99:>14}",
                majority(voters),
                failures_tolerated(voters),
                millis(row.commit.p50),
                millis(row.commit.p99)
            );
        }
    }
    if counts.iter().any(|v| failures_tolerated(*v) == 0) {
        println!("-: tolerates no failure; the quorum is down until the dead voter returns");
    }
    println!("measured in {:.2} s of wall time", started.elapsed().as_secs_f64());
    Ok(true)
}

/// `MIN-MAX` one-way latency in milliseconds.
fn latency(range: &str) -> Result<NetworkConfig, String> {
    let bad = || format!("--latency: '{range}' is not MIN-MAX milliseconds (for example 1-5)");
    let (min, max) = range.split_once('-').ok_or_else(bad)?;
    let min: Micros = min.trim().parse::<Micros>().map_err(|_| bad())? * MS;
    let max: Micros = max.trim().parse::<Micros>().map_err(|_| bad())? * MS;
    if min > max || max > MAX_LATENCY {
        return Err(format!("--latency: '{range}' must have MIN <= MAX <= {} ms", MAX_LATENCY / MS));
    }
    Ok(NetworkConfig { latency_min: min, latency_max: max, ..NetworkConfig::default() })
}

fn millis(micros: Micros) -> String {
    format!("{:.1} ms", micros as f64 / MS as f64)
}

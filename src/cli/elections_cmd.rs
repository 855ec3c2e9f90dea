//! `kraftscope elections`: the distribution of leaderless time after the leader dies.

use std::time::Instant;

use kraftscope::elections::{ElectionExperiment, TRIAL_LIMIT};
use kraftscope::format::seconds;
use kraftscope::quorum::MS;

use super::args::Args;

/// The most trials one run accepts.
const MAX_TRIALS: usize = 1_000_000;

pub fn run(args: &Args) -> Result<bool, String> {
    args.only(&["trials", "voters", "election-timeout", "fetch-timeout", "first-seed"])?;
    let trials: usize = args.get("trials", 1000)?;
    if trials == 0 || trials > MAX_TRIALS {
        return Err(format!("--trials must be between 1 and {MAX_TRIALS}"));
    }
    let voters: u32 = args.get("voters", 3)?;
    if !(1..=9).contains(&voters) {
        return Err("--voters must be between 1 and 9".into());
    }
    let defaults = ElectionExperiment::default();
    let ms = |name: &str, default: u64| -> Result<u64, String> {
        let value: u64 = args.get(name, default / MS)?;
        if value == 0 || value * MS > TRIAL_LIMIT {
            return Err(format!("--{name} must be between 1 and {} ms", TRIAL_LIMIT / MS));
        }
        Ok(value * MS)
    };
    let fetch_max_wait = kraftscope::quorum::QuorumConfig::default().fetch_max_wait;
    let fetch_timeout = ms("fetch-timeout", defaults.fetch_timeout)?;
    if fetch_timeout <= fetch_max_wait {
        return Err(format!(
            "--fetch-timeout must be above {} ms: the leader parks an idle Fetch that long (MAX_FETCH_WAIT_MS), so a shorter timeout makes followers start elections against a healthy leader",
            fetch_max_wait / MS
        ));
    }
    let experiment = ElectionExperiment {
        voters,
        election_timeout: ms("election-timeout", defaults.election_timeout)?,
        fetch_timeout,
        ..defaults
    };
    let first_seed: u64 = args.get("first-seed", 1)?;
    let started = Instant::now();
    let d = experiment.run(trials, first_seed).map_err(|e| e.to_string())?;
    println!(
        "{} trials, {} voters, election timeout {} ms, fetch timeout {} ms, one-way latency {}-{} ms:",
        d.trials,
        voters,
        experiment.election_timeout / MS,
        experiment.fetch_timeout / MS,
        experiment.network.latency_min / MS,
        experiment.network.latency_max / MS
    );
    println!("time from killing the leader to a new leader (simulated):");
    for (name, value) in [("min", d.min), ("p50", d.p50), ("p90", d.p90), ("p99", d.p99), ("max", d.max)] {
        println!("  {name:>3} {:>10}", seconds(value));
    }
    println!("measured in {:.2} s of wall time", started.elapsed().as_secs_f64());
    Ok(true)
}

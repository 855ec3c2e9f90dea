//! `kraftscope elections`: the distribution of leaderless time after the leader dies.

use std::time::Instant;

use kraftscope::experiments::elections::{ElectionExperiment, TRIAL_LIMIT};
use kraftscope::experiments::sizing::{MAX_VOTERS, failures_tolerated};
use kraftscope::harness::MS;
use kraftscope::util::format::seconds;

use super::args::Args;

/// The most trials one run accepts.
const MAX_TRIALS: usize = 1_000_000;

pub(crate) fn run(args: &Args) -> Result<bool, String> {
    args.only(&["trials", "voters", "election-timeout", "fetch-timeout", "first-seed"])?;
    let trials: usize = args.get("trials", 1000)?;
    if trials == 0 || trials > MAX_TRIALS {
        return Err(format!("--trials must be between 1 and {MAX_TRIALS}"));
    }
    let voter_counts = voters(args, "3")?;
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
    let election_timeout = ms("election-timeout", defaults.election_timeout)?;
    let first_seed: u64 = args.get("first-seed", 1)?;
    let started = Instant::now();
    for voters in voter_counts {
        let experiment = ElectionExperiment { voters, election_timeout, fetch_timeout, ..defaults.clone() };
        let network = &experiment.network;
        println!(
            "{trials} trials, {voters} voter{}, election timeout {} ms, fetch timeout {} ms, one-way latency {}-{} ms:",
            if voters == 1 { "" } else { "s" },
            experiment.election_timeout / MS,
            experiment.fetch_timeout / MS,
            network.latency_min / MS,
            network.latency_max / MS
        );
        if failures_tolerated(voters) == 0 {
            println!(
                "  {voters} voter{} tolerate no failure: the quorum is down until the dead voter returns",
                if voters == 1 { "" } else { "s" }
            );
            continue;
        }
        let d = experiment.run(trials, first_seed).map_err(|e| e.to_string())?;
        println!("time from killing the leader to a new leader (simulated):");
        for (name, value) in [("min", d.min), ("p50", d.p50), ("p90", d.p90), ("p99", d.p99), ("max", d.max)]
        {
            println!("  {name:>3} {:>10}", seconds(value));
        }
    }
    println!("measured in {:.2} s of wall time", started.elapsed().as_secs_f64());
    Ok(true)
}

/// `--voters V[,V...]`: voter counts from 1 to [`MAX_VOTERS`].
pub(crate) fn voters(args: &Args, default: &str) -> Result<Vec<u32>, String> {
    let counts: Vec<u32> = args.list("voters", default)?;
    match counts.iter().find(|v| !(1..=MAX_VOTERS).contains(*v)) {
        Some(v) => Err(format!("--voters: {v} is not between 1 and {MAX_VOTERS}")),
        None => Ok(counts),
    }
}

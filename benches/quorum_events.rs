//! Simulated events per second for a 3-voter, 3-observer cluster under steady client writes,
//! without and with the per-event invariant checks (snapshots every 320,000 bytes (20,000 writes) keep the
//! logs bounded, as Kafka's periodic metadata snapshots do). Prints medians over several runs.
//! Run: `cargo bench --bench quorum_events`.

use std::time::Instant;

use kraftscope::harness::MS;
use kraftscope::invariants::Checker;
use kraftscope::sim::{ClusterConfig, Simulation};

const RUNS: usize = 7;
const SIMULATED: u64 = 120_000 * MS;
const WRITE_EVERY: u64 = MS;

/// Run the cluster for the simulated span; returns (events, seconds).
fn run_once(seed: u64, check: bool) -> (u64, f64) {
    let mut config = ClusterConfig { voters: 3, observers: 3, ..ClusterConfig::default() };
    config.quorum.max_record_bytes_between_snapshots = 320_000;
    let mut sim = Simulation::new(config, seed);
    let mut checker = Checker::default();
    let started = Instant::now();
    let mut next_write = 0;
    while sim.now() < SIMULATED {
        while sim.next_event_time().is_some_and(|t| t <= next_write) {
            sim.step();
            if check {
                checker.after_event(&sim).expect("invariants hold in a fault-free run");
            }
        }
        sim.run_until(next_write);
        let _ = sim.write();
        next_write += WRITE_EVERY;
    }
    (sim.events_processed(), started.elapsed().as_secs_f64())
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    values[values.len() / 2]
}

fn main() {
    for check in [false, true] {
        let rates: Vec<f64> = (0..RUNS)
            .map(|run| {
                let (events, seconds) = run_once(run as u64 + 1, check);
                events as f64 / seconds
            })
            .collect();
        let label = if check { "with invariant checks" } else { "core only" };
        let min = rates.iter().copied().fold(f64::INFINITY, f64::min);
        let max = rates.iter().copied().fold(0.0, f64::max);
        println!(
            "quorum events/s, 3 voters + 3 observers, a write every 1ms, {label}: median {:.0} (min {:.0}, max {:.0}, {RUNS} runs)",
            median(rates),
            min,
            max
        );
    }
}

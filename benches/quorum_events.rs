//! Simulated events per second for a 3-voter, 3-observer cluster under steady client writes,
//! without and with the per-event invariant checks (snapshots every 320,000 bytes (20,000 writes) keep the
//! logs bounded, as Kafka's periodic metadata snapshots do): a static quorum
//! (`controller.quorum.voters`), and a dynamic one (KIP-853, formatted standalone, grown to three
//! voters, then n3 removed and added back every 10 simulated seconds, so the voter-set history is
//! on the hot path). Prints medians over several runs, the two quorums' runs taken in turn, and
//! their ratio. Run: `cargo bench --bench quorum_events`.

use std::time::Instant;

use kraftscope::harness::MS;
use kraftscope::invariants::Checker;
use kraftscope::sim::simulation::QuorumFormat;
use kraftscope::sim::{ClusterConfig, Simulation};

const RUNS: usize = 7;
const SIMULATED: u64 = 120_000 * MS;
const WRITE_EVERY: u64 = MS;

/// How often the dynamic quorum changes its voters.
const CHANGE_EVERY: u64 = 10_000 * MS;

/// Run the cluster for the simulated span; returns (events, seconds, voter changes accepted).
fn run_once(seed: u64, check: bool, dynamic: bool) -> (u64, f64, u32) {
    let format = if dynamic { QuorumFormat::Standalone } else { QuorumFormat::Static };
    let mut config = ClusterConfig { voters: 3, observers: 3, format, ..ClusterConfig::default() };
    config.quorum.max_record_bytes_between_snapshots = 320_000;
    let mut sim = Simulation::new(config, seed);
    let mut checker = Checker::default();
    let started = Instant::now();
    let mut next_write = 0;
    // n2 and n3 join at 300 and 600 ms; then n3 leaves and comes back in turn.
    let mut changes = (1u64..).map(|n| match n {
        1 => (300 * MS, 2, true),
        2 => (600 * MS, 3, true),
        n => (n * CHANGE_EVERY, 3, n % 2 == 0),
    });
    let mut next_change = changes.next().filter(|_| dynamic);
    let mut accepted = 0;
    while sim.now() < SIMULATED {
        if let Some((at, id, add)) = next_change
            && next_write >= at
        {
            accepted += u32::from(if add { sim.add_voter(id) } else { sim.remove_voter(id) }.is_ok());
            next_change = changes.next();
        }
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
    (sim.events_processed(), started.elapsed().as_secs_f64(), accepted)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    values[values.len() / 2]
}

fn main() {
    for check in [false, true] {
        let label = if check { "with invariant checks" } else { "core only" };
        let mut rates = [Vec::new(), Vec::new()];
        let mut changes = 0;
        for run in 0..RUNS {
            for (dynamic, rates) in [false, true].into_iter().zip(&mut rates) {
                let (events, seconds, accepted) = run_once(run as u64 + 1, check, dynamic);
                rates.push(events as f64 / seconds);
                changes += accepted;
            }
        }
        let mut medians = Vec::new();
        for (quorum, rates) in ["static quorum", "dynamic quorum, voter changes"].into_iter().zip(rates) {
            let min = rates.iter().copied().fold(f64::INFINITY, f64::min);
            let max = rates.iter().copied().fold(0.0, f64::max);
            let median = median(rates);
            medians.push(median);
            println!(
                "quorum events/s, 3 voters + 3 observers, a write every 1ms, {quorum}, {label}: median {median:.0} (min {min:.0}, max {max:.0}, {RUNS} runs)"
            );
        }
        println!(
            "  dynamic / static, {label}: {:.2} ({:.1} voter changes accepted a dynamic run)",
            medians[1] / medians[0],
            f64::from(changes) / RUNS as f64
        );
    }
}

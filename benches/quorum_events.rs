//! Simulated events per second for a 3-voter, 3-observer cluster under steady client writes
//! (`kraftscope::experiments::events`), without and with the per-event invariant checks: a static
//! quorum, and a dynamic one whose voters change every 10 simulated seconds. Prints medians over
//! several runs, the two quorums' runs taken in turn, and their ratio; then the static quorum's
//! core with the chaos on (10% of the messages duplicated, reordering, and a server's power cut
//! every 10 simulated seconds, one time in three in the middle of a write) and off, in turn, and
//! their ratio. Run: `cargo bench --bench quorum_events`. With `-- --once SEED`, one static run without checks (after an untimed one), as `events seconds`
//! (`cargo xtask bench` times the same run in the page's WebAssembly beside it).

use std::time::Instant;

use kraftscope::experiments::events::steady_writes;

const RUNS: usize = 7;

/// One timed run; returns (events, seconds, voter changes accepted).
fn run_once(seed: u64, check: bool, dynamic: bool, chaos: bool) -> (u64, f64, u32) {
    let started = Instant::now();
    let run = steady_writes(seed, check, dynamic, chaos);
    (run.events, started.elapsed().as_secs_f64(), run.changes)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    values[values.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(seed) = args.iter().position(|a| a == "--once").and_then(|i| args.get(i + 1)) {
        let seed = seed.parse().expect("--once takes a seed, a whole number");
        // After one untimed run, as the wasm's is timed (its engine has tiered up by then).
        run_once(seed, false, false, false);
        let (events, seconds, _) = run_once(seed, false, false, false);
        println!("{events} {seconds}");
        return;
    }
    for check in [false, true] {
        let label = if check { "with invariant checks" } else { "core only" };
        let mut rates = [Vec::new(), Vec::new()];
        let mut changes = 0;
        for run in 0..RUNS {
            for (dynamic, rates) in [false, true].into_iter().zip(&mut rates) {
                let (events, seconds, accepted) = run_once(run as u64 + 1, check, dynamic, false);
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
    let mut rates = [Vec::new(), Vec::new()];
    for run in 0..RUNS {
        for (chaos, rates) in [false, true].into_iter().zip(&mut rates) {
            let (events, seconds, _) = run_once(run as u64 + 1, false, false, chaos);
            rates.push(events as f64 / seconds);
        }
    }
    let [off, on] = rates.map(median);
    println!(
        "quorum events/s, static quorum, core only: chaos off {off:.0}, on (10% duplicated, reordering, a power loss every 10 s) {on:.0}; on / off {:.2} (medians of {RUNS} runs in turn)",
        on / off
    );
}

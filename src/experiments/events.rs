//! The quorum events benchmark's workload (`cargo bench --bench quorum_events`), here so that the
//! same run can be timed natively and in the page's WebAssembly under node (`cargo xtask bench`
//! prints both rates and their ratio). It counts; the caller keeps the time (the core reads no
//! clock).

use crate::harness::{MS, Micros};
use crate::invariants::Checker;
use crate::sim::simulation::{ChaosCounts, QuorumFormat};
use crate::sim::{ClusterConfig, Simulation};

/// The simulated span of one run.
pub const SIMULATED: Micros = 120_000 * MS;
/// A client write every millisecond.
const WRITE_EVERY: Micros = MS;
/// How often the dynamic quorum changes its voters.
const CHANGE_EVERY: Micros = 10_000 * MS;
/// The share of messages a run with the chaos on delivers twice.
pub const CHAOS_DUPLICATE_RATE: f64 = 0.1;
/// How often a run with the chaos on cuts a server's power (it comes back 2 s later).
const POWER_FAULT_EVERY: Micros = 10_000 * MS;
const POWER_FAULT_DOWN: Micros = 2_000 * MS;

/// What one run did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventsRun {
    /// Simulated events processed.
    pub events: u64,
    /// Voter changes the dynamic quorum accepted.
    pub changes: u32,
    /// The chaos the run threw.
    pub chaos: ChaosCounts,
}

/// A 3-voter, 3-observer cluster under steady client writes for [`SIMULATED`], snapshots every
/// 320,000 bytes (20,000 writes) keeping the logs bounded: a static quorum
/// (`controller.quorum.voters`), or (`dynamic`) a KIP-853 one formatted standalone, grown to three
/// voters, then n3 removed and added back every 10 simulated seconds. With `check`, every
/// invariant is checked after every event; with `chaos`, the network duplicates
/// [`CHAOS_DUPLICATE_RATE`] of the messages and lets them overtake each other, and every 10
/// simulated seconds a server loses power for 2 s: a broker, then a controller in the middle
/// of a write (a torn write), then a controller, in turn.
pub fn steady_writes(seed: u64, check: bool, dynamic: bool, chaos: bool) -> EventsRun {
    let format = if dynamic { QuorumFormat::Standalone } else { QuorumFormat::Static };
    let mut config = ClusterConfig { voters: 3, observers: 3, format, ..ClusterConfig::default() };
    if chaos {
        config.network.duplicate_rate = CHAOS_DUPLICATE_RATE;
        config.network.reorder = true;
    }
    config.quorum.max_record_bytes_between_snapshots = 320_000;
    let mut sim = Simulation::new(config, seed);
    let mut checker = Checker::default();
    let mut next_write = 0;
    // n2 and n3 join at 300 and 600 ms; then n3 leaves and comes back in turn.
    let mut changes = (1u64..).map(|n| match n {
        1 => (300 * MS, 2, true),
        2 => (600 * MS, 3, true),
        n => (n * CHANGE_EVERY, 3, n % 2 == 0),
    });
    let mut next_change = changes.next().filter(|_| dynamic);
    let mut accepted = 0;
    let mut power_faults = (1u64..).map(|n| (n * POWER_FAULT_EVERY - POWER_FAULT_DOWN, n % 3));
    let mut next_power_fault = power_faults.next().filter(|_| chaos);
    let mut down = None;
    while sim.now() < SIMULATED {
        if let Some((at, kind)) = next_power_fault
            && next_write >= at
        {
            let id = match kind {
                1 => 101,
                2 => 2,
                _ => 3,
            };
            let cut = if kind == 2 { sim.tear_next_write(id) } else { sim.power_loss(id) };
            down = cut.is_ok().then_some((at + POWER_FAULT_DOWN, id));
            next_power_fault = power_faults.next();
        }
        if let Some((at, id)) = down
            && next_write >= at
        {
            // A torn write's node may not have written yet: then it is still up, and stays so.
            let _ = sim.restart(id);
            down = None;
        }
        if let Some((at, id, add)) = next_change
            && next_write >= at
        {
            accepted += u32::from(if add { sim.add_voter(id) } else { sim.remove_voter(id) }.is_ok());
            next_change = changes.next();
        }
        while sim.next_event_time().is_some_and(|t| t <= next_write) {
            sim.step();
            if check {
                checker.after_event(&sim).expect("invariants hold");
            }
        }
        sim.run_until(next_write);
        let _ = sim.write();
        next_write += WRITE_EVERY;
    }
    EventsRun { events: sim.events_processed(), changes: accepted, chaos: sim.chaos_counts() }
}

#[cfg(test)]
mod tests {
    use super::steady_writes;
    use crate::sim::simulation::ChaosCounts;

    /// The same seed gives the same run (what makes native and wasm rates comparable); the
    /// dynamic quorum's voter changes are accepted.
    #[test]
    fn a_run_is_the_same_for_its_seed_and_the_dynamic_quorum_changes_voters() {
        let run = steady_writes(1, false, false, false);
        assert!(run.events > 100_000, "{run:?}");
        assert_eq!(steady_writes(1, false, false, false), run);
        assert_eq!(run.changes, 0, "a static quorum changes nothing");
        assert!(steady_writes(1, false, true, false).changes >= 10);
        let chaos = steady_writes(1, false, false, true);
        assert!(chaos.events > run.events, "second copies are events too: {chaos:?} against {run:?}");
        let thrown = chaos.chaos;
        assert!(thrown.duplicated > 0 && thrown.overtaken > 0, "{thrown:?}");
        assert_eq!((thrown.power_losses, thrown.torn_writes), (12, 4), "every 10 s, one in three torn");
        assert_eq!(run.chaos, ChaosCounts::default());
    }
}

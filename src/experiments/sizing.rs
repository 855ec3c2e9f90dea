//! Quorum sizing: what each number of controllers buys and costs, measured on the simulated
//! Kafka 4.3.1 quorum with its real timeouts: how many voters must agree, how many may fail, how
//! long a write takes to commit at a given link latency, and how long the cluster is without a
//! leader after the leader dies.

use crate::experiments::elections::{Distribution, ElectionError, ElectionExperiment};
use crate::harness::{MS, Micros};
use crate::metadata::state::MetadataEntry;
use crate::quorum::Offset;
use crate::quorum::record::Record;
use crate::sim::{ClusterConfig, NetworkConfig, Simulation};
use crate::util::rng::Rng;

/// The most voters a row may have (the page draws at most nine controllers).
pub const MAX_VOTERS: u32 = 9;
/// Writes timed in one commit trial.
const WRITES_PER_TRIAL: usize = 20;
/// The cluster runs this long before the first timed write.
const WARM_UP: Micros = 3_000 * MS;
/// Give up on one write after this long without its commit.
const COMMIT_LIMIT: Micros = 10_000 * MS;

/// A voter set of `voters`: `voters / 2 + 1` must hold a record to commit it (and vote for a
/// leader), so `(voters - 1) / 2` may fail (`LeaderState.maybeUpdateHighWatermark` takes the
/// median of the voters' fetched offsets).
pub fn majority(voters: u32) -> u32 {
    voters / 2 + 1
}

/// How many voters may fail with the quorum still electing and committing.
pub fn failures_tolerated(voters: u32) -> u32 {
    voters - majority(voters)
}

/// One row of the table: a voter count at one link latency.
#[derive(Clone, Debug, PartialEq)]
pub struct SizingRow {
    pub voters: u32,
    pub network: NetworkConfig,
    /// From a client write reaching the leader to its high watermark passing the write,
    /// including `controller.quorum.append.linger.ms`.
    pub commit: Distribution,
    /// From killing the leader to another voter leading; `None` when the voters tolerate no
    /// failure (one or two): the quorum is down until the dead voter returns.
    pub leaderless: Option<Distribution>,
}

/// Why a row could not be measured.
#[derive(Clone, Debug, PartialEq)]
pub enum SizingError {
    /// No leader within [`COMMIT_LIMIT`] of a timed write being due (seed of the trial).
    NoLeader {
        seed: u64,
    },
    /// A write did not commit within [`COMMIT_LIMIT`] (seed of the trial).
    NoCommit {
        seed: u64,
    },
    Election(ElectionError),
}

impl std::fmt::Display for SizingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SizingError::NoLeader { seed } => {
                write!(f, "seed {seed}: no leader within {} s of a write being due", COMMIT_LIMIT / 1_000_000)
            }
            SizingError::NoCommit { seed } => {
                write!(f, "seed {seed}: a write did not commit within {} s", COMMIT_LIMIT / 1_000_000)
            }
            SizingError::Election(error) => std::fmt::Display::fmt(error, f),
        }
    }
}

impl std::error::Error for SizingError {}

/// The offset of the client write `value` in `sim`'s leader log, once it is appended.
fn offset_of_write(sim: &Simulation, value: u64, from: Offset) -> Option<Offset> {
    let log = sim.leader()?.log();
    (from.max(log.start_offset())..log.end_offset()).find(|offset| {
        log.get(*offset)
            .is_some_and(|e| matches!(e.record, Record::Data(MetadataEntry::Write(v)) if v == value))
    })
}

/// Run `sim` until `done` holds, for at most `limit` more; whether it held.
fn run_while_not(sim: &mut Simulation, limit: Micros, done: impl Fn(&Simulation) -> bool) -> bool {
    let until = sim.now() + limit;
    while !done(sim) {
        if sim.next_event_time().is_none_or(|at| at > until) {
            return false;
        }
        sim.step();
    }
    true
}

/// Commit latencies of [`WRITES_PER_TRIAL`] writes, spaced 20-120 ms apart, in a healthy
/// cluster of `voters` controllers and no brokers. A write waits for a leader (the first
/// election of a seed with slow links may still be under way when the warm-up ends).
pub(crate) fn commit_trial(
    voters: u32,
    network: &NetworkConfig,
    seed: u64,
) -> Result<Vec<Micros>, SizingError> {
    let config = ClusterConfig { voters, observers: 0, network: network.clone(), ..ClusterConfig::default() };
    let mut sim = Simulation::new(config, seed);
    let mut rng = Rng::new(seed ^ 0x5121_0000_0000);
    sim.run_until(WARM_UP);
    let mut samples = Vec::with_capacity(WRITES_PER_TRIAL);
    for _ in 0..WRITES_PER_TRIAL {
        sim.run_until(sim.now() + rng.range(20 * MS, 120 * MS));
        if !run_while_not(&mut sim, COMMIT_LIMIT, |sim| sim.leader().is_some()) {
            return Err(SizingError::NoLeader { seed });
        }
        let from = sim.leader().map_or(0, |l| l.log().end_offset());
        let value = sim.write().map_err(|_| SizingError::NoLeader { seed })?;
        let written = sim.now();
        let committed = run_while_not(&mut sim, COMMIT_LIMIT, |sim| {
            let hw = sim.leader().and_then(|l| l.high_watermark());
            offset_of_write(sim, value, from).is_some_and(|o| hw.is_some_and(|hw| hw > o))
        });
        if !committed {
            return Err(SizingError::NoCommit { seed });
        }
        samples.push(sim.now() - written);
    }
    Ok(samples)
}

/// Measure one row over `trials` seeds from `first_seed`.
pub fn measure(
    voters: u32,
    network: &NetworkConfig,
    trials: usize,
    first_seed: u64,
) -> Result<SizingRow, SizingError> {
    let mut commits = Vec::with_capacity(trials * WRITES_PER_TRIAL);
    for seed in first_seed..first_seed + trials as u64 {
        commits.extend(commit_trial(voters, network, seed)?);
    }
    let commit = Distribution::of(commits).ok_or(SizingError::Election(ElectionError::NoTrials))?;
    let leaderless = if failures_tolerated(voters) > 0 {
        let experiment =
            ElectionExperiment { voters, network: network.clone(), ..ElectionExperiment::default() };
        Some(experiment.run(trials, first_seed).map_err(SizingError::Election)?)
    } else {
        None
    };
    Ok(SizingRow { voters, network: network.clone(), commit, leaderless })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_majority_must_agree_and_the_rest_may_fail() {
        let rows: Vec<(u32, u32)> = (1..=7).map(|n| (majority(n), failures_tolerated(n))).collect();
        assert_eq!(rows, [(1, 0), (2, 0), (2, 1), (3, 1), (3, 2), (4, 2), (4, 3)]);
    }

    #[test]
    fn a_write_commits_after_a_round_trip_to_a_majority_and_a_lone_voter_has_no_successor() {
        let lan = NetworkConfig::default();
        let row = measure(3, &lan, 3, 1).unwrap();
        // A parked Fetch answered (one way) and the next Fetch (one way) move the high
        // watermark: at least two link latencies, at most the linger plus a few round trips.
        assert!(row.commit.min >= 2 * lan.latency_min, "{:?}", row.commit);
        assert!(row.commit.p99 <= 25 * MS + 8 * lan.latency_max, "{:?}", row.commit);
        assert!(row.leaderless.is_some_and(|d| d.min > 0));
        let slow = NetworkConfig { latency_min: 20 * MS, latency_max: 40 * MS, ..lan.clone() };
        assert!(measure(3, &slow, 3, 1).unwrap().commit.p50 > row.commit.p50 + 30 * MS);
        let alone = measure(1, &lan, 3, 1).unwrap();
        assert_eq!(alone.leaderless, None);
        assert_eq!(measure(2, &lan, 1, 1).unwrap().leaderless, None, "two voters tolerate no failure");
        assert!(alone.commit.p99 <= 25 * MS + MS, "a lone voter commits on append: {:?}", alone.commit);
    }
}

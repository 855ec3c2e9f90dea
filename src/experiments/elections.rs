//! How long a KRaft cluster is without a leader after the leader dies, over many seeds: the
//! experiment of Fig. 16 of the Raft paper (Ongaro and Ousterhout, 2014), run on the simulated
//! Kafka quorum with its real timeouts.

use std::fmt;

use crate::harness::{MS, Micros};
use crate::sim::{ActionError, ClusterConfig, NetworkConfig, Simulation};
use crate::util::rng::Rng;

/// The settings of one experiment.
#[derive(Clone, Debug, PartialEq)]
pub struct ElectionExperiment {
    pub voters: u32,
    /// `controller.quorum.election.timeout.ms`.
    pub election_timeout: Micros,
    /// `controller.quorum.fetch.timeout.ms`.
    pub fetch_timeout: Micros,
    pub network: NetworkConfig,
}

impl Default for ElectionExperiment {
    fn default() -> Self {
        let quorum = crate::quorum::QuorumConfig::default();
        ElectionExperiment {
            voters: 3,
            election_timeout: quorum.election_timeout,
            fetch_timeout: quorum.fetch_timeout,
            network: NetworkConfig::default(),
        }
    }
}

/// Give up on one trial after this long without a new leader.
pub const TRIAL_LIMIT: Micros = 120_000 * MS;
/// The cluster runs this long (plus a random part of a fetch timeout) before the kill.
const WARM_UP: Micros = 5_000 * MS;

/// Why an experiment gave no measurement.
#[derive(Clone, Debug, PartialEq)]
pub enum ElectionError {
    /// The cluster had not elected a leader when the kill was due.
    NoLeaderBeforeKill,
    /// The simulation refused the kill.
    Kill(ActionError),
    /// No other voter led a higher epoch within [`TRIAL_LIMIT`] in the trial with this seed.
    NoNewLeader { seed: u64 },
    /// Zero trials were asked for.
    NoTrials,
}

impl fmt::Display for ElectionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ElectionError::NoLeaderBeforeKill => write!(f, "no leader before the kill"),
            ElectionError::Kill(error) => fmt::Display::fmt(error, f),
            ElectionError::NoNewLeader { seed } => {
                write!(f, "seed {seed}: no new leader within {} s", TRIAL_LIMIT / 1_000_000)
            }
            ElectionError::NoTrials => write!(f, "no trials were run"),
        }
    }
}

impl std::error::Error for ElectionError {}

impl From<ActionError> for ElectionError {
    fn from(error: ActionError) -> Self {
        ElectionError::Kill(error)
    }
}

/// The distribution of leaderless time over trials.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Distribution {
    pub trials: usize,
    pub min: Micros,
    pub p50: Micros,
    pub p90: Micros,
    pub p99: Micros,
    pub max: Micros,
}

impl Distribution {
    /// Percentiles of `samples` (nearest rank); `None` when there are none.
    pub(crate) fn of(mut samples: Vec<Micros>) -> Option<Distribution> {
        samples.sort_unstable();
        let n = samples.len();
        let rank = |p: usize| samples[(p * n).div_ceil(100).clamp(1, n) - 1];
        Some(Distribution {
            trials: n,
            min: *samples.first()?,
            p50: rank(50),
            p90: rank(90),
            p99: rank(99),
            max: *samples.last()?,
        })
    }
}

impl ElectionExperiment {
    fn cluster(&self) -> ClusterConfig {
        let mut config = ClusterConfig {
            voters: self.voters,
            observers: 0,
            network: self.network.clone(),
            ..ClusterConfig::default()
        };
        config.quorum.election_timeout = self.election_timeout;
        config.quorum.fetch_timeout = self.fetch_timeout;
        config
    }

    /// One trial: let a leader settle, kill it at a moment drawn from the seed, and measure the
    /// simulated time until another voter leads a higher epoch.
    pub(crate) fn trial(&self, seed: u64) -> Result<Micros, ElectionError> {
        let mut sim = Simulation::new(self.cluster(), seed);
        let kill_at = WARM_UP + Rng::new(seed ^ 0x0E1E_C710_0000).below(self.fetch_timeout.max(1));
        sim.run_until(kill_at);
        let (old, epoch) =
            sim.leader().map(|l| (l.id(), l.epoch())).ok_or(ElectionError::NoLeaderBeforeKill)?;
        sim.crash(old)?;
        let limit = kill_at + TRIAL_LIMIT;
        while sim.next_event_time().is_some_and(|at| at <= limit) {
            sim.step();
            if sim.leader().is_some_and(|l| l.id() != old && l.epoch() > epoch) {
                return Ok(sim.now() - kill_at);
            }
        }
        Err(ElectionError::NoNewLeader { seed })
    }

    /// `trials` trials with seeds `first_seed..`, as a distribution.
    pub fn run(&self, trials: usize, first_seed: u64) -> Result<Distribution, ElectionError> {
        let samples =
            (0..trials as u64).map(|i| self.trial(first_seed + i)).collect::<Result<Vec<_>, _>>()?;
        Distribution::of(samples).ok_or(ElectionError::NoTrials)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_take_the_nearest_rank() {
        let d = Distribution::of((1..=100).collect()).unwrap();
        assert_eq!((d.min, d.p50, d.p90, d.p99, d.max), (1, 50, 90, 99, 100));
        assert_eq!(Distribution::of(vec![7]).unwrap().p99, 7);
        assert!(Distribution::of(Vec::new()).is_none());
    }

    #[test]
    fn a_new_leader_follows_within_the_fetch_timeout_plus_an_election() {
        let experiment = ElectionExperiment::default();
        let d = experiment.run(20, 1).unwrap();
        assert!(d.min >= experiment.fetch_timeout / 2, "{d:?}");
        assert!(d.max <= experiment.fetch_timeout + 4 * experiment.election_timeout, "{d:?}");
        assert_eq!(experiment.run(0, 1), Err(ElectionError::NoTrials));
    }
}

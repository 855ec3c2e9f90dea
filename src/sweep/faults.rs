//! The kinds of fault the seed sweep injects, for swarm testing: each seed switches on its own
//! random subset of them (Groce et al., "Swarm Testing", 2012), so rare combinations get runs in
//! which nothing else drowns them out.

use std::fmt;

use crate::util::rng::Rng;

/// One kind of fault or operator action the sweep can inject.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum FaultKind {
    Crash,
    Restart,
    KillLeader,
    Cut,
    OneWayCut,
    Isolate,
    Heal,
    LatencySpike,
    SlowNode,
    Resign,
    ControlledShutdown,
    TopicChurn,
}

impl FaultKind {
    /// Every kind, in the order the swarm draws them.
    pub const ALL: [FaultKind; 12] = [
        FaultKind::Crash,
        FaultKind::Restart,
        FaultKind::KillLeader,
        FaultKind::Cut,
        FaultKind::OneWayCut,
        FaultKind::Isolate,
        FaultKind::Heal,
        FaultKind::LatencySpike,
        FaultKind::SlowNode,
        FaultKind::Resign,
        FaultKind::ControlledShutdown,
        FaultKind::TopicChurn,
    ];

    /// The kind's name in seed reports.
    pub(crate) fn name(self) -> &'static str {
        match self {
            FaultKind::Crash => "crash",
            FaultKind::Restart => "restart",
            FaultKind::KillLeader => "kill-leader",
            FaultKind::Cut => "cut",
            FaultKind::OneWayCut => "one-way-cut",
            FaultKind::Isolate => "isolate",
            FaultKind::Heal => "heal",
            FaultKind::LatencySpike => "latency-spike",
            FaultKind::SlowNode => "slow-node",
            FaultKind::Resign => "resign",
            FaultKind::ControlledShutdown => "controlled-shutdown",
            FaultKind::TopicChurn => "topic-churn",
        }
    }
}

/// The fault kinds one seed injects: a non-empty random subset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultMix {
    kinds: Vec<FaultKind>,
}

impl FaultMix {
    /// Each kind on with probability one half; at least one.
    pub(crate) fn draw(rng: &mut Rng) -> FaultMix {
        let mut kinds: Vec<FaultKind> = FaultKind::ALL.into_iter().filter(|_| rng.chance(0.5)).collect();
        if kinds.is_empty() {
            kinds.push(FaultKind::ALL[rng.below(FaultKind::ALL.len() as u64) as usize]);
        }
        FaultMix { kinds }
    }

    /// One of the enabled kinds, uniformly.
    pub(crate) fn pick(&self, rng: &mut Rng) -> FaultKind {
        self.kinds[rng.below(self.kinds.len() as u64) as usize]
    }

    /// The enabled kinds.
    pub fn kinds(&self) -> &[FaultKind] {
        &self.kinds
    }
}

impl fmt::Display for FaultMix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.kinds.iter().map(|k| k.name()).collect();
        f.write_str(&names.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_seed_gets_a_non_empty_subset_and_every_kind_is_drawn_somewhere() {
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..200 {
            let mix = FaultMix::draw(&mut Rng::new(seed));
            assert!(!mix.kinds().is_empty());
            assert!(
                mix.kinds().len() < FaultKind::ALL.len() || seed > 0,
                "subsets, not all kinds every time"
            );
            seen.extend(mix.kinds().iter().copied());
        }
        assert_eq!(seen.len(), FaultKind::ALL.len());
    }
}

//! The simulated network: a latency range, a drop probability and directed link cuts. It only
//! decides a message's fate; the simulation schedules the delivery.

use std::collections::BTreeSet;

use crate::quorum::{MS, Micros, NodeId};
use crate::rng::Rng;

/// Latency and loss of every link.
#[derive(Clone, Debug, PartialEq)]
pub struct NetworkConfig {
    /// One-way latency is uniform in `[latency_min, latency_max]`.
    pub latency_min: Micros,
    pub latency_max: Micros,
    /// Probability that a message is lost.
    pub drop_rate: f64,
}

impl Default for NetworkConfig {
    fn default() -> Self {
        NetworkConfig { latency_min: MS, latency_max: 5 * MS, drop_rate: 0.0 }
    }
}

/// Why a message was not delivered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loss {
    /// The link from sender to receiver is cut.
    Cut,
    /// Random loss.
    Dropped,
}

/// The network's state: its configuration and the links currently cut.
#[derive(Clone, Debug, Default)]
pub struct Network {
    pub config: NetworkConfig,
    cut: BTreeSet<(NodeId, NodeId)>,
}

impl Network {
    /// A network with `config` and every link up.
    pub fn new(config: NetworkConfig) -> Self {
        Network { config, cut: BTreeSet::new() }
    }

    /// Decide a message's fate: its one-way latency, or why it is lost.
    pub fn transmit(&self, from: NodeId, to: NodeId, rng: &mut Rng) -> Result<Micros, Loss> {
        if self.cut.contains(&(from, to)) {
            return Err(Loss::Cut);
        }
        if rng.chance(self.config.drop_rate) {
            return Err(Loss::Dropped);
        }
        let (lo, hi) = (self.config.latency_min, self.config.latency_max.max(self.config.latency_min));
        Ok(rng.range(lo, hi + 1))
    }

    /// Cut the link from `from` to `to` (one direction).
    pub fn cut(&mut self, from: NodeId, to: NodeId) {
        self.cut.insert((from, to));
    }

    /// Restore every link.
    pub fn heal_all(&mut self) {
        self.cut.clear();
    }

    /// The cut links.
    pub fn cut_links(&self) -> impl Iterator<Item = (NodeId, NodeId)> + '_ {
        self.cut.iter().copied()
    }
}

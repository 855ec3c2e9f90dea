//! The simulated network: every directed link behaves like a TCP connection (messages arrive
//! in the order they were sent; a cut or a crash resets the connection and drops what it
//! carried), with a latency range. Reordering, duplication and single-message loss are explicit
//! chaos switches (the faults Jepsen injects): TCP prevents each on one connection, but a request
//! retried on a new connection, or a proxy resending, delivers a second copy later, and two
//! connections do not keep each other's order. It only decides a message's fate; the simulation
//! schedules the delivery.

use crate::util::small_map::{SmallMap, SmallSet};

use crate::harness::{MS, Micros};
use crate::quorum::NodeId;
use crate::util::rng::Rng;

/// Latency of every link, and the chaos switches.
#[derive(Clone, Debug, PartialEq)]
pub struct NetworkConfig {
    /// One-way latency is uniform in `[latency_min, latency_max]`.
    pub latency_min: Micros,
    pub latency_max: Micros,
    /// Chaos: probability that a single message is lost (TCP would retransmit it).
    pub drop_rate: f64,
    /// Chaos: messages on one link may overtake each other (TCP would keep their order).
    pub reorder: bool,
    /// Chaos: probability that a message is delivered twice, its second copy up to
    /// [`DUPLICATE_DELAY_MAX`] after the first.
    pub duplicate_rate: f64,
}

impl Default for NetworkConfig {
    fn default() -> Self {
        NetworkConfig {
            latency_min: MS,
            latency_max: 5 * MS,
            drop_rate: 0.0,
            reorder: false,
            duplicate_rate: 0.0,
        }
    }
}

/// The latest a duplicate arrives after its first copy: a request retried when its first copy's
/// answer is late comes within the request timeout (`controller.quorum.request.timeout.ms`,
/// 2,000 ms by default).
pub const DUPLICATE_DELAY_MAX: Micros = 2_000 * MS;

/// Why a message was not delivered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loss {
    /// The link from sender to receiver is cut.
    Cut,
    /// Random loss (a chaos switch).
    Dropped,
    /// The connection carrying it was reset by a cut or a crash while it was in flight.
    Reset,
}

/// A message accepted on a connection: when it arrives, the connection's generation (a reset
/// makes older generations undeliverable, a duplicate included), whether it arrives before a
/// message sent earlier on the link, and when its second copy arrives if it is duplicated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transit {
    pub arrives: Micros,
    pub generation: u64,
    pub overtakes: bool,
    pub duplicate: Option<Micros>,
}

/// The network's state: its configuration, the links currently cut, and each connection's
/// ordering point and generation.
#[derive(Clone, Debug, Default)]
pub struct Network {
    pub config: NetworkConfig,
    cut: SmallSet<(NodeId, NodeId)>,
    last_arrival: SmallMap<(NodeId, NodeId), Micros>,
    generation: SmallMap<(NodeId, NodeId), u64>,
    /// Extra delay of every message to or from a slow node (a busy or paused process).
    slow: SmallMap<NodeId, Micros>,
}

impl Network {
    /// A network with `config` and every link up.
    pub(crate) fn new(config: NetworkConfig) -> Self {
        Network { config, ..Network::default() }
    }

    /// Decide a message's fate: when it arrives (never before an earlier message on the same
    /// connection, unless reordering is switched on), or why it is lost.
    pub(crate) fn transmit(
        &mut self,
        from: NodeId,
        to: NodeId,
        now: Micros,
        rng: &mut Rng,
    ) -> Result<Transit, Loss> {
        if self.cut.contains(&(from, to)) {
            return Err(Loss::Cut);
        }
        if rng.chance(self.config.drop_rate) {
            return Err(Loss::Dropped);
        }
        let (lo, hi) = (self.config.latency_min, self.config.latency_max.max(self.config.latency_min));
        let slowness = self.slow.get(&from).copied().unwrap_or(0) + self.slow.get(&to).copied().unwrap_or(0);
        let mut arrives = now + rng.range(lo, hi + 1) + slowness;
        let last = self.last_arrival.get_or_insert_with((from, to), || 0);
        let overtakes = self.config.reorder && arrives < *last;
        if !self.config.reorder {
            arrives = arrives.max(*last);
        }
        *last = arrives.max(*last);
        // Drawn only when switched on, so the runs without duplication keep their random stream.
        let duplicate = (self.config.duplicate_rate > 0.0 && rng.chance(self.config.duplicate_rate))
            .then(|| arrives + rng.range(0, DUPLICATE_DELAY_MAX + 1));
        Ok(Transit { arrives, generation: self.generation(from, to), overtakes, duplicate })
    }

    /// The current generation of the connection from `from` to `to`.
    pub(crate) fn generation(&self, from: NodeId, to: NodeId) -> u64 {
        self.generation.get(&(from, to)).copied().unwrap_or(0)
    }

    /// Reset both directions between `a` and `b`: what is in flight there is lost.
    pub(crate) fn reset(&mut self, a: NodeId, b: NodeId) {
        for link in [(a, b), (b, a)] {
            *self.generation.get_or_insert_with(link, || 0) += 1;
            self.last_arrival.remove(&link);
        }
    }

    /// Cut the link from `from` to `to` (one direction).
    pub(crate) fn cut(&mut self, from: NodeId, to: NodeId) {
        self.cut.insert((from, to));
    }

    /// Restore every link.
    pub(crate) fn heal_all(&mut self) {
        self.cut.clear();
    }

    /// Delay every message to or from `node` by `extra` (0: normal again).
    pub(crate) fn set_slow(&mut self, node: NodeId, extra: Micros) {
        if extra == 0 {
            self.slow.remove(&node);
        } else {
            self.slow.insert(node, extra);
        }
    }

    /// Make every node normal again.
    pub(crate) fn clear_slow(&mut self) {
        self.slow.clear();
    }

    /// The cut links.
    pub(crate) fn cut_links(&self) -> impl Iterator<Item = (NodeId, NodeId)> + '_ {
        self.cut.iter().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_on_one_connection_arrive_in_the_order_they_were_sent() {
        let config = NetworkConfig { latency_min: MS, latency_max: 50 * MS, ..NetworkConfig::default() };
        let mut network = Network::new(config);
        let mut rng = Rng::new(9);
        let arrivals: Vec<Micros> = (0..200)
            .map(|i| network.transmit(1, 2, i * 100, &mut rng).expect("link is up").arrives)
            .collect();
        assert!(arrivals.windows(2).all(|w| w[0] <= w[1]), "FIFO per direction: {arrivals:?}");
    }

    #[test]
    fn with_reordering_switched_on_messages_may_overtake() {
        let config = NetworkConfig {
            latency_min: MS,
            latency_max: 50 * MS,
            reorder: true,
            ..NetworkConfig::default()
        };
        let mut network = Network::new(config);
        let mut rng = Rng::new(9);
        let transits: Vec<Transit> =
            (0..200).map(|i| network.transmit(1, 2, i * 100, &mut rng).expect("link is up")).collect();
        assert!(transits.windows(2).any(|w| w[0].arrives > w[1].arrives));
        let mut latest = 0;
        for transit in &transits {
            assert_eq!(transit.overtakes, transit.arrives < latest, "named when it overtakes: {transit:?}");
            latest = latest.max(transit.arrives);
        }
    }

    #[test]
    fn a_duplicated_message_arrives_again_within_the_request_timeout_and_no_draw_is_made_without() {
        let config = NetworkConfig { duplicate_rate: 0.5, ..NetworkConfig::default() };
        let mut network = Network::new(config);
        let mut rng = Rng::new(3);
        let transits: Vec<Transit> =
            (0..400).map(|i| network.transmit(1, 2, i * 100, &mut rng).expect("link is up")).collect();
        let copies: Vec<(Micros, Micros)> =
            transits.iter().filter_map(|t| Some((t.arrives, t.duplicate?))).collect();
        assert!((150..250).contains(&copies.len()), "about half duplicated: {}", copies.len());
        assert!(
            copies.iter().all(|(first, second)| second >= first && *second <= first + DUPLICATE_DELAY_MAX)
        );
        assert!(
            transits.windows(2).all(|w| w[0].arrives <= w[1].arrives),
            "the first copies keep their order"
        );

        let mut network = Network::new(NetworkConfig::default());
        let (mut used, mut expected) = (Rng::new(5), Rng::new(5));
        network.transmit(1, 2, 0, &mut used).expect("link is up");
        expected.range(MS, 5 * MS + 1);
        assert_eq!(
            used.below(1 << 40),
            expected.below(1 << 40),
            "without duplication, one draw: the latency"
        );
    }

    #[test]
    fn a_reset_moves_the_connection_to_a_new_generation() {
        let mut network = Network::new(NetworkConfig::default());
        let mut rng = Rng::new(1);
        let before = network.transmit(1, 2, 0, &mut rng).expect("link is up").generation;
        network.reset(2, 1);
        assert_ne!(network.generation(1, 2), before);
        assert_ne!(network.generation(2, 1), 0);
        assert_eq!(network.generation(1, 3), 0, "other connections are untouched");
    }
}

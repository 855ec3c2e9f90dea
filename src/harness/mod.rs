//! What the KRaft and the ZooKeeper-mode simulations share: virtual time in microseconds
//! ([`Micros`], with [`MS`]), one event queue that orders it the same way on every run of a
//! seed, and a typed trace (each simulation's own kinds of line, stamped with their moment).

// Sports-replay playback on virtual time (a speed that holds until a moment), shared by the
// failover race and ZooKeeper mode's pains.
pub mod playback;
mod queue;

pub use queue::EventQueue;

/// Microseconds of virtual time.
pub type Micros = u64;

/// One millisecond in the simulation's time unit (microseconds).
pub const MS: Micros = 1_000;

/// One line of a simulation's trace: what one event did (`K`, an enum of the simulation's own:
/// `sim::TraceKind`, `zk::TraceKind`) and when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceLine<K> {
    pub at: Micros,
    pub kind: K,
}

/// Format virtual microseconds as milliseconds with three decimals.
pub fn format_time(at: Micros) -> String {
    format!("{}.{:03}ms", at / MS, at % MS)
}

#[cfg(test)]
mod tests {
    use super::{MS, format_time};

    #[test]
    fn shows_milliseconds_with_three_decimals() {
        assert_eq!(format_time(1_234 * MS + 567), "1234.567ms");
        assert_eq!(format_time(5), "0.005ms");
    }
}

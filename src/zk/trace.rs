//! One line per simulated event: the shared format for tests, debugging and a UI timeline.

use std::fmt;

use crate::harness::{Micros, format_time};

/// What one processed event did, stamped with its virtual time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceLine {
    /// Virtual time of the event.
    pub at: Micros,
    /// A short description, e.g. `zk: broker 2 created /controller`.
    pub text: String,
}

impl fmt::Display for TraceLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "t={} {}", format_time(self.at), self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::TraceLine;

    #[test]
    fn shows_milliseconds_with_three_decimals() {
        let line = TraceLine { at: 1_234_567, text: "zk: hello".into() };
        assert_eq!(line.to_string(), "t=1234.567ms zk: hello");
    }
}

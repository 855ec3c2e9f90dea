//! The viewer's choice of how the race plays: the sports-replay pace (`harness::playback`), or a
//! fixed speed.

/// Playback: the sports-replay pacing, or a fixed speed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Playback {
    Auto,
    Fixed(f64),
}

impl Playback {
    /// The fixed speed, if one was chosen.
    pub(crate) fn fixed(self) -> Option<f64> {
        match self {
            Playback::Auto => None,
            Playback::Fixed(speed) => Some(speed),
        }
    }
}

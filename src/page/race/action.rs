//! What the viewer can do to the failover race (its buttons, keys, slider and scrubber), and what
//! the race tells the page in return.

use crate::experiments::failover::KraftRoles;
use crate::harness::Micros;
use crate::page::host::HostEvent;

use super::speed_choice::Playback;

/// The race's controls.
#[derive(Clone, Debug, PartialEq)]
pub enum RaceAction {
    /// The partition slider, at this exponent: a new race of that size.
    Partitions(f64),
    /// The KRaft side's layout: a new race with dedicated controllers or combined nodes.
    Roles(KraftRoles),
    Playback(Playback),
    /// Kill both active controllers and play (from the healthy start if the race already ran).
    Kill,
    /// Both clusters healthy again, waiting for the kill.
    RunAgain,
    TogglePlay,
    /// Pause and play half a second of playback at the current pace.
    Step,
    /// Fast-forward to the end.
    SkipToEnd,
    /// Rewind (by replaying the race) or fast-forward to this long after the kill.
    Seek(Micros),
    /// The question's slider, at this many tenths of a decade of the ratio (see `question`).
    Guess(i32),
    /// Predict what the question's slider says, or (`false`) just watch; either plays on.
    Predict(bool),
    /// The measured curve's CSV text (empty when it could not be fetched).
    Measured(String),
    /// Each side's partition grid in place of its drawing, or its drawing again (G): a screen
    /// too short for both (a 1024 x 768 stage) shows the grids and lead bands on demand.
    ToggleGrids,
}

/// What the race tells the page.
#[derive(Clone, Debug, PartialEq)]
pub enum RaceEffect {
    /// Tell the host page (the race finished).
    Post(HostEvent),
    /// The race reached the tour step's key moment, this long after the kill.
    KeyMoment(Micros),
}

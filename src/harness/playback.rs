//! Sports-replay playback, shared by the failover race and ZooKeeper mode's pains: a speed that
//! holds until a given simulated moment, the simulated time one frame plays at it, and how the
//! speed reads on screen.

use crate::harness::Micros;
use crate::util::format;

/// Waiting out a timeout, at this speed.
pub const WAIT_SPEED: f64 = 4.0;

/// How fast to play and until when that speed holds (`None`: to the end).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pace {
    pub speed: f64,
    pub until: Option<Micros>,
}

impl Pace {
    /// The simulated time `real_ms` of playback from `now` covers: never past `until` (so a long
    /// frame cannot skip a slow motion), at least a microsecond while time passes.
    pub fn step(self, now: Micros, real_ms: f64) -> Micros {
        let dt = (real_ms * 1_000.0 * self.speed) as Micros;
        let dt = if real_ms > 0.0 { dt.max(1) } else { 0 };
        self.until.map_or(dt, |u| dt.min(u.saturating_sub(now).max(1)))
    }
}

/// How a playback speed reads on screen.
pub fn speed_label(speed: f64) -> String {
    if speed > 1.0 {
        format!("time-lapse {}", format::speed(speed))
    } else if speed < 1.0 {
        format!("slow motion {}", format::speed(speed))
    } else {
        "real time".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::{Pace, speed_label};

    #[test]
    fn labels_say_time_lapse_or_slow_motion() {
        assert_eq!(speed_label(20.0), "time-lapse 20\u{d7}");
        assert_eq!(speed_label(0.002), "slow motion 0.002\u{d7}");
        assert_eq!(speed_label(1.0), "real time");
    }

    #[test]
    fn a_step_stops_where_the_pace_changes() {
        let pace = Pace { speed: 4.0, until: Some(1_000) };
        assert_eq!(pace.step(0, 0.1), 400);
        assert_eq!(pace.step(0, 50.0), 1_000, "a long frame stops at the change");
        assert_eq!(pace.step(1_000, 50.0), 1, "at the change itself it still moves on");
        assert_eq!(Pace { speed: 4.0, until: None }.step(0, 50.0), 200_000);
        assert_eq!(pace.step(0, 0.0), 0, "no time, no step");
    }
}

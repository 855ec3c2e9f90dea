//! How the live view's simulated clock follows real time: at the chosen speed, except that below
//! 1x, when skipping is on (the default, labelled on the page), quiet stretches (nothing but idle
//! fetches and heartbeats) play [`QUIET_WARP`] times faster, so waiting out timeouts does not drag
//! while elections and replication play at a pace a newcomer can follow. At 1x and above the
//! clock runs at exactly the chosen rate.

use crate::harness::Micros;
use crate::metadata::rpc::ControllerRpc;
use crate::quorum::Message;
use crate::quorum::message::FetchResult;
use crate::session::Session;
use crate::sim::Simulation;
use crate::sim::packet::Payload;

/// Speeds from 1/1000x to 1000x: the slider moves the exponent.
pub const MIN_SPEED_EXP: f64 = -3.0;
pub const MAX_SPEED_EXP: f64 = 3.0;
/// How much faster quiet stretches play (at the default speed, 1.5x real time).
pub const QUIET_WARP: f64 = 100.0;
/// The record the active controller appends every 500 ms to advance the high watermark.
const NO_OP: &str = "NoOpRecord";
/// Most simulated events processed in one animation frame.
pub const FRAME_EVENT_BUDGET: usize = 5_000;
/// Most real time one frame fast-forwards a quiet stretch by: one frame at 60 Hz. Where frames
/// take longer (a slow machine, a busy tab) the fast-forward slows down instead of simulating
/// more per frame, which would make the next frame longer still.
pub const QUIET_FRAME_MS: f64 = 1_000.0 / 60.0;

/// Whether quiet stretches are skipped at speed 10^`speed_exp`: below 1x, when the viewer has
/// not turned skipping off.
pub(crate) fn skips_quiet(speed_exp: f64, skip_quiet: bool) -> bool {
    skip_quiet && speed_exp < 0.0
}

/// Play `session` on by `elapsed_ms` real milliseconds at speed 10^`speed_exp`. Where quiet
/// stretches are skipped ([`skips_quiet`]), a fast-forward through one covers at most
/// [`QUIET_FRAME_MS`] of them and stops as soon as a message worth watching is sent. It goes no
/// further than `hold` (a tour step's question) if it has not passed it. Returns whether it
/// fast-forwarded.
pub(crate) fn advance(
    session: &mut Session,
    elapsed_ms: f64,
    speed_exp: f64,
    skip_quiet: bool,
    hold: Option<Micros>,
) -> bool {
    let quiet = skips_quiet(speed_exp, skip_quiet) && is_quiet(session.sim());
    let busy = |sim: &Simulation| quiet && !is_quiet(sim);
    let (elapsed_ms, warp) =
        if quiet { (elapsed_ms.min(QUIET_FRAME_MS), QUIET_WARP) } else { (elapsed_ms, 1.0) };
    let factor = 10f64.powf(speed_exp) * warp;
    let before = session.now();
    let hold = hold.filter(|&at| at >= before).unwrap_or(Micros::MAX);
    let target = (before + (elapsed_ms * 1_000.0 * factor) as Micros).min(hold);
    session.play_to(target, FRAME_EVENT_BUDGET, &busy);
    quiet
}

/// Whether only idle traffic is in flight.
fn is_quiet(sim: &Simulation) -> bool {
    sim.in_flight().all(|(_, _, packet)| is_routine(&packet.payload))
}

/// Idle traffic: fetches, fetch responses carrying nothing but the active controller's
/// periodic NoOpRecords, and heartbeats.
fn is_routine(payload: &Payload) -> bool {
    match payload {
        Payload::Quorum(Message::Fetch { .. }) => true,
        Payload::Quorum(Message::FetchResponse { result: FetchResult::Records(records), .. }) => {
            records.iter().all(|entry| entry.record.kind() == NO_OP)
        }
        Payload::Quorum(Message::FetchResponse { result: FetchResult::NotLeader, .. }) => true,
        Payload::Controller(rpc) => matches!(
            rpc,
            ControllerRpc::BrokerHeartbeat { .. } | ControllerRpc::BrokerHeartbeatResponse { .. }
        ),
        Payload::Quorum(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Settings;

    /// A 100 ms frame in a quiet stretch moves the clock as far as a 60 Hz frame does, while a
    /// busy stretch still follows real time.
    #[test]
    fn a_long_frame_fast_forwards_a_quiet_stretch_no_further_than_a_60_hz_frame() {
        let mut session = Session::new(Settings::default());
        // A minute in, the brokers have registered and been unfenced: only idle traffic is left.
        session.advance_to(60_000 * crate::harness::MS, usize::MAX);
        while !is_quiet(session.sim()) {
            advance(&mut session, QUIET_FRAME_MS, -1.0, true, None);
        }
        let before = session.now();
        let quiet = advance(&mut session, 100.0, -1.0, true, None);
        let most = (QUIET_FRAME_MS * 100.0 * QUIET_WARP) as Micros;
        assert!(quiet);
        assert!(
            session.now() > before && session.now() - before <= most,
            "moved {} us",
            session.now() - before
        );
        session.act(crate::session::Action::KillLeader).expect("a leader to kill");
        while is_quiet(session.sim()) {
            advance(&mut session, QUIET_FRAME_MS, -1.0, true, None);
        }
        let before = session.now();
        let quiet = advance(&mut session, 100.0, -1.0, true, None);
        assert!(!quiet);
        assert_eq!(session.now() - before, 10 * crate::harness::MS, "a busy stretch plays the whole frame");
    }

    /// At 1x the clock follows real time through quiet stretches too, and with skipping off
    /// it does below 1x as well.
    #[test]
    fn quiet_stretches_play_at_the_chosen_speed_at_1x_and_with_skipping_off() {
        let mut session = Session::new(Settings::default());
        session.advance_to(60_000 * crate::harness::MS, usize::MAX);
        while !is_quiet(session.sim()) {
            session.step();
        }
        for (speed_exp, skip, expected_ms) in [(0.0, true, 100), (-1.0, false, 10)] {
            let before = session.now();
            let skipped = advance(&mut session, 100.0, speed_exp, skip, None);
            assert!(!skipped, "speed 10^{speed_exp}, skipping {skip}");
            assert_eq!(session.now() - before, expected_ms * crate::harness::MS);
        }
    }

    /// A tour step's question holds the clock at its moment; once passed, it holds nothing.
    #[test]
    fn a_frame_stops_at_the_hold_it_has_not_passed() {
        let mut session = Session::new(Settings::default());
        session.advance_to(6_000 * crate::harness::MS, usize::MAX);
        let hold = session.now() + 30 * crate::harness::MS;
        advance(&mut session, 100.0, 0.0, false, Some(hold));
        assert_eq!(session.now(), hold);
        advance(&mut session, 100.0, 0.0, false, Some(hold));
        assert_eq!(session.now(), hold, "held");
        session.step();
        let before = session.now();
        advance(&mut session, 100.0, 0.0, false, Some(hold));
        assert_eq!(session.now(), before + 100 * crate::harness::MS, "a passed hold holds nothing");
    }
}

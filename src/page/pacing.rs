//! How the live view's simulated clock follows real time: the chosen speed while messages worth
//! watching are in flight, [`QUIET_WARP`] times faster through quiet stretches (nothing but idle
//! fetches and heartbeats), so waiting out timeouts does not drag while elections and
//! replication play at a pace a newcomer can follow.

use crate::metadata::rpc::ControllerRpc;
use crate::quorum::message::FetchResult;
use crate::quorum::{Message, Micros};
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

/// Play `session` on by `elapsed_ms` real milliseconds at speed 10^`speed_exp`. A fast-forward
/// through a quiet stretch stops as soon as a message worth watching is sent. Returns the time
/// the frame started from, and whether it fast-forwarded.
pub fn advance(session: &mut Session, elapsed_ms: f64, speed_exp: f64) -> (Micros, bool) {
    let quiet = is_quiet(session.sim());
    let busy = |sim: &Simulation| quiet && !is_quiet(sim);
    let factor = 10f64.powf(speed_exp) * if quiet { QUIET_WARP } else { 1.0 };
    let before = session.now();
    let target = before + (elapsed_ms * 1_000.0 * factor) as Micros;
    session.play_to(target, FRAME_EVENT_BUDGET, &busy);
    (before, quiet)
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

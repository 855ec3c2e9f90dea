//! The page's real-time clock: it bounds the work one animation frame does (preparing or
//! fast-forwarding the failover race) and times how long an opened metadata log took to decode.

/// Real milliseconds since a fixed moment: the browser's `performance.now()` on the page.
pub type Clock = fn() -> f64;

/// A clock that stands still, for the page without a browser (native tests): with no frame rate
/// to keep, each frame finishes the work it starts, and opening a file takes no time.
pub(crate) fn still() -> f64 {
    0.0
}

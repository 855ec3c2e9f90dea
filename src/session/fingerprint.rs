//! A fingerprint of a cluster's state: the clock to the microsecond, the events processed, every
//! server's role, epoch, vote, log range and last epoch, snapshot, high watermark, applied offset,
//! image size, broker lifecycle and epoch and its next timer, every stopped server's log range,
//! every message in flight with its content, and the cut links. A shared link carries a short
//! code of it, checked when the link is opened. It digests what the drawing and the next events
//! depend on, not every byte (no random generator's state, no record's content): a replay that
//! went another way shows within an event or two in these, and formatting the whole state
//! (`Debug`) would put every type's field names into the page's WebAssembly.

use std::fmt::{self, Write};

use crate::sim::Simulation;
use crate::util::hash::TextHash;

/// A readable summary of the state and a 64-bit hash of all of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    /// The clock, the event count and each node's role, epoch, log range and high watermark.
    pub summary: String,
    /// Everything, hashed.
    pub hash: u64,
}

impl Fingerprint {
    /// The fingerprint of `sim` as it is now.
    pub(crate) fn of(sim: &Simulation) -> Fingerprint {
        let mut summary = format!("{} us, {} events", sim.now(), sim.events_processed());
        let mut hasher = TextHash(0);
        let _ = write!(hasher, "{summary}");
        for id in sim.node_ids() {
            match sim.server(id) {
                Some(server) => {
                    let node = server.node();
                    let log = node.log();
                    summary.push_str(&format!(
                        "; n{id} {} e{} log {}..{} hw {}",
                        node.role(),
                        node.epoch(),
                        log.start_offset(),
                        log.end_offset(),
                        node.high_watermark().map_or("-".to_string(), |hw| hw.to_string())
                    ));
                    if let Some(broker) = server.broker() {
                        let applied = node.applied();
                        summary.push_str(&format!(
                            " {} image@{} {} topics",
                            broker.lifecycle().name(),
                            applied.applied_offset,
                            applied.state.image.topics().count()
                        ));
                    }
                    let _ = write!(
                        hasher,
                        "{} voted {:?} last epoch {} snapshot {:?} applied {} {} partitions {} brokers next {}",
                        node.key(),
                        node.voted_for(),
                        log.last_epoch(),
                        log.snapshot_id().map(|s| (s.end_offset, s.epoch)),
                        node.applied().applied_offset,
                        node.applied().state.image.partition_count(),
                        node.applied().state.image.brokers().len(),
                        server.next_deadline()
                    );
                    if let Some(broker) = server.broker() {
                        let _ = write!(hasher, " broker epoch {:?}", broker.broker_epoch());
                    }
                }
                None => {
                    summary.push_str(&format!("; n{id} down"));
                    let log = sim.disk_of_down_node(id).map(|d| (d.log.start_offset(), d.log.end_offset()));
                    let _ = write!(hasher, "n{id} down {log:?}");
                }
            }
        }
        // The queue's internal order depends on when stale timers were dropped; sort instead.
        let mut in_flight: Vec<String> = sim
            .in_flight()
            .map(|(sent, at, p)| format!("{sent}>{at} {}>{} {}", p.from, p.to, p.payload))
            .collect();
        crate::util::sort::sort(&mut in_flight);
        for message in &in_flight {
            let _ = write!(hasher, "{message}");
        }
        for (from, to) in sim.network().cut_links() {
            let _ = write!(hasher, "cut {from}>{to}");
        }
        Fingerprint { summary, hash: hasher.0 }
    }

    /// The short code a shared link carries: 8 hex digits.
    pub fn code(&self) -> String {
        format!("{:08x}", self.hash >> 32)
    }
}

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}; #{:016x}", self.summary, self.hash)
    }
}

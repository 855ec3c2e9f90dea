//! The three pains of ZooKeeper mode besides the cold load, as expected traces of Kafka 2.4's
//! mechanisms: what happens, in order, when a broker dies (the watch storm), when a leader
//! shrinks an ISR (three copies of the truth disagree until the controller hears of it), and
//! when a broker is cut off from the controller but not from ZooKeeper (two notions of
//! liveness; its requests queue). Each file under `tests/zk_traces/` holds the trace and the state it
//! ends in; `KRAFTSCOPE_REWRITE=1 cargo test --release --test suite zk_traces::` rewrites them after a
//! reviewed change.

use kraftscope::zk::pains::BROKERS;
use kraftscope::zk::{Pain, ZkCluster};

/// The trace until `until` (session pings counted, not listed), then the state: the store's
/// counters, every divergence and every broker's liveness in its three senses.
fn render(zk: &mut ZkCluster, until: u64) -> String {
    let before = zk.store().stats();
    let trace = zk.run_until(until);
    let pings = trace.iter().filter(|l| l.kind.is_ping()).count();
    let mut out: Vec<String> = trace.iter().filter(|l| !l.kind.is_ping()).map(ToString::to_string).collect();
    let after = zk.store().stats();
    out.push(format!(
        "session pings: {pings}, watches fired: {}, znode writes: {}",
        after.watches_fired - before.watches_fired,
        after.writes - before.writes
    ));
    for d in zk.divergences() {
        out.push(format!(
            "partition {} disagrees: zookeeper {}; controller {}; stale {}",
            d.partition,
            d.zookeeper,
            d.controller.map_or("-".to_string(), |c| c.to_string()),
            d.stale_brokers.iter().map(|(b, s)| format!("broker {b} {s}")).collect::<Vec<_>>().join(", ")
        ));
    }
    for broker in 0..BROKERS {
        let l = zk.liveness(broker).expect("known broker");
        out.push(format!(
            "broker {broker}: process {}, session in ZooKeeper {}, in the controller's live set {}, reachable from the controller {}",
            l.process_alive, l.registered_in_zookeeper, l.in_controller_live_set, l.reachable_from_controller
        ));
    }
    out.join("\n") + "\n"
}

fn check(name: &str, got: String) {
    let path = format!("{}/tests/zk_traces/{name}.txt", env!("CARGO_MANIFEST_DIR"));
    if std::env::var("KRAFTSCOPE_REWRITE").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &got).expect("writable trace");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        expected == got,
        "{name}: the trace differs from {path}\n--- got\n{got}\n(after a reviewed change: KRAFTSCOPE_REWRITE=1 cargo test --release --test suite zk_traces::)"
    );
}

/// The pain's scripted cluster (as the page plays it), run to where the page stops.
fn played(pain: Pain) -> String {
    let mut zk = pain.cluster();
    render(&mut zk, pain.moments().1)
}

/// KIP-500's motivation: a broker's death is handled znode by znode, through one-shot watches.
#[test]
fn watch_storm_on_broker_death_kip_500() {
    check("watch_storm", played(Pain::WatchStorm));
}

/// KAFKA-2722 (the leader's 5 s propagation blackout), KIP-497 (AlterIsr, which made the
/// controller the only writer of an ISR in 2.7).
#[test]
fn three_copies_of_the_truth_after_a_leaders_isr_shrink_kafka_2722_kip_497() {
    check("three_copies", played(Pain::StaleCache));
}

/// KIP-343: "a node can reach ZooKeeper, but not the current controller ... it receives no
/// metadata updates".
#[test]
fn two_notions_of_liveness_for_a_broker_cut_off_from_the_controller_kip_343() {
    check("two_liveness", played(Pain::SplitLiveness));
}

/// KIP-500's security reason: a client that can reach ZooKeeper writes an ACL for itself
/// (`/kafka-acl/Topic/topic-3` and `/kafka-acl-changes`), every broker's `AclAuthorizer` loads it,
/// and the principal Kafka's authorizer denied a second before is now allowed. Kafka's
/// authorizer is consulted only when a broker is asked, never on the write.
#[test]
fn the_second_door_an_acl_written_straight_into_zookeeper_kip_500() {
    check("second_door", played(Pain::Security));
}

//! The active controller fences brokers whose sessions expired one at a time
//! (`ReplicationControlManager.maybeFenceOneStaleBroker`, 4.3.1), but a check that fenced one
//! runs again 10 ms later (`PeriodicTask`'s immediate period), not a whole check period
//! (an eighth of `broker.session.timeout.ms`) later.

use kraftscope::harness::{MS, Micros};
use kraftscope::sim::{ClusterConfig, Simulation};

/// When each of `brokers` is first seen fenced in the active controller's image, polling
/// every millisecond.
fn fenced_at(sim: &mut Simulation, brokers: &[u32]) -> Vec<Micros> {
    let mut at = vec![None; brokers.len()];
    while at.iter().any(Option::is_none) {
        let now = sim.now() + MS;
        assert!(now < 60_000 * MS, "not fenced within a minute: {at:?}");
        sim.run_until(now);
        let Some(leader) = sim.leader() else { continue };
        let image = &leader.applied().state.image;
        for (seen, id) in at.iter_mut().zip(brokers) {
            if seen.is_none() && image.brokers().get(id).is_some_and(|b| b.fenced) {
                *seen = Some(now);
            }
        }
    }
    at.into_iter().flatten().collect()
}

#[test]
fn brokers_that_go_silent_together_are_fenced_one_right_after_the_other() {
    let config = ClusterConfig { voters: 3, observers: 3, ..ClusterConfig::default() };
    let session = config.metadata.session_timeout;
    let mut sim = Simulation::new(config, 5);
    sim.run_until(8_000 * MS);
    let crashed_at = sim.now();
    sim.crash(101).unwrap();
    sim.crash(102).unwrap();
    let at = fenced_at(&mut sim, &[101, 102]);
    let (first, last) = (at.iter().min().copied().unwrap(), at.iter().max().copied().unwrap());
    assert!(first - crashed_at >= session, "not before the session timeout: {at:?}");
    assert!(first - crashed_at <= session + session / 8 + 100 * MS, "within a check period after: {at:?}");
    assert!(last - first < session / 8, "the second right after the first, not a period later: {at:?}");
}

/// A registration retried by the same process (its answer was lost) amends the registration:
/// the broker keeps the epoch the first attempt got, instead of being refused as a duplicate or
/// registered anew (`ClusterControlManager.registerBroker`, same incarnation id).
#[test]
fn a_retried_registration_of_the_same_process_keeps_its_epoch() {
    use kraftscope::metadata::rpc::{ControllerRpc, RpcError};
    use kraftscope::sim::TraceKind;
    use kraftscope::sim::packet::Payload;
    let config = ClusterConfig { voters: 3, observers: 1, ..ClusterConfig::default() };
    let mut sim = Simulation::new(config, 3);
    sim.enable_trace();
    let registered_with = loop {
        assert!(sim.step() && sim.now() < 10_000 * MS, "n101 registers within 10 s");
        let delivered = sim.take_trace().into_iter().find_map(|l| match l.kind {
            TraceKind::Deliver(p, _) if p.from == 101 && p.payload.kind() == "BrokerRegistration" => {
                Some(p.to)
            }
            _ => None,
        });
        if let Some(controller) = delivered {
            break controller;
        }
    };
    // The answer goes out once the RegisterBrokerRecord commits: lose it.
    sim.cut_one_way(registered_with, 101);
    sim.run_until(sim.now() + 1_000 * MS);
    let first = sim.leader().unwrap().applied().state.image.brokers().get(&101).map(|b| b.epoch);
    assert!(first.is_some(), "the first attempt registered n101");
    sim.heal_all();
    sim.run_until(sim.now() + 6_000 * MS);
    let trace = sim.take_trace();
    let refused = trace.iter().any(|l| {
        matches!(&l.kind, TraceKind::Deliver(p, _) if matches!(p.payload, Payload::Controller(
            ControllerRpc::BrokerRegistrationResponse { result: Err(RpcError::DuplicateBrokerRegistration), .. }
        )))
    });
    assert!(!refused, "the same incarnation is not a duplicate");
    let broker = sim.server(101).and_then(|s| s.broker()).unwrap();
    assert_eq!(broker.broker_epoch(), first, "the retry kept the first attempt's epoch");
    // Kafka 4.3.1 amends: a second RegisterBrokerRecord, with the same epoch.
    use kraftscope::metadata::record::MetadataRecord;
    use kraftscope::metadata::state::MetadataEntry;
    use kraftscope::quorum::record::Record;
    let log = sim.leader().unwrap().log();
    let epochs: Vec<u64> = (log.start_offset()..log.end_offset())
        .filter_map(|o| match &log.get(o)?.record {
            Record::Data(MetadataEntry::Record(record)) => match **record {
                MetadataRecord::RegisterBroker { broker_id: 101, broker_epoch, .. } => Some(broker_epoch),
                _ => None,
            },
            _ => None,
        })
        .collect();
    assert_eq!(epochs, vec![first.unwrap(); 2], "the registration, then its amendment");
}

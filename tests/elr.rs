//! Eligible leader replicas (KIP-966, on in a new 4.3 cluster): a broker that leaves an ISR
//! as its last member stays eligible in the ELR, and leads again from it once unfenced,
//! unless it shut down uncleanly: a new incarnation that registers without the epoch of a clean
//! shutdown (`PreviousBrokerEpoch`) leaves the ELR (`ReplicationControlManager
//! .handleBrokerShutdown`), and the partition comes back only through its last known leader.
//! `tests/scenarios/elr_last_replica.txt` shows the crash; here a clean shutdown beside it.

use kraftscope::harness::MS;
use kraftscope::metadata::partitions::Partition;
use kraftscope::metadata::record::broker_set;
use kraftscope::session::picture::broker_partitions;
use kraftscope::sim::{ClusterConfig, Simulation};
use kraftscope::util::broker_set::BrokerSet;

/// orders-0 (on n101 and n102) as the active controller's image has it, once it does.
fn orders(sim: &Simulation) -> Option<Partition> {
    let image = &sim.leader()?.applied().state.image;
    image.partition(image.topic_by_name("orders")?.id, 0)
}

/// Run until `done` holds, within `ms`.
fn until(sim: &mut Simulation, ms: u64, done: impl Fn(&Partition) -> bool) -> Partition {
    let end = sim.now() + ms * MS;
    while sim.now() < end {
        sim.run_until(sim.now() + 10 * MS);
        if let Some(p) = orders(sim).filter(|p| done(p)) {
            return p;
        }
    }
    panic!("not within {ms} ms: {:?}", orders(sim));
}

/// A cluster with orders-0 on n101 and n102, n101 cut off and fenced: n102 is the last ISR member.
fn last_replica_left() -> Simulation {
    let mut sim = Simulation::new(ClusterConfig { voters: 3, observers: 2, ..ClusterConfig::default() }, 1);
    sim.run_until(6_000 * MS);
    sim.create_topic("orders", 1, 2).unwrap();
    let p = until(&mut sim, 2_000, |p| p.isr.len() == 2);
    assert_eq!(p.replicas.set(), broker_set([101, 102]));
    sim.isolate(101);
    until(&mut sim, 15_000, |p| p.isr == broker_set([102]));
    sim
}

#[test]
fn after_a_clean_shutdown_the_last_replica_stays_eligible_and_leads_again_from_the_elr() {
    let mut sim = last_replica_left();
    sim.shut_down_broker(102).unwrap();
    let p = until(&mut sim, 15_000, |p| p.leader == -1);
    assert_eq!((p.isr, p.elr, p.last_known_elr), (BrokerSet::EMPTY, broker_set([102]), broker_set([102])));
    let (lines, more) = broker_partitions(&sim, 101, 8);
    assert_eq!(
        (lines, more),
        (
            vec![
                "orders-0: no leader · ISR empty · eligible (ELR) n102 · last known leader n102".to_string()
            ],
            0
        ),
        "what the page says of the partition when n101 is selected"
    );
    let stop_by = sim.now() + 15_000 * MS;
    while sim.node(102).is_some() {
        assert!(sim.now() < stop_by, "n102 finishes its controlled shutdown");
        sim.run_until(sim.now() + 10 * MS);
    }
    let old_epoch = epoch_of(&sim, 102);
    sim.restart(102).unwrap();
    while epoch_of(&sim, 102) == old_epoch {
        assert!(sim.now() < 60_000 * MS, "n102 registers again");
        sim.run_until(sim.now() + MS);
    }
    let registered = orders(&sim).unwrap();
    assert_eq!(registered.elr, broker_set([102]), "a clean shutdown keeps it eligible: {registered:?}");
    let back = until(&mut sim, 15_000, |p| p.leader == 102);
    assert_eq!(back.isr, broker_set([102]), "elected from the ELR: {back:?}");
    assert_eq!(back.elr, BrokerSet::EMPTY);
}

/// Broker `id`'s registered epoch in the active controller's image.
fn epoch_of(sim: &Simulation, id: u32) -> Option<u64> {
    sim.leader()?.applied().state.image.brokers().get(&id).map(|b| b.epoch)
}

#[test]
fn after_a_crash_the_new_incarnation_leaves_the_elr_and_returns_as_the_last_known_leader() {
    let mut sim = last_replica_left();
    sim.crash(102).unwrap();
    let p = until(&mut sim, 15_000, |p| p.leader == -1);
    assert_eq!(p.elr, broker_set([102]));
    sim.restart(102).unwrap();
    let unclean = until(&mut sim, 15_000, |p| p.elr.is_empty());
    assert_eq!(
        (unclean.leader, unclean.isr, unclean.last_known_elr),
        (-1, BrokerSet::EMPTY, broker_set([102]))
    );
    let back = until(&mut sim, 15_000, |p| p.leader == 102);
    assert_eq!((back.isr, back.last_known_elr), (broker_set([102]), BrokerSet::EMPTY), "{back:?}");
}

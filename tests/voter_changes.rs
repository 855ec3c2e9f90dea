//! KIP-853's safety rules hold, and each of the checkers that guard them can fail: a quorum
//! bug switched on (`QuorumSabotage`) in a voter change is reported by the invariant it breaks,
//! and the same steps without it are not.

use kraftscope::harness::{MS, Micros};
use kraftscope::invariants::{Checker, Violation, names};
use kraftscope::quorum::{QuorumConfig, QuorumSabotage};
use kraftscope::sim::simulation::QuorumFormat;
use kraftscope::sim::{ClusterConfig, Simulation};

/// A cluster of `controllers` formatted as `format`, one broker, with `sabotage`.
fn cluster(controllers: u32, format: QuorumFormat, sabotage: QuorumSabotage) -> Simulation {
    let quorum = QuorumConfig { sabotage, ..QuorumConfig::default() };
    Simulation::new(
        ClusterConfig { voters: controllers, observers: 1, format, quorum, ..ClusterConfig::default() },
        3,
    )
}

/// Run to `t`, checking every invariant after every event.
fn run_checked(sim: &mut Simulation, checker: &mut Checker, t: Micros) -> Result<(), Violation> {
    while sim.next_event_time().is_some_and(|at| at <= t) {
        sim.step();
        checker.after_event(sim)?;
    }
    Ok(())
}

/// Five voters; once a leader is up, two followers are removed back to back.
fn remove_two(sabotage: QuorumSabotage) -> Result<(), Violation> {
    let mut sim = cluster(5, QuorumFormat::InitialControllers, sabotage);
    let mut checker = Checker::default();
    run_checked(&mut sim, &mut checker, 3000 * MS)?;
    let leader = sim.leader().expect("a leader by 3 s").id();
    let followers: Vec<u32> = sim.controller_ids().iter().copied().filter(|id| *id != leader).collect();
    let _ = sim.remove_voter(followers[0]);
    let _ = sim.remove_voter(followers[1]);
    run_checked(&mut sim, &mut checker, 4000 * MS)
}

#[test]
fn a_second_change_waits_for_the_first_to_commit() {
    assert_eq!(remove_two(QuorumSabotage::default()), Ok(()));
    let sabotaged =
        remove_two(QuorumSabotage { concurrent_voter_changes: true, ..QuorumSabotage::default() });
    assert_eq!(sabotaged.map_err(|v| v.invariant), Err(names::ONE_VOTER_CHANGE_AT_A_TIME));
}

#[test]
fn a_change_that_drops_two_voters_is_caught() {
    let sabotaged = remove_two(QuorumSabotage { remove_two_voters: true, ..QuorumSabotage::default() });
    assert_eq!(sabotaged.map_err(|v| v.invariant), Err(names::VOTER_SETS_OVERLAP));
}

/// A standalone controller grows to two voters, then n2 is cut off and the leader is written
/// to: with two voters nothing new may commit.
fn grow_then_cut(sabotage: QuorumSabotage) -> Result<(), Violation> {
    let mut sim = cluster(2, QuorumFormat::Standalone, sabotage);
    let mut checker = Checker::default();
    run_checked(&mut sim, &mut checker, 300 * MS)?;
    sim.add_voter(2).expect("n1 leads and n2 runs");
    run_checked(&mut sim, &mut checker, 500 * MS)?;
    assert_eq!(sim.voter_set().len(), 2, "n2 was added");
    sim.cut(1, 2);
    for _ in 0..5 {
        let _ = sim.write();
    }
    run_checked(&mut sim, &mut checker, 1500 * MS)
}

#[test]
fn the_high_watermark_counts_the_voters_the_log_holds() {
    assert_eq!(grow_then_cut(QuorumSabotage::default()), Ok(()));
    let sabotaged = grow_then_cut(QuorumSabotage { stale_voter_states: true, ..QuorumSabotage::default() });
    assert_eq!(sabotaged.map_err(|v| v.invariant), Err(names::MAJORITY_HOLDS_COMMITTED));
}

#[test]
fn a_wiped_voter_is_an_observer_until_re_added() {
    let mut sim = cluster(3, QuorumFormat::InitialControllers, QuorumSabotage::default());
    let mut checker = Checker::default();
    run_checked(&mut sim, &mut checker, 3000 * MS).unwrap();
    let leader = sim.leader().unwrap().id();
    let wiped = sim.controller_ids().iter().copied().find(|id| *id != leader).unwrap();
    let new_key = sim.wipe_disk(wiped).unwrap();
    run_checked(&mut sim, &mut checker, 3500 * MS).unwrap();
    let node = sim.node(wiped).unwrap();
    assert!(!node.is_voter(), "a new directory id is not the voter the log names");
    assert!(node.log().end_offset() > 0, "it fetched the log as an observer");
    assert_ne!(sim.voter_set().key_of(wiped), Some(new_key));
    sim.remove_voter(wiped).unwrap();
    run_checked(&mut sim, &mut checker, 3700 * MS).unwrap();
    sim.add_voter(wiped).unwrap();
    run_checked(&mut sim, &mut checker, 4000 * MS).unwrap();
    assert_eq!(sim.voter_set().key_of(wiped), Some(new_key));
    assert!(sim.node(wiped).unwrap().is_voter());
}

#[test]
fn a_static_quorum_refuses_changes_by_kafka_error_name() {
    let mut sim = cluster(3, QuorumFormat::Static, QuorumSabotage::default());
    sim.run_until(3000 * MS);
    let refused = sim.remove_voter(1).unwrap_err();
    assert!(refused.to_string().starts_with("UNSUPPORTED_VERSION"), "{refused}");
}

/// A leader that counts only its own vote is caught by the check on its LeaderChange.
#[test]
fn a_leader_elected_without_a_majority_of_its_voter_set_is_caught() {
    let run = |sabotage: QuorumSabotage| {
        let mut sim = cluster(3, QuorumFormat::InitialControllers, sabotage);
        let mut checker = Checker::watching(names::ELECTED_BY_ITS_VOTERS);
        run_checked(&mut sim, &mut checker, 3000 * MS).map_err(|v| v.invariant)
    };
    assert_eq!(run(QuorumSabotage::default()), Ok(()));
    let sabotaged = run(QuorumSabotage { leader_without_majority: true, ..QuorumSabotage::default() });
    assert_eq!(sabotaged, Err(names::ELECTED_BY_ITS_VOTERS));
}

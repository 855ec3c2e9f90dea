//! #64, second step: the migration view's reducer, natively: the default pace, the viewer's
//! steps in Kafka's order (a step out of order refused with what Kafka answers), faults that
//! fork the timeline, and seeking.

use kraftscope::harness::MS;
use kraftscope::migration::sim::Action;
use kraftscope::migration::state::MigrationDriverState;
use kraftscope::page::migration::{MigrationAction, MigrationState};

/// A 60 Hz frame.
const FRAME_MS: f64 = 1_000.0 / 60.0;

#[test]
fn the_migration_plays_to_dual_write_within_twenty_seconds_at_the_default_pace() {
    let mut state = MigrationState::new("migration", 1).unwrap();
    let mut frames = 0;
    while state.view().clone().picture.driver != Some(MigrationDriverState::DualWrite) {
        assert!(state.playing(), "still playing after {frames} frames");
        state.frame(FRAME_MS);
        frames += 1;
        assert!(
            frames < 20 * 60,
            "DUAL_WRITE not reached in 20 s of frames (at {} us)",
            state.view().clone().now
        );
    }
    println!("DUAL_WRITE after {frames} frames: {:.1} s of wall time", frames as f64 * FRAME_MS / 1_000.0);
    let view = state.view().clone();
    assert!(
        view.standing.iter().any(|l| l == "The log says MIGRATION (ZkMigrationStateRecord)"),
        "{:?}",
        view.standing
    );
    assert!(view.picture.copy.is_some_and(|c| c.records == c.records_total));
    assert!(view.pace.is_some());
    // Played on, the scenario finalizes: ZooKeeper is no longer written.
    while state.playing() {
        state.frame(FRAME_MS);
    }
    let view = state.view().clone();
    assert_eq!(view.now, view.end);
    assert!(
        view.picture.finalized && view.standing[0].contains("ZooKeeper is no longer written, and its door"),
        "{:?}",
        view.standing
    );
}

#[test]
fn a_step_out_of_order_is_refused_with_what_kafka_waits_for() {
    let mut state = MigrationState::new("migration", 1).unwrap();
    state.reduce(MigrationAction::Seek(0));
    let view = state.view().clone();
    let buttons = || view.steps.iter().flat_map(|group| &group.buttons);
    let to_kraft = buttons().find(|b| b.action == Action::BrokerToKraft(0)).unwrap();
    assert!(to_kraft.refused.as_deref().is_some_and(|r| r.contains("only a broker in migration mode")));
    assert!(buttons().any(|b| b.action == Action::Finalize && b.refused.is_some()));
    // Where the operator finalizes, the page says ZooKeeper's door closes only then.
    let finalize =
        view.steps.iter().find(|g| g.buttons.iter().any(|b| b.action == Action::Finalize)).unwrap();
    let others = view.steps.iter().filter(|g| !std::ptr::eq(*g, finalize));
    assert!(finalize.note.contains("zookeeper.set.acl=true") && finalize.note.contains("2181"));
    assert!(others.chain([&view.faults]).all(|g| g.note.is_empty()), "said once, where it matters");
    state.reduce(MigrationAction::Operator(Action::Finalize));
    let refusal = state.view().clone().refusal.expect("a refusal");
    assert!(refusal.contains("refused") && refusal.contains("the copy has not committed"), "{refusal}");
    // The order of the steps is Kafka's: provision, migration mode, KRaft mode, finalize.
    let order: Vec<String> = buttons().map(|b| b.label.clone()).collect();
    let at = |prefix: &str| order.iter().position(|l| l.starts_with(prefix)).unwrap();
    assert!(at("provision") < at("restart broker 0 in migration mode"));
    assert!(at("restart broker 3 in migration mode") < at("restart broker 0 as a KRaft broker"));
    assert!(
        at("restart broker 3 as a KRaft broker")
            < at("finalize: roll the controllers without the migration flag")
    );
}

#[test]
fn a_fault_forks_the_timeline_and_the_play_goes_on_past_the_recorded_end() {
    let mut state = MigrationState::new("migration-failover", 7).unwrap();
    while state.view().clone().picture.driver != Some(MigrationDriverState::DualWrite) {
        state.frame(FRAME_MS);
    }
    let before = state.view().clone();
    state.reduce(MigrationAction::Seek(before.now - 1));
    let earlier = state.view().clone().picture;
    state.reduce(MigrationAction::Seek(before.now));
    state.reduce(MigrationAction::TogglePlay);
    state.reduce(MigrationAction::Operator(Action::ZkOutage { lasting: 30_000 * MS }));
    let after = state.view().clone();
    assert_eq!(after.refusal, None);
    assert_eq!(after.end, after.now, "what was recorded after the fault is forgotten");
    assert!(after.end < before.end);
    for _ in 0..600 {
        state.frame(FRAME_MS);
    }
    let later = state.view().clone();
    assert!(state.playing() && later.now > after.end + 10_000 * MS, "it plays on: {} us", later.now);
    assert_eq!(later.end, later.now, "the timeline grows as it plays");
    // Back to before the fault: the picture there is what it was.
    state.reduce(MigrationAction::Seek(before.now - 1));
    assert_eq!(state.view().clone().picture, earlier);
    assert!(!state.playing());
}

#[test]
fn an_unknown_scenario_is_named_with_the_known_ones() {
    let error = MigrationState::new("migration-nope", 1).err().unwrap();
    assert!(error.contains("'migration-nope'") && error.contains("migration-stranded"), "{error}");
}

//! The invariant checkers are able to fail: for every invariant there is a deliberate bug
//! (`--sabotage NAME`) that the seed sweep catches, and healthy code passes the same seeds.

use kraftscope::invariants::names;
use kraftscope::migration::sim::{MigrationSabotage, invariants as migration};
use kraftscope::sweep::check::{SeedParams, catches, run_seed};
use kraftscope::sweep::migration::{MigrationSeed, catches_in_migration, run_migration_seed};
use kraftscope::sweep::sabotage::Sabotage;

/// Each invariant, the sabotage that breaks it, and how many seeds the sweep may need.
const CAUGHT_BY: [(&str, &str, u64); 25] = [
    (names::SINGLE_LEADER, "leader-without-majority", 40),
    (names::ONE_VOTE_PER_EPOCH, "vote-twice", 80),
    (names::EPOCHS_NEVER_DECREASE, "restart-forgets-epoch", 40),
    (names::PERSISTED_STATE, "forget-vote", 20),
    (names::HIGH_WATERMARK_MONOTONIC, "hw-before-epoch-start", 60),
    (names::MAJORITY_HOLDS_COMMITTED, "hw-on-minority", 20),
    (names::LEADER_COMPLETENESS, "vote-without-log-check", 80),
    (names::AGREEMENT, "skip-divergence-check", 80),
    (names::NO_TRUNCATION_BELOW_HIGH_WATERMARK, "hw-on-minority", 120),
    (names::LEGAL_TRANSITIONS, "resign-into-same-epoch", 40),
    (names::LOG_START_AT_SNAPSHOT, "clean-past-snapshot", 40),
    (names::SNAPSHOT_EQUALS_REPLAY, "snapshot-off-by-one", 40),
    (names::APPLIED_EQUALS_REPLAY, "restart-skips-local-log", 20),
    (names::RECORDS_APPLY, "fence-unregistered-broker", 60),
    (names::IMAGE_EQUALS_REPLAY, "restart-skips-local-log", 60),
    (names::FENCED_NOT_LEADER, "fence-keeps-leaders", 400),
    (names::LEADER_IN_ISR, "leader-outside-isr", 1000),
    (names::ISR_WITHIN_REPLICAS, "isr-beyond-replicas", 40),
    (names::ONE_VOTER_CHANGE_AT_A_TIME, "concurrent-voter-changes", 600),
    (names::VOTER_SETS_OVERLAP, "remove-two-voters", 20),
    (names::MAJORITY_HOLDS_COMMITTED, "stale-voter-states", 20),
    (names::ELECTED_BY_ITS_VOTERS, "leader-without-majority", 20),
    (names::ELECTED_BY_ITS_VOTERS, "votes-under-committed-set", 20),
    (names::MAJORITY_HOLDS_COMMITTED, "fetch-before-flush", 200),
    (names::ONE_VOTE_PER_EPOCH, "vote-before-fsync", 600),
];

/// Each invariant of the migration (Kafka 3.9), the sabotage that breaks it, and how many seeds
/// the sweep's migrations may need.
const MIGRATION_CAUGHT_BY: [(&str, &str, u64); 4] = [
    (migration::ZK_EQUALS_IMAGE, "dual-write-drops-a-partition", 40),
    (migration::LEADER_EPOCHS_NEVER_GO_BACK, "copy-resets-leader-epochs", 10),
    (migration::PREMIGRATION_WRITES, "fence-in-premigration", 200),
    (migration::ISR_CHANGES_RAISE_LEADER_EPOCHS, "isr-shrink-keeps-leader-epoch", 40),
];

#[test]
fn every_migration_invariant_is_broken_by_its_sabotage_and_caught_by_the_sweep() {
    let mut missed = Vec::new();
    for (invariant, sabotage, seeds) in MIGRATION_CAUGHT_BY {
        let mut bugs = MigrationSabotage::default();
        assert!(bugs.enable(sabotage), "known sabotage {sabotage}");
        match (1..=seeds).find(|seed| catches_in_migration(&MigrationSeed::derive(*seed, bugs), invariant)) {
            Some(seed) => println!("{invariant}: caught with --sabotage {sabotage} at seed {seed}"),
            None => missed.push(format!("{invariant} (--sabotage {sabotage}, {seeds} seeds)")),
        }
    }
    assert!(missed.is_empty(), "not caught: {missed:#?}");
    for name in migration::ALL {
        assert!(MIGRATION_CAUGHT_BY.iter().any(|(i, _, _)| *i == name), "{name} has no sabotage");
    }
    for (sabotage, _) in MigrationSabotage::NAMES {
        assert!(
            MIGRATION_CAUGHT_BY.iter().any(|(_, s, _)| *s == sabotage),
            "--sabotage {sabotage} is not tested"
        );
    }
}

#[test]
fn healthy_migrations_pass_the_same_seeds() {
    for seed in 1..=200 {
        let params = MigrationSeed::derive(seed, MigrationSabotage::default());
        if let Err(failure) = run_migration_seed(&params) {
            panic!("{params}: {failure} (reproduce: kraftscope check --seed {seed})");
        }
    }
}

/// The first seed in `1..=seeds` whose sweep, with `sabotage` on, reports `invariant`.
fn first_catching_seed(invariant: &'static str, sabotage: &str, seeds: u64) -> Option<u64> {
    let mut bugs = Sabotage::default();
    bugs.enable(sabotage).expect("known sabotage");
    (1..=seeds).find(|seed| catches(&SeedParams::derive(*seed, bugs), invariant))
}

#[test]
fn every_invariant_is_broken_by_its_sabotage_and_caught_by_the_sweep() {
    let mut missed = Vec::new();
    for (invariant, sabotage, seeds) in CAUGHT_BY {
        match first_catching_seed(invariant, sabotage, seeds) {
            Some(seed) => println!("{invariant}: caught with --sabotage {sabotage} at seed {seed}"),
            None => missed.push(format!("{invariant} (--sabotage {sabotage}, {seeds} seeds)")),
        }
    }
    assert!(missed.is_empty(), "not caught: {missed:#?}");
}

#[test]
fn the_table_names_every_invariant_and_every_sabotage() {
    for (name, _) in names::ALL {
        let swept = CAUGHT_BY.iter().any(|(invariant, _, _)| *invariant == name);
        assert!(swept, "{name} has no sabotage");
    }
    for (sabotage, _) in Sabotage::NAMES {
        assert!(CAUGHT_BY.iter().any(|(_, s, _)| *s == sabotage), "--sabotage {sabotage} is not tested");
    }
}

#[test]
fn healthy_code_passes_the_same_seeds() {
    let (mut changes, mut wipes) = (0, 0);
    for seed in 1..=60 {
        let params = SeedParams::derive(seed, Sabotage::default());
        match run_seed(&params, false) {
            Ok(report) => (changes, wipes) = (changes + report.voter_changes, wipes + report.disk_wipes),
            Err(failure) => {
                panic!("{}: {} (reproduce: kraftscope check --seed {seed})", params, failure.violation)
            }
        }
    }
    // The voter-set invariants above are only caught if the swarm changes voters at all.
    assert!(changes >= 15 && wipes >= 5, "{changes} voter changes and {wipes} disk wipes in 60 seeds");
}

//! Scenario tests: each file under `tests/scenarios/` is a test of its own, run and its output
//! compared with the expected output in the file (times only where the file asks for them).
//! `KRAFTSCOPE_REWRITE=1 cargo test --release --test suite scenarios::[NAME]` rewrites the expectations
//! after a reviewed change.

use kraftscope::scenario::catalog::SCENARIOS;
use kraftscope::scenario::{Detail, run_script, script};

const SEED: u64 = 1;

#[test]
fn every_scenario_file_is_in_the_catalog() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scenarios");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .expect("tests/scenarios exists")
        .filter_map(|e| e.ok()?.file_name().into_string().ok()?.strip_suffix(".txt").map(String::from))
        .collect();
    files.sort();
    let catalog: Vec<&str> = SCENARIOS.iter().map(|(n, _)| *n).collect();
    assert_eq!(files, catalog);
}

/// Runs scenario `name` and compares each directive's output with the file's expectation (or,
/// with `KRAFTSCOPE_REWRITE=1`, writes the output into the file).
fn check(name: &str) {
    let rewrite = std::env::var("KRAFTSCOPE_REWRITE").is_ok_and(|v| v == "1");
    let path = format!("{}/tests/scenarios/{name}.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("readable scenario");
    let blocks = script::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let outputs = run_script(&text, SEED, Detail::Notable).unwrap_or_else(|e| panic!("{name}: {e}"));
    if rewrite {
        std::fs::write(&path, script::render(&blocks, &outputs)).expect("writable scenario");
        return;
    }
    let mismatches: Vec<String> = blocks
        .iter()
        .zip(&outputs)
        .filter(|(block, output)| &block.expected != *output)
        .map(|(block, output)| {
            format!(
                "{name}.txt line {} `{}`:\n--- expected\n{}\n--- got\n{}",
                block.line,
                block.directive(),
                block.expected.join("\n"),
                output.join("\n")
            )
        })
        .collect();
    assert!(
        mismatches.is_empty(),
        "{}\n(reproduce: kraftscope run --seed {SEED} --scenario {name}; rewrite: KRAFTSCOPE_REWRITE=1 cargo test --release --test suite scenarios::{name})",
        mismatches.join("\n\n")
    );
}

/// One test per scenario file, named after it.
macro_rules! scenario_tests {
    ($($name:ident),* $(,)?) => {
        $(#[test] fn $name() { check(stringify!($name)); })*
        /// The scenarios that have a test.
        const TESTED: &[&str] = &[$(stringify!($name)),*];
    };
}

scenario_tests!(
    begin_quorum_epoch_heartbeat,
    broker_fencing,
    broker_registration,
    broker_restart_delta,
    broker_snapshot_catch_up,
    candidate_waits_out_timeout,
    check_quorum,
    combined_node_killed,
    controlled_shutdown,
    controlled_shutdown_failover,
    controlled_shutdown_waits,
    controller_activation,
    diverging_follower,
    duplicate_broker_registration,
    duplicated_messages,
    elr_last_replica,
    empty_log_gets_snapshot,
    fencing_record,
    fencing_together,
    fetch_before_flush,
    fetch_byte_limit,
    first_election,
    follower_high_watermark,
    graceful_resignation,
    kraft_authorizer,
    kraft_stale_broker,
    leader_crash,
    minority_no_progress,
    observer_keeps_leader,
    observers,
    power_loss,
    prevote_current_epoch,
    prospective_memory_only,
    prospective_names_leader,
    quorum_add_times_out,
    quorum_auto_join,
    quorum_leader_removes_itself,
    quorum_not_caught_up,
    quorum_one_change_at_a_time,
    quorum_remove_follower,
    quorum_second_removal,
    quorum_self_removal_expires,
    quorum_snapshot_leader,
    quorum_standalone_grows,
    quorum_static_upgrade,
    quorum_wiped_disk,
    read_waits_for_commit,
    rejoin_with_pre_vote,
    rejoin_without_pre_vote,
    reordered_messages,
    resigned_next_epoch,
    single_voter,
    snapshot_catch_up,
    snapshot_keeps_log_start,
    starting_broker_heartbeat,
    successor_backoff,
    torn_write,
    vote_before_fsync,
);

#[test]
fn every_catalog_scenario_has_a_test_of_its_own() {
    let catalog: Vec<&str> = SCENARIOS.iter().map(|(n, _)| *n).collect();
    assert_eq!(TESTED, catalog.as_slice());
}

#[test]
fn the_same_seed_gives_the_same_trace_and_another_seed_another() {
    let text = kraftscope::scenario::catalog::find("leader_crash").unwrap();
    let a = run_script(text, 7, Detail::Full).unwrap();
    let b = run_script(text, 7, Detail::Full).unwrap();
    let c = run_script(text, 8, Detail::Full).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn a_duplicate_share_outside_0_to_100_is_named() {
    let error =
        run_script("cluster voters=3 duplicate=150\n----\n", SEED, Detail::Notable).unwrap_err().to_string();
    assert!(error.contains("duplicate=150 must be 0 to 100"), "{error}");
    assert!(run_script("cluster voters=3 duplicate=100\n----\n", SEED, Detail::Notable).is_ok());
}

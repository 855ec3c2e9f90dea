//! The invariant checkers are able to fail: switch on a deliberate bug and the seed sweep must
//! report the invariant it breaks.

use kraftscope::check::{SeedParams, run_seed};
use kraftscope::sabotage::Sabotage;

/// The invariants reported over the first `seeds` seeds with `sabotage` switched on.
fn violated_invariants(sabotage: &str, seeds: u64) -> Vec<&'static str> {
    let mut bugs = Sabotage::default();
    bugs.enable(sabotage).expect("known sabotage");
    (1..=seeds)
        .filter_map(|seed| run_seed(&SeedParams::derive(seed, bugs), false).err())
        .map(|failure| failure.violation.invariant)
        .collect()
}

#[test]
fn healthy_code_passes_the_same_seeds() {
    for seed in 1..=60 {
        let params = SeedParams::derive(seed, Sabotage::default());
        if let Err(failure) = run_seed(&params, false) {
            panic!("{}: {} (reproduce: kraftscope check --seed {seed})", params, failure.violation);
        }
    }
}

#[test]
fn granting_votes_without_the_log_check_breaks_leader_completeness() {
    let found = violated_invariants("vote-without-log-check", 60);
    assert!(found.contains(&"leader completeness"), "reported: {found:?}");
}

#[test]
fn advancing_the_high_watermark_on_a_minority_is_caught() {
    let found = violated_invariants("hw-on-minority", 20);
    assert!(
        found.contains(&"a majority of voters holds every offset below the high watermark"),
        "reported: {found:?}"
    );
}

#[test]
fn not_persisting_the_vote_is_caught() {
    let found = violated_invariants("forget-vote", 20);
    assert!(found.contains(&"persisted quorum state equals memory"), "reported: {found:?}");
}

#[test]
fn fencing_without_moving_leadership_is_caught() {
    let found = violated_invariants("fence-keeps-leaders", 20);
    assert!(found.contains(&"no partition is led by a fenced broker"), "reported: {found:?}");
}

#[test]
fn electing_a_leader_outside_the_isr_is_caught() {
    let found = violated_invariants("leader-outside-isr", 100);
    assert!(found.contains(&"a partition leader is in its ISR"), "reported: {found:?}");
}

#[test]
fn a_restart_that_skips_the_local_log_is_caught() {
    let found = violated_invariants("restart-skips-local-log", 10);
    assert!(found.contains(&"applied state equals the replay of the committed log"), "reported: {found:?}");
}

//! The built-in scenarios: the scripts under `tests/scenarios/`, compiled in.

/// Every scenario by name, with its script.
pub const SCENARIOS: [(&str, &str); 16] = [
    ("broker_fencing", include_str!("../../tests/scenarios/broker_fencing.txt")),
    ("broker_registration", include_str!("../../tests/scenarios/broker_registration.txt")),
    ("broker_restart_delta", include_str!("../../tests/scenarios/broker_restart_delta.txt")),
    ("broker_snapshot_catch_up", include_str!("../../tests/scenarios/broker_snapshot_catch_up.txt")),
    ("check_quorum", include_str!("../../tests/scenarios/check_quorum.txt")),
    ("controlled_shutdown", include_str!("../../tests/scenarios/controlled_shutdown.txt")),
    ("diverging_follower", include_str!("../../tests/scenarios/diverging_follower.txt")),
    ("first_election", include_str!("../../tests/scenarios/first_election.txt")),
    ("graceful_resignation", include_str!("../../tests/scenarios/graceful_resignation.txt")),
    ("kraft_stale_broker", include_str!("../../tests/scenarios/kraft_stale_broker.txt")),
    ("leader_crash", include_str!("../../tests/scenarios/leader_crash.txt")),
    ("minority_no_progress", include_str!("../../tests/scenarios/minority_no_progress.txt")),
    ("observers", include_str!("../../tests/scenarios/observers.txt")),
    ("rejoin_with_pre_vote", include_str!("../../tests/scenarios/rejoin_with_pre_vote.txt")),
    ("rejoin_without_pre_vote", include_str!("../../tests/scenarios/rejoin_without_pre_vote.txt")),
    ("snapshot_catch_up", include_str!("../../tests/scenarios/snapshot_catch_up.txt")),
];

/// The script of the scenario called `name`.
pub fn find(name: &str) -> Result<&'static str, String> {
    SCENARIOS.iter().find(|(n, _)| *n == name).map(|(_, text)| *text).ok_or_else(|| {
        let names: Vec<&str> = SCENARIOS.iter().map(|(n, _)| *n).collect();
        format!("unknown scenario '{name}' (known: {})", names.join(", "))
    })
}

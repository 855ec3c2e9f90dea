//! The built-in scenarios: the scripts under `tests/scenarios/`, compiled in.

use std::fmt;

/// Every scenario by name, with its script.
pub const SCENARIOS: [(&str, &str); 58] = [
    ("begin_quorum_epoch_heartbeat", include_str!("../../tests/scenarios/begin_quorum_epoch_heartbeat.txt")),
    ("broker_fencing", include_str!("../../tests/scenarios/broker_fencing.txt")),
    ("broker_registration", include_str!("../../tests/scenarios/broker_registration.txt")),
    ("broker_restart_delta", include_str!("../../tests/scenarios/broker_restart_delta.txt")),
    ("broker_snapshot_catch_up", include_str!("../../tests/scenarios/broker_snapshot_catch_up.txt")),
    ("candidate_waits_out_timeout", include_str!("../../tests/scenarios/candidate_waits_out_timeout.txt")),
    ("check_quorum", include_str!("../../tests/scenarios/check_quorum.txt")),
    ("combined_node_killed", include_str!("../../tests/scenarios/combined_node_killed.txt")),
    ("controlled_shutdown", include_str!("../../tests/scenarios/controlled_shutdown.txt")),
    ("controlled_shutdown_failover", include_str!("../../tests/scenarios/controlled_shutdown_failover.txt")),
    ("controlled_shutdown_waits", include_str!("../../tests/scenarios/controlled_shutdown_waits.txt")),
    ("controller_activation", include_str!("../../tests/scenarios/controller_activation.txt")),
    ("diverging_follower", include_str!("../../tests/scenarios/diverging_follower.txt")),
    (
        "duplicate_broker_registration",
        include_str!("../../tests/scenarios/duplicate_broker_registration.txt"),
    ),
    ("duplicated_messages", include_str!("../../tests/scenarios/duplicated_messages.txt")),
    ("elr_last_replica", include_str!("../../tests/scenarios/elr_last_replica.txt")),
    ("empty_log_gets_snapshot", include_str!("../../tests/scenarios/empty_log_gets_snapshot.txt")),
    ("fencing_record", include_str!("../../tests/scenarios/fencing_record.txt")),
    ("fencing_together", include_str!("../../tests/scenarios/fencing_together.txt")),
    ("fetch_before_flush", include_str!("../../tests/scenarios/fetch_before_flush.txt")),
    ("fetch_byte_limit", include_str!("../../tests/scenarios/fetch_byte_limit.txt")),
    ("first_election", include_str!("../../tests/scenarios/first_election.txt")),
    ("follower_high_watermark", include_str!("../../tests/scenarios/follower_high_watermark.txt")),
    ("graceful_resignation", include_str!("../../tests/scenarios/graceful_resignation.txt")),
    ("kraft_authorizer", include_str!("../../tests/scenarios/kraft_authorizer.txt")),
    ("kraft_stale_broker", include_str!("../../tests/scenarios/kraft_stale_broker.txt")),
    ("leader_crash", include_str!("../../tests/scenarios/leader_crash.txt")),
    ("minority_no_progress", include_str!("../../tests/scenarios/minority_no_progress.txt")),
    ("observer_keeps_leader", include_str!("../../tests/scenarios/observer_keeps_leader.txt")),
    ("observers", include_str!("../../tests/scenarios/observers.txt")),
    ("power_loss", include_str!("../../tests/scenarios/power_loss.txt")),
    ("prevote_current_epoch", include_str!("../../tests/scenarios/prevote_current_epoch.txt")),
    ("prospective_memory_only", include_str!("../../tests/scenarios/prospective_memory_only.txt")),
    ("prospective_names_leader", include_str!("../../tests/scenarios/prospective_names_leader.txt")),
    ("quorum_add_times_out", include_str!("../../tests/scenarios/quorum_add_times_out.txt")),
    ("quorum_auto_join", include_str!("../../tests/scenarios/quorum_auto_join.txt")),
    ("quorum_leader_removes_itself", include_str!("../../tests/scenarios/quorum_leader_removes_itself.txt")),
    ("quorum_not_caught_up", include_str!("../../tests/scenarios/quorum_not_caught_up.txt")),
    ("quorum_one_change_at_a_time", include_str!("../../tests/scenarios/quorum_one_change_at_a_time.txt")),
    ("quorum_remove_follower", include_str!("../../tests/scenarios/quorum_remove_follower.txt")),
    ("quorum_second_removal", include_str!("../../tests/scenarios/quorum_second_removal.txt")),
    ("quorum_self_removal_expires", include_str!("../../tests/scenarios/quorum_self_removal_expires.txt")),
    ("quorum_snapshot_leader", include_str!("../../tests/scenarios/quorum_snapshot_leader.txt")),
    ("quorum_standalone_grows", include_str!("../../tests/scenarios/quorum_standalone_grows.txt")),
    ("quorum_static_upgrade", include_str!("../../tests/scenarios/quorum_static_upgrade.txt")),
    ("quorum_wiped_disk", include_str!("../../tests/scenarios/quorum_wiped_disk.txt")),
    ("read_waits_for_commit", include_str!("../../tests/scenarios/read_waits_for_commit.txt")),
    ("rejoin_with_pre_vote", include_str!("../../tests/scenarios/rejoin_with_pre_vote.txt")),
    ("rejoin_without_pre_vote", include_str!("../../tests/scenarios/rejoin_without_pre_vote.txt")),
    ("reordered_messages", include_str!("../../tests/scenarios/reordered_messages.txt")),
    ("resigned_next_epoch", include_str!("../../tests/scenarios/resigned_next_epoch.txt")),
    ("single_voter", include_str!("../../tests/scenarios/single_voter.txt")),
    ("snapshot_catch_up", include_str!("../../tests/scenarios/snapshot_catch_up.txt")),
    ("snapshot_keeps_log_start", include_str!("../../tests/scenarios/snapshot_keeps_log_start.txt")),
    ("starting_broker_heartbeat", include_str!("../../tests/scenarios/starting_broker_heartbeat.txt")),
    ("successor_backoff", include_str!("../../tests/scenarios/successor_backoff.txt")),
    ("torn_write", include_str!("../../tests/scenarios/torn_write.txt")),
    ("vote_before_fsync", include_str!("../../tests/scenarios/vote_before_fsync.txt")),
];

/// No built-in scenario has this name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownScenario(pub String);

impl fmt::Display for UnknownScenario {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = SCENARIOS.iter().map(|(n, _)| *n).collect();
        write!(f, "unknown scenario '{}' (known: {})", self.0, names.join(", "))
    }
}

impl std::error::Error for UnknownScenario {}

/// The script of the scenario called `name`, spelled with underscores or, as the page's
/// `?scenario=` names are, with dashes (`leader-crash`).
pub fn find(name: &str) -> Result<&'static str, UnknownScenario> {
    let underscored = name.replace('-', "_");
    SCENARIOS
        .iter()
        .find(|(n, _)| *n == underscored)
        .map(|(_, text)| *text)
        .ok_or_else(|| UnknownScenario(name.to_string()))
}

//! Deliberate bugs, each switched on by name (`--sabotage NAME`, `?sabotage=NAME`), to show
//! that the invariant checkers are able to fail. Each bug lives in the layer it breaks; this
//! module only names them.

use std::fmt;

use crate::metadata::config::MetadataSabotage;
use crate::quorum::QuorumSabotage;

/// The bugs switched on, by layer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sabotage {
    pub quorum: QuorumSabotage,
    pub metadata: MetadataSabotage,
}

impl Sabotage {
    /// The names accepted by `--sabotage`, each with what it breaks.
    pub const NAMES: [(&'static str, &'static str); 22] = [
        ("vote-without-log-check", "grant votes without the log comparison"),
        ("vote-twice", "grant a second vote in an epoch"),
        ("leader-without-majority", "become leader on one's own vote"),
        ("hw-on-minority", "advance the high watermark on a minority"),
        ("hw-before-epoch-start", "move the high watermark before the epoch's first record commits"),
        ("forget-vote", "do not persist the vote before answering"),
        ("restart-forgets-epoch", "ignore the quorum-state file's epoch on restart"),
        ("resign-into-same-epoch", "a resigned leader runs again in its own epoch"),
        ("skip-divergence-check", "answer fetches without checking the last fetched epoch"),
        ("clean-past-snapshot", "the log cleaner drops records past the snapshots"),
        ("snapshot-off-by-one", "label a snapshot one offset past its state"),
        ("restart-skips-local-log", "restart without replaying the local log"),
        ("fence-keeps-leaders", "fence a broker but leave it leading its partitions"),
        ("fence-unregistered-broker", "write the fencing record for a broker that never registered"),
        ("leader-outside-isr", "elect partition leaders outside the ISR"),
        ("isr-beyond-replicas", "put every active broker in a new partition's ISR"),
        ("concurrent-voter-changes", "start a voter change while another is pending or uncommitted"),
        ("remove-two-voters", "RemoveRaftVoter drops a second voter too"),
        ("stale-voter-states", "count the epoch's first voter set toward the high watermark after a change"),
        (
            "votes-under-committed-set",
            "a candidate counts votes under the committed voter set, not its log's latest",
        ),
        ("fetch-before-flush", "a voter fetches on before flushing what it appended"),
        ("vote-before-fsync", "answer a Vote before the quorum-state file is fsynced"),
    ];

    /// Whether the bug with this `--sabotage` name is on.
    pub(crate) fn is_enabled(&self, name: &str) -> bool {
        let mut with = *self;
        with.enable(name).is_ok() && with == *self
    }

    /// Switch on the bug with this `--sabotage` name.
    pub fn enable(&mut self, name: &str) -> Result<(), UnknownSabotage> {
        let (quorum, metadata) = (&mut self.quorum, &mut self.metadata);
        match name {
            "vote-without-log-check" => quorum.vote_without_log_check = true,
            "vote-twice" => quorum.vote_twice = true,
            "leader-without-majority" => quorum.leader_without_majority = true,
            "hw-on-minority" => quorum.high_watermark_on_minority = true,
            "hw-before-epoch-start" => quorum.hw_before_epoch_start = true,
            "forget-vote" => quorum.forget_vote_on_restart = true,
            "restart-forgets-epoch" => quorum.restart_forgets_epoch = true,
            "resign-into-same-epoch" => quorum.resign_into_same_epoch = true,
            "skip-divergence-check" => quorum.skip_divergence_check = true,
            "clean-past-snapshot" => quorum.clean_past_snapshot = true,
            "snapshot-off-by-one" => quorum.snapshot_off_by_one = true,
            "restart-skips-local-log" => quorum.restart_skips_local_log = true,
            "fence-keeps-leaders" => metadata.fence_keeps_leaders = true,
            "fence-unregistered-broker" => metadata.fence_unregistered_broker = true,
            "leader-outside-isr" => metadata.leader_outside_isr = true,
            "isr-beyond-replicas" => metadata.isr_beyond_replicas = true,
            "concurrent-voter-changes" => quorum.concurrent_voter_changes = true,
            "remove-two-voters" => quorum.remove_two_voters = true,
            "stale-voter-states" => quorum.stale_voter_states = true,
            "votes-under-committed-set" => quorum.votes_under_committed_set = true,
            "fetch-before-flush" => quorum.fetch_before_flush = true,
            "vote-before-fsync" => quorum.vote_before_fsync = true,
            other => return Err(UnknownSabotage(other.to_string())),
        }
        Ok(())
    }
}

/// A `--sabotage` name that names no bug.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownSabotage(pub String);

impl fmt::Display for UnknownSabotage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known: Vec<&str> = Sabotage::NAMES.iter().map(|(n, _)| *n).collect();
        write!(f, "unknown sabotage '{}' (known: {})", self.0, known.join(", "))
    }
}

impl std::error::Error for UnknownSabotage {}

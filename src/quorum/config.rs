//! The quorum's tunables, named after Kafka's `controller.quorum.*` settings with Kafka's defaults.

use crate::harness::{MS, Micros};

/// Timeouts and switches of one KRaft quorum node (Kafka 4.3's `QuorumConfig` and
/// `MetadataLogConfig`).
#[derive(Clone, Debug, PartialEq)]
pub struct QuorumConfig {
    /// `controller.quorum.election.timeout.ms` (default 1000): elections time out after a
    /// random delay in `[T, 2T)` (`QuorumState.randomElectionTimeoutMs`).
    pub election_timeout: Micros,
    /// `controller.quorum.fetch.timeout.ms` (default 2000): a voter that has not fetched
    /// successfully for this long starts an election.
    pub fetch_timeout: Micros,
    /// `controller.quorum.election.backoff.max.ms` (default 1000): the longest a preferred
    /// successor waits after EndQuorumEpoch (`KafkaRaftClient.strictExponentialElectionBackoffMs`).
    pub election_backoff_max: Micros,
    /// `controller.quorum.append.linger.ms` (default 25): how long the leader accumulates
    /// writes before appending them as one batch.
    pub append_linger: Micros,
    /// `controller.quorum.request.timeout.ms` (default 2000): an unanswered request is resent.
    pub request_timeout: Micros,
    /// `controller.quorum.retry.backoff.ms` (default 20): the wait before retrying a request
    /// that failed (`RequestManager`).
    pub retry_backoff: Micros,
    /// How long the leader parks a Fetch that has nothing new (`KafkaRaftClient.MAX_FETCH_WAIT_MS`).
    pub fetch_max_wait: Micros,
    /// `controller.quorum.fetch.max.bytes` (default 1 MiB): most bytes of records one
    /// FetchResponse carries; at least one record always goes.
    pub fetch_max_bytes: u64,
    /// `controller.quorum.fetch.snapshot.max.bytes` (default 1 MiB): bytes per FetchSnapshot chunk.
    pub fetch_snapshot_max_bytes: u64,
    /// `metadata.log.max.record.bytes.between.snapshots` (default 20 MiB): take a snapshot once
    /// this many bytes of records were applied since the last one (0 = never).
    pub max_record_bytes_between_snapshots: u64,
    /// `metadata.max.retention.bytes` (default 100 MiB): once the log and its snapshots hold
    /// more, the cleaner moves the log start up to the next snapshot (`KafkaRaftLog.maybeClean`).
    pub max_retention_bytes: u64,
    /// How often the log cleaner runs (`RaftMetadataLogCleanerManager`, every 60 s).
    pub log_clean_interval: Micros,
    /// KIP-996 pre-vote: a node runs a non-binding poll before bumping the epoch. Kafka 4.x
    /// always does; switching it off shows Raft as Kafka ran it before 4.0.
    pub pre_vote: bool,
    /// `controller.quorum.auto.join.enable` (4.2+, default off): a controller that follows the
    /// leader as an observer asks to be added to the voters by itself, after first removing a
    /// voter entry of its id with another directory (`KafkaRaftClient.pollFollowerAsObserver`).
    /// Kafka rejects it for a broker-only process; here it applies to controllers only.
    pub auto_join: bool,
    /// Whether the process has the controller role (`KafkaRaftClient`'s `canBecomeVoter`, from
    /// `KafkaRaftManager`): such a follower flushes every append even while an observer, since
    /// the leader may count it as a voter after a reconfiguration. A broker's does not.
    pub can_become_voter: bool,
    /// Deliberate bugs, for proving that the invariant checkers catch them.
    pub sabotage: QuorumSabotage,
}

impl Default for QuorumConfig {
    fn default() -> Self {
        QuorumConfig {
            election_timeout: 1000 * MS,
            fetch_timeout: 2000 * MS,
            election_backoff_max: 1000 * MS,
            append_linger: 25 * MS,
            request_timeout: 2000 * MS,
            retry_backoff: 20 * MS,
            fetch_max_wait: 500 * MS,
            fetch_max_bytes: 1024 * 1024,
            fetch_snapshot_max_bytes: 1024 * 1024,
            max_record_bytes_between_snapshots: 20 * 1024 * 1024,
            max_retention_bytes: 100 * 1024 * 1024,
            log_clean_interval: 60_000 * MS,
            pre_vote: true,
            auto_join: false,
            can_become_voter: true,
            sabotage: QuorumSabotage::default(),
        }
    }
}

impl QuorumConfig {
    /// Check quorum: a leader without fetches from a majority for this long resigns
    /// (`LeaderState.CHECK_QUORUM_TIMEOUT_FACTOR` = 1.5).
    pub(crate) fn check_quorum_timeout(&self) -> Micros {
        self.fetch_timeout * 3 / 2
    }

    /// How often the leader re-sends BeginQuorumEpoch to voters that have not fetched lately
    /// (`LeaderState.beginQuorumEpochTimeoutMs` = fetch timeout / 2).
    pub(crate) fn begin_quorum_epoch_interval(&self) -> Micros {
        self.fetch_timeout / 2
    }
}

/// Bugs in the quorum protocol that can be switched on to show that the invariant checkers
/// are able to fail (the crate's `sabotage` module names them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QuorumSabotage {
    /// Grant votes without comparing the candidate's log with our own.
    pub vote_without_log_check: bool,
    /// Let the leader advance the high watermark as soon as any one follower has a record.
    pub high_watermark_on_minority: bool,
    /// Forget the vote on restart (the quorum-state file is not written).
    pub forget_vote_on_restart: bool,
    /// A restarted node claims its local log as applied without replaying it.
    pub restart_skips_local_log: bool,
    /// A voter grants a second vote in an epoch in which it already voted for another.
    pub vote_twice: bool,
    /// A candidate becomes leader on its own vote alone.
    pub leader_without_majority: bool,
    /// A resigned leader runs again in its own epoch instead of the next one.
    pub resign_into_same_epoch: bool,
    /// A restarted node ignores the epoch in its quorum-state file.
    pub restart_forgets_epoch: bool,
    /// The log cleaner drops every committed record, past the snapshots.
    pub clean_past_snapshot: bool,
    /// The leader lets the high watermark move before its epoch's first record is committed.
    pub hw_before_epoch_start: bool,
    /// The leader answers fetches without checking the fetcher's last fetched epoch.
    pub skip_divergence_check: bool,
    /// A snapshot is labelled one offset past the state it holds.
    pub snapshot_off_by_one: bool,
    /// The leader starts a voter change while another is pending or uncommitted.
    pub concurrent_voter_changes: bool,
    /// RemoveRaftVoter also drops the voter with the highest id after the one removed.
    pub remove_two_voters: bool,
    /// The leader keeps counting the voters it started its epoch with toward the high
    /// watermark, whatever VotersRecords it appends.
    pub stale_voter_states: bool,
    /// A candidate asks and counts the voters of the committed voter set, not of the latest
    /// set its log holds.
    pub votes_under_committed_set: bool,
    /// A voter sends its next Fetch without flushing what it appended (Kafka flushes first,
    /// `KafkaRaftClient.appendAsFollower`): the leader counts records a power loss can take.
    pub fetch_before_flush: bool,
    /// A node answers a Vote with its `quorum-state` written but not fsynced (Kafka fsyncs
    /// first, `FileQuorumStateStore`): a power loss makes it forget the vote.
    pub vote_before_fsync: bool,
}

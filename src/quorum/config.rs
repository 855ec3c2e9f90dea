//! The quorum's tunables, named after Kafka's `controller.quorum.*` settings with Kafka's defaults.

/// Microseconds of virtual time.
pub type Micros = u64;

/// One millisecond in the simulation's time unit (microseconds).
pub const MS: Micros = 1_000;

/// Timeouts and switches of one KRaft quorum node.
#[derive(Clone, Debug, PartialEq)]
pub struct QuorumConfig {
    /// `controller.quorum.election.timeout.ms` (default 1000): elections time out after a
    /// random delay in `[T, 2T)`.
    pub election_timeout: Micros,
    /// `controller.quorum.fetch.timeout.ms` (default 2000): a voter that has not fetched
    /// successfully for this long starts an election.
    pub fetch_timeout: Micros,
    /// `controller.quorum.election.backoff.max.ms` (default 1000): cap of a failed candidate's
    /// exponential backoff.
    pub election_backoff_max: Micros,
    /// `controller.quorum.append.linger.ms` (default 25): how long the leader accumulates
    /// writes before appending them as one batch.
    pub append_linger: Micros,
    /// `controller.quorum.request.timeout.ms` (default 2000): an unanswered request is resent.
    pub request_timeout: Micros,
    /// `controller.quorum.retry.backoff.ms` (default 20): base of the election backoff.
    pub retry_backoff: Micros,
    /// How long the leader parks a Fetch that has nothing new (Kafka's raft client: 500 ms).
    pub fetch_max_wait: Micros,
    /// Most records returned by one FetchResponse.
    pub max_fetch_records: usize,
    /// Bytes per FetchSnapshot response chunk.
    pub snapshot_chunk_bytes: u64,
    /// `metadata.log.max.record.bytes.between.snapshots` (default 20 MiB): take a snapshot once
    /// this many bytes of records were applied since the last one (0 = never).
    pub max_record_bytes_between_snapshots: u64,
    /// KIP-996 pre-vote: a node runs a non-binding poll before bumping the epoch.
    pub pre_vote: bool,
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
            max_fetch_records: 512,
            snapshot_chunk_bytes: 64 * 1024,
            max_record_bytes_between_snapshots: 20 * 1024 * 1024,
            pre_vote: true,
            sabotage: QuorumSabotage::default(),
        }
    }
}

impl QuorumConfig {
    /// Check quorum: a leader without fetches from a majority for this long resigns.
    pub fn check_quorum_timeout(&self) -> Micros {
        self.fetch_timeout * 3 / 2
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
}

//! The name of every invariant the checkers enforce, with where it comes from; the page lists
//! them and the checkers report them by these names.

/// Raft §5.2: at most one leader per epoch.
pub const SINGLE_LEADER: &str = "single leader per epoch";
/// Raft §5.2, across restarts: the vote is persisted before it is sent.
pub const ONE_VOTE_PER_EPOCH: &str = "a voter votes at most once per epoch, across restarts";
/// A node's epoch only moves forward.
pub const EPOCHS_NEVER_DECREASE: &str = "epochs never decrease";
/// The quorum-state file is written before acting.
pub const PERSISTED_STATE: &str = "persisted quorum state equals memory";
/// Committed stays committed.
pub const HIGH_WATERMARK_MONOTONIC: &str = "the newest leader's high watermark never decreases";
/// What makes an offset committed.
pub const MAJORITY_HOLDS_COMMITTED: &str = "a majority of voters holds every offset below the high watermark";
/// Raft §5.4: a leader holds every record committed before its epoch.
pub const LEADER_COMPLETENESS: &str = "leader completeness";
/// Log matching up to the high watermark.
pub const AGREEMENT: &str = "all nodes agree on every committed offset";
/// A follower never drops committed records.
pub const NO_TRUNCATION_BELOW_HIGH_WATERMARK: &str = "no truncation below the high watermark";
/// Kafka's `QuorumState`: every change of role is one its transition table allows.
pub const LEGAL_TRANSITIONS: &str = "every role change is one QuorumState allows";
/// KIP-630.
pub const LOG_START_AT_SNAPSHOT: &str = "log start is at the earliest snapshot";
/// KIP-630: a snapshot is the committed state at its offset.
pub const SNAPSHOT_EQUALS_REPLAY: &str =
    "every snapshot equals the replay of the committed log to its offset";
/// Every node applies the same records in order.
pub const APPLIED_EQUALS_REPLAY: &str = "applied state equals the replay of the committed log";
/// No record refers to something that does not exist.
pub const RECORDS_APPLY: &str = "every committed record applies to the image";
/// Snapshot plus later records equals a full replay.
pub const IMAGE_EQUALS_REPLAY: &str = "each image equals the replay of the committed log up to its offset";
/// Fencing moves leadership away.
pub const FENCED_NOT_LEADER: &str = "no partition is led by a fenced broker";
/// Leaders are elected from the in-sync replicas.
pub const LEADER_IN_ISR: &str = "a partition leader is in its ISR";
/// KIP-497: only replicas can be in sync.
pub const ISR_WITHIN_REPLICAS: &str = "the ISR is within the replicas";

/// KIP-853 (`AddVoterHandler`, `RemoveVoterHandler`): one voter change in flight.
pub const ONE_VOTER_CHANGE_AT_A_TIME: &str = "a leader's log holds at most one uncommitted voter change";
/// KIP-853 (`VoterSet.hasOverlappingMajority`): single-voter changes keep majorities overlapping.
pub const VOTER_SETS_OVERLAP: &str = "every two consecutive voter sets have overlapping majorities";
/// KIP-853: votes count under the voter set the candidate's log holds.
pub const ELECTED_BY_ITS_VOTERS: &str = "a leader is elected by a majority of the voter set its log holds";

/// Every invariant, in the order the page lists them, with a one-line explanation.
pub const ALL: [(&str, &str); 21] = [
    (SINGLE_LEADER, "Raft §5.2: at most one leader per epoch"),
    (ONE_VOTE_PER_EPOCH, "Raft §5.2: the vote is persisted before it is sent"),
    (EPOCHS_NEVER_DECREASE, "a node's epoch only moves forward"),
    (PERSISTED_STATE, "the quorum-state file is written before acting"),
    (HIGH_WATERMARK_MONOTONIC, "committed stays committed"),
    (MAJORITY_HOLDS_COMMITTED, "what makes an offset committed"),
    (LEADER_COMPLETENESS, "Raft §5.4: a leader holds every record committed before its epoch"),
    (AGREEMENT, "log matching up to the high watermark"),
    (NO_TRUNCATION_BELOW_HIGH_WATERMARK, "a follower never drops committed records"),
    (LEGAL_TRANSITIONS, "Kafka's QuorumState transition table"),
    (
        ONE_VOTER_CHANGE_AT_A_TIME,
        "KIP-853: AddRaftVoter and RemoveRaftVoter wait for the last change to commit",
    ),
    (VOTER_SETS_OVERLAP, "KIP-853: one voter in or out at a time, so old and new majorities meet"),
    (ELECTED_BY_ITS_VOTERS, "KIP-853: votes count under the voter set the winner's log holds"),
    (LOG_START_AT_SNAPSHOT, "KIP-630: the cleaner moves the log start only up to a snapshot"),
    (SNAPSHOT_EQUALS_REPLAY, "KIP-630: a snapshot is the committed state at its offset"),
    (APPLIED_EQUALS_REPLAY, "every node applies the same records in order"),
    (RECORDS_APPLY, "no record refers to something that does not exist"),
    (IMAGE_EQUALS_REPLAY, "snapshot plus later records equals a full replay"),
    (FENCED_NOT_LEADER, "fencing moves leadership away"),
    (LEADER_IN_ISR, "leaders are elected from the in-sync replicas"),
    (ISR_WITHIN_REPLICAS, "KIP-497: only replicas can be in sync"),
];

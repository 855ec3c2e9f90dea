//! The roles a quorum node can be in and the one place that says which transitions are legal
//! (after the comment at the top of Kafka's `QuorumState`).

use std::fmt;

use super::Epoch;
use super::error::QuorumError;

/// The kind of role a node is in, without its data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RoleKind {
    /// Knows no leader in its epoch; may have voted.
    Unattached,
    /// Running a pre-vote (KIP-996) without bumping the epoch.
    Prospective,
    /// Bumped the epoch, voted for itself, asking for votes.
    Candidate,
    /// The active controller of its epoch.
    Leader,
    /// Fetching from the leader of its epoch.
    Follower,
    /// A leader stepping down; stays out of its own epoch's election.
    Resigned,
}

impl RoleKind {
    /// The role's name as Kafka spells it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            RoleKind::Unattached => "Unattached",
            RoleKind::Prospective => "Prospective",
            RoleKind::Candidate => "Candidate",
            RoleKind::Leader => "Leader",
            RoleKind::Follower => "Follower",
            RoleKind::Resigned => "Resigned",
        }
    }
}

impl fmt::Display for RoleKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Every legal transition, after the comment at the top of Kafka 4.3's `QuorumState`, with the
/// epoch rule it obeys.
///
/// - Unattached -> Unattached (higher epoch, or casting a vote in the same epoch),
///   Prospective (election timeout), Follower (leader of an equal or higher epoch).
/// - Prospective -> Unattached (higher epoch, or lost or timed out knowing no leader),
///   Prospective (casting a vote in the same epoch), Candidate (a majority granted the
///   pre-vote), Follower (a leader of an equal or higher epoch, or lost or timed out while
///   knowing the leader).
/// - Candidate -> Unattached (higher epoch), Prospective (election timeout), Leader (a majority
///   voted), Follower (a leader of an equal or higher epoch).
/// - Leader -> Unattached / Follower (higher epoch), Resigned (graceful, or check quorum failed).
/// - Follower -> Unattached (higher epoch), Prospective (fetch timeout), Follower (a leader of
///   a higher epoch).
/// - Resigned -> Unattached (higher epoch, or its election timeout: the next epoch), Follower
///   (a leader of a higher epoch).
///
/// With pre-vote switched off (Raft as Kafka ran it before 4.0) Unattached, Follower and
/// Candidate become Candidate directly, in the next epoch. Observers (non-voters; they may
/// still grant a vote in their epoch, as `handleVoteRequest` does not check membership) only move
/// between Unattached (a higher epoch) and Follower (a leader of an equal or higher epoch).
pub(crate) fn check_transition(
    from: RoleKind,
    from_epoch: Epoch,
    to: RoleKind,
    to_epoch: Epoch,
    is_voter: bool,
) -> Result<(), QuorumError> {
    use RoleKind::*;
    let higher = to_epoch > from_epoch;
    let same = to_epoch == from_epoch;
    let legal = match (from, to) {
        (Unattached, Unattached) if !is_voter => higher || same,
        (Follower, Unattached) if !is_voter => higher,
        (Unattached, Follower) if !is_voter => higher || same,
        (Follower, Follower) if !is_voter => higher,
        _ if !is_voter => false,
        (Unattached | Prospective | Candidate | Follower, Candidate) => to_epoch == from_epoch + 1,
        (Unattached, Unattached) => higher || same,
        (Unattached | Follower | Candidate | Prospective, Prospective) => same,
        (Prospective, Unattached) => higher || same,
        (Unattached | Prospective | Candidate, Follower) => higher || same,
        (Candidate, Leader) => same,
        (Leader, Resigned) => same,
        (Follower | Resigned | Leader, Follower) => higher,
        (Candidate | Leader | Follower | Resigned, Unattached) => higher,
        _ => false,
    };
    if legal { Ok(()) } else { Err(QuorumError::IllegalTransition { from, from_epoch, to, to_epoch }) }
}

#[cfg(test)]
mod tests {
    use super::{RoleKind::*, check_transition};

    #[test]
    fn candidate_bumps_the_epoch_by_exactly_one() {
        assert!(check_transition(Follower, 3, Candidate, 4, true).is_ok());
        assert!(check_transition(Follower, 3, Candidate, 3, true).is_err());
        assert!(check_transition(Follower, 3, Candidate, 5, true).is_err());
    }

    #[test]
    fn a_leader_cannot_become_candidate_or_go_back_in_epoch() {
        assert!(check_transition(Leader, 3, Candidate, 4, true).is_err());
        assert!(check_transition(Leader, 3, Unattached, 3, true).is_err());
        assert!(check_transition(Leader, 3, Resigned, 3, true).is_ok());
        assert!(check_transition(Follower, 3, Unattached, 2, true).is_err());
    }

    #[test]
    fn observers_only_attach_and_detach() {
        assert!(check_transition(Unattached, 1, Follower, 1, false).is_ok());
        assert!(check_transition(Follower, 1, Unattached, 2, false).is_ok());
        assert!(check_transition(Follower, 1, Unattached, 1, false).is_err(), "QuorumState forbids it");
        assert!(check_transition(Unattached, 1, Prospective, 1, false).is_err());
    }

    #[test]
    fn a_resigned_leader_moves_to_the_next_epoch_never_back_into_its_own() {
        assert!(check_transition(Resigned, 3, Prospective, 3, true).is_err());
        assert!(check_transition(Resigned, 3, Unattached, 4, true).is_ok());
        assert!(check_transition(Resigned, 3, Candidate, 4, true).is_err());
    }
}

//! The race's phases in words, one short sentence per side, for screen readers: each changes
//! only when its side moves to another phase (never with the clock or a count), so a polite live
//! region announces every phase once.

use crate::quorum::RoleKind;
use crate::zk::FailoverPhase;

use super::{FailoverRace, RaceStage};

/// The KRaft side's phase: healthy, waiting out the fetch timeout, pre-voting, voting, a new
/// leader committing, back (with combined nodes: then waiting for the killed broker's session to
/// expire, then its partitions led again).
pub fn kraft_phase(race: &FailoverRace) -> String {
    let Some(sim) = race.kraft_sim().filter(|_| !matches!(race.stage(), RaceStage::Preparing { .. })) else {
        return "KRaft: preparing the cluster.".to_string();
    };
    if !matches!(race.stage(), RaceStage::Running { .. }) {
        return "KRaft: healthy, the active controller and two standbys hold the whole log.".to_string();
    }
    if race.kraft_recovered_after().is_some() {
        let (id, epoch) = race.kraft_leader().unwrap_or_default();
        let partitions = match (race.kraft_leaderless_partitions(), race.kraft_leaders_back_after()) {
            (0, _) => String::new(),
            (_, None) => {
                format!(
                    " The killed node's partitions wait for its broker session to expire; then n{id} fences it."
                )
            }
            (_, Some(_)) => {
                " The killed node's broker is fenced; its partitions have new leaders.".to_string()
            }
        };
        return format!(
            "KRaft: back. n{id}, active controller at epoch {epoch}, committed a metadata change.{partitions}"
        );
    }
    if let Some((id, epoch)) = race.kraft_leader() {
        return format!(
            "KRaft: n{id} won the vote at epoch {epoch}; it tells the others (BeginQuorumEpoch) and commits."
        );
    }
    let roles: Vec<RoleKind> = sim.running_nodes().filter(|n| n.is_voter()).map(|n| n.role()).collect();
    if roles.contains(&RoleKind::Candidate) {
        "KRaft: a candidate bumped the epoch and asks for votes (Vote).".to_string()
    } else if roles.contains(&RoleKind::Prospective) {
        "KRaft: the fetch timeout ran out; a standby pre-votes (PreVote) before any epoch bump.".to_string()
    } else {
        "KRaft: the active controller is gone; the standbys wait out the fetch timeout.".to_string()
    }
}

/// The ZooKeeper-mode side's phase, after `FailoverPhase` without its counts.
pub fn zk_phase(race: &FailoverRace) -> String {
    let phase = match (race.stage(), race.zk_phase()) {
        (RaceStage::Preparing { .. }, _) | (_, None) => "preparing the cluster",
        (RaceStage::Ready, _) => "healthy, one broker is the controller",
        (_, Some(FailoverPhase::AwaitingSessionExpiry { .. })) => {
            "the dead controller's session is still alive; nobody notices yet"
        }
        (_, Some(FailoverPhase::Electing)) => {
            "the session expired and /controller vanished; the brokers race to create it"
        }
        (_, Some(FailoverPhase::LoadingFromZk { .. })) => {
            "the new controller cold-loads every partition's state from ZooKeeper"
        }
        (_, Some(FailoverPhase::RemovingFromIsr { .. })) => {
            "the dead broker's replicas leave every ISR, znode by znode"
        }
        (_, Some(FailoverPhase::ElectingLeaders { .. })) => {
            "new leaders for the dead broker's partitions, znode by znode"
        }
        (_, Some(FailoverPhase::PushingToBrokers { full_state: true, .. })) => {
            "the controller sends the state it loaded to every broker"
        }
        (_, Some(FailoverPhase::PushingToBrokers { full_state: false, .. })) => {
            "the controller sends the new leaders and ISRs to every broker"
        }
        (_, Some(FailoverPhase::Ready)) => "back, every live broker holds the new controller's state",
    };
    format!("ZooKeeper mode: {phase}.")
}

#[cfg(test)]
mod tests {
    use super::{kraft_phase, zk_phase};
    use crate::race::{FailoverRace, RaceStage};

    /// Each side's phases in the order announced, when its sentence changes, over a whole race
    /// played in 1 ms slices.
    fn announced() -> (Vec<String>, Vec<String>) {
        let mut race =
            FailoverRace::with_roles(1_000, 2, crate::experiments::failover::KraftRoles::DEDICATED).unwrap();
        let (mut kraft, mut zk) = (vec![kraft_phase(&race)], vec![zk_phase(&race)]);
        let mut note = |race: &FailoverRace| {
            for (said, now) in [(&mut kraft, kraft_phase(race)), (&mut zk, zk_phase(race))] {
                if said.last() != Some(&now) {
                    said.push(now);
                }
            }
        };
        while let RaceStage::Preparing { .. } = race.stage() {
            race.prepare(500).unwrap();
            note(&race);
        }
        race.kill().unwrap();
        while !race.finished() {
            race.advance(1_000);
            note(&race);
        }
        (kraft, zk)
    }

    #[test]
    fn each_phase_of_both_sides_is_announced_once_in_order() {
        let (kraft, zk) = announced();
        let starts = |said: &[String], words: &[&str]| {
            let mut at = 0;
            for word in words {
                let found = said[at..].iter().position(|s| s.contains(word));
                at += found.unwrap_or_else(|| panic!("no {word:?} in order in {said:#?}")) + 1;
            }
        };
        starts(
            &kraft,
            &[
                "preparing",
                "healthy",
                "wait out the fetch timeout",
                "PreVote",
                "Vote)",
                "won the vote",
                "back",
            ],
        );
        starts(
            &zk,
            &[
                "preparing",
                "healthy",
                "still alive",
                "race to create",
                "cold-loads",
                "state it loaded",
                "leave every ISR",
                "new leaders for",
                "new leaders and ISRs",
                "back",
            ],
        );
        for said in [&kraft, &zk] {
            let mut unique = said.clone();
            crate::util::sort::sort(&mut unique);
            unique.dedup();
            assert_eq!(unique.len(), said.len(), "a phase was announced twice: {said:#?}");
        }
    }
}

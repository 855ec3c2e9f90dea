//! The race's sports-replay pacing: the KRaft election at a followable pace, time-lapses through
//! the waits and the ZooKeeper-mode cold load and push, slow motion around each ZooKeeper
//! milestone. Each pace says how long it lasts, so a frame never skips a milestone.

use super::{FailoverRace, RaceStage};
use crate::harness::playback::{Pace, WAIT_SPEED};
use crate::harness::{MS, Micros};
use crate::zk::{FailoverPhase, MILESTONE_SPEED};

/// Slow down this long before a KRaft controller's timeout fires.
const LEAD: Micros = 30 * MS;
/// Slow down this long before the dead controller's session expires.
const EXPIRY_LEAD: Micros = 10 * MS;
/// KRaft's pre-vote, vote and BeginQuorumEpoch (messages of 10-30 ms) at a followable pace.
const ELECTION_SPEED: f64 = 0.05;
/// How long the brokers are shown switching to the new leader, and at what speed.
const FOLLOW_UP: Micros = 200 * MS;
const FOLLOW_UP_SPEED: f64 = 0.1;
/// The last moments before the dead controller's session expires.
const EXPIRY_LEAD_SPEED: f64 = 0.01;
/// The cold load and the push are played so they take a few seconds at any size: this many
/// partitions per simulated second of work are shown per real second.
const PARTITIONS_PER_SPEED: f64 = 100_000.0;

impl FailoverRace {
    /// The sports-replay pace now; `None` unless the race is running and unfinished.
    pub fn pace(&self) -> Option<Pace> {
        let RaceStage::Running { elapsed } = self.stage() else { return None };
        if self.finished() {
            return None;
        }
        match self.kraft_recovered_after() {
            None => {
                let next = self.next_kraft_timeout().unwrap_or(elapsed);
                if elapsed + LEAD < next {
                    return Some(Pace { speed: 1.0, until: Some(next - LEAD) });
                }
                return Some(Pace { speed: ELECTION_SPEED, until: None });
            }
            Some(back) if elapsed < back + FOLLOW_UP => {
                return Some(Pace { speed: FOLLOW_UP_SPEED, until: Some(back + FOLLOW_UP) });
            }
            Some(_) => {}
        }
        let work = (self.partitions as f64 / PARTITIONS_PER_SPEED).clamp(ELECTION_SPEED, 50.0);
        Some(match self.zk_phase()? {
            FailoverPhase::AwaitingSessionExpiry { expires_at } => {
                let at = expires_at.saturating_sub(self.zk_killed_at);
                if elapsed + EXPIRY_LEAD < at {
                    Pace { speed: WAIT_SPEED, until: Some(at - EXPIRY_LEAD) }
                } else {
                    Pace { speed: EXPIRY_LEAD_SPEED, until: Some(at) }
                }
            }
            FailoverPhase::Electing => Pace { speed: MILESTONE_SPEED, until: None },
            FailoverPhase::Ready => Pace { speed: WAIT_SPEED, until: None },
            _ => Pace { speed: work, until: None },
        })
    }

    /// The simulated time `real_ms` of playback covers now: at the sports-replay pace (or at a
    /// `fixed` speed), never past the pace's next change, at least a microsecond.
    pub fn playback_step(&self, real_ms: f64, fixed: Option<f64>) -> Micros {
        let RaceStage::Running { elapsed } = self.stage() else { return 0 };
        let pace = match fixed {
            Some(speed) => Pace { speed, until: None },
            None => self.pace().unwrap_or(Pace { speed: 1.0, until: None }),
        };
        pace.step(elapsed, real_ms)
    }

    /// When (since the kill) the first KRaft controller's timeout fires.
    fn next_kraft_timeout(&self) -> Option<Micros> {
        let kraft = self.kraft.as_ref()?;
        let killed_at = kraft.killed_at()?;
        kraft
            .sim()
            .running_nodes()
            .filter_map(|n| n.visible_timeout())
            .map(|(_, deadline)| deadline.saturating_sub(killed_at))
            .min()
    }
}

#[cfg(test)]
mod tests {
    use super::ELECTION_SPEED;
    use crate::race::{FailoverRace, RaceStage};
    use crate::zk::MILESTONE_SPEED;

    #[test]
    fn the_election_plays_slowly_the_cold_load_fast_and_no_milestone_is_skipped() {
        let mut race =
            FailoverRace::with_roles(1_000_000, 1, crate::experiments::failover::KraftRoles::DEDICATED)
                .unwrap();
        assert_eq!(race.pace(), None);
        while let RaceStage::Preparing { .. } = race.stage() {
            race.prepare(200_000).unwrap();
        }
        race.kill().unwrap();
        let mut speeds = Vec::new();
        while let Some(pace) = race.pace() {
            let RaceStage::Running { elapsed } = race.stage() else { panic!("not running") };
            if speeds.last() != Some(&pace.speed) {
                speeds.push(pace.speed);
            }
            race.advance(pace.step(elapsed, 16.0));
        }
        assert!(race.finished());
        assert_eq!(speeds[0], 1.0, "KRaft's followers wait out the fetch timeout in real time");
        assert_eq!(speeds[1], ELECTION_SPEED, "then the election at a followable pace");
        assert!(speeds.contains(&MILESTONE_SPEED), "the watch and the race for /controller in slow motion");
        assert_eq!(speeds.iter().copied().fold(0.0, f64::max), 10.0, "the cold load as a time-lapse");
    }
}

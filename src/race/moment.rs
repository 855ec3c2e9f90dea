//! The moment a guided-tour step about the race is about: the tour opens the race a few seconds
//! before it and plays on, and the tour panel ticks "Watch" off when it happens.

use crate::zk::FailoverPhase;

use super::{FailoverRace, RaceStage};

/// A milestone of the race.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaceMoment {
    /// KRaft: a standby won the vote and leads at a new epoch.
    KraftLeader,
    /// ZooKeeper mode: the dead controller's session expired and `/controller` vanished.
    ControllerZnodeGone,
    /// ZooKeeper mode: the new controller pushes the full state to the brokers.
    PushToBrokers,
}

impl RaceMoment {
    /// Whether the running race has reached this moment.
    pub fn reached(self, race: &FailoverRace) -> bool {
        if !matches!(race.stage(), RaceStage::Running { .. }) {
            return false;
        }
        let zk_done = race.zk_report().is_some();
        match (self, race.zk_phase()) {
            (RaceMoment::KraftLeader, _) => race.kraft_leader().is_some(),
            (RaceMoment::ControllerZnodeGone, Some(FailoverPhase::AwaitingSessionExpiry { .. })) => false,
            (RaceMoment::ControllerZnodeGone, Some(FailoverPhase::Ready)) => zk_done,
            (RaceMoment::ControllerZnodeGone, phase) => phase.is_some(),
            (RaceMoment::PushToBrokers, Some(FailoverPhase::PushingToBrokers { .. })) => true,
            (RaceMoment::PushToBrokers, _) => zk_done,
        }
    }
}

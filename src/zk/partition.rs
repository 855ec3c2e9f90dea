//! Partition leadership as ZooKeeper mode keeps it: the contents of a partition's `state` znode
//! (leader, leader epoch, ISR, controller epoch) packed into 16 bytes so millions of partitions fit
//! in memory, plus Kafka's round-robin replica placement and offline-partition leader election.

use std::fmt;

pub use crate::util::broker_set::{BrokerId, BrokerSet, MAX_BROKERS};

/// Kafka's `LeaderAndIsr.NoLeader`: the partition has no leader and is offline.
pub const NO_LEADER: i32 = -1;

/// The data of `/brokers/topics/<t>/partitions/<p>/state` (Kafka's `LeaderIsrAndControllerEpoch`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PartitionState {
    /// Epoch of the controller that last wrote this state.
    pub controller_epoch: u32,
    /// The leader's broker id, or [`NO_LEADER`].
    pub leader: i32,
    /// Bumped on every leader or ISR change made by the controller.
    pub leader_epoch: u32,
    /// The in-sync replicas.
    pub isr: BrokerSet,
}

impl PartitionState {
    /// What a controller holds for a partition it has not loaded yet.
    pub const UNKNOWN: PartitionState =
        PartitionState { controller_epoch: 0, leader: NO_LEADER, leader_epoch: 0, isr: BrokerSet::EMPTY };

    /// The leader as a broker id, or `None` when the partition is offline.
    pub(crate) fn leader_broker(&self) -> Option<BrokerId> {
        u32::try_from(self.leader).ok()
    }
}

impl PartitionState {
    /// Kafka 2.4's `ReplicaStateMachine.doRemoveReplicasFromIsr`, one dead replica at a time:
    /// a dead leader becomes NoLeader, and the replica leaves the ISR unless it is the last
    /// member. `None` when no dead broker is in the ISR (nothing to write).
    pub(crate) fn without_replicas(&self, dead: BrokerSet, controller_epoch: u32) -> Option<PartitionState> {
        if self.isr.intersection(dead).is_empty() {
            return None;
        }
        let mut state = *self;
        for replica in dead.iter().filter(|r| self.isr.contains(*r)) {
            if state.leader == replica as i32 {
                state.leader = NO_LEADER;
            }
            if state.isr.len() > 1 {
                state.isr = state.isr.without(replica);
            }
        }
        Some(PartitionState { controller_epoch, leader_epoch: self.leader_epoch + 1, ..state })
    }
}

impl fmt::Display for PartitionState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            r#"{{"controller_epoch":{},"leader":{},"version":1,"leader_epoch":{},"isr":{}}}"#,
            self.controller_epoch, self.leader, self.leader_epoch, self.isr
        )
    }
}

/// Kafka's round-robin replica placement (without rack awareness or the follower shift):
/// partition `p`'s replicas are `rf` consecutive brokers starting at `(start + p) % brokers`,
/// the first being the preferred leader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplicaAssignment {
    brokers: u32,
    replication_factor: u32,
    start: u32,
}

impl ReplicaAssignment {
    /// Placement over `brokers` brokers; `replication_factor` is clamped to `1..=brokers`.
    pub(crate) fn new(brokers: u32, replication_factor: u32, start: u32) -> ReplicaAssignment {
        let brokers = brokers.clamp(1, MAX_BROKERS);
        ReplicaAssignment {
            brokers,
            replication_factor: replication_factor.clamp(1, brokers),
            start: start % brokers,
        }
    }

    /// The replicas of `partition`, preferred leader first.
    pub(crate) fn replicas(&self, partition: u32) -> impl Iterator<Item = BrokerId> + use<> {
        let brokers = u64::from(self.brokers);
        let first = (u64::from(self.start) + u64::from(partition)) % brokers;
        (0..u64::from(self.replication_factor)).map(move |i| ((first + i) % brokers) as BrokerId)
    }

    /// The replicas of `partition` as a set.
    pub(crate) fn replica_set(&self, partition: u32) -> BrokerSet {
        self.replicas(partition).collect()
    }

    /// A freshly created partition: preferred leader, all replicas in sync.
    pub(crate) fn initial_state(&self, partition: u32, controller_epoch: u32) -> PartitionState {
        let leader = self.replicas(partition).next().map_or(NO_LEADER, |b| b as i32);
        PartitionState { controller_epoch, leader, leader_epoch: 0, isr: self.replica_set(partition) }
    }

    /// Kafka 2.4's offline-partition leader election (`PartitionLeaderElectionAlgorithms.
    /// offlinePartitionLeaderElection`, clean only): the first replica in assignment order that
    /// is live and in the ISR leads, and the ISR keeps its live members. `None` when the leader
    /// is alive (nothing to elect) or no live ISR replica exists: the election fails, nothing is
    /// written and the partition stays offline.
    pub(crate) fn elect(
        &self,
        partition: u32,
        state: PartitionState,
        live: BrokerSet,
        controller_epoch: u32,
    ) -> Option<PartitionState> {
        if state.leader_broker().is_some_and(|l| live.contains(l)) {
            return None;
        }
        let live_isr = state.isr.intersection(live);
        let leader = self.replicas(partition).find(|r| live_isr.contains(*r))?;
        Some(PartitionState {
            controller_epoch,
            leader: leader as i32,
            leader_epoch: state.leader_epoch + 1,
            isr: live_isr,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replicas_are_consecutive_brokers_starting_at_the_rotated_preferred_leader() {
        let assignment = ReplicaAssignment::new(5, 3, 2);
        assert_eq!(assignment.replicas(0).collect::<Vec<_>>(), vec![2, 3, 4]);
        assert_eq!(assignment.replicas(4).collect::<Vec<_>>(), vec![1, 2, 3]);
        assert_eq!(assignment.initial_state(4, 1).leader, 1);
    }

    #[test]
    fn election_picks_first_live_isr_replica_and_shrinks_the_isr() {
        let assignment = ReplicaAssignment::new(5, 3, 0);
        let state = assignment.initial_state(0, 1);
        let live: BrokerSet = [1, 2, 3, 4].into_iter().collect();
        let elected = assignment.elect(0, state, live, 2).expect("a live ISR replica");
        assert_eq!(elected.leader, 1);
        assert_eq!(elected.isr, [1, 2].into_iter().collect());
        assert_eq!(elected.leader_epoch, 1);
        assert_eq!(elected.controller_epoch, 2);
        assert_eq!(assignment.elect(0, elected, live, 2), None, "a live leader needs no election");
    }

    #[test]
    fn no_live_isr_replica_fails_the_election_and_writes_nothing() {
        let assignment = ReplicaAssignment::new(3, 1, 0);
        let state = assignment.initial_state(0, 1);
        assert_eq!(assignment.elect(0, state, [1, 2].into_iter().collect(), 2), None);
    }

    #[test]
    fn a_dead_replica_leaves_the_isr_and_a_dead_leader_becomes_no_leader() {
        let assignment = ReplicaAssignment::new(5, 3, 0);
        let state = assignment.initial_state(0, 1);
        let dead = BrokerSet::EMPTY.with(0);
        let removed = state.without_replicas(dead, 2).expect("broker 0 was in the ISR");
        assert_eq!((removed.leader, removed.isr), (NO_LEADER, [1, 2].into_iter().collect()));
        assert_eq!((removed.leader_epoch, removed.controller_epoch), (1, 2));
        let follower_dead = state.without_replicas(BrokerSet::EMPTY.with(2), 2).expect("in the ISR");
        assert_eq!((follower_dead.leader, follower_dead.isr), (0, [0, 1].into_iter().collect()));
        assert_eq!(removed.without_replicas(dead, 2), None, "no longer in the ISR: nothing to write");
        let single = ReplicaAssignment::new(3, 1, 0).initial_state(0, 1).without_replicas(dead, 2);
        assert_eq!(single.map(|s| (s.leader, s.isr)), Some((NO_LEADER, dead)), "the last ISR member stays");
    }

    #[test]
    fn state_znode_data_reads_like_kafkas_json() {
        let state = ReplicaAssignment::new(3, 2, 0).initial_state(1, 5);
        assert_eq!(
            state.to_string(),
            r#"{"controller_epoch":5,"leader":1,"version":1,"leader_epoch":0,"isr":[1,2]}"#
        );
    }
}

//! The quorum core replicates entries it does not understand: three voters run a toy counter
//! state machine (no metadata anywhere), elect a leader, replicate additions and apply them in
//! the same order, with a minimal in-test network that delivers messages after a fixed delay.

use kraftscope::quorum::voters::QuorumSetup;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use kraftscope::harness::{MS, Micros};
use kraftscope::quorum::disk::Disk;
use kraftscope::quorum::{
    Envelope, Message, Node, NodeId, Outbox, Payload, QuorumConfig, RoleKind, StateMachine,
};
use kraftscope::util::rng::Rng;

/// Add a number to the counter.
#[derive(Clone, Debug, PartialEq)]
struct Add(u64);

impl Payload for Add {
    fn fingerprint(&self) -> u64 {
        self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
    fn size_bytes(&self) -> u64 {
        8
    }
    fn kind(&self) -> &'static str {
        "Add"
    }
}

impl fmt::Display for Add {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Add({})", self.0)
    }
}

/// The toy state machine: a running sum and the order of the additions.
#[derive(Clone, Debug, Default, PartialEq)]
struct Counter {
    sum: u64,
    history: Vec<u64>,
}

impl StateMachine for Counter {
    type Entry = Add;
    type Error = String;

    fn apply(&mut self, entry: &Add) -> Result<(), String> {
        self.sum = self.sum.checked_add(entry.0).ok_or("the counter overflowed")?;
        self.history.push(entry.0);
        Ok(())
    }

    fn size_bytes(&self) -> u64 {
        8 * (1 + self.history.len() as u64)
    }
}

const DELAY: Micros = 3 * MS;

struct Cluster {
    now: Micros,
    nodes: BTreeMap<NodeId, Node<Counter>>,
    in_flight: Vec<(Micros, Envelope<Counter>)>,
}

impl Cluster {
    fn new(seed: u64) -> Cluster {
        let voters: [NodeId; 3] = [1, 2, 3];
        let setup = Arc::new(QuorumSetup::fixed(&voters));
        let config = Arc::new(QuorumConfig::default());
        let mut rng = Rng::new(seed);
        let nodes = voters
            .iter()
            .map(|&id| (id, Node::start(id, setup.clone(), config.clone(), rng.fork(), Disk::default(), 0)))
            .collect();
        Cluster { now: 0, nodes, in_flight: Vec::new() }
    }

    fn send(&mut self, out: Outbox<Counter>) {
        let at = self.now + DELAY;
        self.in_flight.extend(out.sends.into_iter().map(|envelope| (at, envelope)));
    }

    /// Advance to the next delivery or timer and process it; in-order delivery per link.
    fn step(&mut self) {
        let next_message = self.in_flight.iter().map(|(at, _)| *at).min();
        let next_timer = self.nodes.values().map(Node::next_deadline).min();
        let at = next_message.into_iter().chain(next_timer).min().expect("something is scheduled");
        self.now = self.now.max(at);
        let mut out = Outbox::default();
        if next_message == Some(at) {
            let index = self.in_flight.iter().position(|(t, _)| *t == at).expect("a message is due");
            let (_, envelope) = self.in_flight.remove(index);
            // A message to a node taken out of the cluster is lost.
            if let Some(node) = self.nodes.get_mut(&envelope.to) {
                node.handle(self.now, envelope.from, envelope.message, envelope.correlation, &mut out);
            }
        } else {
            for node in self.nodes.values_mut() {
                node.tick(self.now, &mut out);
            }
        }
        self.send(out);
    }

    fn run_until(&mut self, t: Micros) {
        while self.now < t {
            self.step();
        }
    }

    fn leader(&mut self) -> Option<&mut Node<Counter>> {
        self.nodes.values_mut().find(|n| n.role() == RoleKind::Leader)
    }
}

#[test]
fn a_toy_counter_is_replicated_and_applied_in_order_on_every_voter() {
    let mut cluster = Cluster::new(11);
    cluster.run_until(5_000 * MS);
    let now = cluster.now;
    let leader = cluster.leader().expect("a leader was elected within 5 s");
    for value in [5, 7, 11] {
        leader.propose(now, Add(value)).expect("the leader accepts writes");
    }
    cluster.run_until(now + 2_000 * MS);
    for node in cluster.nodes.values() {
        let applied = node.applied();
        assert_eq!(applied.state.history, [5, 7, 11], "n{} applied a different order", node.id());
        assert_eq!(applied.state.sum, 23);
        assert_eq!(applied.fault, None);
    }
}

#[test]
fn a_fault_in_the_state_machine_is_recorded_with_its_offset() {
    let mut cluster = Cluster::new(3);
    cluster.run_until(5_000 * MS);
    let now = cluster.now;
    let leader = cluster.leader().expect("a leader was elected within 5 s");
    leader.propose(now, Add(u64::MAX)).expect("the leader accepts writes");
    leader.propose(now, Add(1)).expect("the leader accepts writes");
    cluster.run_until(now + 2_000 * MS);
    for node in cluster.nodes.values() {
        let (offset, error) = node.applied().fault.clone().expect("the overflow is recorded");
        assert_eq!(error, "the counter overflowed");
        assert_eq!(node.log().get(offset).map(|e| e.record.kind()), Some("Add"));
    }
}

#[test]
fn a_fetch_returns_whole_batches_at_least_one_and_no_more_than_the_byte_limit_after_it() {
    use kraftscope::quorum::Record;
    use kraftscope::quorum::log::{Entry, Log};
    let mut log: Log<Counter> = Log::default();
    for value in 0..10 {
        log.append(Entry {
            epoch: 1,
            record: Record::Data(Add(value)),
            appended_at: 0,
            last_in_batch: value % 2 == 1,
        });
    }
    assert_eq!(log.read(0, 1).len(), 2, "one whole batch goes even when larger than the limit");
    assert_eq!(log.read(0, 8 * 3).len(), 2, "a second batch goes only if it fits (issue #26 finding 12)");
    assert_eq!(log.read(0, 8 * 4).len(), 4, "it fits exactly");
    assert_eq!(log.read(1, 8).len(), 1, "from inside a batch: the rest of it");
    assert_eq!(log.read(8, 1 << 20).len(), 2);
    assert_eq!(log.retained_bytes(), 80);
}

/// The three voters once they have elected a leader, with that leader taken out of the
/// cluster (its messages lost); the leader's id and epoch.
fn without_its_first_leader() -> (Cluster, NodeId, u32) {
    let mut cluster = Cluster::new(11);
    cluster.run_until(3_000 * MS);
    let (leader, epoch) = cluster.leader().map(|l| (l.id(), l.epoch())).expect("a leader after 3 s");
    cluster.nodes.remove(&leader);
    (cluster, leader, epoch)
}

/// A Prospective answers a pre-vote naming the leader it still remembers
/// (`QuorumState.leaderIdOrSentinel` takes `ProspectiveState.election()`'s leader), as Kafka
/// 4.3.1 does; issue #26 finding 10 had it answer with no leader.
#[test]
fn a_prospective_names_the_leader_it_remembers_in_its_vote_responses() {
    let (mut cluster, leader, epoch) = without_its_first_leader();
    let mut seen = 0;
    while cluster.now < 10_000 * MS && seen == 0 {
        cluster.step();
        // What this step sent (what earlier steps at the same instant sent is checked again).
        let sent_now = cluster.now + DELAY;
        let sent: Vec<(NodeId, Option<NodeId>, u32)> = cluster
            .in_flight
            .iter()
            .filter(|(at, _)| *at == sent_now)
            .filter_map(|(_, e)| match e.message {
                Message::VoteResponse { leader, epoch, pre_vote: true, .. } => Some((e.from, leader, epoch)),
                _ => None,
            })
            .collect();
        for (from, named, at_epoch) in sent {
            if cluster.nodes[&from].role() == RoleKind::Prospective && at_epoch == epoch {
                assert_eq!(
                    named,
                    Some(leader),
                    "n{from}, Prospective in epoch {epoch}, names the leader it knew"
                );
                seen += 1;
            }
        }
    }
    assert!(seen > 0, "a Prospective answered a pre-vote within 7 s of the leader's loss");
}

/// A Prospective that sees a higher epoch keeps its election timer running as it becomes
/// Unattached (`QuorumState.transitionToUnattached`, 4.3.1); issue #26 finding 9 had it draw a
/// new one.
#[test]
fn a_prospective_keeps_its_election_timer_when_a_higher_epoch_makes_it_unattached() {
    let (mut cluster, leader, epoch) = without_its_first_leader();
    let prospective = loop {
        assert!(cluster.now < 10_000 * MS, "no Prospective within 7 s of the leader's loss");
        cluster.step();
        if let Some(node) = cluster.nodes.values().find(|n| n.role() == RoleKind::Prospective) {
            break node.id();
        }
    };
    let node = cluster.nodes.get_mut(&prospective).expect("still there");
    let (_, deadline) = node.visible_timeout().expect("a voter's pre-vote timeout");
    let other = [1, 2, 3].into_iter().find(|id| *id != leader && *id != prospective).expect("a third voter");
    higher_epoch_keeps_the_deadline(node, cluster.now, (other, epoch + 1), deadline);
}

/// Hand `node` a Vote from a candidate of `epoch` whose log is empty (not granted, but its epoch
/// is taken) and check that it turned Unattached in that epoch with its election deadline kept.
fn higher_epoch_keeps_the_deadline(
    node: &mut Node<Counter>,
    now: Micros,
    (candidate, epoch): (NodeId, u32),
    deadline: Micros,
) {
    let request = Message::Vote {
        candidate_epoch: epoch,
        candidate,
        last_offset_epoch: 0,
        last_offset: 0,
        pre_vote: false,
        voter_dir: None,
    };
    node.handle(now, candidate, request, 0, &mut Outbox::default());
    assert_eq!((node.role(), node.epoch()), (RoleKind::Unattached, epoch));
    assert_eq!(node.visible_timeout(), Some(("election timeout", deadline)), "the same deadline");
}

/// A Resigned leader that sees a higher epoch keeps its election timer as it becomes Unattached
/// (`QuorumState.transitionToUnattached` takes `ResignedState.remainingElectionTimeMs`, 4.3.1):
/// the other half of issue #26 finding 9.
#[test]
fn a_resigned_leader_keeps_its_election_timer_when_a_higher_epoch_makes_it_unattached() {
    let mut cluster = Cluster::new(11);
    cluster.run_until(3_000 * MS);
    let (id, epoch) = cluster.leader().map(|l| (l.id(), l.epoch())).expect("a leader after 3 s");
    let node = cluster.nodes.get_mut(&id).expect("the leader");
    let mut out = Outbox::default();
    node.resign(cluster.now, &mut out).expect("it leads");
    assert_eq!(node.role(), RoleKind::Resigned);
    let (_, deadline) = node.visible_timeout().expect("a voter's election timeout");
    let other = [1, 2, 3].into_iter().find(|n| *n != id).expect("another voter");
    higher_epoch_keeps_the_deadline(node, cluster.now + MS, (other, epoch + 1), deadline);
}

/// Only a valid fetch counts for check quorum (`LeaderState.updateReplicaState` runs after
/// `KafkaRaftClient.handleFetchRequest` validated it; issue #26 finding 11): a follower whose
/// every Fetch diverges from the leader's log gets DivergingEpoch answers and no credit, so a
/// leader that hears only such fetches resigns at its check-quorum deadline.
#[test]
fn only_valid_fetches_keep_a_leader_past_check_quorum() {
    let mut cluster = Cluster::new(11);
    cluster.run_until(3_000 * MS);
    let (id, epoch) = cluster.leader().map(|l| (l.id(), l.epoch())).expect("a leader after 3 s");
    let followers: Vec<NodeId> = [1, 2, 3].into_iter().filter(|n| *n != id).collect();
    for f in &followers {
        cluster.nodes.remove(f);
    }
    cluster.in_flight.clear();
    let leader = cluster.nodes.get_mut(&id).expect("the leader");
    let end = leader.log().end_offset();
    let (_, deadline) = leader.visible_timeout().expect("check quorum");
    // Fetches claiming an epoch the leader's log never had at that offset: each diverges.
    let mut now = cluster.now;
    let mut answers = Vec::new();
    while now < deadline {
        now += 100 * MS;
        for &from in &followers {
            let fetch = Message::Fetch {
                current_leader_epoch: epoch,
                fetch_offset: end,
                last_fetched_epoch: epoch + 7,
                replica_dir: 0,
                high_watermark: None,
            };
            let mut out = Outbox::default();
            leader.handle(now, from, fetch, 0, &mut out);
            leader.tick(now, &mut out);
            answers.extend(out.sends.into_iter().map(|e| e.message.kind()));
        }
    }
    assert!(answers.contains(&"DivergingEpoch"), "the fetches diverged: {answers:?}");
    assert_eq!(leader.role(), RoleKind::Resigned, "no credit from invalid fetches: check quorum expired");
}

/// UpdateRaftVoter is a leader-only request: its epoch is checked first
/// (`KafkaRaftClient.validateLeaderOnlyRequest`, 4.3.1). An older epoch is FENCED_LEADER_EPOCH,
/// a newer one UNKNOWN_LEADER_EPOCH, and the current one at a follower NOT_LEADER_OR_FOLLOWER.
#[test]
fn update_raft_voter_names_a_stale_or_a_future_epoch() {
    use kraftscope::quorum::reconfig::ReconfigError;
    let mut cluster = Cluster::new(11);
    cluster.run_until(3_000 * MS);
    let (id, epoch) = cluster.leader().map(|l| (l.id(), l.epoch())).expect("a leader after 3 s");
    let follower = [1, 2, 3].into_iter().find(|n| *n != id).expect("a follower");
    let now = cluster.now + MS;
    let mut answer = |to: NodeId, from: NodeId, current_leader_epoch: u32| {
        let update =
            Message::UpdateRaftVoter { current_leader_epoch, voter_dir: 7, kraft_min: 0, kraft_max: 1 };
        let mut out = Outbox::default();
        cluster.nodes.get_mut(&to).expect("a voter").handle(now, from, update, 0, &mut out);
        out.sends.into_iter().find_map(|e| match e.message {
            Message::UpdateRaftVoterResponse { error, .. } => Some(error),
            _ => None,
        })
    };
    assert_eq!(answer(id, follower, epoch - 1), Some(Some(ReconfigError::FencedLeaderEpoch)));
    assert_eq!(answer(id, follower, epoch + 1), Some(Some(ReconfigError::UnknownLeaderEpoch)));
    assert_eq!(answer(follower, id, epoch), Some(Some(ReconfigError::NotLeaderOrFollower)));
}

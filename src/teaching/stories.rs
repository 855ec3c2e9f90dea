//! Scripted moments of the simulation, each a deterministic state with a short narration: the
//! guided tour's steps and the scenarios a URL can open (`?scenario=leader-crash`, `?tour=4`).

use crate::harness::{MS, Micros};
use crate::migration::driver::DriverNote;
use crate::migration::sim::{
    Action as MigrationStep, TraceKind as MigrationTrace, TraceLine as MigrationLine,
};
use crate::migration::state::MigrationDriverState;
use crate::quorum::RoleKind;
use crate::race::RaceMoment;
use crate::zk::Pain;

use super::key_moment::KeyMoment;
use crate::session::Session;
use crate::session::action::Action;
use crate::session::settings::Settings;

/// Which view a story shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Cluster,
    Failover,
    /// One of ZooKeeper mode's other pains, beside what KRaft does.
    Pain(Pain),
    /// A migration of the bridge release ([`Story::migration`] says which, and where).
    Migration,
}

/// Words only the full page shows: a step of a view the first screen's build does not carry
/// hands over to the full page before its narration is drawn, so that build leaves them out
/// (the failover race's, the pains' and the bridge release chapter's steps, which would
/// otherwise weigh on the first screen).
#[cfg(feature = "full")]
macro_rules! later_words {
    ($words:expr) => {
        $words
    };
}
#[cfg(not(feature = "full"))]
macro_rules! later_words {
    ($words:expr) => {
        ""
    };
}
pub(crate) use later_words;

/// A failover race: its partition count; and, for the guided tour, the moment it is about and
/// how long after the kill the step opens it, a few seconds of the race's pacing before that
/// moment, to play on from there. (A scenario link opens the race at its start.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RaceScript {
    pub partitions: u64,
    pub tour_opens_after_kill_ms: u64,
    pub key: RaceMoment,
}

/// A migration scenario for the guided tour, and the moment the step opens at: just before the
/// first line of the scenario's trace that `opens_before` names, read from the run (a moment's
/// time depends on the seed's elections).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MigrationScript {
    pub scenario: &'static str,
    pub opens_before: MigrationMoment,
}

/// A moment of a migration's trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MigrationMoment {
    /// The driver goes to claim `/controller` (`WAIT_FOR_BROKERS` to `BECOME_CONTROLLER`).
    Claim,
    /// The operator takes this step, or causes this fault.
    Operator(MigrationStep),
}

impl MigrationMoment {
    /// Whether trace line `kind` is this moment.
    fn is(self, kind: &MigrationTrace) -> bool {
        match (self, kind) {
            (MigrationMoment::Claim, MigrationTrace::Driver { note, .. }) => {
                matches!(note, DriverNote::Transition { to: MigrationDriverState::BecomeController, .. })
            }
            (MigrationMoment::Operator(step), MigrationTrace::Operator(taken)) => step == *taken,
            _ => false,
        }
    }
}

/// How long before its moment a migration step opens.
const BEFORE_THE_MOMENT: Micros = MS;

impl MigrationScript {
    /// The moment the step opens at in a run that traced `trace`, if the moment came.
    pub fn opens_at(&self, trace: &[MigrationLine]) -> Option<Micros> {
        let moment = trace.iter().find(|line| self.opens_before.is(&line.kind))?;
        Some(moment.at.saturating_sub(BEFORE_THE_MOMENT))
    }
}

/// One scripted moment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Story {
    pub id: &'static str,
    pub chapter: &'static str,
    pub title: &'static str,
    pub narration: &'static str,
    /// What happens next, told after the step's question is answered (at once where it asks
    /// none): the narration must not answer the question just below it.
    pub outcome: &'static str,
    pub view: View,
    pub voters: u32,
    pub brokers: u32,
    pub pre_vote: bool,
    pub snapshot_bytes: u64,
    /// Actions at simulated milliseconds.
    pub script: &'static [(u64, Action)],
    /// The simulated millisecond a cluster story opens at, a few seconds of the page's pacing
    /// before its key moment, which it then plays.
    pub opens_at_ms: u64,
    /// The simulated millisecond its timeline runs to: the state its narration ends on.
    pub ends_at_ms: u64,
    /// The event the story is about, and what the viewer is told to watch for.
    pub key: Option<KeyMoment>,
    pub watch: &'static str,
    pub race: Option<RaceScript>,
    pub migration: Option<MigrationScript>,
}

const CLUSTER: Story = Story {
    id: "",
    chapter: "",
    title: "",
    narration: "",
    outcome: "",
    view: View::Cluster,
    voters: 3,
    brokers: 3,
    pre_vote: true,
    snapshot_bytes: 0,
    script: &[],
    opens_at_ms: 0,
    ends_at_ms: 0,
    key: None,
    watch: "",
    race: None,
    migration: None,
};

pub(crate) const ZK_ERA: &str = "The ZooKeeper era";
pub(crate) const QUORUM: &str = "The KRaft quorum";
pub(crate) const STREAM: &str = "Metadata as an event stream";
pub(crate) const SIDE_BY_SIDE: &str = "Failover side by side";
pub(crate) const SNAPSHOTS: &str = "Snapshots";
pub(crate) const LIFECYCLE: &str = "Broker lifecycle and fencing";
pub(crate) const PAINS: &str = "ZooKeeper's other pains, and KRaft's answer";
pub(crate) const SIZING: &str = "Sizing the quorum";
pub(crate) const BRIDGE: &str = "The bridge release";

/// The guided tour, in order.
pub const TOUR: [Story; 26] = [
    Story {
        id: "zk-cold-load",
        chapter: ZK_ERA,
        title: "Two systems, and a cold load",
        narration: later_words!(
            "Before KIP-500 Kafka kept its metadata in a separate system, ZooKeeper. One broker is the controller: whoever created the /controller znode first. When it dies, its ZooKeeper session must expire, the brokers race to create /controller, and the winner must read every topic's and partition's state from ZooKeeper before it can do anything. Here 100,000 partitions are loading: the work grows with the partition count."
        ),
        view: View::Failover,
        race: Some(RaceScript {
            partitions: 100_000,
            tour_opens_after_kill_ms: 4_000,
            key: RaceMoment::ControllerZnodeGone,
        }),
        watch: later_words!(
            "the dead controller's session expires, /controller vanishes and the brokers race to create it"
        ),
        ..CLUSTER
    },
    Story {
        id: "zk-push",
        chapter: ZK_ERA,
        title: "Full state to every broker; three copies of the truth",
        narration: later_words!(
            "Once loaded, the new controller pushes full-state UpdateMetadata and LeaderAndIsr requests to every broker (partitions x brokers of work), and each broker's cache turns fresh only when its push lands. ZooKeeper, the controller's memory and each broker's cache are three copies of the truth, updated by different paths. Not drawn here: a leader's ISR change reaches ZooKeeper seconds before the controller and the caches; a broker's death fires watches and the controller rewrites each affected partition's znode one by one; a broker cut off from the controller but still talking to ZooKeeper stays 'alive' (two notions of liveness)."
        ),
        view: View::Failover,
        race: Some(RaceScript {
            partitions: 1_000_000,
            tour_opens_after_kill_ms: 25_000,
            key: RaceMoment::PushToBrokers,
        }),
        watch: later_words!(
            "the cold load ends and the controller starts pushing the full state to each broker"
        ),
        ..CLUSTER
    },
    Story {
        id: "first-election",
        chapter: QUORUM,
        title: "Controllers elect a leader",
        narration: "In KRaft the controllers form a Raft quorum. Each waits a random election timeout (1 to 2 s); the first to time out runs a pre-vote, then bumps the epoch, votes for itself and asks the others. With a majority it becomes the leader, the active controller, and appends a LeaderChange record. The bar in its log strip is the high watermark: records below it are committed.",
        opens_at_ms: 0,
        ends_at_ms: 2_500,
        key: Some(KeyMoment::Leader { from_epoch: 1 }),
        watch: "the first controller to time out asks for pre-votes, then votes, and becomes the leader",
        ..CLUSTER
    },
    Story {
        id: "leader-crash",
        chapter: QUORUM,
        title: "The leader dies; a new epoch begins",
        narration: "The active controller crashed. Followers pull from the leader; when no fetch succeeds for controller.quorum.fetch.timeout.ms (2 s) one of them starts an election. The winner leads a higher epoch, and every node compares epochs on every message, so a stale leader can never be obeyed again.",
        script: &[(4_000, Action::KillLeader)],
        opens_at_ms: 3_000,
        ends_at_ms: 7_500,
        key: Some(KeyMoment::Epoch { from: 2 }),
        watch: "the leader is killed; after the fetch timeout a follower runs for a higher epoch",
        ..CLUSTER
    },
    Story {
        id: "pre-vote",
        chapter: QUORUM,
        title: "A controller cut off, with pre-vote",
        narration: "Controller n3 was cut off. Its fetches time out, so it asks the others whether they would vote for it (KIP-996 pre-vote). Cut off, it hears no answer.",
        outcome: "A pre-vote does not bump the epoch: n3's stays where it was, so when it comes back it simply follows the leader again. Pre-vote keeps a returning node from disrupting.",
        script: &[(3_000, Action::Isolate(3)), (13_000, Action::Heal)],
        opens_at_ms: 2_000,
        ends_at_ms: 16_000,
        key: Some(KeyMoment::Role { node: 3, role: RoleKind::Prospective }),
        watch: "n3 is cut off; it becomes Prospective and asks for pre-votes at the same epoch",
        ..CLUSTER
    },
    Story {
        id: "no-pre-vote",
        chapter: QUORUM,
        title: "The same cut, without pre-vote",
        narration: "The same cut, with pre-vote switched off: n3 becomes a candidate again and again, raising its epoch each time.",
        outcome: "When the links heal, its Vote request carries that higher epoch, the healthy leader steps down, and the cluster goes through an election it did not need.",
        pre_vote: false,
        script: &[(3_000, Action::Isolate(3)), (13_000, Action::Heal)],
        opens_at_ms: 2_000,
        ends_at_ms: 16_000,
        key: Some(KeyMoment::Role { node: 3, role: RoleKind::Candidate }),
        watch: "n3 is cut off; with no pre-vote it becomes a Candidate and bumps its epoch",
        ..CLUSTER
    },
    Story {
        id: "divergence",
        chapter: QUORUM,
        title: "A deposed leader comes back",
        narration: "The leader was cut off just before a topic was created: it appended the records, but no follower fetched them. The others elected a new leader at a higher epoch.",
        outcome: "When the links heal, the old leader fetches from the new one with its last epoch; the answer is DivergingEpoch (the offset where its log and the leader's part), and it truncates the records never committed (struck through) before fetching the leader's.",
        script: &[
            (3_000, Action::IsolateLeader),
            (3_001, Action::CreateTopic { partitions: 3, replication: 2 }),
            (9_000, Action::Heal),
        ],
        opens_at_ms: 8_500,
        ends_at_ms: 11_000,
        key: Some(KeyMoment::Truncated),
        watch: "the links heal; a DivergingEpoch tells the old leader where to truncate",
        ..CLUSTER
    },
    Story {
        id: "brokers-fetch",
        chapter: STREAM,
        title: "Brokers follow the log by offset",
        narration: "Brokers are observers of the __cluster_metadata log: they fetch it by offset, like followers, and apply each committed record as a delta to their metadata image. A topic was just created: one TopicRecord and a PartitionRecord per partition, and every broker's image shows it, tagged with the offset it reflects.",
        script: &[(4_000, Action::CreateTopic { partitions: 6, replication: 2 })],
        opens_at_ms: 3_000,
        ends_at_ms: 6_000,
        key: Some(KeyMoment::Appended { node: 101, first: Some("TopicRecord") }),
        watch: "a topic is created; broker n101 fetches the new records from its offset",
        ..CLUSTER
    },
    Story {
        id: "broker-restart",
        chapter: STREAM,
        title: "A broker restarts from its disk",
        narration: "Broker n101 crashed while another topic was created. It keeps its copy of the metadata log on disk.",
        outcome: "After the restart it rebuilds its image from that copy and fetches only the records it missed, instead of waiting for a full-state push.",
        script: &[
            (4_000, Action::CreateTopic { partitions: 40, replication: 2 }),
            (5_000, Action::Crash(101)),
            (5_500, Action::CreateTopic { partitions: 2, replication: 2 }),
            (6_000, Action::Restart(101)),
        ],
        opens_at_ms: 5_400,
        ends_at_ms: 8_000,
        key: Some(KeyMoment::Appended { node: 101, first: None }),
        watch: "n101 restarts from its disk and fetches only the topic it missed",
        ..CLUSTER
    },
    Story {
        id: "broker-power-loss",
        chapter: STREAM,
        title: "A broker loses power",
        narration: "This time broker n101's power fails instead of its process crashing. A crash leaves what the process wrote in the operating system's page cache, which reaches the disk later; a power loss takes the page cache with it.",
        outcome: "Kafka flushes a broker's copy of the metadata log only when the broker shuts down cleanly, so the power loss took all of it: after the restart n101 fetches the log again from offset 0 and rebuilds its image record by record. Nothing committed was lost: every controller flushes its log before a record counts.",
        script: &[
            (4_000, Action::CreateTopic { partitions: 40, replication: 2 }),
            (5_000, Action::PowerLoss(101)),
            (5_500, Action::CreateTopic { partitions: 2, replication: 2 }),
            (6_000, Action::Restart(101)),
        ],
        opens_at_ms: 4_900,
        ends_at_ms: 8_000,
        key: Some(KeyMoment::Appended { node: 101, first: Some("LeaderChange") }),
        watch: "n101's power fails; after its restart it fetches the whole log again, from its first LeaderChange",
        ..CLUSTER
    },
    Story {
        id: "failover",
        chapter: SIDE_BY_SIDE,
        title: "KRaft and ZooKeeper mode lose their controller",
        narration: later_words!(
            "The same failover in both designs at 1,000,000 partitions. KRaft's standby controllers already hold the whole image, replayed from the log, so the new leader only has to win an election. The ZooKeeper-mode controller has to load everything first, and then push it to every broker."
        ),
        view: View::Failover,
        race: Some(RaceScript {
            partitions: 1_000_000,
            tour_opens_after_kill_ms: 0,
            key: RaceMoment::KraftLeader,
        }),
        watch: later_words!(
            "a KRaft standby wins the vote while the ZooKeeper-mode brokers still wait for the dead controller's session to expire"
        ),
        ..CLUSTER
    },
    Story {
        id: "snapshot",
        chapter: SNAPSHOTS,
        title: "A far-behind broker catches up by snapshot",
        narration: "Every node snapshots its image periodically (metadata.log.max.record.bytes.between.snapshots); once the log and its snapshots outgrow metadata.max.retention.bytes, the log cleaner moves the log start up to a snapshot (the page shrinks both sizes so this happens in seconds, not hours). Broker n103 was down while topics were created; on restart its fetch offset is below the leader's log start, so the leader answers SnapshotId, and n103 loads the snapshot with FetchSnapshot before fetching the rest.",
        snapshot_bytes: 2_000,
        script: &[
            (4_000, Action::Crash(103)),
            (4_500, Action::CreateTopic { partitions: 40, replication: 2 }),
            (5_000, Action::CreateTopic { partitions: 40, replication: 2 }),
            (5_500, Action::CreateTopic { partitions: 40, replication: 2 }),
            (8_000, Action::Restart(103)),
        ],
        opens_at_ms: 7_000,
        ends_at_ms: 9_000,
        key: Some(KeyMoment::Message { to: 103, kind: "SnapshotId" }),
        watch: "n103 restarts below the log start, is told SnapshotId and fetches the snapshot",
        ..CLUSTER
    },
    Story {
        id: "fencing",
        chapter: LIFECYCLE,
        title: "A silent broker is fenced",
        narration: "Brokers register (STARTING), catch up (RECOVERY), are unfenced (RUNNING) and heartbeat every 2 s. Broker n101 was cut off: after broker.session.timeout.ms (9 s) without a heartbeat the active controller fences it and moves leadership of its partitions to other in-sync replicas.",
        script: &[
            (4_000, Action::CreateTopic { partitions: 6, replication: 2 }),
            (5_000, Action::Isolate(101)),
        ],
        opens_at_ms: 12_000,
        ends_at_ms: 16_000,
        key: Some(KeyMoment::Appended { node: 102, first: Some("PartitionChangeRecord") }),
        watch: "n101 has been silent since 5 s; at the session timeout the controller fences it",
        ..CLUSTER
    },
    Story {
        id: "controlled-shutdown",
        chapter: LIFECYCLE,
        title: "Controlled shutdown",
        narration: "Broker n102 asks to shut down in its heartbeat. The controller marks it in controlled shutdown and moves leadership of its partitions to other in-sync replicas. On a later heartbeat, once n102 leads nothing and every active broker has replayed that change, it is fenced and told it may stop.",
        script: &[
            (4_000, Action::CreateTopic { partitions: 6, replication: 2 }),
            (5_000, Action::ShutDown(102)),
        ],
        opens_at_ms: 4_000,
        ends_at_ms: 9_500,
        key: Some(KeyMoment::Appended { node: 101, first: Some("BrokerRegistrationChangeRecord") }),
        watch: "n102 asks to shut down; the controller moves its leadership away, and later releases it",
        ..CLUSTER
    },
    Story {
        id: "zk-stale-cache",
        chapter: PAINS,
        title: "Three copies of the truth",
        narration: later_words!(
            "In ZooKeeper mode the truth lives in three places: the partition state znodes, the controller's memory and each broker's metadata cache. Here one broker's replica fetchers stall. After replica.lag.time.max.ms (10 s) each leader it follows drops it from the ISR and writes ZooKeeper itself; the controller hears of it only when the leader's notification comes, 5 to 7.5 s later (Kafka 2.4), and the caches after its UpdateMetadata. The table compares every copy with ZooKeeper, partition by partition."
        ),
        view: View::Pain(Pain::StaleCache),
        watch: later_words!(
            "a leader writes the shrunk ISR; the controller and every cache still hold the old one"
        ),
        ..CLUSTER
    },
    Story {
        id: "zk-liveness",
        chapter: PAINS,
        title: "Two notions of liveness",
        narration: later_words!(
            "A ZooKeeper-mode broker is alive to ZooKeeper while its session pings arrive, and to the controller while its ephemeral /brokers/ids znode exists: the controller never asks the broker itself. Here a broker is cut off from the controller but not from ZooKeeper. It stays in the controller's live set; the requests for it (after another broker dies) wait in its queue, retried every 100 ms, and its cache stays behind until the link heals."
        ),
        view: View::Pain(Pain::SplitLiveness),
        watch: later_words!(
            "after another broker dies, the cut-off broker is still counted live; its update waits"
        ),
        ..CLUSTER
    },
    Story {
        id: "zk-watch-storm",
        chapter: PAINS,
        title: "A broker's death, znode by znode",
        narration: later_words!(
            "When a broker dies its session expires, its /brokers/ids znode goes and the one-shot watches fire. The controller then rewrites the state znode of every partition that had the dead broker as a replica, one write at a time, and pushes the changes to every broker. The work grows with the partitions the broker held."
        ),
        view: View::Pain(Pain::WatchStorm),
        watch: later_words!(
            "the session expires, the watches fire and the controller writes each affected state znode"
        ),
        ..CLUSTER
    },
    Story {
        id: "zk-security",
        chapter: PAINS,
        title: "A second door to the metadata",
        narration: later_words!(
            "In ZooKeeper mode the ACLs are znodes, and every broker's authorizer loads them when a change notification appears under /kafka-acl-changes. Kafka creates its znodes world-writable unless zookeeper.set.acl=true, so a client that can reach ZooKeeper's port, with no Kafka credentials at all, can write an ACL for itself, as kafka-acls.sh --authorizer-properties zookeeper.connect=... does."
        ),
        outcome: later_words!(
            "The brokers obey it: Kafka's authorizer is asked only when a broker serves a request, never about the write."
        ),
        view: View::Pain(Pain::Security),
        watch: later_words!(
            "a client writes an ACL for itself into ZooKeeper; every broker's authorizer loads it"
        ),
        ..CLUSTER
    },
    Story {
        id: "odd-quorum",
        chapter: SIZING,
        title: "Why an odd number of voters",
        narration: "A decision needs a majority of the voters: 2 of 3, 3 of 4, 3 of 5. This quorum has 4 voters. The first leader was killed and the other three elected a new one (3 of 4 agreed). Now the second leader is killed.",
        outcome: "The two voters left are no majority, so their pre-votes fail and nobody leads until a third voter comes back. So 3 voters survive one failure and 4 voters survive one failure too, with one more machine to run and one more to wait for; 5 voters would have survived this.",
        voters: 4,
        script: &[(3_000, Action::KillLeader), (8_000, Action::KillLeader)],
        opens_at_ms: 7_500,
        ends_at_ms: 14_000,
        key: Some(KeyMoment::AnyRole(RoleKind::Prospective)),
        watch: "the second leader dies; the two voters left ask for pre-votes, and 2 of 4 is no majority",
        ..CLUSTER
    },
    Story {
        id: "add-controller",
        chapter: SIZING,
        title: "Adding a controller: an observer first, then a voter",
        narration: "A new controller, formatted with --no-initial-controllers, started as an observer: it found the leader through controller.quorum.bootstrap.servers and fetched the whole log, but does not vote. Then kafka-metadata-quorum add-controller sent AddRaftVoter: the leader checks it answers ApiVersions and has caught up, and appends a VotersRecord with it. The new voter set counts from that record on, before it commits (only one change at a time may be pending); once a majority of the new set has it, the change commits and the leader answers.",
        script: &[(3_000, Action::NewController), (6_000, Action::AddVoter(4))],
        opens_at_ms: 5_500,
        ends_at_ms: 9_000,
        key: Some(KeyMoment::VotersCommitted),
        watch: "n4, caught up as an observer, is added: its VotersRecord is pending until a majority of four has it",
        ..CLUSTER
    },
    Story {
        id: "replace-disk",
        chapter: SIZING,
        title: "Replacing a controller whose disk died",
        narration: "n3's disk died and was formatted again: a new directory id. The voter set names voters by id and directory, so the new n3 is not the voter n3 was: it came back as an observer, and the old entry still counts toward the majority while it can never answer. The operator removed the old n3 (RemoveRaftVoter with the old directory id) and now adds the new one (AddRaftVoter): three working voters again.",
        script: &[
            (3_000, Action::WipeDisk(3)),
            (8_000, Action::RemoveVoter(3)),
            (11_000, Action::AddVoter(3)),
        ],
        opens_at_ms: 10_500,
        ends_at_ms: 14_000,
        key: Some(KeyMoment::VotersCommitted),
        watch: "the new n3, an observer since its disk was wiped, is added back as a voter",
        ..CLUSTER
    },
    Story {
        id: "leader-leaves",
        chapter: SIZING,
        title: "A leader removes itself",
        narration: "RemoveRaftVoter can name the active controller itself. It appends the VotersRecord without itself and keeps leading, replicating to the new set without counting its own copy, until the change commits; then it resigns (EndQuorumEpoch) and the remaining voters elect a leader at once.",
        script: &[(4_000, Action::RemoveLeader)],
        opens_at_ms: 3_000,
        ends_at_ms: 8_000,
        key: Some(KeyMoment::Resigned),
        watch: "the leader removes itself: it leads until the removal commits, then resigns",
        ..CLUSTER
    },
    Story {
        id: "bridge-dual-write",
        chapter: BRIDGE,
        title: "The bridge release: one controller for both worlds",
        narration: later_words!(
            "Kafka 3.4 to 3.9 move a running ZooKeeper-mode cluster to KRaft (KIP-866), and 4.0 removed ZooKeeper. The operator has started three KRaft controllers with the migration flag and restarted each broker in migration mode: every broker has registered with the quorum but still runs in ZooKeeper mode, and one of them is still ZooKeeper's controller. The active KRaft controller's migration driver is about to claim /controller."
        ),
        outcome: later_words!(
            "It writes /controller with a higher /controller_epoch, and the ZooKeeper-mode controller resigns. It copies ZooKeeper into the log in one transaction, reconciles ZooKeeper with the log, and pushes the full state to every broker: dual-write, each change committed to the log first and then written to ZooKeeper."
        ),
        view: View::Migration,
        migration: Some(MigrationScript { scenario: "migration", opens_before: MigrationMoment::Claim }),
        watch: later_words!(
            "the driver claims /controller, copies ZooKeeper into the log and pushes to the brokers"
        ),
        ..CLUSTER
    },
    Story {
        id: "bridge-stranded",
        chapter: BRIDGE,
        title: "A copy that /migration never recorded",
        narration: later_words!(
            "Another migration, at its copy. The copy is committed: the log's ZkMigrationStateRecord says MIGRATION. But ZooKeeper became unreachable before the driver could write the copy's offset to /migration, and the driver keeps retrying. The active KRaft controller is about to be killed, and another will be elected while ZooKeeper is still away."
        ),
        outcome: later_words!(
            "ZooKeeper comes back, and the new driver finds nothing it can act on: the driver stays INACTIVE, nobody writes ZooKeeper or sends the ZooKeeper-mode brokers anything, and Kafka 3.9 cannot leave this state without an operator."
        ),
        view: View::Migration,
        migration: Some(MigrationScript {
            scenario: "migration-stranded",
            opens_before: MigrationMoment::Operator(MigrationStep::KillActiveController),
        }),
        watch: later_words!(
            "the controller dies; ZooKeeper comes back; the new driver reads the log and /migration"
        ),
        ..CLUSTER
    },
    Story {
        id: "bridge-rollback",
        chapter: BRIDGE,
        title: "Rolling back before finalizing",
        narration: later_words!(
            "A migration in dual-write, not finalized: every change went to the log and to ZooKeeper, so ZooKeeper still holds the whole state. The operator is about to roll back as Kafka 3.9's guide says: the KRaft controllers stopped, then /controller and /migration deleted, so that the brokers, still in migration mode, race for /controller again."
        ),
        outcome: later_words!(
            "The winner loads the state dual-write kept in ZooKeeper and pushes it to the brokers; then each broker is restarted without the migration flag. After finalizing this road is closed: ZooKeeper is no longer written."
        ),
        view: View::Migration,
        migration: Some(MigrationScript {
            scenario: "migration-rollback",
            opens_before: MigrationMoment::Operator(MigrationStep::RollBack),
        }),
        watch: later_words!(
            "the controllers go, /controller is deleted, and a broker becomes ZooKeeper's controller"
        ),
        ..CLUSTER
    },
    Story {
        id: "bridge-rollback-hazard",
        chapter: BRIDGE,
        title: "A rollback after many KRaft elections",
        narration: later_words!(
            "The same rollback is about to happen, but this quorum went through more elections than ZooKeeper ever had controllers: it leads a higher epoch than the one in /controller_epoch. In dual-write a broker was fenced and the KRaft controller rewrote the state znodes of the partitions it held."
        ),
        outcome: later_words!(
            "Those partitions' leader elections would now abort, leaving them offline until their znodes are repaired by hand."
        ),
        view: View::Migration,
        migration: Some(MigrationScript {
            scenario: "migration-rollback-hazard",
            opens_before: MigrationMoment::Operator(MigrationStep::RollBack),
        }),
        watch: later_words!("a broker becomes ZooKeeper's controller and reads the partition state znodes"),
        ..CLUSTER
    },
];

/// The story with this id.
pub fn find(id: &str) -> Option<&'static Story> {
    TOUR.iter().find(|s| s.id == id)
}

/// Every story id.
pub(crate) fn ids() -> Vec<&'static str> {
    TOUR.iter().map(|s| s.id).collect()
}

/// Kiosk mode holds each step for its reading time: this long to take in the picture, plus
/// this long a word of narration (about 200 words a minute, a relaxed reading pace).
const KIOSK_LOOK_MS: u64 = 6_000;
const KIOSK_WORD_MS: u64 = 300;

impl Story {
    /// How long kiosk mode shows this step: time to look, plus time to read its narration.
    pub(crate) fn reading_ms(&self) -> u64 {
        KIOSK_LOOK_MS + KIOSK_WORD_MS * self.told(false).split_whitespace().count() as u64
    }

    /// The narration the tour shows: while its question is open (`asking`), only the set-up;
    /// then what happened too.
    pub fn told(&self, asking: bool) -> String {
        match (asking, self.outcome) {
            (true, _) | (false, "") => self.narration.to_string(),
            (false, outcome) => format!("{} {outcome}", self.narration),
        }
    }

    /// The settings the story runs with.
    pub(crate) fn settings(&self, seed: u64) -> Settings {
        Settings {
            seed,
            voters: self.voters,
            brokers: self.brokers,
            pre_vote: self.pre_vote,
            snapshot_bytes: self.snapshot_bytes,
            ..Settings::default()
        }
    }

    /// The story's session at the end of its script: the state its narration ends on.
    pub fn ending(&self, seed: u64) -> Session {
        let mut session = Session::new(self.settings(seed));
        for (at_ms, action) in self.script {
            session.advance_to(at_ms * MS, usize::MAX);
            let _ = session.act(action.clone());
        }
        session.advance_to(self.ends_at_ms * MS, usize::MAX);
        session
    }

    /// The story's session at its opening moment, its scripted actions ahead on the timeline.
    pub fn opening(&self, seed: u64) -> Session {
        let mut session = self.ending(seed);
        // Every story ends inside the reachable window (a test below checks it).
        session.seek(self.opens_at_ms * MS).expect("a story opens inside its window");
        session
    }
}

#[cfg(test)]
mod tests {
    use super::TOUR;

    /// A story is opened by a seek back from its end, which must lie inside the window.
    #[test]
    fn every_story_ends_inside_the_reachable_window() {
        for story in &TOUR {
            assert!(story.ends_at_ms * crate::harness::MS <= crate::session::WINDOW, "{}", story.id);
        }
    }

    #[test]
    fn longer_narrations_are_held_longer() {
        let (short, long) = (super::find("first-election").unwrap(), super::find("snapshot").unwrap());
        assert!(short.told(false).len() < long.told(false).len());
        assert!(short.reading_ms() < long.reading_ms());
        for story in &TOUR {
            assert!((15_000..=40_000).contains(&story.reading_ms()), "{}: {}", story.id, story.reading_ms());
        }
    }
}

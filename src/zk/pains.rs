//! ZooKeeper mode's pains besides the cold load, each a small scripted cluster the page plays
//! beside what KRaft does in the same situation, each on a mechanism Kafka 2.4 had: a leader
//! writes a shrunk ISR to ZooKeeper that the controller and every broker's cache learn seconds
//! later (KAFKA-2722's propagation blackout; KIP-497 moved the write to the controller), a broker
//! cut off from the controller stays alive to ZooKeeper while its requests queue (KIP-500's
//! "two notions of liveness"), and a broker's death fires watches and znode writes one by one
//! (KIP-500's motivation), and a client that reaches ZooKeeper grants itself access the brokers
//! obey, past Kafka's authorizer (KIP-500's security reason; see `acl.rs`). `tests/zk_traces/`
//! holds the traces.

use super::acl::{SECOND_DOOR_SEED, second_door};
use super::cluster::ZkCluster;
use super::config::ZkClusterConfig;
use super::costs::{MILESTONE_SPEED, ZkCosts};
use super::partition::{BrokerId, PartitionState};
use super::picture::ZkPicture;
use super::trace::TraceKind;
use crate::harness::playback::{Pace, WAIT_SPEED};
use crate::harness::{MS, Micros};

/// The scripted clusters' size: small enough to show every partition as a cell.
pub const PARTITIONS: u32 = 12;
pub const BROKERS: u32 = 4;
/// When the fault happens (simulated).
pub const FAULT_AT: Micros = 1_000 * MS;
/// How long each is played after the moment it is about.
const AFTERMATH: Micros = 4_000 * MS;

/// A pain of ZooKeeper mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pain {
    /// A leader's ISR shrink: ZooKeeper has it, the controller's memory and the caches do not.
    StaleCache,
    /// A broker cut off from the controller keeps its ZooKeeper session: alive to one, not the other.
    SplitLiveness,
    /// A broker's death: watches fire and every affected partition's znode is written one by one.
    WatchStorm,
    /// A client writes an ACL straight into ZooKeeper, and every broker's authorizer obeys it.
    Security,
}

impl Pain {
    pub const ALL: [Pain; 4] = [Pain::StaleCache, Pain::SplitLiveness, Pain::WatchStorm, Pain::Security];

    /// The scenario name (`?scenario=`).
    pub fn id(self) -> &'static str {
        match self {
            Pain::StaleCache => "zk-stale-cache",
            Pain::SplitLiveness => "zk-liveness",
            Pain::WatchStorm => "zk-watch-storm",
            Pain::Security => "zk-security",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Pain::StaleCache => "Three copies of the truth",
            Pain::SplitLiveness => "Two notions of liveness",
            Pain::WatchStorm => "A broker's death, znode by znode",
            Pain::Security => "A second door to the metadata",
        }
    }

    /// The seed of its cluster (the one `tests/zk_traces/` expects).
    fn seed(self) -> u64 {
        match self {
            Pain::StaleCache => 21,
            Pain::SplitLiveness => 8,
            Pain::WatchStorm => 11,
            Pain::Security => SECOND_DOOR_SEED,
        }
    }

    /// The brokers the fault is about, neither the controller: the one whose replica fetchers
    /// stall, or the one that dies; and for "two notions of liveness" the one cut off.
    pub(crate) fn brokers(self, zk: &ZkCluster) -> (BrokerId, Option<BrokerId>) {
        let controller = zk.controller().map(|(id, _)| id);
        let others: Vec<BrokerId> = (0..BROKERS).filter(|b| Some(*b) != controller).collect();
        match self {
            Pain::StaleCache => (others[1], None),
            Pain::SplitLiveness => (others[1], Some(others[0])),
            Pain::WatchStorm | Pain::Security => (others[0], None),
        }
    }

    /// Its cluster, healthy, with the fault scheduled at [`FAULT_AT`].
    pub fn cluster(self) -> ZkCluster {
        let config = ZkClusterConfig::single_partition_topics(PARTITIONS, BROKERS, ZkCosts::async_reads());
        let mut zk = ZkCluster::new(config, self.seed()).expect("a valid small cluster");
        let (broker, cut) = self.brokers(&zk);
        if self == Pain::Security {
            second_door(&mut zk, broker);
            return zk;
        }
        let scheduled = match (self, cut) {
            (Pain::StaleCache, _) => zk.stall_fetchers(broker, FAULT_AT),
            (Pain::SplitLiveness, Some(cut)) => {
                zk.cut_off_from_controller(cut, FAULT_AT).and_then(|()| zk.kill_broker(broker, FAULT_AT))
            }
            _ => zk.kill_broker(broker, FAULT_AT),
        };
        scheduled.expect("known brokers");
        zk
    }

    /// When the moment it is about happens (ZooKeeper takes the first shrunk ISR; or the dead
    /// broker's session expires, its `/brokers/ids` znode goes and the watches fire), and when
    /// the page stops playing it (for the ISR shrink, before its leader propagates it: the
    /// copies still disagree).
    pub fn moments(self) -> (Micros, Micros) {
        let mut zk = self.cluster();
        let key = std::iter::from_fn(|| zk.step())
            .find(|l| match (self, &l.kind) {
                (Pain::StaleCache, TraceKind::IsrShrunk { .. }) => true,
                (Pain::StaleCache, _) => false,
                (Pain::Security, kind) => matches!(kind, TraceKind::RogueAclWrite { .. }),
                (_, kind) => matches!(kind, TraceKind::SessionExpired { .. }),
            })
            .map_or(FAULT_AT, |l| l.at);
        (key, key + AFTERMATH)
    }

    /// Where the play stands, in a line: before the moment it is about (`seen` false) and after.
    pub fn phase(self, seen: bool) -> &'static str {
        match (self, seen) {
            (Pain::StaleCache, false) => "A follower's replica fetchers stall; every copy still agrees.",
            (Pain::StaleCache, true) => {
                "ZooKeeper holds the shrunk ISR; the controller and the brokers' caches do not yet."
            }
            (Pain::SplitLiveness, false) => {
                "A broker has died and another is cut off from the controller; both sessions are still alive."
            }
            (Pain::SplitLiveness, true) => {
                "The dead broker's session expired; the cut-off broker's lives on, so the controller counts it live."
            }
            (Pain::WatchStorm, false) => "A broker has died; its session is still alive.",
            (Pain::WatchStorm, true) => "The dead broker's session expired; the watches fired.",
            (Pain::Security, false) => "User:mallory has no ACL: the brokers' authorizer denies her.",
            (Pain::Security, true) => {
                "A client wrote an ACL for User:mallory straight into ZooKeeper; every broker's authorizer loaded it, and no Kafka request was made."
            }
        }
    }

    /// What KRaft does in the same situation.
    pub fn kraft_answer(self) -> &'static str {
        match self {
            Pain::StaleCache => {
                "KRaft keeps one copy of the truth, the metadata log, written only by the active controller: a leader asks it to change an ISR (AlterPartition), and every broker fetches the PartitionChangeRecord from its own offset."
            }
            Pain::SplitLiveness => {
                "KRaft has one notion of liveness: a broker is alive while its heartbeats reach the active controller. Cut off from it, the broker is fenced after broker.session.timeout.ms (9 s), and the fence is a record every broker replays."
            }
            Pain::WatchStorm => {
                "KRaft has no watches and no znodes: the active controller appends one batch (the broker's fence and a PartitionChangeRecord per affected partition) to the log, and every broker fetches it as one delta."
            }
            Pain::Security => {
                "KRaft has one door: ACLs are records of the metadata log, and only the active controller writes them, after its StandardAuthorizer has checked the request a broker forwarded with the client's principal. User:mallory cannot grant herself access (CreateAcls needs ALTER on the cluster: CLUSTER_AUTHORIZATION_FAILED) nor delete the topic (TOPIC_AUTHORIZATION_FAILED); once the super user grants User:alice DELETE, hers is a RemoveTopicRecord every broker fetches."
            }
        }
    }
}

/// The page's pace for a pain whose moment is at `key_at`, at `now`: a time-lapse through
/// the wait (a session to expire, a follower to fall out of the ISR), at least 4x and fast
/// enough to reach the moment within 1.5 s; slow motion from just before it through the few
/// milliseconds in which the watches fire and the writes and pushes go out (each message takes
/// 0.6 s of wall time to cross), then a time-lapse through the quiet aftermath.
pub fn pace(key_at: Micros, now: Micros) -> Pace {
    const LEAD: Micros = 300;
    const MILESTONE: Micros = 2_500;
    const LEAD_IN_WALL: f64 = 1_500.0 * MS as f64;
    let (slow_from, slow_until) = (key_at.saturating_sub(LEAD), key_at + MILESTONE);
    if now < slow_from {
        let speed = WAIT_SPEED.max((slow_from as f64 / LEAD_IN_WALL).ceil());
        Pace { speed, until: Some(slow_from) }
    } else if now < slow_until {
        Pace { speed: MILESTONE_SPEED, until: Some(slow_until) }
    } else {
        Pace { speed: WAIT_SPEED, until: None }
    }
}

/// The drawing of a pain's cluster with its `copies`: each broker's cache is as fresh as the
/// share of partitions on which it agrees with ZooKeeper (the race's drawing measures freshness
/// against the new controller's state instead, which here is the same once written).
pub fn picture(zk: &ZkCluster, copies: &[CopyRow]) -> ZkPicture {
    let mut picture = zk.picture();
    for broker in &mut picture.brokers {
        if let Some(row) = copies.iter().find(|r| r.broker == Some(broker.id)) {
            let agree = row.stale.iter().filter(|s| !**s).count();
            broker.fresh = agree as f64 / row.stale.len().max(1) as f64;
        }
    }
    picture
}

/// One copy of the truth: where it lives, and each partition's state there.
#[derive(Clone, Debug, PartialEq)]
pub struct CopyRow {
    pub holder: String,
    /// The broker whose cache this is.
    pub broker: Option<BrokerId>,
    /// Each partition's state in this copy (`None`: this copy has none, a dead broker or a
    /// controller still loading).
    pub states: Vec<Option<PartitionState>>,
    /// Where this copy disagrees with ZooKeeper.
    pub stale: Vec<bool>,
}

/// The three copies of the truth, partition by partition: ZooKeeper's state znodes, the
/// controller's memory and each broker's metadata cache.
pub fn copies(zk: &ZkCluster) -> Vec<CopyRow> {
    let partitions = zk.layout().partitions();
    let zookeeper: Vec<Option<PartitionState>> = (0..partitions).map(|p| zk.zookeeper_state(p)).collect();
    let row = |holder: String, broker: Option<BrokerId>, states: Vec<Option<PartitionState>>| {
        let stale = states.iter().zip(&zookeeper).map(|(s, z)| s.is_some() && s != z).collect();
        CopyRow { holder, broker, states, stale }
    };
    let controller =
        zk.controller().map_or("controller".to_string(), |(id, _)| format!("controller (b{id})"));
    let mut rows = vec![
        row("ZooKeeper".to_string(), None, zookeeper.clone()),
        row(controller, None, (0..partitions).map(|p| zk.controller_state(p)).collect()),
    ];
    for broker in 0..BROKERS {
        rows.push(row(
            format!("b{broker}'s cache"),
            Some(broker),
            (0..partitions).map(|p| zk.metadata_for(broker, p)).collect(),
        ));
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::{BROKERS, FAULT_AT, Micros, Pain, copies, pace};
    use crate::harness::MS;
    use crate::zk::trace::{Finished, PushDone, TraceKind};

    #[test]
    fn each_pain_reaches_its_moment_a_second_or_two_into_the_play_and_ends_within_ten() {
        for pain in Pain::ALL {
            let (key, end) = pain.moments();
            let (mut now, mut wall_ms, mut seen, mut slow): (Micros, _, _, Micros) = (0, 0.0, None, 0);
            while now < end {
                // Frames of 50 ms (a slow machine), each stopping where the pace changes.
                let frame_ms = 50.0;
                let pace = pace(key, now);
                let dt = pace.step(now, frame_ms);
                if pace.speed < 1.0 {
                    slow += dt;
                }
                now += dt;
                wall_ms += frame_ms;
                if now >= key && seen.is_none() {
                    seen = Some(wall_ms);
                }
            }
            let seen = seen.expect("the moment is reached");
            assert!((800.0..3_500.0).contains(&seen), "{}: moment after {seen} ms", pain.id());
            assert!(wall_ms < 10_000.0, "{}: played in {wall_ms} ms", pain.id());
            assert_eq!(slow, 2_800, "{}: every microsecond around the moment in slow motion", pain.id());
        }
    }

    /// The rows' stale cells as "holder: partitions".
    fn stale(pain: Pain, at: Micros) -> Vec<String> {
        let mut zk = pain.cluster();
        zk.run_until(at);
        copies(&zk)
            .iter()
            .filter(|r| r.stale.contains(&true))
            .map(|r| format!("{}: {}", r.holder, r.stale.iter().filter(|s| **s).count()))
            .collect()
    }

    /// KAFKA-2722 (the leader's 5 s propagation blackout) and KIP-497 (whose motivation is this
    /// path: the leader writes ZooKeeper, the controller learns through a notification).
    #[test]
    fn an_isr_shrink_reaches_zookeeper_first_the_controller_seconds_later_and_the_caches_last() {
        let (key, end) = Pain::StaleCache.moments();
        assert!(key > FAULT_AT + 10_000 * MS, "replica.lag.time.max.ms after the stall");
        assert_eq!(stale(Pain::StaleCache, key - 1), Vec::<String>::new(), "all agree before");
        let after = stale(Pain::StaleCache, end);
        let holders: Vec<&str> = after.iter().map(|row| row.split(':').next().unwrap_or("")).collect();
        let controller = holders.iter().filter(|h| h.starts_with("controller")).count();
        let caches = holders.iter().filter(|h| h.ends_with("'s cache")).count();
        assert_eq!((controller, caches), (1, BROKERS as usize), "every copy but ZooKeeper's: {after:?}");

        let mut zk = Pain::StaleCache.cluster();
        let trace = zk.run_until(end + 20_000 * MS);
        let at = |found: &dyn Fn(&TraceKind) -> bool| trace.iter().find(|l| found(&l.kind)).map(|l| l.at);
        let shrunk = at(&|k| matches!(k, TraceKind::IsrShrunk { .. })).expect("a shrink");
        let propagated =
            at(&|k| matches!(k, TraceKind::IsrChangePropagation { path: Some(_), .. })).expect("propagated");
        let learned = at(&|k| {
            matches!(k, TraceKind::Controller { finished: Some(Finished::IsrChangesRead { .. }), .. })
        })
        .expect("the controller reads the notification");
        let pushed = at(&|k| matches!(k, TraceKind::Applied { completes: Some(PushDone::Change), .. }))
            .expect("every broker has the change");
        let blackout = super::super::isr::PROPAGATION_BLACKOUT;
        assert!(propagated > shrunk + blackout, "{shrunk} -> {propagated}");
        assert!(learned > propagated && pushed > learned, "{propagated} -> {learned} -> {pushed}");
        let mut zk = Pain::StaleCache.cluster();
        zk.run_until(learned);
        let first: Vec<usize> = trace
            .iter()
            .find_map(|l| match &l.kind {
                TraceKind::IsrShrunk { partitions, .. } => {
                    Some(partitions.iter().map(|p| *p as usize).collect())
                }
                _ => None,
            })
            .unwrap_or_default();
        let rows = copies(&zk);
        let agrees = |row: &super::CopyRow| first.iter().all(|p| !row.stale[*p]);
        assert!(!first.is_empty() && agrees(&rows[1]), "the controller learned {first:?}: {:?}", rows[1]);
        assert!(rows[2..].iter().all(|r| first.iter().all(|p| r.stale[*p])), "the caches not yet");
        zk.run_until(end + 20_000 * MS);
        assert!(copies(&zk).iter().all(|r| !r.stale.contains(&true)), "all agree once pushed");
    }

    #[test]
    fn a_death_is_seen_by_every_copy_once_applied() {
        assert_eq!(stale(Pain::WatchStorm, Pain::WatchStorm.moments().1), Vec::<String>::new());
        let zk = Pain::SplitLiveness.cluster();
        let (_, cut) = Pain::SplitLiveness.brokers(&zk);
        let after = stale(Pain::SplitLiveness, Pain::SplitLiveness.moments().1);
        assert_eq!(after.len(), 1, "only the cut-off broker's cache is behind: {after:?}");
        assert!(after[0].starts_with(&format!("b{}'s", cut.unwrap())));
        let mut zk = Pain::SplitLiveness.cluster();
        zk.run_until(Pain::SplitLiveness.moments().1);
        let drawn = super::picture(&zk, &copies(&zk));
        let fresh = |id| drawn.brokers.iter().find(|b| b.id == id).unwrap().fresh;
        assert!(fresh(cut.unwrap()) < 1.0, "the cut-off broker is drawn with a stale cache");
        assert!(drawn.brokers.iter().filter(|b| b.alive && b.id != cut.unwrap()).all(|b| b.fresh == 1.0));
    }
}

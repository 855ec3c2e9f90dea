//! ZooKeeper mode's pains besides the cold load, each a small scripted cluster the page plays
//! beside what KRaft does in the same situation: a lost UpdateMetadata leaves three copies of
//! the truth disagreeing, a broker cut off from the controller stays alive to ZooKeeper, and a
//! broker's death fires watches and znode writes one by one. `tests/zk_traces/` holds the traces.

use super::cluster::ZkCluster;
use super::config::ZkClusterConfig;
use super::costs::{MILESTONE_SPEED, ZkCosts};
use super::partition::{BrokerId, PartitionState};
use super::picture::ZkPicture;
use super::trace::TraceKind;
use crate::harness::{MS, Micros};
use crate::playback::{Pace, WAIT_SPEED};

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
    /// A lost UpdateMetadata: ZooKeeper, the controller and one broker's cache disagree.
    StaleCache,
    /// A broker cut off from the controller keeps its ZooKeeper session: alive to one, not the other.
    SplitLiveness,
    /// A broker's death: watches fire and every affected partition's znode is written one by one.
    WatchStorm,
}

impl Pain {
    pub const ALL: [Pain; 3] = [Pain::StaleCache, Pain::SplitLiveness, Pain::WatchStorm];

    /// The scenario name (`?scenario=`).
    pub fn id(self) -> &'static str {
        match self {
            Pain::StaleCache => "zk-stale-cache",
            Pain::SplitLiveness => "zk-liveness",
            Pain::WatchStorm => "zk-watch-storm",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Pain::StaleCache => "Three copies of the truth",
            Pain::SplitLiveness => "Two notions of liveness",
            Pain::WatchStorm => "A broker's death, znode by znode",
        }
    }

    /// The seed of its cluster (the one `tests/zk_traces/` expects).
    fn seed(self) -> u64 {
        match self {
            Pain::StaleCache => 21,
            Pain::SplitLiveness => 8,
            Pain::WatchStorm => 11,
        }
    }

    /// The brokers the fault is about: the one that dies, and (for the first two) the one whose
    /// view goes wrong; neither is the controller.
    pub fn brokers(self, zk: &ZkCluster) -> (BrokerId, Option<BrokerId>) {
        let controller = zk.controller().map(|(id, _)| id);
        let others: Vec<BrokerId> = (0..BROKERS).filter(|b| Some(*b) != controller).collect();
        match self {
            Pain::StaleCache => (others[0], Some(others[1])),
            Pain::SplitLiveness => (others[1], Some(others[0])),
            Pain::WatchStorm => (others[0], None),
        }
    }

    /// Its cluster, healthy, with the fault scheduled at [`FAULT_AT`].
    pub fn cluster(self) -> ZkCluster {
        let config = ZkClusterConfig::single_partition_topics(PARTITIONS, BROKERS, ZkCosts::async_reads());
        let mut zk = ZkCluster::new(config, self.seed()).expect("a valid small cluster");
        let (dies, wronged) = self.brokers(&zk);
        let scheduled = match (self, wronged) {
            (Pain::StaleCache, Some(stale)) => zk.drop_next_update_metadata(stale, FAULT_AT),
            (Pain::SplitLiveness, Some(cut)) => zk.cut_off_from_controller(cut, FAULT_AT),
            _ => Ok(()),
        };
        scheduled.and_then(|()| zk.kill_broker(dies, FAULT_AT)).expect("known brokers");
        zk
    }

    /// When the moment it is about happens (the dead broker's session expires, its
    /// `/brokers/ids` znode goes and the watches fire), and when the page stops playing it.
    pub fn moments(self) -> (Micros, Micros) {
        let mut zk = self.cluster();
        let key = std::iter::from_fn(|| zk.step())
            .find(|l| matches!(l.kind, TraceKind::SessionExpired { .. }))
            .map_or(FAULT_AT, |l| l.at);
        (key, key + AFTERMATH)
    }

    /// What KRaft does in the same situation.
    pub fn kraft_answer(self) -> &'static str {
        match self {
            Pain::StaleCache => {
                "KRaft keeps one copy of the truth, the metadata log. Nothing is pushed, so nothing can be lost on the way: a broker that misses a response fetches again from its own offset, and its image is a replay of the same records."
            }
            Pain::SplitLiveness => {
                "KRaft has one notion of liveness: a broker is alive while its heartbeats reach the active controller. Cut off from it, the broker is fenced after broker.session.timeout.ms (9 s), and the fence is a record every broker replays."
            }
            Pain::WatchStorm => {
                "KRaft has no watches and no znodes: the active controller appends one batch (the broker's fence and a PartitionChangeRecord per affected partition) to the log, and every broker fetches it as one delta."
            }
        }
    }

    /// The guided-tour step (1-based) that shows KRaft doing it, live.
    pub fn kraft_step(self) -> usize {
        match self {
            Pain::StaleCache => 8,
            Pain::SplitLiveness | Pain::WatchStorm => 13,
        }
    }
}

/// The page's pace for a pain whose moment is at `key_at`, at `now`: a time-lapse through
/// the wait for the session to expire, slow motion from just before it through the few
/// milliseconds in which the watches fire and the writes and pushes go out (each message takes
/// 0.6 s of wall time to cross), then a time-lapse through the quiet aftermath.
pub fn pace(key_at: Micros, now: Micros) -> Pace {
    const LEAD: Micros = 300;
    const MILESTONE: Micros = 2_500;
    let (slow_from, slow_until) = (key_at.saturating_sub(LEAD), key_at + MILESTONE);
    if now < slow_from {
        Pace { speed: WAIT_SPEED, until: Some(slow_from) }
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
    use super::{FAULT_AT, Micros, Pain, copies, pace};

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

    #[test]
    fn a_lost_update_leaves_one_cache_disagreeing_cell_by_cell_and_the_others_agree() {
        let key = Pain::StaleCache.moments().0;
        assert!(key > FAULT_AT, "the session expires after the crash");
        assert_eq!(stale(Pain::StaleCache, key - 1), Vec::<String>::new(), "all agree before");
        let after = stale(Pain::StaleCache, Pain::StaleCache.moments().1);
        let zk = Pain::StaleCache.cluster();
        let (_, wronged) = Pain::StaleCache.brokers(&zk);
        assert_eq!(after.len(), 1, "{after:?}");
        assert!(after[0].starts_with(&format!("b{}'s cache: ", wronged.unwrap())), "{after:?}");
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

//! The bridge release chapter's questions. Each step opens a migration scenario just before one
//! of its moments ([`super::stories::MigrationScript`]) and asks what comes next; the options
//! are read from the migration at that moment, and the answer from the trace the scenario then
//! plays (the first line that answers it), never typed in, as the cluster steps' are
//! ([`super::predictions`]).

use crate::harness::Micros;
use crate::migration::driver::DriverNote;
use crate::migration::picture::MigrationPicture;
use crate::migration::sim::{MigrationSim, TraceKind, TraceLine};
use crate::migration::state::MigrationDriverState;
use crate::zk::BrokerId;

use super::predictions::WordedOutcome;
use super::stories::{self, MigrationScript, Story};

/// What a question asks for, and so how it is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MigrationAsk {
    /// Where this ZooKeeper-mode broker's metadata comes from once the KRaft controller has
    /// claimed `/controller`: the first update it applies after the claim.
    MetadataFrom { broker: BrokerId },
    /// What the next active controller's driver does about the migration: the first of a new
    /// copy, going on toward dual-write, or finding nothing it can do.
    NextDriver,
    /// The `/controller_epoch` ZooKeeper's next controller takes.
    NextZkEpoch,
    /// Whether ZooKeeper's next controller finds partition states written at a controller epoch
    /// above its own.
    StatesAboveItsEpoch,
}

/// One question of the chapter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MigrationPrediction {
    /// The tour step (story id) it belongs to; the step opens its migration at the question.
    pub story: &'static str,
    pub question: &'static str,
    pub ask: MigrationAsk,
    /// Why it goes the way it goes: said with the verdict.
    pub why: &'static str,
}

const FROM_KRAFT: &str = "UpdateMetadata and LeaderAndIsr from the KRaft controller";
const FROM_ZK_CONTROLLER: &str = "UpdateMetadata and LeaderAndIsr from the ZooKeeper-mode controller";
const FETCHES: &str = "it fetches __cluster_metadata, as a KRaft broker does";
const COPIES_AGAIN: &str = "it copies ZooKeeper into the log again";
const GOES_ON: &str = "it records the copy in /migration and goes on to dual-write";
const STOPS: &str = "nothing: back to INACTIVE, until an operator acts";

/// The chapter's questions, in tour order.
pub const MIGRATION_PREDICTIONS: [MigrationPrediction; 4] = [
    MigrationPrediction {
        story: "bridge-dual-write",
        question: "Once the KRaft controller has claimed /controller, where does broker 1, still in ZooKeeper mode, get its metadata from?",
        ask: MigrationAsk::MetadataFrom { broker: 1 },
        why: "A ZooKeeper-mode broker cannot read the log. The KRaft controller speaks to it as a ZooKeeper-mode controller would: KRaftMigrationDriver sends full UpdateMetadata and LeaderAndIsr requests through its LegacyPropagator, with the /controller_epoch it claimed, and after that each change. Only a broker restarted as a KRaft broker fetches __cluster_metadata.",
    },
    MigrationPrediction {
        story: "bridge-stranded",
        question: "The copy is committed to the log, but /migration never recorded it. When ZooKeeper is back, what will the next active controller's driver do?",
        ask: MigrationAsk::NextDriver,
        why: "The driver reads two records of the copy, and they disagree: the log's ZkMigrationStateRecord says MIGRATION (the copy is done, so never copy again) and /migration holds no offset (so it cannot tell what ZooKeeper was written up to). KRaftMigrationDriver's WaitForControllerQuorumEvent has no branch for that and goes back to INACTIVE.",
    },
    MigrationPrediction {
        story: "bridge-rollback",
        question: "After the rollback, which controller epoch will ZooKeeper's new controller take?",
        ask: MigrationAsk::NextZkEpoch,
        why: "A ZooKeeper-mode controller always takes /controller_epoch plus one (KafkaZkClient.registerControllerAndIncrementControllerEpoch). The KRaft controller's claim left its own ZooKeeper epoch there, so the new controller's epoch is higher than any the brokers have seen, and they obey it. The KRaft quorum's epoch is another counter.",
    },
    MigrationPrediction {
        story: "bridge-rollback-hazard",
        question: "After the rollback, will ZooKeeper's new controller find partition states written at a controller epoch above its own?",
        ask: MigrationAsk::StatesAboveItsEpoch,
        why: "Dual-write stamps each partition state znode with the KRaft quorum's epoch as its controller_epoch (ZkTopicMigrationClient.partitionStatePathAndData), and after many KRaft elections that is above the new ZooKeeper controller's epoch. Its PartitionStateMachine then refuses those states as written by a newer controller and aborts their elections: KAFKA-20488.",
    },
];

/// The question of this tour step, if it has one.
pub fn for_story(id: &str) -> Option<&'static MigrationPrediction> {
    MIGRATION_PREDICTIONS.iter().find(|p| p.story == id)
}

impl MigrationPrediction {
    /// The tour step it belongs to.
    pub fn story(&self) -> &'static Story {
        stories::find(self.story).expect("every migration prediction names a tour step")
    }

    /// The step's migration and the moment it opens at.
    pub fn script(&self) -> MigrationScript {
        self.story().migration.expect("a migration step names its scenario")
    }

    /// The question as a run plays it: `trace`, the whole run's; `asking`, the migration at
    /// the step's opening moment. `None` where the run never reaches the moment or the answer.
    pub fn outcome(&self, trace: &[TraceLine], asking: &MigrationSim) -> Option<WordedOutcome> {
        let asks_at = self.script().opens_at(trace)?;
        let after = trace.iter().filter(|line| line.at >= asks_at);
        let picture = MigrationPicture::of(asking);
        let (zk_epoch, kraft_epoch) = (picture.zk.controller_epoch, picture.kraft_epoch);
        let epoch_label = |epoch: u32| match epoch {
            e if e == zk_epoch + 1 => format!("epoch {e}, one above /controller_epoch"),
            e if e == zk_epoch => format!("epoch {e}, the one in /controller_epoch"),
            e if i64::from(e) == i64::from(kraft_epoch) => format!("epoch {e}, the KRaft quorum's"),
            e => format!("epoch {e}"),
        };
        let yes = |yes: bool| if yes { "yes" } else { "no" }.to_string();
        let (options, found): (Vec<String>, Option<(String, Micros)>) = match self.ask {
            MigrationAsk::MetadataFrom { broker } => {
                let options = [FROM_KRAFT, FROM_ZK_CONTROLLER, FETCHES].map(String::from).to_vec();
                (options, metadata_from(after, broker))
            }
            MigrationAsk::NextDriver => {
                let options = [COPIES_AGAIN, GOES_ON, STOPS].map(String::from).to_vec();
                (options, next_driver(after))
            }
            MigrationAsk::NextZkEpoch => {
                let mut epochs = vec![kraft_epoch.max(0) as u32, zk_epoch, zk_epoch + 1];
                epochs.sort_unstable();
                epochs.dedup();
                let found = after.into_iter().find_map(|line| match line.kind {
                    TraceKind::ZkControllerElected { zk_epoch, .. } => Some((epoch_label(zk_epoch), line.at)),
                    _ => None,
                });
                (epochs.into_iter().map(epoch_label).collect(), found)
            }
            MigrationAsk::StatesAboveItsEpoch => {
                let found = after.into_iter().find_map(|line| match line.kind {
                    TraceKind::ZkControllerElected { above_epoch, .. } => {
                        Some((yes(above_epoch > 0), line.at))
                    }
                    _ => None,
                });
                (vec![yes(true), yes(false)], found)
            }
        };
        let (answer, at) = found?;
        Some(WordedOutcome { asks_at, options, answer, at })
    }
}

/// The first update broker `broker` applies after the KRaft controller's claim, and whose it
/// was: a request at the epoch the driver claimed is the KRaft controller's.
fn metadata_from<'a>(
    mut after: impl Iterator<Item = &'a TraceLine>,
    broker: BrokerId,
) -> Option<(String, Micros)> {
    let claimed = after.find_map(|line| match &line.kind {
        TraceKind::Driver { note: DriverNote::Claimed { zk_controller_epoch }, .. } => {
            Some(*zk_controller_epoch)
        }
        _ => None,
    })?;
    after.find_map(|line| {
        let from = match line.kind {
            TraceKind::RpcApplied { broker: b, zk_epoch, .. } if b == broker => {
                if i64::from(zk_epoch) == i64::from(claimed) { FROM_KRAFT } else { FROM_ZK_CONTROLLER }
            }
            TraceKind::Fetched { broker: b, .. } if b == broker => FETCHES,
            _ => return None,
        };
        Some((from.to_string(), line.at))
    })
}

/// What the next driver does first: copy again, go on toward dual-write, or find nothing to do.
fn next_driver<'a>(after: impl Iterator<Item = &'a TraceLine>) -> Option<(String, Micros)> {
    after.into_iter().find_map(|line| {
        let did = match &line.kind {
            TraceKind::Driver { note: DriverNote::CopyStarted, .. } => COPIES_AGAIN,
            TraceKind::Driver {
                note: DriverNote::Transition { to: MigrationDriverState::SyncKraftToZk, .. },
                ..
            } => GOES_ON,
            TraceKind::Driver { note: DriverNote::NothingToMigrate { .. }, .. } => STOPS,
            _ => return None,
        };
        Some((did.to_string(), line.at))
    })
}

//! The cluster to migrate, its costs, the deliberate bugs, and the operator's steps and faults.

use super::*;

/// Deliberate bugs that break the migration's invariants (`--sabotage`), each in the code it
/// breaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MigrationSabotage {
    /// `handleDelta` forgets the last partition of each change.
    pub dual_write_drops_a_partition: bool,
    /// The copy writes every partition's leader epoch as 0, as for a missing state znode.
    pub copy_resets_leader_epochs: bool,
    /// `maybeFenceStaleBroker` runs in PRE_MIGRATION (the write gate lets it through).
    pub fence_in_premigration: bool,
    /// An ISR shrink keeps the leader epoch while ZooKeeper-mode brokers may register (Kafka
    /// 3.9 before `triggerLeaderEpochBumpForIsrShrinkIfNeeded`, and this model before #62).
    pub isr_shrink_keeps_leader_epoch: bool,
}

impl MigrationSabotage {
    /// The names accepted by `--sabotage`, each with what it breaks.
    pub const NAMES: [(&'static str, &'static str); 4] = [
        ("dual-write-drops-a-partition", "dual-write forgets the last partition of each change"),
        ("copy-resets-leader-epochs", "the copy writes every leader epoch as 0"),
        ("fence-in-premigration", "fence stale brokers while the log says PRE_MIGRATION"),
        ("isr-shrink-keeps-leader-epoch", "an ISR shrink in migration keeps the partition's leader epoch"),
    ];

    /// Switch on the bug with this `--sabotage` name; false if it names none of these.
    pub fn enable(&mut self, name: &str) -> bool {
        match name {
            "dual-write-drops-a-partition" => self.dual_write_drops_a_partition = true,
            "copy-resets-leader-epochs" => self.copy_resets_leader_epochs = true,
            "fence-in-premigration" => self.fence_in_premigration = true,
            "isr-shrink-keeps-leader-epoch" => self.isr_shrink_keeps_leader_epoch = true,
            _ => return false,
        }
        true
    }
}

/// A cluster to migrate, and the costs it runs at.
#[derive(Clone, Debug)]
pub struct MigrationConfig {
    /// ZooKeeper-mode brokers, ids from 0.
    pub brokers: u32,
    pub topics: u32,
    pub partitions_per_topic: u32,
    pub replication_factor: u32,
    /// KRaft controllers, ids from [`FIRST_CONTROLLER_ID`].
    pub controllers: u32,
    /// The ensemble's and the network's costs (Kafka 1.1 on: pipelined requests).
    pub costs: ZkCosts,
    /// From a record's append to its commit (estimate: a Fetch round to a majority and an fsync
    /// on a LAN).
    pub commit_latency: Micros,
    /// How long a process takes to stop and start again in a roll (estimate).
    pub restart: Micros,
    /// Check the invariants after every event.
    pub checked: bool,
    pub sabotage: MigrationSabotage,
}

impl MigrationConfig {
    /// A small cluster for scenarios and the sweep: 4 brokers, 6 topics of 2 partitions, 3
    /// replicas each, 3 controllers.
    pub fn small() -> MigrationConfig {
        MigrationConfig {
            brokers: 4,
            topics: 6,
            partitions_per_topic: 2,
            replication_factor: 3,
            controllers: 3,
            // 3.9's `zookeeper.session.timeout.ms` is 18 s (`ZkConfigs.ZK_SESSION_TIMEOUT_MS`,
            // since KIP-537 in 2.5), not the 6 s of the ZooKeeper-mode models' Kafka 2.4.
            costs: ZkCosts { zk_session_timeout: 18_000 * MS, ..ZkCosts::async_reads() },
            commit_latency: 5 * MS,
            restart: 5_000 * MS,
            checked: true,
            sabotage: MigrationSabotage::default(),
        }
    }

    pub fn partitions(&self) -> u32 {
        self.topics * self.partitions_per_topic
    }
}

/// An operator's step, or a fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Start the KRaft controllers with `zookeeper.metadata.migration.enable=true`.
    ProvisionControllers,
    /// Restart a broker with the migration flag and the quorum's address.
    BrokerToMigrationMode(BrokerId),
    /// Restart a broker as a KRaft broker (`process.roles=broker`).
    BrokerToKraft(BrokerId),
    /// Roll the controllers without the migration flag.
    Finalize,
    /// Kafka's documented rollback, once no broker runs in KRaft mode (the guide's first roll
    /// restarts each in migration mode): the controllers deprovisioned, then `/controller` and
    /// `/migration` deleted, so that a broker in migration mode is elected ZooKeeper-mode
    /// controller at once. The brokers are then rolled with [`Action::BrokerToZkMode`].
    RollBack,
    /// After a rollback, restart a broker without the migration flag (the guide's last roll).
    BrokerToZkMode(BrokerId),
    /// The active KRaft controller's process dies (restarted `restart` later).
    KillActiveController,
    /// The ensemble is unreachable for this long.
    ZkOutage { lasting: Micros },
    /// A broker's process dies.
    KillBroker(BrokerId),
    /// A dead broker starts again, in the mode it had.
    RestartBroker(BrokerId),
    /// A broker's link to the ensemble is cut for [`ZK_CUT`], longer than its session timeout:
    /// the ensemble expires its session, deleting its ephemeral znodes; when the link returns,
    /// its client finds the session gone and opens a new one.
    CutFromZk(BrokerId),
}

impl Action {
    /// Its short name in a link (`ops=` of a shared migration): `provision`, `migrate-0`,
    /// `kraft-0`, `finalize`, `rollback`, `zk-mode-0`, `kill-controller`, `zk-outage-30000`,
    /// `kill-0`, `restart-0`, `zk-cut-0`.
    #[cfg(feature = "full")]
    pub(crate) fn code(&self) -> String {
        match self {
            Action::ProvisionControllers => "provision".into(),
            Action::BrokerToMigrationMode(b) => format!("migrate-{b}"),
            Action::BrokerToKraft(b) => format!("kraft-{b}"),
            Action::Finalize => "finalize".into(),
            Action::RollBack => "rollback".into(),
            Action::BrokerToZkMode(b) => format!("zk-mode-{b}"),
            Action::KillActiveController => "kill-controller".into(),
            Action::ZkOutage { lasting } => format!("zk-outage-{}", lasting / MS),
            Action::KillBroker(b) => format!("kill-{b}"),
            Action::RestartBroker(b) => format!("restart-{b}"),
            Action::CutFromZk(b) => format!("zk-cut-{b}"),
        }
    }

    /// The action [`Action::code`] names.
    #[cfg(feature = "full")]
    pub(crate) fn from_code(code: &str) -> Option<Action> {
        let numbered = |prefix: &str| code.strip_prefix(prefix).and_then(|n| n.parse::<u32>().ok());
        Some(match code {
            "provision" => Action::ProvisionControllers,
            "finalize" => Action::Finalize,
            "rollback" => Action::RollBack,
            "kill-controller" => Action::KillActiveController,
            _ => {
                if let Some(ms) = numbered("zk-outage-") {
                    Action::ZkOutage { lasting: Micros::from(ms) * MS }
                } else if let Some(b) = numbered("migrate-") {
                    Action::BrokerToMigrationMode(b)
                } else if let Some(b) = numbered("kraft-") {
                    Action::BrokerToKraft(b)
                } else if let Some(b) = numbered("zk-mode-") {
                    Action::BrokerToZkMode(b)
                } else if let Some(b) = numbered("zk-cut-") {
                    Action::CutFromZk(b)
                } else if let Some(b) = numbered("kill-") {
                    Action::KillBroker(b)
                } else {
                    Action::RestartBroker(numbered("restart-")?)
                }
            }
        })
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::ProvisionControllers => write!(f, "provision the KRaft controllers in migration mode"),
            Action::BrokerToMigrationMode(b) => write!(f, "restart broker {b} in migration mode"),
            Action::BrokerToKraft(b) => write!(f, "restart broker {b} as a KRaft broker"),
            Action::Finalize => write!(f, "finalize: roll the controllers without the migration flag"),
            Action::RollBack => {
                write!(f, "roll back: deprovision the controllers, delete /controller and /migration")
            }
            Action::BrokerToZkMode(b) => {
                write!(f, "restart broker {b} in ZooKeeper mode, the migration flag removed")
            }
            Action::KillActiveController => write!(f, "kill the active KRaft controller"),
            Action::ZkOutage { lasting } => write!(f, "ZooKeeper unreachable for {} ms", lasting / MS),
            Action::KillBroker(b) => write!(f, "kill broker {b}"),
            Action::RestartBroker(b) => write!(f, "restart broker {b}"),
            Action::CutFromZk(b) => write!(f, "cut broker {b} off ZooKeeper for {} s", ZK_CUT / 1_000_000),
        }
    }
}

/// How long [`Action::CutFromZk`] cuts a broker off the ensemble: 2 s past 3.9's session
/// timeout (`zookeeper.session.timeout.ms`, 18 s), so that the session expires first.
pub const ZK_CUT: Micros = 20_000 * MS;

/// What a broker runs as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrokerMode {
    /// A ZooKeeper-mode broker.
    Zk,
    /// A ZooKeeper-mode broker with the migration flag: registered with KRaft too.
    Migrating,
    /// A KRaft broker.
    Kraft,
}

impl fmt::Display for BrokerMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BrokerMode::Zk => "ZooKeeper mode",
            BrokerMode::Migrating => "migration mode",
            BrokerMode::Kraft => "KRaft mode",
        })
    }
}

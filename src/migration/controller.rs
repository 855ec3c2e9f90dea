//! The Kafka 3.9 active controller's rules for a migration from ZooKeeper, which the 4.3.1
//! controller (`crate::metadata`) no longer has: what it writes when it activates
//! (`ActivationRecordsGenerator`), which writes it refuses while the log says PRE_MIGRATION
//! (`QuorumController.ControllerWriteEvent`, the `RUNS_IN_PREMIGRATION` flag), and which broker
//! registrations it refuses (`ClusterControlManager.registerBroker`).

use std::fmt;

use super::state::ZkMigrationState;

/// A write the active controller runs, named as `QuorumController` names its events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ControllerWrite {
    /// `completeActivation`: the records below.
    CompleteActivation,
    /// `writeNoOpRecord` (KIP-835).
    WriteNoOpRecord,
    RegisterBroker,
    ProcessBrokerHeartbeat,
    UnregisterBroker,
    RegisterController,
    /// `MigrationRecordConsumer`: the copy's transaction and batches.
    MigrationRecords,
    CreateTopics,
    DeleteTopics,
    AlterPartition,
    IncrementalAlterConfigs,
    ElectLeaders,
    AlterPartitionReassignments,
    CreateAcls,
    /// `maybeFenceStaleBroker`, the periodic fencing of brokers whose session expired.
    MaybeFenceStaleBroker,
}

impl ControllerWrite {
    pub const ALL: [ControllerWrite; 15] = [
        ControllerWrite::CompleteActivation,
        ControllerWrite::WriteNoOpRecord,
        ControllerWrite::RegisterBroker,
        ControllerWrite::ProcessBrokerHeartbeat,
        ControllerWrite::UnregisterBroker,
        ControllerWrite::RegisterController,
        ControllerWrite::MigrationRecords,
        ControllerWrite::CreateTopics,
        ControllerWrite::DeleteTopics,
        ControllerWrite::AlterPartition,
        ControllerWrite::IncrementalAlterConfigs,
        ControllerWrite::ElectLeaders,
        ControllerWrite::AlterPartitionReassignments,
        ControllerWrite::CreateAcls,
        ControllerWrite::MaybeFenceStaleBroker,
    ];

    /// Whether it carries `RUNS_IN_PREMIGRATION`: only activation, the no-op record, broker and
    /// controller registrations, heartbeats and the copy itself.
    pub(crate) fn runs_in_premigration(self) -> bool {
        matches!(
            self,
            ControllerWrite::CompleteActivation
                | ControllerWrite::WriteNoOpRecord
                | ControllerWrite::RegisterBroker
                | ControllerWrite::ProcessBrokerHeartbeat
                | ControllerWrite::UnregisterBroker
                | ControllerWrite::RegisterController
                | ControllerWrite::MigrationRecords
        )
    }
}

/// `ControllerWriteEvent.run`: while the log says PRE_MIGRATION, a write without
/// `RUNS_IN_PREMIGRATION` is answered NOT_CONTROLLER (`newPreMigrationException`), so clients
/// retry until the copy commits; no topic is created, no ISR changed, no broker fenced.
pub(crate) fn admits(write: ControllerWrite, log: ZkMigrationState) -> bool {
    log != ZkMigrationState::PreMigration || write.runs_in_premigration()
}

/// Why a broker registration is refused (`BrokerIdNotRegisteredException`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegistrationRefused {
    /// A ZooKeeper-mode broker, to a controller not in migration mode (or below 3.4's
    /// metadata.version).
    ZkBrokersNotAllowed,
    /// A KRaft broker before the copy has committed.
    KRaftBrokerInPreMigration,
}

impl fmt::Display for RegistrationRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RegistrationRefused::ZkBrokersNotAllowed => "Controller does not support registering ZK brokers.",
            RegistrationRefused::KRaftBrokerInPreMigration => {
                "Controller is in pre-migration mode and cannot register KRaft brokers until the metadata migration is complete."
            }
        })
    }
}

/// What the controller is configured and able to do: `zookeeper.metadata.migration.enable`,
/// and whether its metadata.version has migrations (3.4-IV0 on) and metadata transactions
/// (3.6-IV1 on, KIP-868).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ControllerMigration {
    pub enabled: bool,
    pub version_migrates: bool,
    pub version_has_transactions: bool,
}

impl ControllerMigration {
    /// `ClusterControlManager.registerBroker`'s migration checks, for a broker that says whether
    /// it is a ZooKeeper-mode broker in migration mode (`IsMigratingZkBroker`).
    pub(crate) fn admits_registration(
        &self,
        migrating_zk_broker: bool,
        log: ZkMigrationState,
    ) -> Result<(), RegistrationRefused> {
        if migrating_zk_broker && !(self.enabled && self.version_migrates) {
            return Err(RegistrationRefused::ZkBrokersNotAllowed);
        }
        if !migrating_zk_broker && log == ZkMigrationState::PreMigration {
            return Err(RegistrationRefused::KRaftBrokerInPreMigration);
        }
        Ok(())
    }

    /// `ActivationRecordsGenerator.generate`: what a newly active controller writes, given
    /// whether the log is empty, where an unfinished metadata transaction began (if one did), and
    /// the migration state the log holds. `Err` is a controller that cannot activate (Kafka
    /// throws, a fatal fault).
    pub(crate) fn activation(
        &self,
        empty_log: bool,
        open_transaction: Option<i64>,
        log: ZkMigrationState,
    ) -> Result<Vec<ActivationRecord>, String> {
        let mut records = Vec::new();
        if open_transaction.is_some() {
            if !self.version_has_transactions {
                return Err("an unfinished transaction, but the metadata.version has none".into());
            }
            records.push(ActivationRecord::AbortTransaction { reason: "Controller failover" });
        }
        if empty_log {
            // recordsForEmptyLog: the bootstrap records, in a transaction where the version has
            // them, with the migration state a new cluster starts with.
            if self.version_has_transactions {
                records.push(ActivationRecord::BeginTransaction { name: "Bootstrap records" });
            }
            records.push(ActivationRecord::Bootstrap);
            match (self.version_has_transactions, self.enabled) {
                (true, true) => {
                    records.push(ActivationRecord::MigrationState(ZkMigrationState::PreMigration))
                }
                (true, false) => records.push(ActivationRecord::MigrationState(ZkMigrationState::None)),
                (false, true) => {
                    return Err("the bootstrap metadata.version does not support ZK migrations".into());
                }
                (false, false) => {}
            }
            if self.version_has_transactions {
                records.push(ActivationRecord::EndTransaction);
            }
            return Ok(records);
        }
        // recordsForNonEmptyLog: the log's migration state decides.
        if self.enabled && !self.version_migrates {
            return Err("ZK migrations enabled on a metadata.version without them".into());
        }
        if self.version_migrates {
            match log {
                ZkMigrationState::None if self.enabled => {
                    return Err("ZK migrations enabled on a cluster created in KRaft mode".into());
                }
                // A controller restarted without the flag after the copy: the migration is over.
                ZkMigrationState::Migration if !self.enabled => {
                    records.push(ActivationRecord::MigrationState(ZkMigrationState::PostMigration))
                }
                _ => {}
            }
        }
        Ok(records)
    }
}

/// A record activation writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActivationRecord {
    AbortTransaction {
        reason: &'static str,
    },
    BeginTransaction {
        name: &'static str,
    },
    /// The bootstrap records (`metadata.version` and the other features, SCRAM).
    Bootstrap,
    /// `ZkMigrationStateRecord`.
    MigrationState(ZkMigrationState),
    EndTransaction,
}

#[cfg(test)]
mod tests {
    use super::ActivationRecord::*;
    use super::*;

    const MIGRATING: ControllerMigration =
        ControllerMigration { enabled: true, version_migrates: true, version_has_transactions: true };
    const KRAFT: ControllerMigration = ControllerMigration { enabled: false, ..MIGRATING };

    #[test]
    fn in_pre_migration_only_registrations_heartbeats_no_ops_and_the_copy_are_written() {
        use ControllerWrite::*;
        let all = ControllerWrite::ALL;
        let refused: Vec<String> = all
            .into_iter()
            .filter(|w| !admits(*w, ZkMigrationState::PreMigration))
            .map(|w| format!("{w:?}"))
            .collect();
        let expected = "CreateTopics DeleteTopics AlterPartition IncrementalAlterConfigs ElectLeaders \
                        AlterPartitionReassignments CreateAcls MaybeFenceStaleBroker";
        assert_eq!(refused.join(" "), expected, "NOT_CONTROLLER until the copy commits");
        assert!(
            admits(RegisterBroker, ZkMigrationState::PreMigration)
                && admits(MigrationRecords, ZkMigrationState::PreMigration)
        );
        for state in [ZkMigrationState::None, ZkMigrationState::Migration, ZkMigrationState::PostMigration] {
            assert!(all.into_iter().all(|w| admits(w, state)), "{state:?}: every write runs");
        }
    }

    #[test]
    fn zookeeper_brokers_register_only_in_migration_mode_and_kraft_brokers_only_after_the_copy() {
        let pre = ZkMigrationState::PreMigration;
        assert_eq!(MIGRATING.admits_registration(true, pre), Ok(()));
        assert_eq!(
            MIGRATING.admits_registration(false, pre),
            Err(RegistrationRefused::KRaftBrokerInPreMigration)
        );
        assert_eq!(MIGRATING.admits_registration(false, ZkMigrationState::Migration), Ok(()));
        assert_eq!(
            KRAFT.admits_registration(true, ZkMigrationState::None),
            Err(RegistrationRefused::ZkBrokersNotAllowed)
        );
        let old = ControllerMigration { version_migrates: false, ..MIGRATING };
        assert_eq!(old.admits_registration(true, pre), Err(RegistrationRefused::ZkBrokersNotAllowed));
    }

    #[test]
    fn a_new_log_starts_in_pre_migration_or_none_inside_the_bootstrap_transaction() {
        let none = ZkMigrationState::None;
        assert_eq!(
            MIGRATING.activation(true, None, none),
            Ok(vec![
                BeginTransaction { name: "Bootstrap records" },
                Bootstrap,
                MigrationState(ZkMigrationState::PreMigration),
                EndTransaction
            ])
        );
        assert_eq!(
            KRAFT.activation(true, Some(3), none),
            Ok(vec![
                AbortTransaction { reason: "Controller failover" },
                BeginTransaction { name: "Bootstrap records" },
                Bootstrap,
                MigrationState(ZkMigrationState::None),
                EndTransaction
            ])
        );
        let before_3_6 = ControllerMigration { version_has_transactions: false, ..MIGRATING };
        assert!(before_3_6.activation(true, None, none).is_err(), "migrations need 3.6's transactions");
    }

    #[test]
    fn on_a_migrating_log_a_failover_aborts_the_copy_and_a_controller_without_the_flag_finalizes() {
        use super::ZkMigrationState as S;
        // A failover during the copy: the open transaction is aborted, the log stays PRE_MIGRATION.
        assert_eq!(
            MIGRATING.activation(false, Some(120), S::PreMigration),
            Ok(vec![AbortTransaction { reason: "Controller failover" }])
        );
        // In dual-write the flag keeps it MIGRATION; the first controller without it finalizes.
        assert_eq!(MIGRATING.activation(false, None, S::Migration), Ok(vec![]));
        assert_eq!(KRAFT.activation(false, None, S::Migration), Ok(vec![MigrationState(S::PostMigration)]));
        // After finalizing, the flag is ignored: no way back.
        assert_eq!(MIGRATING.activation(false, None, S::PostMigration), Ok(vec![]));
        assert!(MIGRATING.activation(false, None, S::None).is_err(), "a KRaft-born cluster cannot migrate");
    }
}

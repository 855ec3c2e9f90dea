//! The migration's states as Kafka 3.9 names them: the driver's (`MigrationDriverState`), the
//! metadata log's (`ZkMigrationState`, carried by `ZkMigrationStateRecord`) and what the active
//! controller knows of ZooKeeper and of its own progress (`ZkMigrationLeadershipState`, kept in
//! the `/migration` znode).

use std::fmt;

pub use crate::metadata::zk_migration::ZkMigrationState;

/// The KRaft migration driver's state (`org.apache.kafka.metadata.migration.MigrationDriverState`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MigrationDriverState {
    /// Initial state.
    Uninitialized,
    /// Not the active controller (or nothing to migrate).
    Inactive,
    /// Every controller of the quorum ready for the migration?
    WaitForControllerQuorum,
    /// Every ZooKeeper-mode broker registered with KRaft as migrating?
    WaitForBrokers,
    /// Claim `/controller` in ZooKeeper.
    BecomeController,
    /// The one-time copy of ZooKeeper's metadata into the log.
    ZkMigration,
    /// A full reconcile of ZooKeeper with the log's image.
    SyncKraftToZk,
    /// The first full push of state to the ZooKeeper-mode brokers.
    KraftControllerToBrokerComm,
    /// Every committed change written to ZooKeeper, then pushed to the ZooKeeper-mode brokers.
    DualWrite,
}

impl MigrationDriverState {
    pub const ALL: [MigrationDriverState; 9] = [
        MigrationDriverState::Uninitialized,
        MigrationDriverState::Inactive,
        MigrationDriverState::WaitForControllerQuorum,
        MigrationDriverState::WaitForBrokers,
        MigrationDriverState::BecomeController,
        MigrationDriverState::ZkMigration,
        MigrationDriverState::SyncKraftToZk,
        MigrationDriverState::KraftControllerToBrokerComm,
        MigrationDriverState::DualWrite,
    ];

    /// Kafka's name of the state.
    pub(crate) fn name(self) -> &'static str {
        match self {
            MigrationDriverState::Uninitialized => "UNINITIALIZED",
            MigrationDriverState::Inactive => "INACTIVE",
            MigrationDriverState::WaitForControllerQuorum => "WAIT_FOR_CONTROLLER_QUORUM",
            MigrationDriverState::WaitForBrokers => "WAIT_FOR_BROKERS",
            MigrationDriverState::BecomeController => "BECOME_CONTROLLER",
            MigrationDriverState::ZkMigration => "ZK_MIGRATION",
            MigrationDriverState::SyncKraftToZk => "SYNC_KRAFT_TO_ZK",
            MigrationDriverState::KraftControllerToBrokerComm => "KRAFT_CONTROLLER_TO_BROKER_COMM",
            MigrationDriverState::DualWrite => "DUAL_WRITE",
        }
    }

    /// Whether committed changes are written to ZooKeeper and pushed to its brokers in this state
    /// (`MigrationDriverState.allowDualWrite`): only from the first full push on.
    pub(crate) fn allow_dual_write(self) -> bool {
        matches!(self, MigrationDriverState::KraftControllerToBrokerComm | MigrationDriverState::DualWrite)
    }

    /// Whether the driver may go from `self` to `to` (`KRaftMigrationDriver.isValidStateChange`):
    /// staying is allowed; every state but UNINITIALIZED may fall back to INACTIVE; otherwise only
    /// forward along the migration, BECOME_CONTROLLER reached from the quorum check directly when
    /// the log already says MIGRATION, and SYNC_KRAFT_TO_ZK from it when the copy is done.
    pub(crate) fn is_valid_state_change(self, to: MigrationDriverState) -> bool {
        use MigrationDriverState::*;
        if self == to {
            return true;
        }
        if to == Uninitialized {
            return false;
        }
        match self {
            Uninitialized | DualWrite => to == Inactive,
            Inactive => to == WaitForControllerQuorum,
            WaitForControllerQuorum => matches!(to, Inactive | BecomeController | WaitForBrokers),
            WaitForBrokers => matches!(to, Inactive | BecomeController),
            BecomeController => matches!(to, Inactive | ZkMigration | SyncKraftToZk),
            ZkMigration => matches!(to, Inactive | SyncKraftToZk),
            SyncKraftToZk => matches!(to, Inactive | KraftControllerToBrokerComm),
            KraftControllerToBrokerComm => matches!(to, Inactive | DualWrite),
        }
    }
}

impl fmt::Display for MigrationDriverState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A log position: an offset and the leader epoch it was written in (`OffsetAndEpoch`), ordered
/// by offset, then epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct OffsetAndEpoch {
    pub offset: i64,
    pub epoch: i32,
}

/// ZooKeeper's "unknown version" (`ZkVersion.UnknownVersion`): a write with it is refused, so a
/// controller that has not claimed `/controller` writes nothing.
pub const UNKNOWN_ZK_VERSION: i32 = -2;

/// What the driver knows of the migration and of ZooKeeper (`ZkMigrationLeadershipState`): the
/// KRaft controller and epoch it works for, how far the log has been written to ZooKeeper
/// (kept in `/migration`, with that znode's version), and the ZooKeeper controller epoch it
/// claimed (with `/controller_epoch`'s version, unknown until a claim succeeds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZkMigrationLeadershipState {
    pub kraft_controller_id: i32,
    pub kraft_controller_epoch: i32,
    pub kraft_metadata: OffsetAndEpoch,
    pub migration_zk_version: i32,
    pub zk_controller_epoch: i32,
    pub zk_controller_epoch_zk_version: i32,
}

impl ZkMigrationLeadershipState {
    /// Before anything is known (`ZkMigrationLeadershipState.EMPTY`).
    pub const EMPTY: ZkMigrationLeadershipState = ZkMigrationLeadershipState {
        kraft_controller_id: -1,
        kraft_controller_epoch: -1,
        kraft_metadata: OffsetAndEpoch { offset: -1, epoch: -1 },
        migration_zk_version: -2,
        zk_controller_epoch: -1,
        zk_controller_epoch_zk_version: UNKNOWN_ZK_VERSION,
    };

    /// Whether the one-time copy has committed (`initialZkMigrationComplete`: `/migration`
    /// names a log offset).
    pub(crate) fn initial_zk_migration_complete(&self) -> bool {
        self.kraft_metadata.offset > 0
    }

    /// Working for another KRaft controller (`withNewKRaftController`).
    pub(crate) fn with_new_kraft_controller(self, id: i32, epoch: i32) -> Self {
        ZkMigrationLeadershipState { kraft_controller_id: id, kraft_controller_epoch: epoch, ..self }
    }

    /// Forgetting the ZooKeeper controller epoch claimed (`withUnknownZkController`): nothing is
    /// written to ZooKeeper until the next claim.
    pub(crate) fn with_unknown_zk_controller(self) -> Self {
        ZkMigrationLeadershipState {
            zk_controller_epoch: Self::EMPTY.zk_controller_epoch,
            zk_controller_epoch_zk_version: Self::EMPTY.zk_controller_epoch_zk_version,
            ..self
        }
    }

    /// With the ZooKeeper controller epoch claimed and its znode's version (`withZkController`).
    pub(crate) fn with_zk_controller(self, epoch: i32, zk_version: i32) -> Self {
        ZkMigrationLeadershipState {
            zk_controller_epoch: epoch,
            zk_controller_epoch_zk_version: zk_version,
            ..self
        }
    }

    /// With the log written to ZooKeeper up to `at` (`withKRaftMetadataOffsetAndEpoch`).
    pub(crate) fn with_kraft_metadata(self, at: OffsetAndEpoch) -> Self {
        ZkMigrationLeadershipState { kraft_metadata: at, ..self }
    }

    /// With `/migration`'s version (`withMigrationZkVersion`).
    pub(crate) fn with_migration_zk_version(self, version: i32) -> Self {
        ZkMigrationLeadershipState { migration_zk_version: version, ..self }
    }
}

#[cfg(test)]
mod tests {
    use super::MigrationDriverState::{self, *};
    use super::{OffsetAndEpoch, ZkMigrationLeadershipState};

    #[test]
    fn the_driver_moves_forward_along_the_migration_or_back_to_inactive_only() {
        // KRaftMigrationDriver.isValidStateChange, state by state.
        let allowed: [(MigrationDriverState, &[MigrationDriverState]); 9] = [
            (Uninitialized, &[Inactive]),
            (Inactive, &[WaitForControllerQuorum]),
            (WaitForControllerQuorum, &[Inactive, WaitForBrokers, BecomeController]),
            (WaitForBrokers, &[Inactive, BecomeController]),
            (BecomeController, &[Inactive, ZkMigration, SyncKraftToZk]),
            (ZkMigration, &[Inactive, SyncKraftToZk]),
            (SyncKraftToZk, &[Inactive, KraftControllerToBrokerComm]),
            (KraftControllerToBrokerComm, &[Inactive, DualWrite]),
            (DualWrite, &[Inactive]),
        ];
        for (from, to) in allowed {
            for state in MigrationDriverState::ALL {
                let expected = state == from || to.contains(&state);
                assert_eq!(from.is_valid_state_change(state), expected, "{from} -> {state}");
            }
        }
        let dual: Vec<_> = MigrationDriverState::ALL.into_iter().filter(|s| s.allow_dual_write()).collect();
        assert_eq!(dual, [KraftControllerToBrokerComm, DualWrite]);
        assert_eq!(KraftControllerToBrokerComm.to_string(), "KRAFT_CONTROLLER_TO_BROKER_COMM");
    }

    #[test]
    fn the_copy_is_complete_once_migration_names_a_log_offset() {
        let empty = ZkMigrationLeadershipState::EMPTY;
        assert!(!empty.initial_zk_migration_complete());
        let copied = empty.with_kraft_metadata(OffsetAndEpoch { offset: 230, epoch: 1 });
        assert!(copied.initial_zk_migration_complete());
        let claimed = copied.with_new_kraft_controller(3000, 2).with_zk_controller(7, 6);
        assert_eq!((claimed.zk_controller_epoch, claimed.kraft_controller_id), (7, 3000));
        let lost = claimed.with_unknown_zk_controller();
        assert_eq!((lost.zk_controller_epoch, lost.zk_controller_epoch_zk_version), (-1, -2));
        assert_eq!(lost.kraft_metadata.offset, 230, "the copy stays done");
        assert!(OffsetAndEpoch { offset: 5, epoch: 1 } < OffsetAndEpoch { offset: 5, epoch: 2 });
    }
}

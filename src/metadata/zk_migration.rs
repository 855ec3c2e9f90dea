//! Where a metadata log says a migration from ZooKeeper stands: the value of its
//! `ZkMigrationStateRecord` (apiKey 21), as Kafka names it. A record's enum, so it lives with
//! the records: the log reader needs it, and the migration (`crate::migration`) runs it.

/// Where the metadata log says the migration stands (`ZkMigrationState`, the value of the
/// `ZkMigrationStateRecord`, apiKey 21; PRE_MIGRATION and MIGRATION were swapped in 3.5 for
/// 3.4's sake, hence the values).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ZkMigrationState {
    /// A KRaft cluster that never was a ZooKeeper one.
    #[default]
    None,
    /// The controllers are provisioned in migration mode; the copy has not committed.
    PreMigration,
    /// The copy committed: KRaft leads, ZooKeeper is written behind it.
    Migration,
    /// Finalized: ZooKeeper is no longer written, and no rollback exists.
    PostMigration,
    /// A metric's value for a controller still in ZooKeeper mode; Kafka's `ZkMigrationState.of`
    /// reads it from a record all the same.
    Zk,
}

impl ZkMigrationState {
    /// The byte the record carries.
    pub(crate) fn value(self) -> u8 {
        match self {
            ZkMigrationState::None => 0,
            ZkMigrationState::Migration => 1,
            ZkMigrationState::PreMigration => 2,
            ZkMigrationState::PostMigration => 3,
            ZkMigrationState::Zk => 4,
        }
    }

    /// The state a record's byte names (`ZkMigrationState.optionalOf`), if any.
    pub fn of(value: i64) -> Option<ZkMigrationState> {
        [
            ZkMigrationState::None,
            ZkMigrationState::Migration,
            ZkMigrationState::PreMigration,
            ZkMigrationState::PostMigration,
            ZkMigrationState::Zk,
        ]
        .into_iter()
        .find(|s| i64::from(s.value()) == value)
    }

    /// What the state means for the cluster whose log holds it, in a few words.
    pub(crate) fn meaning(self) -> &'static str {
        match self {
            ZkMigrationState::None => "a KRaft cluster from the start",
            ZkMigrationState::PreMigration => {
                "controllers provisioned to migrate from ZooKeeper; its metadata not copied yet"
            }
            ZkMigrationState::Migration => {
                "copied from ZooKeeper, which is still written behind the log (dual-write) until finalized"
            }
            ZkMigrationState::PostMigration => "migrated from ZooKeeper and finalized: no rollback",
            ZkMigrationState::Zk => "a ZooKeeper-mode controller's state (a metric's value)",
        }
    }

    /// Kafka's name of the state.
    pub fn name(self) -> &'static str {
        match self {
            ZkMigrationState::None => "NONE",
            ZkMigrationState::PreMigration => "PRE_MIGRATION",
            ZkMigrationState::Migration => "MIGRATION",
            ZkMigrationState::PostMigration => "POST_MIGRATION",
            ZkMigrationState::Zk => "ZK",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ZkMigrationState;

    #[test]
    fn the_logs_migration_states_carry_kafkas_values() {
        let states = [
            ZkMigrationState::None,
            ZkMigrationState::PreMigration,
            ZkMigrationState::Migration,
            ZkMigrationState::PostMigration,
        ];
        let values: Vec<u8> = states.iter().map(|s| s.value()).collect();
        assert_eq!(values, [0, 2, 1, 3], "PRE_MIGRATION and MIGRATION swapped in 3.5");
        for state in states.into_iter().chain([ZkMigrationState::Zk]) {
            assert_eq!(ZkMigrationState::of(i64::from(state.value())), Some(state));
        }
        assert_eq!(ZkMigrationState::of(5), None);
        assert_eq!(ZkMigrationState::of(-1), None);
    }
}

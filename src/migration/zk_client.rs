//! What the migration driver does to ZooKeeper, as Kafka 3.9's `KafkaZkClient` does it for
//! `ZkMigrationClient`: the claim of `/controller` in one multi, the `/migration` znode, and the
//! fence around every later write (each one a multi that first checks `/controller_epoch` at the
//! version the claim left and `/migration` at its own, so a controller that lost its claim, or
//! wrote behind another one's back, writes nothing).

use std::fmt;

use crate::harness::Micros;
use crate::zk::store::ZkRequestKind;
use crate::zk::{BrokerSet, PartitionState, WatchFired, ZkError, ZkOp, ZkStore, ZnodeData, ZnodePath};

use super::copy::MAX_IN_FLIGHT;

use super::state::{OffsetAndEpoch, UNKNOWN_ZK_VERSION, ZkMigrationLeadershipState};

/// Why a claim of `/controller` failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimRefused {
    /// `/controller` names a KRaft controller of this epoch or a later one
    /// (`ControllerMovedException`).
    ControllerMoved { kraft_epoch_in_zk: i32 },
    /// The multi failed: `/controller_epoch` changed, or `/controller` came or went, between the
    /// reads and the write (`FailedRegistrationResult`: BADVERSION, NONODE, NODEEXISTS).
    Raced(ZkError),
}

impl fmt::Display for ClaimRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClaimRefused::ControllerMoved { kraft_epoch_in_zk } => {
                write!(f, "/controller already names KRaft epoch {kraft_epoch_in_zk}")
            }
            ClaimRefused::Raced(error) => write!(f, "{error}"),
        }
    }
}

/// A successful claim: the ZooKeeper controller epoch it set, and the watches it fired (the
/// ZooKeeper-mode controller's watch on `/controller`, which makes it resign).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claimed {
    pub state: ZkMigrationLeadershipState,
    pub fired: Vec<WatchFired>,
}

/// `KafkaZkClient.tryRegisterKRaftControllerAsActiveController`, for the KRaft controller and
/// epoch `state` names: read `/controller_epoch` and `/controller`; refuse if `/controller`
/// already names this KRaft epoch or a later one; then one multi: `/controller_epoch` set to one
/// more at the version read, the old `/controller` deleted at its version, and `/controller`
/// created **persistent** naming the KRaft controller (so no broker's election can take it
/// back). The state then carries the new epoch and `/controller_epoch`'s version
/// (`ZkMigrationClient.claimControllerLeadership`).
pub(crate) fn claim_controller_leadership(
    zk: &mut ZkStore,
    state: ZkMigrationLeadershipState,
) -> Result<Claimed, ClaimRefused> {
    let epoch = zk.get_data(ZnodePath::ControllerEpoch, None).map_err(ClaimRefused::Raced)?;
    let ZnodeData::ControllerEpoch(current) = epoch.data else {
        return Err(ClaimRefused::Raced(ZkError::BadData(ZnodePath::ControllerEpoch)));
    };
    let controller = zk.get_data(ZnodePath::Controller, None).ok();
    if let Some(ZnodeData::Controller { kraft_epoch: Some(in_zk), .. }) = controller.map(|c| c.data)
        && in_zk >= state.kraft_controller_epoch
    {
        return Err(ClaimRefused::ControllerMoved { kraft_epoch_in_zk: in_zk });
    }
    let registration = ZnodeData::Controller {
        broker_id: state.kraft_controller_id.max(0) as u32,
        kraft_epoch: Some(state.kraft_controller_epoch),
    };
    let mut ops = vec![ZkOp::SetData {
        path: ZnodePath::ControllerEpoch,
        data: ZnodeData::ControllerEpoch(current + 1),
        version: Some(epoch.version),
    }];
    if let Some(old) = controller {
        ops.push(ZkOp::Delete { path: ZnodePath::Controller, version: Some(old.version) });
    }
    ops.push(ZkOp::Create { path: ZnodePath::Controller, data: registration, ephemeral_owner: None });
    let fired = zk.multi(&ops).map_err(ClaimRefused::Raced)?;
    let version = zk.inspect(ZnodePath::ControllerEpoch).map_or(0, |n| n.version);
    Ok(Claimed { state: state.with_zk_controller((current + 1) as i32, version as i32), fired })
}

/// `/migration`'s content for `state` (`MigrationZNode.encode`).
fn migration_data(state: &ZkMigrationLeadershipState) -> ZnodeData {
    ZnodeData::Migration {
        kraft_controller_id: state.kraft_controller_id,
        kraft_controller_epoch: state.kraft_controller_epoch,
        kraft_metadata_offset: state.kraft_metadata.offset,
        kraft_metadata_epoch: state.kraft_metadata.epoch,
    }
}

/// `KafkaZkClient.getOrCreateMigrationState`: `/migration` as read (where the copy and the
/// dual-writes got to, and the znode's version), or created from `initial` at version 0.
pub(crate) fn get_or_create_migration_state(
    zk: &mut ZkStore,
    initial: ZkMigrationLeadershipState,
) -> Result<ZkMigrationLeadershipState, ZkError> {
    match zk.get_data(ZnodePath::Migration, None) {
        Ok(node) => match node.data {
            ZnodeData::Migration {
                kraft_controller_id,
                kraft_controller_epoch,
                kraft_metadata_offset,
                kraft_metadata_epoch,
            } => Ok(initial
                .with_new_kraft_controller(kraft_controller_id, kraft_controller_epoch)
                .with_kraft_metadata(OffsetAndEpoch {
                    offset: kraft_metadata_offset,
                    epoch: kraft_metadata_epoch,
                })
                .with_migration_zk_version(node.version as i32)),
            _ => Err(ZkError::BadData(ZnodePath::Migration)),
        },
        Err(ZkError::NoNode(_)) => {
            zk.create(ZnodePath::Migration, migration_data(&initial), None)?;
            Ok(initial.with_migration_zk_version(0))
        }
        Err(error) => Err(error),
    }
}

/// `KafkaZkClient.updateMigrationState`: `/migration` written at the version `state` holds (-1:
/// whatever it is, as the driver writes it right after a claim), and the state with the new one.
pub(crate) fn set_migration_state(
    zk: &mut ZkStore,
    state: ZkMigrationLeadershipState,
) -> Result<ZkMigrationLeadershipState, ZkError> {
    let expected = u32::try_from(state.migration_zk_version).ok();
    let (version, _) = zk.set_data(ZnodePath::Migration, migration_data(&state), expected)?;
    Ok(state.with_migration_zk_version(version as i32))
}

/// `KafkaZkClient.retryMigrationRequestsUntilConnected` for one write `op`: a multi of a check of
/// `/controller_epoch` at the version the claim left, then `/migration` checked (or, for the
/// last write of a batch, `last`, set to `state`) at its version, then `op`. Returns `/migration`'s
/// version after it and the watches that fired; a driver that has not claimed (an unknown
/// version) or whose claim another took over is refused with BADVERSION.
pub(crate) fn fenced_write(
    zk: &mut ZkStore,
    state: &ZkMigrationLeadershipState,
    op: ZkOp,
    last: bool,
) -> Result<(i32, Vec<WatchFired>), ZkError> {
    let any = |version: i32| u32::try_from(version).unwrap_or(u32::MAX);
    let check =
        ZkOp::Check { path: ZnodePath::ControllerEpoch, version: any(state.zk_controller_epoch_zk_version) };
    let migration = match last {
        true => ZkOp::SetData {
            path: ZnodePath::Migration,
            data: migration_data(state),
            version: Some(any(state.migration_zk_version)),
        },
        false => ZkOp::Check { path: ZnodePath::Migration, version: any(state.migration_zk_version) },
    };
    let fired = zk.multi(&[check, migration, op])?;
    let version = match last {
        true => zk.inspect(ZnodePath::Migration).map_or(UNKNOWN_ZK_VERSION, |n| n.version as i32),
        false => state.migration_zk_version,
    };
    Ok((version, fired))
}

/// One partition's new state as the log has it, to be written to its `/state` znode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateWrite {
    pub topic: u32,
    pub partition: u32,
    pub leader: i32,
    pub leader_epoch: u32,
    pub isr: BrokerSet,
}

/// `ZkTopicMigrationClient.updateTopicPartitions`: each partition's `/state` znode set (at any
/// version) to the log's leader, leader epoch and ISR, stamped with the **KRaft** controller's
/// epoch as its `controller_epoch` (`partitionStatePathAndData`), each write a fenced multi and
/// the last one advancing `/migration`; all pipelined, `MAX_IN_FLIGHT` at once, from `start`.
/// Returns the state with `/migration`'s new version and when the writes completed; a fenced
/// (superseded or unclaimed) driver gets BADVERSION and writes nothing.
pub(crate) fn update_partition_states(
    zk: &mut ZkStore,
    state: ZkMigrationLeadershipState,
    writes: &[StateWrite],
    start: Micros,
) -> Result<(ZkMigrationLeadershipState, Micros), ZkError> {
    let mut migration_version = state.migration_zk_version;
    for (i, write) in writes.iter().enumerate() {
        let data = ZnodeData::PartitionState(PartitionState {
            controller_epoch: state.kraft_controller_epoch.max(0) as u32,
            leader: write.leader,
            leader_epoch: write.leader_epoch,
            isr: write.isr,
        });
        let path = ZnodePath::PartitionState { topic: write.topic, partition: write.partition };
        let op = ZkOp::SetData { path, data, version: None };
        (migration_version, _) = fenced_write(zk, &state, op, i + 1 == writes.len())?;
    }
    let done = zk.submit(start, ZkRequestKind::Write, writes.len() as u64, MAX_IN_FLIGHT);
    Ok((state.with_migration_zk_version(migration_version), done))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::zk::store::test_store;

    /// A ZooKeeper-mode cluster's ensemble with broker 1 its controller at epoch 4, watched by
    /// broker 1 itself (`ControllerChangeHandler`).
    fn ensemble() -> ZkStore {
        let mut zk = test_store();
        let session = zk.open_session(1, 0);
        for _ in 0..4 {
            let version = zk.inspect(ZnodePath::ControllerEpoch).unwrap().version;
            let ZnodeData::ControllerEpoch(e) = zk.inspect(ZnodePath::ControllerEpoch).unwrap().data else {
                panic!()
            };
            zk.set_data(ZnodePath::ControllerEpoch, ZnodeData::ControllerEpoch(e + 1), Some(version))
                .unwrap();
        }
        let controller = ZnodeData::Controller { broker_id: 1, kraft_epoch: None };
        zk.create(ZnodePath::Controller, controller, Some(session)).unwrap();
        zk.exists(ZnodePath::Controller, Some(session)).unwrap();
        zk
    }

    fn kraft(id: i32, epoch: i32) -> ZkMigrationLeadershipState {
        ZkMigrationLeadershipState::EMPTY.with_new_kraft_controller(id, epoch)
    }

    #[test]
    fn a_claim_bumps_the_controller_epoch_and_takes_controller_for_good() {
        let mut zk = ensemble();
        let claimed = claim_controller_leadership(&mut zk, kraft(3000, 2)).expect("claimed");
        assert_eq!(claimed.state.zk_controller_epoch, 5, "one more than the ZooKeeper controller's 4");
        assert_eq!(claimed.state.zk_controller_epoch_zk_version, 5);
        assert_eq!(claimed.fired.len(), 1, "the old controller's watch fires: it resigns");
        let node = zk.inspect(ZnodePath::Controller).unwrap();
        assert_eq!(node.data, ZnodeData::Controller { broker_id: 3000, kraft_epoch: Some(2) });
        assert_eq!(node.ephemeral_owner, None, "persistent: no broker's election takes it back");
        assert_eq!(node.data.to_string(), r#"{"version":2,"brokerid":3000,"kraftControllerEpoch":2}"#);
        // The same KRaft epoch, or an older one, cannot claim again; a newer leader can.
        let again = claim_controller_leadership(&mut zk, kraft(3001, 2));
        assert_eq!(again.unwrap_err(), ClaimRefused::ControllerMoved { kraft_epoch_in_zk: 2 });
        let next = claim_controller_leadership(&mut zk, kraft(3001, 3)).expect("a newer KRaft leader");
        assert_eq!(next.state.zk_controller_epoch, 6);
    }

    #[test]
    fn writes_are_fenced_by_the_claims_controller_epoch_version_and_migrations_version() {
        let mut zk = ensemble();
        let state = get_or_create_migration_state(&mut zk, kraft(3000, 2)).expect("created");
        assert_eq!((state.migration_zk_version, state.initial_zk_migration_complete()), (0, false));
        let old = claim_controller_leadership(&mut zk, state).expect("claimed").state;
        let copied = old.with_kraft_metadata(OffsetAndEpoch { offset: 230, epoch: 2 });
        let old = set_migration_state(&mut zk, copied).expect("written");
        assert_eq!(old.migration_zk_version, 1);
        let reread = get_or_create_migration_state(&mut zk, ZkMigrationLeadershipState::EMPTY).unwrap();
        assert_eq!(
            reread.kraft_metadata,
            OffsetAndEpoch { offset: 230, epoch: 2 },
            "/migration holds where the copy ended"
        );
        let delete = ZkOp::Delete { path: ZnodePath::Controller, version: None };
        let check_only = ZkOp::Check { path: ZnodePath::BrokerIds, version: 0 };
        fenced_write(&mut zk, &old, check_only, false).expect("the claimant writes");
        // A newer KRaft leader claims: the old driver's writes are refused at /controller_epoch.
        let new = claim_controller_leadership(&mut zk, old.with_new_kraft_controller(3001, 3))
            .expect("claimed")
            .state;
        let refused = fenced_write(&mut zk, &old, delete, false);
        assert!(
            matches!(refused, Err(ZkError::BadVersion { path: ZnodePath::ControllerEpoch, .. })),
            "{refused:?}"
        );
        assert!(zk.inspect(ZnodePath::Controller).is_some(), "nothing written");
        // Unclaimed (after a leader change): refused too.
        let unclaimed = new.with_unknown_zk_controller();
        assert!(fenced_write(&mut zk, &unclaimed, check_only, false).is_err());
        // The last write of a batch advances /migration with it.
        let ahead = new.with_kraft_metadata(OffsetAndEpoch { offset: 231, epoch: 3 });
        let (version, _) = fenced_write(&mut zk, &ahead, check_only, true).expect("written");
        assert_eq!(version, 2);
        let ZnodeData::Migration { kraft_metadata_offset, .. } =
            zk.inspect(ZnodePath::Migration).unwrap().data
        else {
            panic!("/migration");
        };
        assert_eq!(kraft_metadata_offset, 231);
    }

    #[test]
    fn dual_written_states_carry_the_kraft_epoch_as_controller_epoch_and_advance_migration_once() {
        let mut zk = ensemble();
        let state = get_or_create_migration_state(&mut zk, kraft(3000, 2)).expect("created");
        let state = claim_controller_leadership(&mut zk, state).expect("claimed").state;
        let state =
            set_migration_state(&mut zk, state.with_kraft_metadata(OffsetAndEpoch { offset: 40, epoch: 2 }))
                .expect("written");
        let before = zk.inspect(ZnodePath::Migration).unwrap().version;
        let isr = BrokerSet::from_iter([0, 2]);
        let writes: Vec<StateWrite> = (0..3)
            .map(|i| StateWrite { topic: i / 2, partition: i % 2, leader: 2, leader_epoch: 7, isr })
            .collect();
        let ahead = state.with_kraft_metadata(OffsetAndEpoch { offset: 41, epoch: 2 });
        let (after, done) = update_partition_states(&mut zk, ahead, &writes, 0).expect("written");
        assert!(done > 0, "the writes take time");
        let written = zk
            .inspect(ZnodePath::PartitionState { topic: 1, partition: 0 })
            .unwrap()
            .partition_state()
            .unwrap();
        assert_eq!((written.leader, written.leader_epoch, written.isr), (2, 7, isr));
        // /controller_epoch is 5 (the ZooKeeper controller's 4, bumped by the claim), yet the
        // state znodes name controller epoch 2: the KRaft epoch (KAFKA-20488 after a rollback).
        assert_eq!(written.controller_epoch, 2);
        assert_eq!(
            zk.inspect(ZnodePath::Migration).unwrap().version,
            before + 1,
            "/migration set once, by the last"
        );
        assert_eq!(after.migration_zk_version, (before + 1) as i32);
        // A driver another KRaft leader superseded is fenced: nothing written.
        claim_controller_leadership(&mut zk, after.with_new_kraft_controller(3001, 3)).expect("claimed");
        let stale = [StateWrite { topic: 3, partition: 1, leader: 0, leader_epoch: 9, isr }];
        assert!(update_partition_states(&mut zk, after, &stale, done).is_err());
        let untouched = zk.inspect(ZnodePath::PartitionState { topic: 3, partition: 1 }).unwrap();
        assert_eq!((untouched.version, untouched.partition_state().unwrap().leader_epoch), (0, 0));
    }
}

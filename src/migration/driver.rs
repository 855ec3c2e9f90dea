//! The KRaft migration driver as Kafka 3.9 runs it on the active controller
//! (`org.apache.kafka.metadata.migration.KRaftMigrationDriver`): a loop of events that walks
//! [`MigrationDriverState`] from waiting for the quorum and the ZooKeeper-mode brokers, through
//! the claim of `/controller`, the one-time copy and a full reconcile, to the first full push to
//! the brokers and dual-write; and back to INACTIVE whenever this controller stops leading.
//!
//! The driver decides; ZooKeeper, the metadata log and the brokers are reached through a
//! [`MigrationClient`] (Kafka's `MigrationClient`, `ZkRecordConsumer` and `LegacyPropagator`),
//! which the simulation around it implements on its clock. What the driver reads of the metadata
//! image is a [`DriverImage`]. Kafka's driver runs its events on a queue of its own while the
//! image and the leader change on other threads; here each call runs one event to its end, so an
//! event never meets a newer leader than the one it was made for (`checkDriverState`'s epoch test
//! has nothing to catch).

use std::collections::BTreeSet;

use crate::harness::{MS, Micros};
use crate::util::rng::Rng;

use super::state::{MigrationDriverState, OffsetAndEpoch, ZkMigrationLeadershipState, ZkMigrationState};

/// The poll's backoff (`PollTimeSupplier`: `ExponentialBackoff(100, 2, 60000, 0.02)`): 100 ms,
/// doubling per poll up to 60 s, with 2 % jitter; reset by every change of state.
const POLL_INITIAL_MS: f64 = 100.0;
const POLL_MAX_MS: f64 = 60_000.0;
const POLL_JITTER: f64 = 0.02;

/// A KRaft leader and its epoch as the driver hears of them (`LeaderAndEpoch`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeaderAndEpoch {
    pub leader: Option<i32>,
    pub epoch: i32,
}

/// What the driver reads of the metadata image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DriverImage {
    /// The log's `ZkMigrationStateRecord` (`image.features().zkMigrationState()`).
    pub zk_migration_state: ZkMigrationState,
    /// The last record the image holds (`highestOffsetAndEpoch`).
    pub highest: OffsetAndEpoch,
    /// Whether any broker is registered (`image.cluster().isEmpty()` is false).
    pub has_brokers: bool,
    /// The brokers registered as migrating ZooKeeper-mode brokers (`isMigratingZkBroker`).
    pub migrating_zk_brokers: BTreeSet<i32>,
    /// Every voter registered with `zkMigrationReady` (`QuorumFeatures
    /// .reasonAllControllersZkMigrationNotReady` finds nothing).
    pub quorum_ready: bool,
}

/// What a committed change holds that matters to the driver (`MetadataDelta`): topics and
/// partitions, brokers; and whether it is a snapshot rather than a delta.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MetadataChange {
    pub topics: bool,
    pub cluster: bool,
    pub snapshot: bool,
}

/// What the driver does to ZooKeeper, the log and the brokers. Every ZooKeeper write goes with
/// `/controller_epoch`'s version from the claim (`retryMigrationRequestsUntilConnected`'s check
/// ops), so a driver that lost its claim writes nothing.
pub trait MigrationClient {
    /// Read `/migration`, creating it when absent (`getOrCreateMigrationRecoveryState`): the log
    /// offset the copy and the dual-writes reached, and the znode's version.
    fn recover_migration_state(&mut self, state: ZkMigrationLeadershipState) -> ZkMigrationLeadershipState;
    /// Claim `/controller` and bump `/controller_epoch` in one multi
    /// (`ZkMigrationClient.claimControllerLeadership`); on failure, the zk version stays unknown.
    fn claim_controller_leadership(
        &mut self,
        state: ZkMigrationLeadershipState,
    ) -> ZkMigrationLeadershipState;
    /// Write `/migration` (`setMigrationRecoveryState`).
    fn set_migration_state(&mut self, state: ZkMigrationLeadershipState) -> ZkMigrationLeadershipState;
    /// `/brokers/ids`' children (`readBrokerIds`).
    fn read_broker_ids(&mut self) -> BTreeSet<i32>;
    /// Every broker a topic's assignment names (`iterateTopics` over the topic znodes).
    fn brokers_in_assignments(&mut self) -> BTreeSet<i32>;
    /// Start the one-time copy: BeginTransaction, ZooKeeper's metadata read and appended in
    /// batches, each waited on until committed, then `ZkMigrationStateRecord(MIGRATION)` and
    /// EndTransaction (`MigrateMetadataEvent`). Kafka's driver thread blocks in it; here the
    /// simulation runs it on its clock and answers with [`MigrationDriver::on_copy_done`], the
    /// driver taking no other event until then.
    fn start_copy(&mut self, state: &ZkMigrationLeadershipState);
    /// The copy failed (`abortMigration`): the controller stops (a fatal fault), and the next
    /// leader aborts the open transaction.
    fn abort_migration(&mut self);
    /// Reconcile ZooKeeper with the whole image (`KRaftMigrationZkWriter.handleSnapshot`); the
    /// state with `/migration`'s version after the writes (`applyMigrationOperation`).
    fn write_image(&mut self, state: ZkMigrationLeadershipState) -> ZkMigrationLeadershipState;
    /// Write one committed change to ZooKeeper (`KRaftMigrationZkWriter.handleDelta`).
    fn write_delta(&mut self, state: ZkMigrationLeadershipState) -> ZkMigrationLeadershipState;
    /// Full UpdateMetadata, then full LeaderAndIsr, to every ZooKeeper-mode broker
    /// (`sendRPCsToBrokersFromMetadataImage`).
    fn send_full_rpcs(&mut self, zk_controller_epoch: i32);
    /// The change's UpdateMetadata and LeaderAndIsr (`sendRPCsToBrokersFromMetadataDelta`).
    fn send_delta_rpcs(&mut self, zk_controller_epoch: i32);
}

/// What one event did, for the trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DriverNote {
    Transition {
        from: MigrationDriverState,
        to: MigrationDriverState,
    },
    /// A change Kafka's driver refuses (`transitionTo` throws): a fault, the state kept.
    InvalidTransition {
        from: MigrationDriverState,
        to: MigrationDriverState,
    },
    /// Waiting on these controllers or brokers before going on.
    QuorumNotReady,
    BrokersNotReady {
        missing: BTreeSet<i32>,
    },
    /// The log says something the driver cannot act on (NONE, POST_MIGRATION, or MIGRATION with
    /// no copy recorded in `/migration`).
    NothingToMigrate {
        log: ZkMigrationState,
    },
    Claimed {
        zk_controller_epoch: i32,
    },
    ClaimFailed,
    CopyStarted,
    Copied {
        to: OffsetAndEpoch,
    },
    CopyFailed {
        why: String,
    },
    /// The image does not yet hold what ZooKeeper was written up to: wait for a newer one.
    ImageBehind {
        image: OffsetAndEpoch,
        written: OffsetAndEpoch,
    },
    Reconciled,
    PushedFullState {
        zk_controller_epoch: i32,
    },
    DualWrote {
        to: OffsetAndEpoch,
    },
}

impl std::fmt::Display for DriverNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let at = |to: &OffsetAndEpoch| format!("offset {} (epoch {})", to.offset, to.epoch);
        match self {
            DriverNote::Transition { from, to } => write!(f, "{from} -> {to}"),
            DriverNote::InvalidTransition { from, to } => {
                write!(f, "refused: {from} -> {to} is not a valid change")
            }
            DriverNote::QuorumNotReady => write!(f, "waiting: not every controller is ready to migrate"),
            DriverNote::BrokersNotReady { missing } if missing.is_empty() => {
                write!(f, "waiting: no ZooKeeper-mode broker registered with KRaft yet")
            }
            DriverNote::BrokersNotReady { missing } => {
                write!(f, "waiting: brokers {missing:?} not registered with KRaft as migrating")
            }
            DriverNote::NothingToMigrate { log } => {
                write!(f, "nothing to migrate: the log says {}", log.name())
            }
            DriverNote::Claimed { zk_controller_epoch } => {
                write!(f, "claimed /controller, /controller_epoch now {zk_controller_epoch}")
            }
            DriverNote::ClaimFailed => write!(f, "the claim of /controller failed; retried at the next poll"),
            DriverNote::CopyStarted => {
                write!(f, "copy started: BeginTransaction, then ZooKeeper read topic by topic")
            }
            DriverNote::Copied { to } => write!(f, "copy committed at {}; /migration records it", at(to)),
            DriverNote::CopyFailed { why } => write!(f, "copy failed ({why}); aborting"),
            DriverNote::ImageBehind { image, written } => {
                write!(f, "waiting: the image is at {}, ZooKeeper was written to {}", at(image), at(written))
            }
            DriverNote::Reconciled => write!(f, "ZooKeeper reconciled with the image in full"),
            DriverNote::PushedFullState { zk_controller_epoch } => {
                write!(f, "full UpdateMetadata and LeaderAndIsr sent, controller epoch {zk_controller_epoch}")
            }
            DriverNote::DualWrote { to } => write!(f, "dual-wrote to ZooKeeper up to {}", at(to)),
        }
    }
}

/// What a published change did, and whether it wakes the driver to poll now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Published {
    pub notes: Vec<DriverNote>,
    pub wake: bool,
}

/// The driver on one controller.
#[derive(Clone, Debug)]
pub struct MigrationDriver {
    node_id: i32,
    state: MigrationDriverState,
    leadership: ZkMigrationLeadershipState,
    /// The latest image published to it (`None` before the first: `firstPublish`).
    image: Option<DriverImage>,
    leader: LeaderAndEpoch,
    /// Polls since the last change of state.
    polls: u32,
    /// Blocked in the copy until [`MigrationDriver::on_copy_done`].
    copying: bool,
    rng: Rng,
}

/// What an event asks of the clock: when the driver polls next (Kafka's deferred PollEvent; a
/// change of state wakes it at once).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub notes: Vec<DriverNote>,
    pub poll_in: Micros,
}

impl MigrationDriver {
    /// The driver of controller `node_id`, its poll jitter drawn from `rng`.
    pub(crate) fn new(node_id: i32, rng: Rng) -> MigrationDriver {
        MigrationDriver {
            node_id,
            state: MigrationDriverState::Uninitialized,
            leadership: ZkMigrationLeadershipState::EMPTY,
            image: None,
            leader: LeaderAndEpoch { leader: None, epoch: -1 },
            polls: 0,
            copying: false,
            rng,
        }
    }

    pub(crate) fn state(&self) -> MigrationDriverState {
        self.state
    }

    /// What the driver knows of ZooKeeper and of its progress (its tests look at it).
    #[cfg(test)]
    fn leadership(&self) -> &ZkMigrationLeadershipState {
        &self.leadership
    }

    /// The KRaft leader changed (`onControllerChange`, then `KRaftLeaderEvent`): a driver that
    /// leads re-reads `/migration` and starts over from the quorum check, having forgotten its
    /// claim; one that does not goes INACTIVE.
    pub(crate) fn on_controller_change(
        &mut self,
        leader: LeaderAndEpoch,
        client: &mut impl MigrationClient,
    ) -> Vec<DriverNote> {
        self.leader = leader;
        let mut notes = Vec::new();
        if self.state == MigrationDriverState::Uninitialized {
            self.recover(client, &mut notes);
        }
        if leader.leader == Some(self.node_id) {
            let recovered = client.recover_migration_state(self.leadership);
            self.leadership =
                recovered.with_new_kraft_controller(self.node_id, leader.epoch).with_unknown_zk_controller();
            self.transition(MigrationDriverState::WaitForControllerQuorum, &mut notes);
        } else {
            let id = leader.leader.unwrap_or(ZkMigrationLeadershipState::EMPTY.kraft_controller_id);
            self.leadership =
                self.leadership.with_new_kraft_controller(id, leader.epoch).with_unknown_zk_controller();
            self.transition(MigrationDriverState::Inactive, &mut notes);
        }
        notes
    }

    /// A committed change was published (`onMetadataUpdate`, then `MetadataChangeEvent`). In
    /// dual-write, once the copy is done and the image is past what ZooKeeper holds: the change
    /// written to ZooKeeper, `/migration` advanced, then the RPCs to the ZooKeeper-mode brokers
    /// (in that order: commit, ZooKeeper, brokers). Before dual-write, a change of brokers wakes
    /// the driver (a registration may be what it waits for).
    pub(crate) fn on_metadata_update(
        &mut self,
        image: DriverImage,
        change: MetadataChange,
        client: &mut impl MigrationClient,
    ) -> Published {
        let highest = image.highest;
        self.image = Some(image);
        let mut notes = Vec::new();
        if matches!(self.state, MigrationDriverState::Uninitialized | MigrationDriverState::Inactive) {
            return Published { notes, wake: false };
        }
        if !self.state.allow_dual_write() {
            return Published { notes, wake: change.cluster };
        }
        if !self.leadership.initial_zk_migration_complete() || highest < self.leadership.kraft_metadata {
            return Published { notes, wake: false };
        }
        self.leadership = match change.snapshot {
            true => client.write_image(self.leadership),
            false => client.write_delta(self.leadership),
        };
        self.leadership = client.set_migration_state(self.leadership.with_kraft_metadata(highest));
        notes.push(DriverNote::DualWrote { to: highest });
        if change.snapshot {
            client.send_full_rpcs(self.leadership.zk_controller_epoch);
        } else if change.topics || change.cluster {
            client.send_delta_rpcs(self.leadership.zk_controller_epoch);
        }
        Published { notes, wake: false }
    }

    /// The driver's poll (`PollEvent`): the current state's event, then when to poll again.
    pub(crate) fn poll(&mut self, client: &mut impl MigrationClient) -> Step {
        use MigrationDriverState::*;
        let before = self.state;
        let mut notes = Vec::new();
        match self.state {
            Uninitialized => self.recover(client, &mut notes),
            Inactive | DualWrite => {}
            WaitForControllerQuorum => self.wait_for_quorum(&mut notes),
            WaitForBrokers => self.wait_for_brokers(client, &mut notes),
            BecomeController => self.become_controller(client, &mut notes),
            ZkMigration => self.migrate(client, &mut notes),
            SyncKraftToZk => self.sync(client, &mut notes),
            KraftControllerToBrokerComm => self.first_push(client, &mut notes),
        }
        let poll_in = if self.state != before { 0 } else { self.next_poll() };
        Step { notes, poll_in }
    }

    /// `RecoverMigrationStateFromZKEvent`: `/migration` read, then INACTIVE until told who leads.
    fn recover(&mut self, client: &mut impl MigrationClient, notes: &mut Vec<DriverNote>) {
        self.leadership = client.recover_migration_state(self.leadership);
        self.transition(MigrationDriverState::Inactive, notes);
    }

    /// `WaitForControllerQuorumEvent`: by what the log says of the migration.
    fn wait_for_quorum(&mut self, notes: &mut Vec<DriverNote>) {
        let Some(image) = &self.image else { return };
        match image.zk_migration_state {
            ZkMigrationState::PreMigration if image.quorum_ready => {
                self.transition(MigrationDriverState::WaitForBrokers, notes)
            }
            ZkMigrationState::PreMigration => notes.push(DriverNote::QuorumNotReady),
            // A failover after the copy: the brokers were waited for once, so not again.
            ZkMigrationState::Migration if self.leadership.initial_zk_migration_complete() => {
                self.transition(MigrationDriverState::BecomeController, notes)
            }
            log => {
                notes.push(DriverNote::NothingToMigrate { log });
                self.transition(MigrationDriverState::Inactive, notes)
            }
        }
    }

    /// `WaitForZkBrokersEvent` (`areZkBrokersReadyForMigration`): every broker in `/brokers/ids`,
    /// then every broker a topic's assignment names, registered with KRaft as migrating.
    fn wait_for_brokers(&mut self, client: &mut impl MigrationClient, notes: &mut Vec<DriverNote>) {
        let Some(image) = &self.image else { return };
        if !image.has_brokers {
            notes.push(DriverNote::BrokersNotReady { missing: BTreeSet::new() });
            return;
        }
        let missing = |ids: BTreeSet<i32>| -> BTreeSet<i32> {
            ids.difference(&image.migrating_zk_brokers).copied().collect()
        };
        let registered = client.read_broker_ids();
        if registered.is_empty() {
            notes.push(DriverNote::BrokersNotReady { missing: BTreeSet::new() });
            return;
        }
        let mut absent = missing(registered);
        if absent.is_empty() {
            absent = missing(client.brokers_in_assignments());
        }
        if absent.is_empty() {
            self.transition(MigrationDriverState::BecomeController, notes);
        } else {
            notes.push(DriverNote::BrokersNotReady { missing: absent });
        }
    }

    /// `BecomeZkControllerEvent`: claim `/controller`; on success write `/migration` (learning its
    /// version) and go to the copy, or to the reconcile when the copy is done.
    fn become_controller(&mut self, client: &mut impl MigrationClient, notes: &mut Vec<DriverNote>) {
        self.leadership = client.claim_controller_leadership(self.leadership);
        if self.leadership.zk_controller_epoch_zk_version == super::state::UNKNOWN_ZK_VERSION {
            notes.push(DriverNote::ClaimFailed);
            return;
        }
        notes.push(DriverNote::Claimed { zk_controller_epoch: self.leadership.zk_controller_epoch });
        self.leadership = client.set_migration_state(self.leadership.with_migration_zk_version(-1));
        let next = match self.leadership.initial_zk_migration_complete() {
            false => MigrationDriverState::ZkMigration,
            true => MigrationDriverState::SyncKraftToZk,
        };
        self.transition(next, notes);
    }

    /// `MigrateMetadataEvent`: the copy starts, and the driver waits for it.
    fn migrate(&mut self, client: &mut impl MigrationClient, notes: &mut Vec<DriverNote>) {
        if !self.copying {
            self.copying = true;
            client.start_copy(&self.leadership);
            notes.push(DriverNote::CopyStarted);
        }
    }

    /// The copy ended: `/migration` records where, and the reconcile follows; a failed copy is
    /// aborted, which stops this controller.
    pub(crate) fn on_copy_done(
        &mut self,
        result: Result<OffsetAndEpoch, String>,
        client: &mut impl MigrationClient,
    ) -> Vec<DriverNote> {
        let mut notes = Vec::new();
        if !std::mem::take(&mut self.copying) {
            return notes;
        }
        match result {
            Ok(to) => {
                notes.push(DriverNote::Copied { to });
                self.leadership = client.set_migration_state(self.leadership.with_kraft_metadata(to));
                self.transition(MigrationDriverState::SyncKraftToZk, &mut notes);
            }
            Err(why) => {
                notes.push(DriverNote::CopyFailed { why });
                client.abort_migration();
            }
        }
        notes
    }

    /// Whether it is blocked in the copy.
    pub(crate) fn copying(&self) -> bool {
        self.copying
    }

    /// Whether the image holds everything ZooKeeper was written up to; noted if not.
    fn image_caught_up(&self, notes: &mut Vec<DriverNote>) -> bool {
        let Some(image) = &self.image else { return false };
        let written = self.leadership.kraft_metadata;
        if image.highest < written {
            notes.push(DriverNote::ImageBehind { image: image.highest, written });
            return false;
        }
        true
    }

    /// `SyncKraftMetadataEvent`: once the image holds what ZooKeeper was written up to, reconcile
    /// ZooKeeper with it in full.
    fn sync(&mut self, client: &mut impl MigrationClient, notes: &mut Vec<DriverNote>) {
        if self.image_caught_up(notes) {
            self.leadership = client.write_image(self.leadership);
            notes.push(DriverNote::Reconciled);
            self.transition(MigrationDriverState::KraftControllerToBrokerComm, notes);
        }
    }

    /// `SendRPCsToBrokersEvent`: the first full push, then dual-write.
    fn first_push(&mut self, client: &mut impl MigrationClient, notes: &mut Vec<DriverNote>) {
        if self.image_caught_up(notes) {
            let epoch = self.leadership.zk_controller_epoch;
            client.send_full_rpcs(epoch);
            notes.push(DriverNote::PushedFullState { zk_controller_epoch: epoch });
            self.transition(MigrationDriverState::DualWrite, notes);
        }
    }

    /// `transitionTo`: a valid change resets the poll's backoff; an invalid one is a fault.
    fn transition(&mut self, to: MigrationDriverState, notes: &mut Vec<DriverNote>) {
        let from = self.state;
        if !from.is_valid_state_change(to) {
            notes.push(DriverNote::InvalidTransition { from, to });
            return;
        }
        if from != to {
            self.polls = 0;
            notes.push(DriverNote::Transition { from, to });
        }
        self.state = to;
    }

    /// The next poll's delay (`PollTimeSupplier.nextPollTimeMs`).
    fn next_poll(&mut self) -> Micros {
        let exp = (self.polls as f64).min((POLL_MAX_MS / POLL_INITIAL_MS).log2());
        self.polls = self.polls.saturating_add(1);
        let jitter =
            1.0 - POLL_JITTER + 2.0 * POLL_JITTER * (self.rng.below(1 << 20) as f64 / (1 << 20) as f64);
        let ms = (POLL_INITIAL_MS * exp.exp2() * jitter).min(POLL_MAX_MS);
        (ms * MS as f64) as Micros
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// A ZooKeeper and a log that answer at once: `/migration`, `/controller_epoch`, the brokers
    /// in `/brokers/ids` and in assignments; the calls made, in order.
    #[derive(Default)]
    struct Fake {
        migration: Option<OffsetAndEpoch>,
        migration_version: i32,
        controller_epoch: i32,
        claims_fail: u32,
        zk_brokers: BTreeSet<i32>,
        assigned: BTreeSet<i32>,
        calls: Vec<String>,
    }

    impl MigrationClient for Fake {
        fn recover_migration_state(&mut self, s: ZkMigrationLeadershipState) -> ZkMigrationLeadershipState {
            self.calls.push("recover".into());
            let at = *self.migration.get_or_insert(OffsetAndEpoch { offset: -1, epoch: -1 });
            s.with_kraft_metadata(at).with_migration_zk_version(self.migration_version)
        }
        fn claim_controller_leadership(
            &mut self,
            s: ZkMigrationLeadershipState,
        ) -> ZkMigrationLeadershipState {
            self.calls.push("claim".into());
            if self.claims_fail > 0 {
                self.claims_fail -= 1;
                return s;
            }
            self.controller_epoch += 1;
            s.with_zk_controller(self.controller_epoch, self.controller_epoch)
        }
        fn set_migration_state(&mut self, s: ZkMigrationLeadershipState) -> ZkMigrationLeadershipState {
            self.calls.push(format!("set /migration {}", s.kraft_metadata.offset));
            self.migration = Some(s.kraft_metadata);
            self.migration_version += 1;
            s.with_migration_zk_version(self.migration_version)
        }
        fn read_broker_ids(&mut self) -> BTreeSet<i32> {
            self.zk_brokers.clone()
        }
        fn brokers_in_assignments(&mut self) -> BTreeSet<i32> {
            self.assigned.clone()
        }
        fn start_copy(&mut self, _: &ZkMigrationLeadershipState) {
            self.calls.push("copy".into());
        }
        fn abort_migration(&mut self) {
            self.calls.push("abort".into());
        }
        fn write_image(&mut self, s: ZkMigrationLeadershipState) -> ZkMigrationLeadershipState {
            self.calls.push("write image".into());
            s
        }
        fn write_delta(&mut self, s: ZkMigrationLeadershipState) -> ZkMigrationLeadershipState {
            self.calls.push("write delta".into());
            s
        }
        fn send_full_rpcs(&mut self, epoch: i32) {
            self.calls.push(format!("full rpcs @{epoch}"));
        }
        fn send_delta_rpcs(&mut self, epoch: i32) {
            self.calls.push(format!("delta rpcs @{epoch}"));
        }
    }

    fn image(log: ZkMigrationState, offset: i64, migrating: &[i32]) -> DriverImage {
        DriverImage {
            zk_migration_state: log,
            highest: OffsetAndEpoch { offset, epoch: 1 },
            has_brokers: !migrating.is_empty(),
            migrating_zk_brokers: migrating.iter().copied().collect(),
            quorum_ready: true,
        }
    }

    const NO_CHANGE: MetadataChange = MetadataChange { topics: false, cluster: false, snapshot: false };
    const BROKERS: MetadataChange = MetadataChange { topics: false, cluster: true, snapshot: false };
    const TOPICS: MetadataChange = MetadataChange { topics: true, cluster: false, snapshot: false };

    /// Polls until the driver stops changing state (at most `limit` polls); the states passed.
    fn poll_on(driver: &mut MigrationDriver, zk: &mut Fake, limit: usize) -> Vec<MigrationDriverState> {
        let mut states = vec![driver.state()];
        for _ in 0..limit {
            let step = driver.poll(zk);
            if step.poll_in > 0 {
                break;
            }
            states.push(driver.state());
        }
        states
    }

    fn leader(id: i32, epoch: i32) -> LeaderAndEpoch {
        LeaderAndEpoch { leader: Some(id), epoch }
    }

    #[test]
    fn a_first_migration_waits_for_every_broker_then_claims_copies_reconciles_and_pushes() {
        use MigrationDriverState::*;
        let mut zk = Fake { zk_brokers: [0, 1, 2].into(), assigned: [0, 1, 2, 3].into(), ..Fake::default() };
        let mut driver = MigrationDriver::new(3000, Rng::new(1));
        driver.on_controller_change(leader(3000, 1), &mut zk);
        assert_eq!(driver.state(), WaitForControllerQuorum);
        driver.on_metadata_update(image(ZkMigrationState::PreMigration, 5, &[0, 1]), BROKERS, &mut zk);
        assert_eq!(poll_on(&mut driver, &mut zk, 10), [WaitForControllerQuorum, WaitForBrokers]);
        let step = driver.poll(&mut zk);
        assert_eq!(step.notes, [DriverNote::BrokersNotReady { missing: [2].into() }]);
        // Broker 2 registers; broker 3 is in an assignment only (a dead broker's replicas).
        let published =
            driver.on_metadata_update(image(ZkMigrationState::PreMigration, 6, &[0, 1, 2]), BROKERS, &mut zk);
        assert!(published.wake, "a registration wakes the driver");
        assert_eq!(driver.poll(&mut zk).notes, [DriverNote::BrokersNotReady { missing: [3].into() }]);
        driver.on_metadata_update(image(ZkMigrationState::PreMigration, 7, &[0, 1, 2, 3]), BROKERS, &mut zk);
        zk.claims_fail = 1;
        assert_eq!(poll_on(&mut driver, &mut zk, 10), [WaitForBrokers, BecomeController]);
        assert_eq!(driver.state(), BecomeController, "a failed claim is retried on the next poll");
        // The copy starts; the driver waits in it, polls doing nothing, until it ends at offset
        // 120. SYNC then waits for an image that holds it.
        assert_eq!(poll_on(&mut driver, &mut zk, 10), [BecomeController, ZkMigration]);
        assert!(driver.copying());
        assert_eq!(driver.poll(&mut zk).notes, []);
        let copied = driver.on_copy_done(Ok(OffsetAndEpoch { offset: 120, epoch: 1 }), &mut zk);
        assert_eq!(copied[0], DriverNote::Copied { to: OffsetAndEpoch { offset: 120, epoch: 1 } });
        assert_eq!(driver.state(), SyncKraftToZk);
        assert!(matches!(driver.poll(&mut zk).notes[..], [DriverNote::ImageBehind { .. }]));
        driver.on_metadata_update(image(ZkMigrationState::Migration, 120, &[0, 1, 2, 3]), NO_CHANGE, &mut zk);
        assert_eq!(
            poll_on(&mut driver, &mut zk, 10),
            [SyncKraftToZk, KraftControllerToBrokerComm, DualWrite]
        );
        let calls: Vec<&str> = zk.calls.iter().map(String::as_str).collect();
        assert_eq!(
            calls,
            [
                "recover",
                "recover",
                "claim",
                "claim",
                "set /migration -1",
                "copy",
                "set /migration 120",
                "write image",
                "full rpcs @1"
            ]
        );
        // Dual-write: ZooKeeper, then /migration, then the brokers, per committed change.
        zk.calls.clear();
        let published = driver.on_metadata_update(
            image(ZkMigrationState::Migration, 121, &[0, 1, 2, 3]),
            TOPICS,
            &mut zk,
        );
        assert_eq!(published.notes, [DriverNote::DualWrote { to: OffsetAndEpoch { offset: 121, epoch: 1 } }]);
        assert_eq!(zk.calls, ["write delta", "set /migration 121", "delta rpcs @1"]);
        assert_eq!(driver.leadership().kraft_metadata.offset, 121);
    }

    #[test]
    fn a_failover_in_dual_write_skips_the_brokers_and_claims_reconciles_and_pushes_in_full_again() {
        use MigrationDriverState::*;
        let mut zk = Fake {
            migration: Some(OffsetAndEpoch { offset: 150, epoch: 1 }),
            controller_epoch: 4,
            ..Fake::default()
        };
        let mut old = MigrationDriver::new(3000, Rng::new(2));
        let mut new = MigrationDriver::new(3001, Rng::new(3));
        old.on_controller_change(leader(3001, 2), &mut zk);
        assert_eq!(old.state(), Inactive, "not the leader");
        new.on_controller_change(leader(3001, 2), &mut zk);
        // Before its claim the new leader writes nothing: a committed change is not dual-written.
        zk.calls.clear();
        new.on_metadata_update(image(ZkMigrationState::Migration, 160, &[0, 1]), TOPICS, &mut zk);
        assert!(zk.calls.is_empty(), "{:?}", zk.calls);
        assert_eq!(
            poll_on(&mut new, &mut zk, 10),
            [
                WaitForControllerQuorum,
                BecomeController,
                SyncKraftToZk,
                KraftControllerToBrokerComm,
                DualWrite
            ]
        );
        assert_eq!(zk.calls, ["claim", "set /migration 150", "write image", "full rpcs @5"]);
        assert_eq!(new.leadership().zk_controller_epoch, 5, "the claim bumped /controller_epoch");
    }

    #[test]
    fn a_failed_copy_is_aborted_and_the_next_leader_copies_again_from_the_brokers_check() {
        use MigrationDriverState::*;
        let mut zk = Fake { zk_brokers: [0].into(), assigned: [0].into(), ..Fake::default() };
        let mut first = MigrationDriver::new(3000, Rng::new(4));
        first.on_controller_change(leader(3000, 1), &mut zk);
        first.on_metadata_update(image(ZkMigrationState::PreMigration, 3, &[0]), BROKERS, &mut zk);
        poll_on(&mut first, &mut zk, 10);
        assert_eq!(first.state(), ZkMigration);
        let failed = first.on_copy_done(Err("the leader resigned".into()), &mut zk);
        assert_eq!(failed, [DriverNote::CopyFailed { why: "the leader resigned".into() }]);
        assert_eq!(zk.calls.last().map(String::as_str), Some("abort"), "the copy failed and was aborted");
        assert_eq!(zk.migration.map(|m| m.offset), Some(-1), "/migration names no copy");
        let mut second = MigrationDriver::new(3001, Rng::new(5));
        second.on_controller_change(leader(3001, 2), &mut zk);
        second.on_metadata_update(image(ZkMigrationState::PreMigration, 4, &[0]), BROKERS, &mut zk);
        let states = poll_on(&mut second, &mut zk, 10);
        assert_eq!(states, [WaitForControllerQuorum, WaitForBrokers, BecomeController, ZkMigration]);
        assert_eq!(zk.calls.iter().filter(|c| *c == "copy").count(), 2, "copied again");
    }

    #[test]
    fn a_log_with_nothing_to_migrate_leaves_the_driver_inactive() {
        for (log, offset) in [
            (ZkMigrationState::None, -1),
            (ZkMigrationState::PostMigration, 300),
            (ZkMigrationState::Migration, -1),
        ] {
            let mut zk = Fake { migration: Some(OffsetAndEpoch { offset, epoch: 1 }), ..Fake::default() };
            let mut driver = MigrationDriver::new(3000, Rng::new(6));
            driver.on_controller_change(leader(3000, 3), &mut zk);
            driver.on_metadata_update(image(log, 310, &[0]), NO_CHANGE, &mut zk);
            let step = driver.poll(&mut zk);
            assert_eq!(step.notes[0], DriverNote::NothingToMigrate { log });
            assert_eq!(driver.state(), MigrationDriverState::Inactive, "{log:?}");
        }
    }

    #[test]
    fn the_poll_backs_off_from_100_ms_doubling_to_a_minute_and_a_change_of_state_resets_it() {
        let mut zk = Fake::default();
        let mut driver = MigrationDriver::new(3000, Rng::new(7));
        driver.on_controller_change(leader(3000, 1), &mut zk);
        let mut image = image(ZkMigrationState::PreMigration, 2, &[]);
        image.quorum_ready = false;
        driver.on_metadata_update(image.clone(), NO_CHANGE, &mut zk);
        let delays: Vec<Micros> = (0..14).map(|_| driver.poll(&mut zk).poll_in / MS).collect();
        for (n, delay) in delays.iter().enumerate() {
            let expected = (100.0 * 2f64.powi(n as i32)).min(60_000.0);
            let (low, high) = ((expected * 0.98) as u64, (expected * 1.02).min(60_000.0) as u64);
            assert!((low..=high).contains(delay), "poll {n}: {delay} ms, expected about {expected}");
        }
        image.quorum_ready = true;
        driver.on_metadata_update(image, NO_CHANGE, &mut zk);
        assert_eq!(driver.poll(&mut zk).poll_in, 0, "the change of state wakes it");
        let next = driver.poll(&mut zk).poll_in / MS;
        assert!((98..=102).contains(&next), "backoff reset: {next} ms");
    }

    #[test]
    fn an_invalid_change_of_state_is_a_fault_and_changes_nothing() {
        let mut zk = Fake::default();
        let mut driver = MigrationDriver::new(3000, Rng::new(8));
        driver.on_controller_change(leader(3000, 1), &mut zk);
        driver.state = MigrationDriverState::DualWrite;
        let notes = driver.on_controller_change(leader(3000, 2), &mut zk);
        assert_eq!(
            notes,
            [DriverNote::InvalidTransition {
                from: MigrationDriverState::DualWrite,
                to: MigrationDriverState::WaitForControllerQuorum
            }]
        );
        assert_eq!(driver.state(), MigrationDriverState::DualWrite);
    }
}

//! How an ISR change travels in Kafka 2.4, leader first: the leader's `isr-expiration` task
//! (`ReplicaManager.maybeShrinkIsr`, every half of `replica.lag.time.max.ms`) drops a follower
//! that has not caught up and writes the partition's state znode itself
//! (`Partition.shrinkIsr`, conditional on the znode's version); its `isr-change-propagation`
//! task (`ReplicaManager.maybePropagateIsrChanges`, every 2.5 s) writes one
//! `/isr_change_notification/isr_change_<n>` once 5 s have passed without another change; the
//! controller's watch on its children fires (`processIsrChangeNotification`): it reads the
//! notifications and the partitions' states into memory, sends UpdateMetadata to every live
//! broker and deletes the notifications. Until then ZooKeeper, the controller's memory and the
//! brokers' caches disagree (KAFKA-2722 added the blackout; KIP-497's AlterIsr replaced the
//! leader's own write in 2.7).

use std::rc::Rc;

use super::cluster::{Event, ZkCluster};
use super::controller::{ChunkDone, ControllerTask, Stage};
use super::partition::{BrokerId, BrokerSet, PartitionState};
use super::path::ZnodePath;
use super::store::{ZkRequestKind, ZnodeData};
use super::trace::{ControllerStep, Missed, TraceKind};
use crate::harness::{MS, Micros};

/// `isr-change-propagation`'s period (`ReplicaManager.startup`).
pub const PROPAGATION_INTERVAL: Micros = 2_500 * MS;
/// Changes are propagated once none has come for this long
/// (`ReplicaManager.IsrChangePropagationBlackOut`)...
pub const PROPAGATION_BLACKOUT: Micros = 5_000 * MS;
/// ...or once this long has passed since the last propagation
/// (`ReplicaManager.IsrChangePropagationInterval`).
pub const PROPAGATION_MAX_DELAY: Micros = 60_000 * MS;

/// One state znode write of a leader shrinking its ISR.
pub(super) struct IsrWrite {
    pub partition: u32,
    pub state: PartitionState,
    /// The znode version the leader holds (`Partition.zkVersion`); the write is conditional on it.
    pub version: u32,
}

impl ZkCluster {
    /// `broker`'s replica fetchers stall: each leader of a partition it follows in sync drops it
    /// from the ISR at its first `isr-expiration` check after `replica.lag.time.max.ms` (its
    /// checks run every half of it from its own start: somewhere in the next half).
    pub(super) fn stall_fetchers_now(&mut self, follower: BrokerId) -> TraceKind {
        self.brokers[follower as usize].fetching = false;
        let lag = self.config.costs.replica_lag_time_max;
        let leaders: BrokerSet = (0..self.layout.partitions())
            .filter_map(|p| self.store.inspect(self.layout.state_path(p))?.partition_state())
            .filter(|s| s.isr.contains(follower))
            .filter_map(|s| s.leader_broker())
            .filter(|l| *l != follower)
            .collect();
        for leader in leaders.iter() {
            let check = self.now.saturating_add(lag + 1 + self.rng_below(lag / 2));
            self.schedule(check, Event::IsrExpiration { leader });
        }
        TraceKind::FetchersStalled { broker: follower }
    }

    /// `maybeShrinkIsr` on `leader`: every partition it leads whose ISR holds a stalled follower
    /// gets its ISR shrunk (leader epoch and controller epoch unchanged), written to its state
    /// znode one `setData` at a time, each conditional on the version the leader holds.
    pub(super) fn on_isr_expiration(&mut self, leader: BrokerId) -> TraceKind {
        if !self.brokers[leader as usize].alive {
            return TraceKind::Down { broker: leader, missed: Missed::Task };
        }
        let stalled: BrokerSet = self.brokers.iter().filter(|b| !b.fetching).map(|b| b.id).collect();
        let mut writes = Vec::new();
        for partition in 0..self.layout.partitions() {
            let Some(node) = self.store.inspect(self.layout.state_path(partition)) else { continue };
            let Some(state) = node.partition_state().filter(|s| s.leader_broker() == Some(leader)) else {
                continue;
            };
            if !state.isr.intersection(stalled).is_empty() {
                let shrunk = PartitionState { isr: state.isr.difference(stalled), ..state };
                writes.push(IsrWrite { partition, state: shrunk, version: node.version });
            }
        }
        let partitions = writes.iter().map(|w| w.partition).collect();
        let written = self.store.submit(self.now, ZkRequestKind::Write, writes.len() as u64, 1);
        if !writes.is_empty() {
            self.schedule(written, Event::IsrWritten { leader, writes });
        }
        TraceKind::ShrinkingIsr { leader, out: stalled, partitions }
    }

    /// The leader's writes are done: each state znode still at the version it held takes the
    /// shrunk ISR, and the change is recorded for propagation.
    pub(super) fn on_isr_written(&mut self, leader: BrokerId, writes: Vec<IsrWrite>) -> TraceKind {
        let mut fired = Vec::new();
        let mut shrunk = Vec::new();
        for IsrWrite { partition, state, version } in writes {
            let path = self.layout.state_path(partition);
            if let Ok((_, watches)) =
                self.store.set_data(path, ZnodeData::PartitionState(state), Some(version))
            {
                fired.extend(watches);
                shrunk.push(partition);
            }
        }
        self.deliver_watches(fired);
        let now = self.now;
        let broker = &mut self.brokers[leader as usize];
        let first = broker.isr_changes.is_empty();
        broker.isr_changes.extend(&shrunk);
        broker.last_isr_change = now;
        if first && !shrunk.is_empty() {
            let tick = now.saturating_add(PROPAGATION_BLACKOUT + 1 + self.rng_below(PROPAGATION_INTERVAL));
            self.schedule(tick, Event::PropagateIsrChanges { broker: leader });
        }
        TraceKind::IsrShrunk { leader, partitions: shrunk }
    }

    /// `maybePropagateIsrChanges` on `broker`: one notification naming every recorded change,
    /// once none has come for the blackout (or the last propagation is long past).
    pub(super) fn on_propagate_isr_changes(&mut self, id: BrokerId) -> TraceKind {
        let now = self.now;
        let broker = &mut self.brokers[id as usize];
        if !broker.alive {
            return TraceKind::Down { broker: id, missed: Missed::Task };
        }
        let quiet = broker.last_isr_change.saturating_add(PROPAGATION_BLACKOUT) < now;
        let overdue = broker.last_isr_propagation.saturating_add(PROPAGATION_MAX_DELAY) < now;
        if broker.isr_changes.is_empty() || !(quiet || overdue) {
            let partitions = broker.isr_changes.len();
            if partitions > 0 {
                self.schedule(
                    now.saturating_add(PROPAGATION_INTERVAL),
                    Event::PropagateIsrChanges { broker: id },
                );
            }
            return TraceKind::IsrChangePropagation { broker: id, partitions, path: None };
        }
        let mut changed = std::mem::take(&mut broker.isr_changes);
        broker.last_isr_propagation = now;
        changed.sort_unstable();
        changed.dedup();
        let partitions = changed.len();
        let (path, fired) = self.store.create_isr_change(Rc::from(changed));
        let written = self.store.submit(now, ZkRequestKind::Write, 1, 1);
        let at = written.saturating_add(self.config.costs.network_latency);
        for watch in fired {
            self.schedule(at, Event::Notify(watch));
        }
        TraceKind::IsrChangePropagation { broker: id, partitions, path: Some(path) }
    }

    /// `processIsrChangeNotification`: `getChildren` of `/isr_change_notification` (watching it
    /// again), `getData` of each notification, then `updateLeaderAndIsrCache` reads the states
    /// of the partitions they name; once read, the controller sends UpdateMetadata for them and
    /// deletes the notifications.
    pub(super) fn process_isr_change(&mut self, start: Micros) -> Option<ControllerStep> {
        let ctrl = self.controller.as_mut()?;
        ctrl.isr_change_pending = false;
        let (epoch, session) = (ctrl.epoch, ctrl.session);
        let notifications = self.store.get_children(ZnodePath::IsrChangeNotifications, Some(session)).ok()?;
        let mut partitions: Vec<u32> = notifications
            .iter()
            .filter_map(|path| self.store.isr_change(*path).ok())
            .flat_map(|names| names.to_vec())
            .collect();
        partitions.sort_unstable();
        partitions.dedup();
        let states = partitions.iter().filter_map(|p| self.read_state(*p)).collect();
        let in_flight = self.config.costs.zk_max_in_flight_requests;
        let listed = self.store.submit(start, ZkRequestKind::Read, 1, 1);
        let named = self.store.submit(listed, ZkRequestKind::Read, notifications.len() as u64, in_flight);
        let read = self.store.submit(named, ZkRequestKind::Read, partitions.len() as u64, in_flight);
        let note = ControllerStep::IsrChangeNotification {
            notifications: notifications.len(),
            partitions: partitions.len(),
        };
        let ctrl = self.controller.as_mut()?;
        ctrl.task = ControllerTask::ReadingIsrChanges;
        let chunk = ChunkDone::IsrChangesRead { states, notifications };
        self.schedule(read, Event::ChunkDone { epoch, chunk });
        Some(note)
    }

    /// After the reads: the UpdateMetadata for the partitions read goes next, then the
    /// notifications are deleted (`deleteIsrChangeNotifications`, pipelined).
    pub(super) fn delete_isr_changes(&mut self, notifications: &[ZnodePath]) {
        let mut fired = Vec::new();
        for path in notifications {
            fired.extend(self.store.delete(*path, None).unwrap_or_default());
        }
        let in_flight = self.config.costs.zk_max_in_flight_requests;
        let deleted =
            self.store.submit(self.now, ZkRequestKind::Write, notifications.len() as u64, in_flight);
        let at = deleted.saturating_add(self.config.costs.network_latency);
        for watch in fired {
            self.schedule(at, Event::Notify(watch));
        }
        if let Some(ctrl) = self.controller.as_mut() {
            ctrl.plan.push(Stage::PushChanged { ends_failover: false, leader_and_isr: false });
        }
    }
}

//! The controller's push: UpdateMetadata (every partition entry to every live broker) and
//! LeaderAndIsr (each entry to its replicas), built chunk by chunk on the controller, sent over
//! the network and applied by each broker in order. A request to a broker that is down or cut
//! off waits in that broker's queue and is retried every 100 ms until it is sent, or until the
//! broker is deregistered (`ControllerChannelManager.RequestSendThread.doWork`, 2.4).

use std::rc::Rc;

use super::cluster::{BrokerRequest, Event, ZkCluster};
use super::controller::{ChunkDone, ControllerTask};
use super::partition::{BrokerId, BrokerSet, MAX_BROKERS, PartitionState};
use super::trace::{ControllerStep, PushDone, TraceKind};
use crate::harness::{MS, Micros};

/// `RequestSendThread.doWork`'s backoff between attempts to send to an unreachable broker. (A
/// connection attempt that hangs until the socket timeout is modelled as failing at once.)
pub const RETRY_BACKOFF: Micros = 100 * MS;

/// Delivery progress of one push (one UpdateMetadata/LeaderAndIsr wave) to its target brokers.
pub(super) struct PushTracker {
    pub full_state: bool,
    /// LeaderAndIsr goes with the UpdateMetadata (not for an ISR change notification's push).
    pub leader_and_isr: bool,
    pub ends_failover: bool,
    pub chunks: usize,
    pub targets: BrokerSet,
    pub applied: Vec<usize>,
    pub complete: bool,
}

impl PushTracker {
    /// Target brokers still running that have applied every chunk.
    pub(crate) fn brokers_done(&self, running: BrokerSet) -> u32 {
        let done = self.targets.iter().filter(|b| self.applied[*b as usize] == self.chunks);
        done.filter(|b| running.contains(*b)).count() as u32
    }
}

impl ZkCluster {
    /// Starts a push of `partitions`: the full state after a failover's load (`full_state`), or
    /// what changed; `ends_failover` when the failover is over once every live broker applied it.
    pub(super) fn start_push(
        &mut self,
        partitions: Vec<u32>,
        (full_state, leader_and_isr): (bool, bool),
        ends_failover: bool,
    ) -> Option<ControllerStep> {
        let chunk = self.config.chunk_partitions as usize;
        let brokers = self.config.brokers as usize;
        let ctrl = self.controller.as_mut()?;
        let chunks = partitions.len().div_ceil(chunk);
        let targets = ctrl.live;
        let push = self.pushes.len();
        let note = if leader_and_isr {
            ControllerStep::Sending { partitions: partitions.len(), targets }
        } else {
            ControllerStep::SendingMetadata { partitions: partitions.len(), targets }
        };
        ctrl.task = ControllerTask::Pushing { partitions, issued: 0, push };
        let applied = vec![0; brokers];
        let complete = false;
        let tracker =
            PushTracker { full_state, leader_and_isr, ends_failover, chunks, targets, applied, complete };
        self.pushes.push(tracker);
        if chunks == 0 {
            self.complete_push(push);
        }
        Some(note)
    }

    pub(super) fn issue_push_chunk(&mut self, start: Micros) -> Option<ControllerStep> {
        let chunk = self.config.chunk_partitions as usize;
        let ctrl = self.controller.as_mut()?;
        let ControllerTask::Pushing { partitions, issued, push } = &mut ctrl.task else {
            return None;
        };
        let first = *issued;
        let end = (first + chunk).min(partitions.len());
        *issued = end;
        let push = *push;
        let memory = &ctrl.memory;
        let entries: Rc<[(u32, PartitionState)]> =
            partitions[first..end].iter().map(|p| (*p, memory[*p as usize])).collect();
        let epoch = ctrl.epoch;
        let (targets, leader_and_isr) = (self.pushes[push].targets, self.pushes[push].leader_and_isr);
        let replicas_on =
            if leader_and_isr { self.replicas_per_broker(&entries) } else { [0; MAX_BROKERS as usize] };
        let build = self.build_cost(entries.len() as u64, targets, &replicas_on);
        let sent_at = start.saturating_add(build);
        let mut queued = BrokerSet::EMPTY;
        for broker in targets.iter() {
            let leader_and_isr_entries = replicas_on[broker as usize];
            let entries = entries.clone();
            let request = BrokerRequest { push, controller_epoch: epoch, entries, leader_and_isr_entries };
            if !self.send_to_broker(broker, sent_at, request) {
                queued = queued.with(broker);
            }
        }
        self.schedule(sent_at, Event::ChunkDone { epoch, chunk: ChunkDone::Sent });
        Some(ControllerStep::Building { partitions: end - first, targets, queued })
    }

    /// LeaderAndIsr entries per broker: how many of `entries` each broker replicates.
    fn replicas_per_broker(&self, entries: &[(u32, PartitionState)]) -> [u64; MAX_BROKERS as usize] {
        let mut counts = [0; MAX_BROKERS as usize];
        for (partition, _) in entries {
            for replica in self.assignment.replicas(*partition) {
                counts[replica as usize] += 1;
            }
        }
        counts
    }

    /// Controller time to build and send one chunk's UpdateMetadata and LeaderAndIsr requests.
    fn build_cost(&self, partitions: u64, targets: BrokerSet, replicas_on: &[u64]) -> Micros {
        let costs = &self.config.costs;
        let per_broker = |b: BrokerId| {
            partitions * costs.update_metadata_per_partition_per_broker
                + replicas_on[b as usize] * costs.leader_and_isr_per_replica
        };
        targets.iter().map(per_broker).sum()
    }

    /// Sends one request to `broker`; false if it waits in the broker's queue instead (the
    /// broker is down or cut off, or older requests wait there).
    fn send_to_broker(&mut self, id: BrokerId, sent_at: Micros, request: BrokerRequest) -> bool {
        self.requests.sent += 1 + u64::from(request.leader_and_isr_entries > 0);
        let broker = &mut self.brokers[id as usize];
        if !broker.alive || !broker.reachable_from_controller || !broker.queued.is_empty() {
            if broker.queued.is_empty() {
                broker.retrying_since = sent_at;
            }
            broker.queued.push(request);
            return false;
        }
        self.deliver(id, sent_at, request);
        true
    }

    /// `request` leaves the controller at `sent_at`; the broker applies it after those before.
    fn deliver(&mut self, id: BrokerId, sent_at: Micros, request: BrokerRequest) {
        let costs = &self.config.costs;
        let entries = request.entries.len() as u64 + request.leader_and_isr_entries;
        let apply = entries * costs.broker_apply_per_partition;
        let arrival = sent_at.saturating_add(costs.network_latency);
        let broker = &mut self.brokers[id as usize];
        let applied_at = broker.busy_until.max(arrival).saturating_add(apply);
        broker.busy_until = applied_at;
        self.schedule(applied_at, Event::BrokerApply { broker: id, request });
    }

    /// `broker` is reachable from the controller again: its queued requests go out, oldest
    /// first, at the controller's first retry from now.
    pub(super) fn reconnect(&mut self, id: BrokerId) -> TraceKind {
        let now = self.now;
        let broker = &mut self.brokers[id as usize];
        broker.reachable_from_controller = true;
        let queued = if broker.alive { std::mem::take(&mut broker.queued) } else { Vec::new() };
        let waited = now.saturating_sub(broker.retrying_since);
        let retry = broker.retrying_since.saturating_add(waited.div_ceil(RETRY_BACKOFF) * RETRY_BACKOFF);
        let sent_at = if queued.is_empty() { now } else { retry };
        let count = queued.len();
        for request in queued {
            self.deliver(id, sent_at, request);
        }
        TraceKind::Reconnected { broker: id, queued: count, sent_at }
    }

    /// Drops what is queued for `broker` (the controller removed it: `removeBroker` stops its
    /// send thread). Returns how many requests were dropped.
    pub(super) fn drop_queue(&mut self, id: BrokerId) -> usize {
        let dropped = std::mem::take(&mut self.brokers[id as usize].queued).len();
        self.requests.dropped += dropped as u64;
        dropped
    }

    /// The controller died: every send thread, and what waited in it, goes with it.
    pub(super) fn drop_every_queue(&mut self) {
        for id in 0..self.config.brokers {
            self.drop_queue(id);
        }
    }

    /// Counts one applied chunk; says so when the whole push has reached every broker.
    pub(super) fn record_applied(&mut self, push: usize, broker: BrokerId) -> Option<PushDone> {
        let running: BrokerSet = self.brokers.iter().filter(|b| b.alive).map(|b| b.id).collect();
        let tracker = self.pushes.get_mut(push)?;
        tracker.applied[broker as usize] += 1;
        let pending = tracker.targets.intersection(running).len() - tracker.brokers_done(running);
        if tracker.complete || pending > 0 {
            return None;
        }
        self.complete_push(push)
    }

    fn complete_push(&mut self, push: usize) -> Option<PushDone> {
        let now = self.now;
        let tracker = self.pushes.get_mut(push)?;
        tracker.complete = true;
        let done = if tracker.full_state { PushDone::FullState } else { PushDone::Change };
        let first = self.failover.as_ref().and_then(|f| f.first_push).unwrap_or(self.pushes.len());
        if let Some(f) = self.failover.as_mut().filter(|_| push >= first && done == PushDone::FullState) {
            f.full_state_at.get_or_insert(now);
        }
        let ending = self.pushes.iter().rposition(|t| t.ends_failover).filter(|last| *last >= first);
        let over = ending.is_some_and(|last| self.pushes[first..=last].iter().all(|t| t.complete));
        match self.failover.as_mut().filter(|f| over && f.brokers_updated_at.is_none()) {
            Some(f) => {
                f.brokers_updated_at = Some(now);
                Some(PushDone::Failover)
            }
            None => Some(done),
        }
    }
}

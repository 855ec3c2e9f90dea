//! A ZooKeeper-mode Kafka cluster as a deterministic discrete-event simulation: brokers pinging
//! their sessions, a controller elected by racing to create the ephemeral `/controller`, and the
//! fault injections (crashes, a broker cut off from the controller and reconnected, stalled
//! replica fetchers).

use std::rc::Rc;

use super::acl::ZkAcl;
use super::broker::Broker;
use super::builder::ZkClusterBuilder;
use super::column::SharedColumn;
use super::config::{ZkClusterConfig, ZkClusterError};
use super::controller::{ActiveController, ChunkDone};
use super::failover::FailoverTimeline;
use super::isr::IsrWrite;
use super::partition::{BrokerId, BrokerSet, PartitionState, ReplicaAssignment};
use super::path::{TopicLayout, ZnodePath};
use super::push::PushTracker;
use super::store::{
    SessionId, SessionStatus, WatchEvent, WatchFired, ZkError, ZkOp, ZkRequestKind, ZkStore, ZnodeData,
};
use super::trace::{Holder, Missed, Reaction, TraceKind, TraceLine};
use crate::harness::{EventQueue, Micros};
use crate::metadata::acl::AclOperation;
use crate::util::rng::Rng;

/// `/controller_epoch` of the controller the cluster starts with.
pub(super) const FIRST_EPOCH: u32 = 1;

/// A controller request as it travels to one broker: one chunk of UpdateMetadata entries plus
/// the LeaderAndIsr entries for the partitions the broker replicates.
pub(super) struct BrokerRequest {
    pub push: usize,
    pub controller_epoch: u32,
    pub entries: Rc<[(u32, PartitionState)]>,
    pub leader_and_isr_entries: u64,
}

/// A fault injected at a chosen virtual time.
pub(super) enum Fault {
    KillController,
    KillBroker(BrokerId),
    CutOffFromController(BrokerId),
    Reconnect(BrokerId),
    StallFetchers(BrokerId),
    /// A client writes a topic's ACL straight into ZooKeeper.
    RogueAclWrite {
        topic: u32,
        acl: ZkAcl,
    },
    /// A broker's authorizer is asked about a principal's operation on a topic.
    Authorize {
        broker: BrokerId,
        principal: &'static str,
        operation: AclOperation,
        topic: u32,
    },
}

/// An event waiting in the queue, with the time it was scheduled (a request in flight is drawn
/// between the two).
pub(super) struct Scheduled {
    pub sent: Micros,
    pub event: Event,
}

pub(super) enum Event {
    Ping {
        broker: BrokerId,
    },
    SessionCheck {
        session: SessionId,
    },
    Notify(WatchFired),
    ClaimController {
        broker: BrokerId,
    },
    ControllerClaimed {
        broker: BrokerId,
        epoch: u32,
    },
    ChunkDone {
        epoch: u32,
        chunk: ChunkDone,
    },
    BrokerApply {
        broker: BrokerId,
        request: BrokerRequest,
    },
    IsrExpiration {
        leader: BrokerId,
    },
    IsrWritten {
        leader: BrokerId,
        writes: Vec<IsrWrite>,
    },
    PropagateIsrChanges {
        broker: BrokerId,
    },
    /// A broker's ACL reads are answered: (notification, topic, the topic's ACL) each.
    AclsLoaded {
        broker: BrokerId,
        loaded: Vec<(u32, u32, Option<ZkAcl>)>,
    },
    Fault(Fault),
}

/// Requests the controllers sent to brokers, and how many were dropped from a broker's queue
/// unsent (the broker was deregistered, or the controller died).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RequestCounters {
    pub sent: u64,
    pub dropped: u64,
}

/// A simulated ZooKeeper-mode cluster; advance it with [`ZkCluster::step`] or
/// [`ZkCluster::run_until`].
pub struct ZkCluster {
    pub(super) config: ZkClusterConfig,
    pub(super) layout: TopicLayout,
    pub(super) assignment: ReplicaAssignment,
    pub(super) store: ZkStore,
    pub(super) brokers: Vec<Broker>,
    pub(super) controller: Option<ActiveController>,
    pub(super) pushes: Vec<PushTracker>,
    pub(super) failover: Option<FailoverTimeline>,
    pub(super) requests: RequestCounters,
    pub(super) now: Micros,
    pub(super) queue: EventQueue<Scheduled>,
    /// A client outside Kafka writes to ZooKeeper directly (the second door): it is drawn.
    pub(super) rogue_client: bool,
    rng: Rng,
}

impl ZkCluster {
    /// A steady cluster at t=0: every broker registered, a controller (chosen by `seed`) at
    /// epoch 1, every partition led by its preferred replica and every cache up to date.
    /// Builds it in one go; [`ZkClusterBuilder`] spreads the same work over several calls.
    pub fn new(config: ZkClusterConfig, seed: u64) -> Result<ZkCluster, ZkClusterError> {
        let mut builder = ZkClusterBuilder::new(config, seed)?;
        builder.step(u64::MAX);
        builder.finish()
    }

    /// The cluster around built initial partition states: opens the brokers' sessions, registers
    /// them, installs the controller and schedules the first pings. `rng` continues the stream
    /// the builder drew the replica placement from.
    pub(super) fn assemble(
        config: ZkClusterConfig,
        layout: TopicLayout,
        assignment: ReplicaAssignment,
        rng: Rng,
        initial: SharedColumn<PartitionState>,
    ) -> Result<ZkCluster, ZkClusterError> {
        let mut store = ZkStore::new(layout, &config.costs, initial.clone());
        let brokers: Vec<Broker> = (0..config.brokers)
            .map(|id| Broker::new(id, store.open_session(id, 0), initial.clone(), FIRST_EPOCH))
            .collect();
        let mut cluster = ZkCluster {
            config,
            layout,
            assignment,
            store,
            brokers,
            controller: None,
            pushes: Vec::new(),
            failover: None,
            requests: RequestCounters::default(),
            now: 0,
            queue: EventQueue::default(),
            rogue_client: false,
            rng,
        };
        cluster.bootstrap(initial)?;
        Ok(cluster)
    }

    fn bootstrap(&mut self, initial: SharedColumn<PartitionState>) -> Result<(), ZkError> {
        for broker in &self.brokers {
            let data = ZnodeData::BrokerRegistration { broker_id: broker.id };
            self.store.create(ZnodePath::BrokerId(broker.id), data, Some(broker.session))?;
        }
        let id = self.rng.below(u64::from(self.config.brokers)) as BrokerId;
        let session = self.brokers[id as usize].session;
        let data = ZnodeData::Controller { broker_id: id, kraft_epoch: None };
        self.store.create(ZnodePath::Controller, data, Some(session))?;
        let epoch = ZnodeData::ControllerEpoch(FIRST_EPOCH);
        self.store.set_data(ZnodePath::ControllerEpoch, epoch, None)?;
        for broker in &self.brokers {
            self.store.exists(ZnodePath::Controller, Some(broker.session))?;
        }
        let live = self.register_controller_watches(session)?;
        self.controller = Some(ActiveController::steady(id, FIRST_EPOCH, session, live, initial));
        for broker in 0..self.config.brokers {
            let first_ping = self.rng.range(1, self.ping_interval() + 1);
            self.schedule(first_ping, Event::Ping { broker });
        }
        Ok(())
    }

    /// The watches a controller holds: `/controller`, the children of `/brokers/ids` and of
    /// `/brokers/topics`, and each broker registration. Returns the live brokers.
    pub(super) fn register_controller_watches(&mut self, session: SessionId) -> Result<BrokerSet, ZkError> {
        self.store.exists(ZnodePath::Controller, Some(session))?;
        let live = self.live_brokers_in_zookeeper(session)?;
        for id in live.iter() {
            self.store.get_data(ZnodePath::BrokerId(id), Some(session))?;
        }
        self.store.count_children(ZnodePath::Topics, Some(session))?;
        self.store.get_children(ZnodePath::IsrChangeNotifications, Some(session))?;
        Ok(live)
    }

    /// `getChildren("/brokers/ids")` with a watch, as a set of broker ids.
    pub(super) fn live_brokers_in_zookeeper(&mut self, session: SessionId) -> Result<BrokerSet, ZkError> {
        let children = self.store.get_children(ZnodePath::BrokerIds, Some(session))?;
        Ok(children
            .iter()
            .filter_map(|path| match path {
                ZnodePath::BrokerId(id) => Some(*id),
                _ => None,
            })
            .collect())
    }

    /// Current virtual time.
    pub fn now(&self) -> Micros {
        self.now
    }

    /// The ZooKeeper ensemble, for inspecting znodes and request counters.
    pub fn store(&self) -> &ZkStore {
        &self.store
    }

    /// The topic layout.
    pub fn layout(&self) -> TopicLayout {
        self.layout
    }

    /// The active controller and its epoch, if there is one.
    pub fn controller(&self) -> Option<(BrokerId, u32)> {
        self.controller.as_ref().map(|c| (c.broker, c.epoch))
    }

    /// Requests sent from controllers to brokers so far.
    pub fn requests(&self) -> RequestCounters {
        self.requests
    }

    /// Processes the next event and describes it; `None` when nothing is scheduled.
    pub fn step(&mut self) -> Option<TraceLine> {
        let (at, Scheduled { event, .. }) = self.queue.pop()?;
        self.now = at;
        let kind = self.handle(event);
        Some(TraceLine { at, kind })
    }

    /// Processes every event up to and including `until`, then sets the clock to it.
    /// Running brokers ping ZooKeeper every third of the session timeout, so the queue never
    /// drains: pick a bounded `until` (e.g. now plus one animation frame of virtual time).
    pub fn run_until(&mut self, until: Micros) -> Vec<TraceLine> {
        let mut lines = Vec::new();
        while self.queue.peek_time().is_some_and(|at| at <= until) {
            lines.extend(self.step());
        }
        self.now = self.now.max(until);
        lines
    }

    /// Crashes whichever broker is the controller at `at` (its session then expires).
    pub fn kill_controller(&mut self, at: Micros) {
        self.schedule(at, Event::Fault(Fault::KillController));
    }

    /// Crashes `broker` at `at`.
    pub fn kill_broker(&mut self, broker: BrokerId, at: Micros) -> Result<(), ZkClusterError> {
        self.schedule_fault(broker, at, Fault::KillBroker(broker))
    }

    /// From `at`, nothing the controller sends reaches `broker`, which keeps pinging
    /// ZooKeeper and so stays registered.
    pub fn cut_off_from_controller(&mut self, broker: BrokerId, at: Micros) -> Result<(), ZkClusterError> {
        self.schedule_fault(broker, at, Fault::CutOffFromController(broker))
    }

    /// From `at`, the controller's requests reach `broker` again: those queued for it go out at
    /// the controller's next retry.
    pub fn reconnect_to_controller(&mut self, broker: BrokerId, at: Micros) -> Result<(), ZkClusterError> {
        self.schedule_fault(broker, at, Fault::Reconnect(broker))
    }

    /// From `at`, `broker`'s replica fetchers stall (a stuck disk, say) while it keeps pinging
    /// ZooKeeper and answering the controller, with producers writing to every partition: the
    /// leaders it follows drop it from their ISRs (see `isr.rs`).
    pub fn stall_fetchers(&mut self, broker: BrokerId, at: Micros) -> Result<(), ZkClusterError> {
        self.schedule_fault(broker, at, Fault::StallFetchers(broker))
    }

    fn schedule_fault(&mut self, broker: BrokerId, at: Micros, fault: Fault) -> Result<(), ZkClusterError> {
        if broker >= self.config.brokers {
            return Err(ZkClusterError::UnknownBroker(broker));
        }
        self.schedule(at, Event::Fault(fault));
        Ok(())
    }

    pub(super) fn schedule(&mut self, at: Micros, event: Event) {
        self.queue.push(at.max(self.now), Scheduled { sent: self.now, event });
    }

    /// A number below `n` from the cluster's one random stream.
    pub(super) fn rng_below(&mut self, n: u64) -> u64 {
        self.rng.below(n)
    }

    fn ping_interval(&self) -> Micros {
        (self.config.costs.zk_session_timeout / 3).max(1)
    }

    fn network_latency(&self) -> Micros {
        self.config.costs.network_latency
    }

    fn handle(&mut self, event: Event) -> TraceKind {
        match event {
            Event::Ping { broker } => self.on_ping(broker),
            Event::SessionCheck { session } => self.on_session_check(session),
            Event::Notify(fired) => self.on_notify(fired),
            Event::ClaimController { broker } => self.on_claim_controller(broker),
            Event::ControllerClaimed { broker, epoch } => self.on_controller_claimed(broker, epoch),
            Event::ChunkDone { epoch, chunk } => self.on_chunk_done(epoch, chunk),
            Event::BrokerApply { broker, request } => self.on_broker_apply(broker, request),
            Event::IsrExpiration { leader } => self.on_isr_expiration(leader),
            Event::IsrWritten { leader, writes } => self.on_isr_written(leader, writes),
            Event::PropagateIsrChanges { broker } => self.on_propagate_isr_changes(broker),
            Event::AclsLoaded { broker, loaded } => self.on_acls_loaded(broker, loaded),
            Event::Fault(fault) => self.on_fault(fault),
        }
    }

    fn on_fault(&mut self, fault: Fault) -> TraceKind {
        match fault {
            Fault::KillController => match self.controller() {
                Some((id, _)) => self.crash(id),
                None => TraceKind::NoControllerToKill,
            },
            Fault::KillBroker(id) => self.crash(id),
            Fault::CutOffFromController(id) => {
                self.brokers[id as usize].reachable_from_controller = false;
                TraceKind::CutOffFromController { broker: id }
            }
            Fault::Reconnect(id) => self.reconnect(id),
            Fault::StallFetchers(id) => self.stall_fetchers_now(id),
            Fault::RogueAclWrite { topic, acl } => self.on_rogue_acl_write(topic, acl),
            Fault::Authorize { broker, principal, operation, topic } => {
                self.on_authorize(broker, principal, operation, topic)
            }
        }
    }

    fn crash(&mut self, id: BrokerId) -> TraceKind {
        let now = self.now;
        let broker = &mut self.brokers[id as usize];
        if !broker.alive {
            return TraceKind::AlreadyDown { broker: id };
        }
        broker.alive = false;
        let session = broker.session;
        let expires = self.store.session_expires_at(session).unwrap_or(now);
        self.schedule(expires, Event::SessionCheck { session });
        let was_controller = self.controller.as_ref().is_some_and(|c| c.broker == id);
        if was_controller {
            self.controller = None;
            self.drop_every_queue();
            let led =
                |p: u32| self.store.inspect(self.layout.state_path(p)).and_then(|n| n.partition_state());
            let leaderless =
                (0..self.layout.partitions()).map(|p| led(p).is_some_and(|s| s.leader == id as i32));
            let leaderless = leaderless.collect();
            let timeline =
                FailoverTimeline::new((now, id, session), leaderless, self.store.stats(), self.requests);
            self.failover = Some(timeline);
        }
        TraceKind::Crashed { broker: id, was_controller, session, expires_at: expires }
    }

    fn on_ping(&mut self, id: BrokerId) -> TraceKind {
        let broker = &self.brokers[id as usize];
        if !broker.alive {
            return TraceKind::Down { broker: id, missed: Missed::Pings };
        }
        let session = broker.session;
        match self.store.ping(session, self.now) {
            Ok(expires_at) => {
                self.schedule(self.now.saturating_add(self.ping_interval()), Event::Ping { broker: id });
                TraceKind::Ping { broker: id, session, expires_at }
            }
            Err(error) => TraceKind::PingFailed { broker: id, error },
        }
    }

    fn on_session_check(&mut self, session: SessionId) -> TraceKind {
        match self.store.check_session(session, self.now) {
            SessionStatus::Alive { expires_at } => {
                self.schedule(expires_at, Event::SessionCheck { session });
                TraceKind::SessionAlive { session, expires_at }
            }
            SessionStatus::Expired { deleted, fired } => {
                if let Some(f) = self.failover.as_mut().filter(|f| f.old_session == session) {
                    f.session_expired_at = Some(self.now);
                }
                let watches_fired = fired.len();
                self.deliver_watches(fired);
                TraceKind::SessionExpired { session, deleted, watches_fired }
            }
            SessionStatus::Unknown => TraceKind::SessionGone { session },
        }
    }

    pub(super) fn deliver_watches(&mut self, fired: Vec<WatchFired>) {
        let at = self.now.saturating_add(self.network_latency());
        for watch in fired {
            self.schedule(at, Event::Notify(watch));
        }
    }

    fn on_notify(&mut self, fired: WatchFired) -> TraceKind {
        let id = fired.watcher;
        let (path, event) = (fired.path, fired.event);
        if !self.brokers[id as usize].alive {
            return TraceKind::Down { broker: id, missed: Missed::Watch { event, path } };
        }
        let reaction = match (path, event) {
            (ZnodePath::Controller, WatchEvent::NodeDeleted) => {
                // KafkaController.elect (2.4): getControllerId (a controller already there ends
                // it), then getControllerEpoch (one round trip each), then the multi-op of
                // registerControllerAndIncrementControllerEpoch.
                if self.store.get_data(ZnodePath::Controller, None).is_ok() {
                    let holder = self.watch_controller(id);
                    return TraceKind::WatchFired {
                        broker: id,
                        event,
                        path,
                        reaction: Reaction::ControllerIs(holder),
                    };
                }
                let read_id = self.store.submit(self.now, ZkRequestKind::Read, 1, 1);
                let read_epoch = self.store.submit(read_id, ZkRequestKind::Read, 1, 1);
                let jitter = self.rng.below(self.network_latency() + 1);
                let arrives = read_epoch.saturating_add(self.network_latency() + jitter);
                self.schedule(arrives, Event::ClaimController { broker: id });
                Reaction::RacesToCreate
            }
            (ZnodePath::Controller, _) => Reaction::ControllerIs(self.watch_controller(id)),
            (ZnodePath::AclChanges, WatchEvent::NodeChildrenChanged) => return self.on_acl_changes(id),
            (ZnodePath::BrokerIds | ZnodePath::IsrChangeNotifications, WatchEvent::NodeChildrenChanged) => {
                return self.on_controller_watch(id, path);
            }
            _ => Reaction::NothingToDo,
        };
        TraceKind::WatchFired { broker: id, event, path, reaction }
    }

    /// Re-registers `broker`'s watch on `/controller` and names the holder.
    fn watch_controller(&mut self, id: BrokerId) -> Holder {
        let session = self.brokers[id as usize].session;
        match self.store.exists(ZnodePath::Controller, Some(session)) {
            Ok(Some(node)) => match node.data {
                ZnodeData::Controller { broker_id, .. } => Holder::Broker(broker_id),
                other => Holder::Unreadable(other),
            },
            Ok(None) => Holder::Nobody,
            Err(error) => Holder::Unknown(error),
        }
    }

    /// The ensemble applies a broker's claim: `create /controller` (ephemeral) and `setData
    /// /controller_epoch` at the version the broker read, in one multi-op
    /// (`KafkaZkClient.registerControllerAndIncrementControllerEpoch`, 2.4): both change or
    /// neither does. A taken `/controller` fails the whole multi (NODEEXISTS): the race is lost.
    fn on_claim_controller(&mut self, id: BrokerId) -> TraceKind {
        let broker = &self.brokers[id as usize];
        if !broker.alive {
            return TraceKind::Down { broker: id, missed: Missed::ClaimController };
        }
        let session = broker.session;
        let result = self.claim_controller(id, session);
        match result {
            Ok(epoch) => {
                if let Some(f) = self.failover.as_mut() {
                    f.controller_created_at.get_or_insert(self.now);
                }
                let round_trip = self.config.costs.zk_write_latency;
                let answered = self.now.saturating_add(round_trip.saturating_sub(self.network_latency()));
                self.schedule(answered, Event::ControllerClaimed { broker: id, epoch });
                TraceKind::ClaimedController { broker: id, epoch }
            }
            Err(ZkError::NodeExists(_)) => {
                TraceKind::LostTheRace { broker: id, holder: self.watch_controller(id) }
            }
            Err(error) => TraceKind::ClaimFailed { broker: id, error },
        }
    }

    /// The multi-op itself, at the `/controller_epoch` version just read (`getControllerEpoch`).
    fn claim_controller(&mut self, id: BrokerId, session: SessionId) -> Result<u32, ZkError> {
        let path = ZnodePath::ControllerEpoch;
        let node = self.store.get_data(path, None)?;
        let ZnodeData::ControllerEpoch(epoch) = node.data else {
            return Err(ZkError::BadData(path));
        };
        let controller = ZnodeData::Controller { broker_id: id, kraft_epoch: None };
        let fired = self.store.multi(&[
            ZkOp::Create { path: ZnodePath::Controller, data: controller, ephemeral_owner: Some(session) },
            ZkOp::SetData { path, data: ZnodeData::ControllerEpoch(epoch + 1), version: Some(node.version) },
        ])?;
        self.deliver_watches(fired);
        Ok(epoch + 1)
    }

    /// The winner hears that its multi-op succeeded and starts `onControllerFailover`.
    fn on_controller_claimed(&mut self, id: BrokerId, epoch: u32) -> TraceKind {
        if !self.brokers[id as usize].alive {
            return TraceKind::Down { broker: id, missed: Missed::ActingAsController };
        }
        self.become_controller(id, epoch)
    }

    fn become_controller(&mut self, id: BrokerId, epoch: u32) -> TraceKind {
        let broker = &self.brokers[id as usize];
        if !broker.alive {
            return TraceKind::Down { broker: id, missed: Missed::ActingAsController };
        }
        let session = broker.session;
        let live = match self.register_controller_watches(session) {
            Ok(live) => live,
            Err(error) => return TraceKind::CannotActAsController { broker: id, error },
        };
        // onControllerFailover (2.4) before the topics: exists on /admin/preferred_replica_election
        // and /admin/reassign_partitions, getChildren of /log_dir_event_notification and
        // /isr_change_notification, then initializeControllerContext's getChildren /brokers/ids,
        // getData of each registration, an exists on each (broker modifications handler) and
        // getChildren /brokers/topics; fetchTopicDeletionsInProgress's getChildren
        // /admin/delete_topics. The /admin znodes and /log_dir_event_notification are absent in
        // this cluster; /isr_change_notification is read (and watched) with the watches above.
        let admin_reads = 4 + u64::from(live.len());
        self.store.count_absent_reads(admin_reads);
        let reads = 4 + u64::from(live.len()) + admin_reads;
        let in_flight = self.config.costs.zk_max_in_flight_requests;
        let registered = self.store.submit(self.now, ZkRequestKind::Read, reads, in_flight);
        let partitions = self.layout.partitions() as usize;
        let brokers = self.config.brokers;
        self.controller = Some(ActiveController::loading(id, epoch, session, live, brokers, partitions));
        let first_push = self.pushes.len();
        if let Some(f) = self.failover.as_mut() {
            f.new_controller = Some(id);
            f.first_push = Some(first_push);
        }
        let steps = self.advance_controller(registered);
        TraceKind::BecameController { broker: id, epoch, live, steps }
    }

    /// Counts the dead controller's partitions that `id`, applying LeaderAndIsr for `entries`,
    /// now leads: each has a live leader again.
    fn count_leaders_back(&mut self, id: BrokerId, entries: &[(u32, PartitionState)]) {
        let now = self.now;
        let Some(f) = self.failover.as_mut().filter(|f| f.leaderless_left > 0) else { return };
        for (partition, state) in entries {
            let waiting = f.leaderless.get_mut(*partition as usize);
            if state.leader == id as i32 && waiting.is_some_and(std::mem::take) {
                f.leaderless_left -= 1;
            }
        }
        if f.leaderless_left == 0 {
            f.leaders_back_at = Some(now);
        }
    }

    fn on_broker_apply(&mut self, id: BrokerId, request: BrokerRequest) -> TraceKind {
        let broker = &mut self.brokers[id as usize];
        if !broker.alive {
            return TraceKind::Down { broker: id, missed: Missed::Request };
        }
        let epoch = request.controller_epoch;
        if epoch < broker.controller_epoch {
            let known = broker.controller_epoch;
            return TraceKind::StaleEpochRejected { broker: id, epoch, known };
        }
        broker.controller_epoch = epoch;
        for &(partition, state) in request.entries.iter() {
            broker.cache.set(partition as usize, state);
        }
        if request.leader_and_isr_entries > 0 {
            self.count_leaders_back(id, &request.entries);
        }
        let completes = self.record_applied(request.push, id);
        let (partitions, leader_and_isr) = (request.entries.len(), request.leader_and_isr_entries > 0);
        TraceKind::Applied { broker: id, partitions, leader_and_isr, epoch, completes }
    }
}

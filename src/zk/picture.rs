//! What a page draws of a ZooKeeper-mode cluster, computed from the model: each broker's process,
//! session and cache, the znodes that matter, the requests in flight and the partition grid.
//! Pure data, so the drawing code only places shapes and the content is tested natively.

use super::cluster::{Event, Fault, Scheduled, ZkCluster};
use super::controller::{ChunkDone, ControllerTask};
use super::failover::FailoverPhase;
use super::partition::BrokerId;
use super::path::ZnodePath;
use super::store::{WatchEvent, ZnodeData};
use crate::harness::{MS, Micros};
use crate::util::format;

/// A ping is drawn travelling to the ensemble for this long after it was sent (simulated).
const PING_SHOWN: Micros = 300 * MS;
/// A client's write is drawn travelling to the ensemble for this long before it lands.
const CLIENT_WRITE_SHOWN: Micros = 400 * MS;

/// One broker as drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct ZkBrokerPicture {
    pub id: BrokerId,
    /// The process is running.
    pub alive: bool,
    /// It is the active controller (it won `/controller` and holds `/controller_epoch`).
    pub controller: bool,
    /// It won `/controller` and is still loading state: not yet able to act.
    pub loading: bool,
    /// Its ephemeral `/brokers/ids/<id>` exists.
    pub registered: bool,
    /// Fraction of `zookeeper.session.timeout.ms` left before its session expires (1 = just
    /// pinged); `None` once the session has expired.
    pub session_left: Option<f64>,
    /// The controller epoch of the last request it accepted.
    pub controller_epoch: u32,
    /// Fraction of its metadata cache that holds the new controller's state (1 when no
    /// failover is under way).
    pub fresh: f64,
}

/// The znodes a newcomer needs, with counts where there are millions.
#[derive(Clone, Debug, PartialEq)]
pub struct ZnodePanel {
    /// `/controller`'s broker id; `None` while it does not exist.
    pub controller: Option<BrokerId>,
    pub controller_epoch: u32,
    /// Children of `/brokers/ids`.
    pub broker_ids: Vec<BrokerId>,
    /// Children of `/brokers/topics`.
    pub topics: u64,
    /// Partition `state` znodes.
    pub partition_states: u64,
    /// With the `AclAuthorizer` configured: the ACL znodes, each path with what it holds.
    pub acls: Vec<(String, String)>,
}

/// A client outside Kafka that reaches ZooKeeper's port and writes to it directly (the second
/// door), drawn while its write is due or once it has written.
#[derive(Clone, Debug, PartialEq)]
pub struct ZkClientPicture {
    /// The ACL znode it wrote, once it has.
    pub wrote: Option<String>,
}

/// Where a request starts or ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Endpoint {
    Ensemble,
    Broker(BrokerId),
    Client,
}

/// What travels, in Kafka's and ZooKeeper's names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ZkMessageKind {
    /// A session ping (heartbeat) to the ensemble.
    Ping,
    /// A one-shot watch firing on a znode.
    Watch,
    /// The claim of `/controller`: one multi-op creating it and bumping `/controller_epoch`.
    ClaimController,
    /// A batch of `getData` of the cold load.
    Reads,
    /// A batch of `setData` of partition state znodes (leader elections).
    Writes,
    /// UpdateMetadata and LeaderAndIsr requests sent to a broker, not yet applied.
    UpdateMetadata,
    /// A client's `create` of an ACL znode and its change notification, no Kafka request.
    ClientWrite,
}

impl ZkMessageKind {
    /// A short label for the drawing.
    pub fn label(self) -> &'static str {
        match self {
            ZkMessageKind::Ping => "ping",
            ZkMessageKind::Watch => "watch",
            ZkMessageKind::ClaimController => "claim",
            ZkMessageKind::Reads => "getData",
            ZkMessageKind::Writes => "setData",
            ZkMessageKind::UpdateMetadata => "UM+LAI",
            ZkMessageKind::ClientWrite => "create",
        }
    }
}

/// Requests of one kind between two endpoints, drawn as one glyph.
#[derive(Clone, Debug, PartialEq)]
pub struct ZkMessage {
    pub kind: ZkMessageKind,
    pub from: Endpoint,
    pub to: Endpoint,
    /// How many (requests, or partitions for batches).
    pub count: u64,
    /// 0 at the sender, 1 at the receiver, of the request nearest to arriving.
    pub progress: f64,
    /// Hover text.
    pub text: String,
}

/// Everything the ZooKeeper-mode view draws.
#[derive(Clone, Debug, PartialEq)]
pub struct ZkPicture {
    pub now: Micros,
    pub brokers: Vec<ZkBrokerPicture>,
    /// The client writing to ZooKeeper directly, where one does.
    pub client: Option<ZkClientPicture>,
    pub znodes: ZnodePanel,
    pub messages: Vec<ZkMessage>,
    pub phase: FailoverPhase,
    /// `zookeeper.session.timeout.ms`.
    pub session_timeout: Micros,
    /// Requests the controller keeps in flight to ZooKeeper (`zookeeper.max.in.flight.requests`).
    pub pipelining_depth: u32,
}

/// Partition state at scale: each cell stands for `per_cell` partitions (the last may hold
/// fewer); counts of cells in each state, filled in partition order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionGrid {
    pub cells: u32,
    pub per_cell: u64,
    pub partitions: u64,
    /// Partitions without a live leader now (the killed node's, until their new leaders know):
    /// the rest keep serving.
    pub leaderless: u64,
    /// Cells whose partitions the active controller holds in memory.
    pub loaded: u32,
    /// Per running broker: cells whose partitions it holds fresh (from the current controller).
    pub pushed: Vec<(BrokerId, u32)>,
}

impl PartitionGrid {
    /// A grid of at most `max_cells` cells over `partitions` partitions, nothing known yet.
    pub(crate) fn empty(partitions: u64, max_cells: u32) -> PartitionGrid {
        let per_cell = partitions.div_ceil(u64::from(max_cells.max(1))).max(1);
        let cells = partitions.div_ceil(per_cell) as u32;
        PartitionGrid { cells, per_cell, partitions, leaderless: 0, loaded: 0, pushed: Vec::new() }
    }

    /// Whole cells covered by the first `partitions` partitions (a prefix).
    pub fn cells_for(&self, partitions: u64, total: u64) -> u32 {
        if partitions >= total { self.cells } else { (partitions / self.per_cell) as u32 }
    }

    /// Cells every listed broker holds fresh.
    pub fn pushed_to_all(&self) -> u32 {
        self.pushed.iter().map(|(_, c)| *c).min().unwrap_or(0)
    }
}

impl ZkCluster {
    /// The cluster as a page draws it now.
    pub fn picture(&self) -> ZkPicture {
        let now = self.now;
        let timeout = self.config.costs.zk_session_timeout.max(1);
        let active = self.controller.as_ref().map(|c| (c.broker, c.loaded()));
        let fresh = self.fresh_partitions();
        let total = u64::from(self.layout.partitions()).max(1);
        let brokers = self
            .brokers
            .iter()
            .map(|b| ZkBrokerPicture {
                id: b.id,
                alive: b.alive,
                controller: active.is_some_and(|(id, _)| id == b.id),
                loading: active.is_some_and(|(id, loaded)| id == b.id && !loaded),
                registered: self.store.inspect(ZnodePath::BrokerId(b.id)).is_some(),
                session_left: self
                    .store
                    .session_expires_at(b.session)
                    .map(|at| (at.saturating_sub(now) as f64 / timeout as f64).clamp(0.0, 1.0)),
                controller_epoch: b.controller_epoch,
                fresh: fresh.as_ref().map_or(1.0, |f| f[b.id as usize] as f64 / total as f64),
            })
            .collect();
        ZkPicture {
            now,
            brokers,
            client: self.client(),
            znodes: self.znode_panel(),
            messages: self.messages_in_flight(),
            phase: self.failover_progress(),
            session_timeout: timeout,
            pipelining_depth: self.config.costs.zk_max_in_flight_requests,
        }
    }

    /// The partition grid of at most `max_cells` cells.
    pub fn partition_grid(&self, max_cells: u32) -> PartitionGrid {
        let total = u64::from(self.layout.partitions());
        let mut grid = PartitionGrid::empty(total, max_cells);
        let loaded = match self.controller.as_ref().map(|c| &c.task) {
            None => 0,
            Some(ControllerTask::Loading { loaded, .. }) => *loaded,
            Some(_) => total,
        };
        grid.loaded = grid.cells_for(loaded, total);
        grid.leaderless = self.failover.as_ref().map_or(0, |f| f.leaderless_left);
        let fresh = self.fresh_partitions();
        grid.pushed = self
            .brokers
            .iter()
            .filter(|b| b.alive)
            .map(|b| (b.id, grid.cells_for(fresh.as_ref().map_or(total, |f| f[b.id as usize]), total)))
            .collect();
        grid
    }

    /// During a failover, partitions each broker has received from the new controller, in
    /// partition order (the push sends them in order); `None` when no failover is under way.
    fn fresh_partitions(&self) -> Option<Vec<u64>> {
        let f = self.failover.as_ref().filter(|f| f.brokers_updated_at.is_none())?;
        let chunk = u64::from(self.config.chunk_partitions);
        let total = u64::from(self.layout.partitions());
        let push = self.pushes.iter().rev().find(|t| t.full_state && f.new_controller.is_some());
        Some(
            (0..self.brokers.len())
                .map(|b| push.map_or(0, |t| (t.applied[b] as u64 * chunk).min(total)))
                .collect(),
        )
    }

    /// The client writing ACLs into ZooKeeper, where one does, and the ACL znode it wrote once
    /// it is there (nothing else in the model writes one).
    fn client(&self) -> Option<ZkClientPicture> {
        self.rogue_client.then(|| ZkClientPicture {
            wrote: self.store.children(ZnodePath::TopicAcls).first().map(ZnodePath::to_string),
        })
    }

    fn znode_panel(&self) -> ZnodePanel {
        let controller = match self.store.inspect(ZnodePath::Controller).map(|n| n.data) {
            Some(ZnodeData::Controller { broker_id, .. }) => Some(broker_id),
            _ => None,
        };
        let controller_epoch = match self.store.inspect(ZnodePath::ControllerEpoch).map(|n| n.data) {
            Some(ZnodeData::ControllerEpoch(epoch)) => epoch,
            _ => 0,
        };
        let broker_ids = self
            .brokers
            .iter()
            .map(|b| b.id)
            .filter(|id| self.store.inspect(ZnodePath::BrokerId(*id)).is_some())
            .collect();
        ZnodePanel {
            controller,
            controller_epoch,
            broker_ids,
            topics: u64::from(self.layout.topics()),
            partition_states: u64::from(self.layout.partitions()),
            acls: self.acl_znodes(),
        }
    }

    /// `/kafka-acl/Topic` (or the topic ACL under it) and `/kafka-acl-changes`, where they exist.
    fn acl_znodes(&self) -> Vec<(String, String)> {
        let Some(_) = self.store.inspect(ZnodePath::AclChanges) else { return Vec::new() };
        let topic_acl = self.store.children(ZnodePath::TopicAcls).into_iter().find_map(|path| {
            match self.store.inspect(path)?.data {
                ZnodeData::Acls(acl) => Some((path, acl)),
                _ => None,
            }
        });
        let acl = match topic_acl {
            Some((path, acl)) => (path.to_string(), format!("{} {}", acl.principal, acl.operation.name())),
            None => (ZnodePath::TopicAcls.to_string(), "no ACLs".to_string()),
        };
        let changes = self.store.children(ZnodePath::AclChanges).len() as u64;
        vec![acl, (ZnodePath::AclChanges.to_string(), format::counted(changes, "change"))]
    }

    /// Requests in flight, grouped by kind and endpoints, plus recent pings.
    fn messages_in_flight(&self) -> Vec<ZkMessage> {
        let mut flight = InFlight { now: self.now, found: Vec::new() };
        let controller = self.controller.as_ref().map(|c| Endpoint::Broker(c.broker));
        for (at, Scheduled { sent, event }) in self.queue.iter_in_order() {
            self.queued_message(&mut flight, event, *sent, at, controller);
        }
        let timeout = self.config.costs.zk_session_timeout;
        for b in self.brokers.iter().filter(|b| b.alive) {
            let Some(expires) = self.store.session_expires_at(b.session) else { continue };
            let pinged = expires.saturating_sub(timeout);
            if pinged > 0 && flight.now >= pinged && flight.now - pinged < PING_SHOWN {
                let text = || format!("broker {}: ping, session {} stays alive", b.id, b.session);
                flight.add(
                    ZkMessageKind::Ping,
                    Endpoint::Broker(b.id),
                    Endpoint::Ensemble,
                    1,
                    pinged,
                    pinged + PING_SHOWN,
                    &text,
                );
            }
        }
        crate::util::sort::sort_by_key(&mut flight.found, |m| (m.kind, m.from, m.to));
        flight.found
    }

    /// The message `event`, sent at `sent` and due at `at`, drawn in flight (if it is one the
    /// drawing shows; `controller` sends the controller's).
    fn queued_message(
        &self,
        flight: &mut InFlight,
        event: &Event,
        sent: Micros,
        at: Micros,
        controller: Option<Endpoint>,
    ) {
        match event {
            Event::Notify(fired) => {
                let what = match fired.event {
                    WatchEvent::NodeDeleted => "deleted",
                    WatchEvent::NodeCreated => "created",
                    _ => "changed",
                };
                let text = || format!("watch fired: {} {what}", fired.path);
                flight.add(
                    ZkMessageKind::Watch,
                    Endpoint::Ensemble,
                    Endpoint::Broker(fired.watcher),
                    1,
                    sent,
                    at,
                    &text,
                );
            }
            Event::ClaimController { broker } => {
                let text = || {
                    format!(
                        "broker {broker}: multi-op: create /controller (ephemeral) and /controller_epoch + 1"
                    )
                };
                flight.add(
                    ZkMessageKind::ClaimController,
                    Endpoint::Broker(*broker),
                    Endpoint::Ensemble,
                    1,
                    sent,
                    at,
                    &text,
                );
            }
            Event::Fault(Fault::RogueAclWrite { topic, acl }) if at <= flight.now + CLIENT_WRITE_SHOWN => {
                let text = || {
                    format!(
                        "a client with no Kafka credentials: create {} ({}) and a change notification",
                        ZnodePath::TopicAcl(*topic),
                        acl.summary()
                    )
                };
                let sent = at.saturating_sub(CLIENT_WRITE_SHOWN);
                flight.add(
                    ZkMessageKind::ClientWrite,
                    Endpoint::Client,
                    Endpoint::Ensemble,
                    1,
                    sent,
                    at,
                    &text,
                );
            }
            Event::ChunkDone { chunk, .. } => {
                let Some(from) = controller else { return };
                self.chunk_message(flight, chunk, sent, at, from);
            }
            Event::IsrWritten { leader, writes } => {
                let text = || {
                    format!(
                        "broker {leader}: setData of {} state znodes, the ISR shrunk (isr-expiration)",
                        writes.len()
                    )
                };
                let (from, count) = (Endpoint::Broker(*leader), writes.len() as u64);
                flight.add(ZkMessageKind::Writes, from, Endpoint::Ensemble, count, sent, at, &text);
            }
            Event::BrokerApply { broker, request } => {
                let Some(from) = controller else { return };
                let text = || {
                    format!(
                        "UpdateMetadata{} to broker {broker}: {} partitions a request",
                        if request.leader_and_isr_entries > 0 { " + LeaderAndIsr" } else { "" },
                        request.entries.len()
                    )
                };
                flight.add(
                    ZkMessageKind::UpdateMetadata,
                    from,
                    Endpoint::Broker(*broker),
                    1,
                    sent,
                    at,
                    &text,
                );
            }
            _ => {}
        }
    }

    /// The controller's ZooKeeper requests of a finished chunk of work, sent by `from`.
    fn chunk_message(
        &self,
        flight: &mut InFlight,
        chunk: &ChunkDone,
        sent: Micros,
        at: Micros,
        from: Endpoint,
    ) {
        match chunk {
            ChunkDone::AssignmentsRead { topics } => {
                let text = || {
                    format!(
                        "cold load: getData of {topics} topic znodes (replica assignments), {} in flight at a time",
                        self.config.costs.zk_max_in_flight_requests
                    )
                };
                flight.add(
                    ZkMessageKind::Reads,
                    from,
                    Endpoint::Ensemble,
                    u64::from(*topics),
                    sent,
                    at,
                    &text,
                );
            }
            ChunkDone::Loaded(states) => {
                let text = || {
                    format!(
                        "cold load: getData of {} partition state znodes, {} in flight at a time",
                        states.len(),
                        self.config.costs.zk_max_in_flight_requests
                    )
                };
                flight.add(
                    ZkMessageKind::Reads,
                    from,
                    Endpoint::Ensemble,
                    states.len() as u64,
                    sent,
                    at,
                    &text,
                );
            }
            ChunkDone::Written { change, states, processed } => {
                let text = || {
                    format!(
                        "{change}: getData of {processed} partition state znodes, setData of {}",
                        states.len()
                    )
                };
                flight.add(
                    ZkMessageKind::Writes,
                    from,
                    Endpoint::Ensemble,
                    states.len() as u64,
                    sent,
                    at,
                    &text,
                );
            }
            ChunkDone::Sent | ChunkDone::IsrChangesRead { .. } => {}
        }
    }
}

/// The messages in flight at `now`, one arrow per kind and pair of ends.
struct InFlight {
    now: Micros,
    found: Vec<ZkMessage>,
}

impl InFlight {
    /// A message of `kind` from `from` to `to` (`count` of them), sent at `sent` and due at
    /// `at`: a new arrow, or counted on the arrow of its kind and ends; `text` names it.
    #[allow(clippy::too_many_arguments)]
    fn add(
        &mut self,
        kind: ZkMessageKind,
        from: Endpoint,
        to: Endpoint,
        count: u64,
        sent: Micros,
        at: Micros,
        text: &dyn Fn() -> String,
    ) {
        let now = self.now;
        let progress = if at > sent { (now.saturating_sub(sent)) as f64 / (at - sent) as f64 } else { 1.0 };
        let progress = progress.clamp(0.0, 1.0);
        match self.found.iter_mut().find(|m| m.kind == kind && m.from == from && m.to == to) {
            Some(m) => {
                m.count += count;
                m.progress = m.progress.max(progress);
            }
            None => self.found.push(ZkMessage { kind, from, to, count, progress, text: text() }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Endpoint, MS, PartitionGrid, ZkMessageKind};
    use crate::zk::{FailoverPhase, ZkCluster, ZkClusterConfig, ZkCosts};

    fn cluster() -> ZkCluster {
        let config = ZkClusterConfig::single_partition_topics(50_000, 5, ZkCosts::async_reads());
        let mut cluster = ZkCluster::new(config, 3).unwrap();
        cluster.run_until(2_000 * MS);
        cluster
    }

    #[test]
    fn grid_cells_cover_every_partition_once() {
        let grid = PartitionGrid::empty(2_000_000, 2_000);
        assert_eq!((grid.cells, grid.per_cell), (2_000, 1_000));
        let small = PartitionGrid::empty(10, 2_000);
        assert_eq!((small.cells, small.per_cell), (10, 1));
        let odd = PartitionGrid::empty(1_001, 1_000);
        assert_eq!((odd.cells, odd.per_cell), (501, 2));
        assert_eq!(odd.cells_for(1_000, 1_001), 500);
        assert_eq!(odd.cells_for(1_001, 1_001), 501);
    }

    #[test]
    fn a_steady_cluster_is_whole_and_fresh() {
        let cluster = cluster();
        let view = cluster.picture();
        let (controller, epoch) = cluster.controller().unwrap();
        assert_eq!(view.znodes.controller, Some(controller));
        assert_eq!(view.znodes.controller_epoch, epoch);
        assert_eq!(view.znodes.broker_ids, vec![0, 1, 2, 3, 4]);
        assert_eq!(view.znodes.partition_states, 50_000);
        assert!(view.brokers.iter().all(|b| b.alive && b.registered && b.fresh == 1.0));
        assert_eq!(view.brokers.iter().filter(|b| b.controller).count(), 1);
        let grid = cluster.partition_grid(1_000);
        assert_eq!((grid.loaded, grid.pushed_to_all(), grid.pushed.len()), (1_000, 1_000, 5));
    }

    #[test]
    fn a_failover_shows_expiry_watches_the_race_a_cold_load_and_the_push() {
        let mut cluster = cluster();
        let (old, epoch) = cluster.controller().unwrap();
        cluster.kill_controller(cluster.now());
        cluster.run_until(cluster.now() + 1);
        let view = cluster.picture();
        let dead = &view.brokers[old as usize];
        assert!(!dead.alive && dead.registered, "its znodes live until its session expires");
        assert!(dead.session_left.is_some_and(|left| left > 0.0 && left <= 1.0));
        assert_eq!(view.znodes.controller, Some(old));
        assert_eq!(cluster.partition_grid(1_000).loaded, 0, "nobody holds the state any more");
        let (mut saw_watch_on, mut saw_claim, mut saw_reads, mut saw_push) =
            (Vec::new(), false, false, false);
        let (mut loaded, mut pushed) = (0, 0);
        while cluster.failover_report().is_none() {
            let step = match cluster.failover_progress() {
                FailoverPhase::AwaitingSessionExpiry { expires_at } => {
                    (expires_at - cluster.now()).clamp(1, 50_000)
                }
                _ => 100,
            };
            cluster.run_until(cluster.now() + step);
            let view = cluster.picture();
            for m in &view.messages {
                match (m.kind, m.to) {
                    (ZkMessageKind::Watch, Endpoint::Broker(b)) if !saw_watch_on.contains(&b) => {
                        saw_watch_on.push(b)
                    }
                    (ZkMessageKind::ClaimController, Endpoint::Ensemble) => saw_claim = true,
                    (ZkMessageKind::Reads, Endpoint::Ensemble) => saw_reads = true,
                    (ZkMessageKind::UpdateMetadata, Endpoint::Broker(_)) => saw_push = true,
                    _ => {}
                }
                assert!((0.0..=1.0).contains(&m.progress));
            }
            if let FailoverPhase::LoadingFromZk { .. } = view.phase {
                assert_eq!(view.znodes.controller_epoch, epoch + 1);
                assert!(view.znodes.controller.is_some_and(|c| c != old));
            }
            let grid = cluster.partition_grid(1_000);
            assert!(grid.loaded >= loaded && grid.pushed_to_all() >= pushed, "the grid never goes back");
            (loaded, pushed) = (grid.loaded, grid.pushed_to_all());
        }
        crate::util::sort::sort(&mut saw_watch_on);
        let survivors: Vec<u32> = (0..5).filter(|b| *b != old).collect();
        assert_eq!(saw_watch_on, survivors, "the /controller watch fires on every live broker");
        assert!(saw_claim && saw_reads && saw_push);
        let view = cluster.picture();
        assert!(view.brokers.iter().filter(|b| b.alive).all(|b| b.fresh == 1.0));
        assert!(!view.brokers[old as usize].registered);
        assert_eq!(view.znodes.broker_ids.len(), 4);
        let grid = cluster.partition_grid(1_000);
        assert_eq!((grid.loaded, grid.pushed_to_all(), grid.pushed.len()), (1_000, 1_000, 4));
    }
}

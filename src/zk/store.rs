//! The ZooKeeper ensemble as a znode store: versioned znodes, ephemeral znodes owned by sessions
//! that expire unless pinged, one-shot watches, and a latency model with a request-rate ceiling.
//! Partition-state znodes are kept in shared columns so millions of them stay cheap.

use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;

use super::acl::ZkAcl;
use super::column::SharedColumn;
use super::costs::ZkCosts;
use super::partition::{BrokerId, PartitionState};
use super::path::{TopicLayout, ZnodePath};
use crate::harness::Micros;
use crate::util::small_map::SmallMap;

/// The request queue keeps time in nanoseconds: at 100,000 requests a second each takes 10 us,
/// at higher rates a fraction of one.
const NS_PER_MICRO: u64 = 1_000;

/// A ZooKeeper session id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SessionId(pub u64);

impl fmt::Display for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "0x{:x}", self.0)
    }
}

/// What a znode holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZnodeData {
    /// A parent znode with no data of its own.
    Empty,
    /// `/controller`: the active controller; during a migration to KRaft, a KRaft controller and
    /// its epoch (`ControllerZNode` version 2, `kraftControllerEpoch`).
    Controller { broker_id: BrokerId, kraft_epoch: Option<i32> },
    /// `/controller_epoch`.
    ControllerEpoch(u32),
    /// `/brokers/ids/<id>`: a broker registration.
    BrokerRegistration { broker_id: BrokerId },
    /// `/brokers/topics/<t>`: the topic's replica assignment (its partition count here; the
    /// replicas follow [`ReplicaAssignment`](super::ReplicaAssignment)).
    TopicAssignment { partitions: u32 },
    /// A partition's `state` znode.
    PartitionState(PartitionState),
    /// An ISR change notification: how many partitions it names (the list is read with
    /// [`ZkStore::isr_change`]).
    IsrChange { partitions: u32 },
    /// `/kafka-acl/Topic/<t>`: the topic's ACL (one, in this model).
    Acls(ZkAcl),
    /// An ACL change notification: the topic whose ACLs changed (`Topic:<name>`).
    AclChange { topic: u32 },
    /// `/migration`: how far a KRaft controller has written the metadata log to ZooKeeper
    /// (`MigrationZNode`).
    Migration {
        kraft_controller_id: i32,
        kraft_controller_epoch: i32,
        kraft_metadata_offset: i64,
        kraft_metadata_epoch: i32,
    },
}

impl ZnodeData {
    /// The partition state, if this is a state znode's data.
    pub fn partition_state_of(&self) -> Option<PartitionState> {
        match self {
            ZnodeData::PartitionState(state) => Some(*state),
            _ => None,
        }
    }
}

impl fmt::Display for ZnodeData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ZnodeData::Empty => write!(f, "null"),
            ZnodeData::Controller { broker_id, kraft_epoch: None } => {
                write!(f, r#"{{"version":1,"brokerid":{broker_id}}}"#)
            }
            ZnodeData::Controller { broker_id, kraft_epoch: Some(epoch) } => {
                write!(f, r#"{{"version":2,"brokerid":{broker_id},"kraftControllerEpoch":{epoch}}}"#)
            }
            ZnodeData::ControllerEpoch(epoch) => write!(f, "{epoch}"),
            ZnodeData::BrokerRegistration { broker_id } => {
                write!(f, r#"{{"version":4,"host":"broker-{broker_id}","port":9092}}"#)
            }
            ZnodeData::TopicAssignment { partitions } => {
                write!(f, r#"{{"version":1,"partitions":{partitions}}}"#)
            }
            ZnodeData::PartitionState(state) => write!(f, "{state}"),
            ZnodeData::IsrChange { partitions } => {
                write!(f, r#"{{"version":1,"partitions":[{partitions} partitions]}}"#)
            }
            ZnodeData::Acls(acl) => write!(f, "{acl}"),
            ZnodeData::AclChange { topic } => write!(f, "Topic:topic-{topic}"),
            ZnodeData::Migration {
                kraft_controller_id,
                kraft_controller_epoch,
                kraft_metadata_offset,
                kraft_metadata_epoch,
            } => {
                write!(
                    f,
                    r#"{{"version":0,"kraft_controller_id":{kraft_controller_id},"kraft_controller_epoch":{kraft_controller_epoch},"kraft_metadata_offset":{kraft_metadata_offset},"kraft_metadata_epoch":{kraft_metadata_epoch}}}"#
                )
            }
        }
    }
}

/// A znode as a read returns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Znode {
    pub data: ZnodeData,
    /// ZooKeeper's data version, bumped by every `setData`.
    pub version: u32,
    /// The session owning an ephemeral znode.
    pub ephemeral_owner: Option<SessionId>,
}

impl Znode {
    fn persistent(data: ZnodeData, version: u32) -> Znode {
        Znode { data, version, ephemeral_owner: None }
    }

    /// The partition state, if this is a state znode.
    pub fn partition_state(&self) -> Option<PartitionState> {
        self.data.partition_state_of()
    }
}

/// One operation of a [`ZkStore::multi`] (ZooKeeper's `Op`): a version check, a conditional
/// `setData` (any version when `None`), a `delete`, a `create`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZkOp {
    Check {
        path: ZnodePath,
        version: u32,
    },
    SetData {
        path: ZnodePath,
        data: ZnodeData,
        version: Option<u32>,
    },
    Delete {
        path: ZnodePath,
        version: Option<u32>,
    },
    /// Ephemeral when it has an owner.
    Create {
        path: ZnodePath,
        data: ZnodeData,
        ephemeral_owner: Option<SessionId>,
    },
}

impl ZkOp {
    /// The znode it is about.
    pub fn path(&self) -> ZnodePath {
        match *self {
            ZkOp::Check { path, .. }
            | ZkOp::SetData { path, .. }
            | ZkOp::Delete { path, .. }
            | ZkOp::Create { path, .. } => path,
        }
    }
}

/// Why a request failed (ZooKeeper's `KeeperException` codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZkError {
    NoNode(ZnodePath),
    NodeExists(ZnodePath),
    BadVersion {
        path: ZnodePath,
        expected: u32,
        actual: u32,
    },
    SessionExpired(SessionId),
    /// The data does not fit the path (e.g. a controller id written to a state znode).
    BadData(ZnodePath),
}

impl fmt::Display for ZkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ZkError::NoNode(path) => write!(f, "NoNode for {path}"),
            ZkError::NodeExists(path) => write!(f, "NodeExists for {path}"),
            ZkError::BadVersion { path, expected, actual } => {
                write!(f, "BadVersion for {path}: expected {expected}, found {actual}")
            }
            ZkError::SessionExpired(session) => write!(f, "session {session} expired"),
            ZkError::BadData(path) => write!(f, "data does not fit {path}"),
        }
    }
}

impl std::error::Error for ZkError {}

/// What a fired watch reports (ZooKeeper's `Watcher.Event.EventType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WatchEvent {
    NodeCreated,
    NodeDeleted,
    NodeDataChanged,
    NodeChildrenChanged,
}

impl fmt::Display for WatchEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// A one-shot watch that fired; it is gone until its client registers it again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WatchFired {
    /// The broker whose session set the watch.
    pub watcher: BrokerId,
    pub path: ZnodePath,
    pub event: WatchEvent,
}

/// Request counters of the ensemble.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ZkStats {
    pub reads: u64,
    pub writes: u64,
    pub watches_fired: u64,
}

/// Read or write, for the latency model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZkRequestKind {
    Read,
    Write,
}

/// Result of checking a session against its deadline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionStatus {
    /// Still alive; pinged recently enough.
    Alive { expires_at: Micros },
    /// Expired now: its ephemeral znodes were deleted and these watches fired.
    Expired { deleted: Vec<ZnodePath>, fired: Vec<WatchFired> },
    /// No such session (never opened or already expired).
    Unknown,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WatchKind {
    Data,
    Children,
}

#[derive(Clone, Copy, Debug)]
struct Watch {
    session: SessionId,
    kind: WatchKind,
}

#[derive(Clone, Copy, Debug)]
struct Session {
    owner: BrokerId,
    expires_at: Micros,
}

/// The ensemble's data tree, sessions, watches and request queue.
#[derive(Clone, Debug)]
pub struct ZkStore {
    layout: TopicLayout,
    read_latency: Micros,
    write_latency: Micros,
    service_ns_per_request: u64,
    session_timeout: Micros,
    nodes: BTreeMap<ZnodePath, Znode>,
    states: SharedColumn<PartitionState>,
    state_versions: SharedColumn<u32>,
    sessions: SmallMap<SessionId, Session>,
    watches: BTreeMap<ZnodePath, Vec<Watch>>,
    /// The partitions each ISR change notification names, by sequence number.
    isr_changes: BTreeMap<u32, Rc<[u32]>>,
    /// The next sequence number under `/isr_change_notification`.
    next_isr_change: u32,
    next_session: u64,
    queue_free_at_ns: u64,
    stats: ZkStats,
}

impl ZkStore {
    /// An ensemble holding `/controller_epoch` (0), `/brokers/ids`, `/brokers/topics` and every
    /// topic of `layout`, partition `i` starting as `states[i]` (sharing the column's storage).
    ///
    /// # Panics
    ///
    /// If `states` does not hold exactly one entry per partition of `layout`.
    pub(crate) fn new(layout: TopicLayout, costs: &ZkCosts, states: SharedColumn<PartitionState>) -> ZkStore {
        let nodes = BTreeMap::from([
            (ZnodePath::ControllerEpoch, Znode::persistent(ZnodeData::ControllerEpoch(0), 0)),
            (ZnodePath::BrokerIds, Znode::persistent(ZnodeData::Empty, 0)),
            (ZnodePath::Topics, Znode::persistent(ZnodeData::Empty, 0)),
            (ZnodePath::IsrChangeNotifications, Znode::persistent(ZnodeData::Empty, 0)),
        ]);
        let partitions = layout.partitions() as usize;
        assert_eq!(states.len(), partitions, "one initial state per partition");
        ZkStore {
            layout,
            read_latency: costs.zk_read_latency,
            write_latency: costs.zk_write_latency,
            service_ns_per_request: 1_000_000_000 / costs.zk_max_requests_per_sec.max(1),
            session_timeout: costs.zk_session_timeout,
            nodes,
            states,
            state_versions: SharedColumn::filled(partitions, 0),
            sessions: SmallMap::new(),
            watches: BTreeMap::new(),
            isr_changes: BTreeMap::new(),
            next_isr_change: 0,
            next_session: 1,
            queue_free_at_ns: 0,
            stats: ZkStats::default(),
        }
    }

    /// The topics and partitions it holds.
    pub fn topic_layout(&self) -> TopicLayout {
        self.layout
    }

    /// Request counters so far.
    pub fn stats(&self) -> ZkStats {
        self.stats
    }

    /// When `count` pipelined requests issued at `start`, at most `max_in_flight` outstanding,
    /// have all completed. Each request occupies the ensemble for `1 / max requests per sec`;
    /// once that ceiling is hit they queue (also behind earlier batches).
    pub(crate) fn submit(
        &mut self,
        start: Micros,
        kind: ZkRequestKind,
        count: u64,
        max_in_flight: u32,
    ) -> Micros {
        let latency = match kind {
            ZkRequestKind::Read => self.read_latency,
            ZkRequestKind::Write => self.write_latency,
        };
        let rounds = count.div_ceil(u64::from(max_in_flight.max(1)));
        let pipelined = start.saturating_add(rounds.saturating_mul(latency));
        let queue_start_ns = self.queue_free_at_ns.max(start.saturating_mul(NS_PER_MICRO));
        self.queue_free_at_ns =
            queue_start_ns.saturating_add(count.saturating_mul(self.service_ns_per_request));
        pipelined.max(self.queue_free_at_ns.div_ceil(NS_PER_MICRO))
    }

    /// Opens a session for `owner`; it expires unless pinged within the session timeout.
    pub(crate) fn open_session(&mut self, owner: BrokerId, now: Micros) -> SessionId {
        let id = SessionId(self.next_session);
        self.next_session += 1;
        let expires_at = now.saturating_add(self.session_timeout);
        self.sessions.insert(id, Session { owner, expires_at });
        id
    }

    /// A client ping: pushes the session's deadline out by the session timeout.
    pub(crate) fn ping(&mut self, session: SessionId, now: Micros) -> Result<Micros, ZkError> {
        let timeout = self.session_timeout;
        let entry = self.sessions.get_mut(&session).ok_or(ZkError::SessionExpired(session))?;
        entry.expires_at = now.saturating_add(timeout);
        Ok(entry.expires_at)
    }

    /// The session's current deadline, if it is alive.
    pub fn session_expires_at(&self, session: SessionId) -> Option<Micros> {
        self.sessions.get(&session).map(|s| s.expires_at)
    }

    /// Expires the session if its deadline has passed: its watches are dropped, its ephemeral
    /// znodes deleted, and the watches on them fire.
    pub(crate) fn check_session(&mut self, session: SessionId, now: Micros) -> SessionStatus {
        match self.sessions.get(&session) {
            None => SessionStatus::Unknown,
            Some(s) if s.expires_at > now => SessionStatus::Alive { expires_at: s.expires_at },
            Some(_) => self.expire(session),
        }
    }

    /// A clean close (a broker's controlled shutdown): the session ends at once, as an expiry
    /// does; the watches its ephemeral znodes' deletion fired.
    pub(crate) fn close_session(&mut self, session: SessionId) -> Vec<WatchFired> {
        match self.expire(session) {
            SessionStatus::Expired { fired, .. } => fired,
            _ => Vec::new(),
        }
    }

    fn expire(&mut self, session: SessionId) -> SessionStatus {
        self.sessions.remove(&session);
        for watches in self.watches.values_mut() {
            watches.retain(|w| w.session != session);
        }
        let deleted: Vec<ZnodePath> = self
            .nodes
            .iter()
            .filter(|(_, node)| node.ephemeral_owner == Some(session))
            .map(|(path, _)| *path)
            .collect();
        let mut fired = Vec::new();
        for path in &deleted {
            self.nodes.remove(path);
            self.fire(*path, WatchKind::Data, WatchEvent::NodeDeleted, &mut fired);
            self.fire(*path, WatchKind::Children, WatchEvent::NodeDeleted, &mut fired);
            self.fire_parent(*path, &mut fired);
        }
        SessionStatus::Expired { deleted, fired }
    }

    /// A znode as it is, without a request (for inspection by a UI or a report).
    pub fn inspect(&self, path: ZnodePath) -> Option<Znode> {
        match path {
            // Topic assignments are never rewritten (`setData` on them is refused): version 0.
            ZnodePath::Topic(topic) => (topic < self.layout.topics()).then(|| {
                let partitions = self.layout.partitions_in(topic);
                Znode::persistent(ZnodeData::TopicAssignment { partitions }, 0)
            }),
            ZnodePath::PartitionState { topic, partition } => {
                let i = self.layout.index(topic, partition)?;
                let data = ZnodeData::PartitionState(self.states[i]);
                Some(Znode::persistent(data, self.state_versions[i]))
            }
            other => self.nodes.get(&other).copied(),
        }
    }

    /// Counts `count` reads of znodes this model does not hold (Kafka's `/admin/*` and
    /// notification znodes, absent in a cluster with no admin work pending): each answers
    /// NONODE or no children, at a read's cost.
    pub(crate) fn count_absent_reads(&mut self, count: u64) {
        self.stats.reads += count;
    }

    /// `getData`, optionally leaving a data watch on the znode.
    pub(crate) fn get_data(&mut self, path: ZnodePath, watcher: Option<SessionId>) -> Result<Znode, ZkError> {
        self.stats.reads += 1;
        let node = self.inspect(path).ok_or(ZkError::NoNode(path))?;
        self.watch(path, watcher, WatchKind::Data)?;
        Ok(node)
    }

    /// `exists`: like `getData`, but the watch is left even when the znode is absent.
    pub(crate) fn exists(
        &mut self,
        path: ZnodePath,
        watcher: Option<SessionId>,
    ) -> Result<Option<Znode>, ZkError> {
        self.stats.reads += 1;
        self.watch(path, watcher, WatchKind::Data)?;
        Ok(self.inspect(path))
    }

    /// `getChildren`, optionally leaving a children watch.
    pub(crate) fn get_children(
        &mut self,
        path: ZnodePath,
        watcher: Option<SessionId>,
    ) -> Result<Vec<ZnodePath>, ZkError> {
        self.read_children(path, watcher)?;
        Ok(self.children(path))
    }

    /// `getChildren` when only the number of children matters: the same read and watch, without
    /// listing them (`/brokers/topics` can have millions).
    pub(crate) fn count_children(
        &mut self,
        path: ZnodePath,
        watcher: Option<SessionId>,
    ) -> Result<u64, ZkError> {
        self.read_children(path, watcher)?;
        Ok(match path {
            ZnodePath::Topics => u64::from(self.layout.topics()),
            other => self.children(other).len() as u64,
        })
    }

    fn read_children(&mut self, path: ZnodePath, watcher: Option<SessionId>) -> Result<(), ZkError> {
        self.stats.reads += 1;
        self.inspect(path).ok_or(ZkError::NoNode(path))?;
        self.watch(path, watcher, WatchKind::Children)
    }

    /// The children of `path`, without a request (for a picture, or after a counted read).
    pub(crate) fn children(&self, path: ZnodePath) -> Vec<ZnodePath> {
        match path {
            ZnodePath::BrokerIds => self
                .nodes
                .range(ZnodePath::BrokerId(0)..=ZnodePath::BrokerId(BrokerId::MAX))
                .map(|(p, _)| *p)
                .collect(),
            ZnodePath::Topics => (0..self.layout.topics()).map(ZnodePath::Topic).collect(),
            ZnodePath::Topic(topic) => (0..self.layout.partitions_in(topic))
                .map(|partition| ZnodePath::PartitionState { topic, partition })
                .collect(),
            ZnodePath::IsrChangeNotifications => {
                self.isr_changes.keys().map(|n| ZnodePath::IsrChangeNotification(*n)).collect()
            }
            ZnodePath::TopicAcls => self
                .nodes
                .range(ZnodePath::TopicAcl(0)..=ZnodePath::TopicAcl(u32::MAX))
                .map(|(p, _)| *p)
                .collect(),
            ZnodePath::AclChanges => self
                .nodes
                .range(ZnodePath::AclChange(0)..=ZnodePath::AclChange(u32::MAX))
                .map(|(p, _)| *p)
                .collect(),
            _ => Vec::new(),
        }
    }

    /// `create`; `ephemeral_owner` makes the znode vanish with that session.
    pub(crate) fn create(
        &mut self,
        path: ZnodePath,
        data: ZnodeData,
        ephemeral_owner: Option<SessionId>,
    ) -> Result<Vec<WatchFired>, ZkError> {
        self.stats.writes += 1;
        if self.inspect(path).is_some() {
            return Err(ZkError::NodeExists(path));
        }
        if matches!(
            path,
            ZnodePath::Topic(_) | ZnodePath::PartitionState { .. } | ZnodePath::IsrChangeNotification(_)
        ) {
            return Err(ZkError::BadData(path));
        }
        if let Some(parent) = path.parent().filter(|p| self.inspect(*p).is_none()) {
            return Err(ZkError::NoNode(parent));
        }
        if let Some(owner) = ephemeral_owner.filter(|s| !self.sessions.contains_key(s)) {
            return Err(ZkError::SessionExpired(owner));
        }
        self.nodes.insert(path, Znode { data, version: 0, ephemeral_owner });
        let mut fired = Vec::new();
        self.fire(path, WatchKind::Data, WatchEvent::NodeCreated, &mut fired);
        self.fire_parent(path, &mut fired);
        Ok(fired)
    }

    /// A leader's `createSequentialPersistentPath("/isr_change_notification/isr_change_", ...)`
    /// naming `partitions` (`KafkaZkClient.propagateIsrChanges`, 2.4). Returns its path and the
    /// watches that fired.
    pub(crate) fn create_isr_change(&mut self, partitions: Rc<[u32]>) -> (ZnodePath, Vec<WatchFired>) {
        self.stats.writes += 1;
        let sequence = self.next_isr_change;
        self.next_isr_change += 1;
        let path = ZnodePath::IsrChangeNotification(sequence);
        let data = ZnodeData::IsrChange { partitions: partitions.len() as u32 };
        self.nodes.insert(path, Znode::persistent(data, 0));
        self.isr_changes.insert(sequence, partitions);
        let mut fired = Vec::new();
        self.fire_parent(path, &mut fired);
        (path, fired)
    }

    /// `createSequentialPersistentPath("/kafka-acl-changes/acl_changes_", "Topic:<t>")`
    /// (`ZkAclChangeStore.createChangeNode`, 2.4): the next sequence number under the parent.
    /// Returns its path and the watches that fired.
    pub(crate) fn create_acl_change(&mut self, topic: u32) -> Result<(ZnodePath, Vec<WatchFired>), ZkError> {
        let next = self.children(ZnodePath::AclChanges).last().map_or(0, |last| match last {
            ZnodePath::AclChange(n) => n + 1,
            _ => 0,
        });
        let path = ZnodePath::AclChange(next);
        let fired = self.create(path, ZnodeData::AclChange { topic }, None)?;
        Ok((path, fired))
    }

    /// `getData` of an ISR change notification: the partitions it names.
    pub(crate) fn isr_change(&mut self, path: ZnodePath) -> Result<Rc<[u32]>, ZkError> {
        self.stats.reads += 1;
        match path {
            ZnodePath::IsrChangeNotification(n) => self.isr_changes.get(&n).cloned(),
            _ => None,
        }
        .ok_or(ZkError::NoNode(path))
    }

    /// `delete` of a znode with no children (an ISR change notification, `/controller`,
    /// `/migration`), conditional on `expected_version` when given. Returns the watches that
    /// fired.
    pub(crate) fn delete(
        &mut self,
        path: ZnodePath,
        expected_version: Option<u32>,
    ) -> Result<Vec<WatchFired>, ZkError> {
        self.stats.writes += 1;
        self.check_delete(path, expected_version, self.inspect(path))?;
        if let ZnodePath::IsrChangeNotification(n) = path {
            self.isr_changes.remove(&n);
        }
        self.nodes.remove(&path);
        let mut fired = Vec::new();
        self.fire(path, WatchKind::Data, WatchEvent::NodeDeleted, &mut fired);
        self.fire_parent(path, &mut fired);
        Ok(fired)
    }

    /// Whether `path`, as it stands (`node`), may be deleted at `expected_version`: a znode that
    /// exists, has no children of its own in this model, and is at that version.
    fn check_delete(
        &self,
        path: ZnodePath,
        expected_version: Option<u32>,
        node: Option<Znode>,
    ) -> Result<(), ZkError> {
        if !matches!(path, ZnodePath::IsrChangeNotification(_) | ZnodePath::Controller | ZnodePath::Migration)
        {
            return Err(ZkError::BadData(path));
        }
        let actual = node.ok_or(ZkError::NoNode(path))?.version;
        match expected_version {
            Some(expected) if expected != actual => Err(ZkError::BadVersion { path, expected, actual }),
            _ => Ok(()),
        }
    }

    /// ZooKeeper's `multi`: `ops` checked in order against the tree as the earlier ones leave it,
    /// then applied together, or none of them if one fails (its error returned). One write
    /// request, whether it succeeds or not.
    /// Topic and partition-state znodes are not created or deleted by one in this model. Returns
    /// the watches that
    /// fired.
    pub(crate) fn multi(&mut self, ops: &[ZkOp]) -> Result<Vec<WatchFired>, ZkError> {
        self.stats.writes += 1;
        let writes = self.stats.writes;
        // The znodes as the ops so far leave them (None: deleted), over the tree.
        let mut staged: BTreeMap<ZnodePath, Option<Znode>> = BTreeMap::new();
        let at = |staged: &BTreeMap<ZnodePath, Option<Znode>>, path: ZnodePath| match staged.get(&path) {
            Some(node) => *node,
            None => self.inspect(path),
        };
        for op in ops {
            let path = op.path();
            // Topic and partition-state znodes are checked and set here, never created or deleted.
            let fixed = matches!(path, ZnodePath::Topic(_) | ZnodePath::PartitionState { .. });
            let misfit = match op {
                ZkOp::SetData { data, .. } => fixed && data.partition_state_of().is_none(),
                ZkOp::Create { .. } | ZkOp::Delete { .. } => fixed,
                ZkOp::Check { .. } => false,
            };
            if misfit {
                return Err(ZkError::BadData(path));
            }
            let node = at(&staged, path);
            let version_is = |expected: u32| match node {
                None => Err(ZkError::NoNode(path)),
                Some(n) if n.version != expected => {
                    Err(ZkError::BadVersion { path, expected, actual: n.version })
                }
                Some(n) => Ok(n),
            };
            match *op {
                ZkOp::Check { version, .. } => {
                    version_is(version)?;
                }
                ZkOp::SetData { data, version, .. } => {
                    let n = match version {
                        Some(expected) => version_is(expected)?,
                        None => node.ok_or(ZkError::NoNode(path))?,
                    };
                    staged.insert(path, Some(Znode { data, version: n.version + 1, ..n }));
                }
                ZkOp::Delete { version, .. } => {
                    self.check_delete(path, version, node)?;
                    staged.insert(path, None);
                }
                ZkOp::Create { data, ephemeral_owner, .. } => {
                    if node.is_some() {
                        return Err(ZkError::NodeExists(path));
                    }
                    if let Some(parent) = path.parent().filter(|p| at(&staged, *p).is_none()) {
                        return Err(ZkError::NoNode(parent));
                    }
                    if let Some(owner) = ephemeral_owner.filter(|s| !self.sessions.contains_key(s)) {
                        return Err(ZkError::SessionExpired(owner));
                    }
                    staged.insert(path, Some(Znode { data, version: 0, ephemeral_owner }));
                }
            }
        }
        let mut fired = Vec::new();
        for op in ops {
            match *op {
                ZkOp::Check { .. } => Ok(()),
                ZkOp::SetData { path, data, version } => {
                    self.set_data(path, data, version).map(|(_, f)| fired.extend(f))
                }
                ZkOp::Delete { path, version } => self.delete(path, version).map(|f| fired.extend(f)),
                ZkOp::Create { path, data, ephemeral_owner } => {
                    self.create(path, data, ephemeral_owner).map(|f| fired.extend(f))
                }
            }?;
        }
        self.stats.writes = writes;
        Ok(fired)
    }

    /// `setData`, conditional on `expected_version` when given. Returns the new version and the
    /// data watches that fired.
    pub(crate) fn set_data(
        &mut self,
        path: ZnodePath,
        data: ZnodeData,
        expected_version: Option<u32>,
    ) -> Result<(u32, Vec<WatchFired>), ZkError> {
        self.stats.writes += 1;
        let version = self.version_slot(path, data)?;
        if let Some(expected) = expected_version.filter(|e| *e != *version) {
            return Err(ZkError::BadVersion { path, expected, actual: *version });
        }
        *version += 1;
        let new_version = *version;
        self.store_data(path, data);
        let mut fired = Vec::new();
        self.fire(path, WatchKind::Data, WatchEvent::NodeDataChanged, &mut fired);
        Ok((new_version, fired))
    }

    fn version_slot(&mut self, path: ZnodePath, data: ZnodeData) -> Result<&mut u32, ZkError> {
        match (path, data) {
            (ZnodePath::PartitionState { topic, partition }, ZnodeData::PartitionState(_)) => {
                let i = self.layout.index(topic, partition).ok_or(ZkError::NoNode(path))?;
                self.state_versions.get_mut(i).ok_or(ZkError::NoNode(path))
            }
            (ZnodePath::Topic(_) | ZnodePath::PartitionState { .. }, _) => Err(ZkError::BadData(path)),
            _ => self.nodes.get_mut(&path).map(|n| &mut n.version).ok_or(ZkError::NoNode(path)),
        }
    }

    fn store_data(&mut self, path: ZnodePath, data: ZnodeData) {
        match (path, data) {
            (ZnodePath::PartitionState { topic, partition }, ZnodeData::PartitionState(state)) => {
                if let Some(i) = self.layout.index(topic, partition) {
                    self.states.set(i, state);
                }
            }
            _ => {
                if let Some(node) = self.nodes.get_mut(&path) {
                    node.data = data;
                }
            }
        }
    }

    fn watch(&mut self, path: ZnodePath, watcher: Option<SessionId>, kind: WatchKind) -> Result<(), ZkError> {
        let Some(session) = watcher else {
            return Ok(());
        };
        if !self.sessions.contains_key(&session) {
            return Err(ZkError::SessionExpired(session));
        }
        let watches = self.watches.entry(path).or_default();
        if !watches.iter().any(|w| w.session == session && w.kind == kind) {
            watches.push(Watch { session, kind });
        }
        Ok(())
    }

    fn fire_parent(&mut self, path: ZnodePath, fired: &mut Vec<WatchFired>) {
        if let Some(parent) = path.parent() {
            self.fire(parent, WatchKind::Children, WatchEvent::NodeChildrenChanged, fired);
        }
    }

    fn fire(&mut self, path: ZnodePath, kind: WatchKind, event: WatchEvent, fired: &mut Vec<WatchFired>) {
        let Some(watches) = self.watches.get_mut(&path) else {
            return;
        };
        let (firing, kept): (Vec<Watch>, Vec<Watch>) = watches.iter().partition(|w| w.kind == kind);
        *watches = kept;
        for watch in firing {
            if let Some(session) = self.sessions.get(&watch.session) {
                self.stats.watches_fired += 1;
                fired.push(WatchFired { watcher: session.owner, path, event });
            }
        }
    }
}

/// An ensemble of 4 topics of 2 partitions over 3 brokers, for tests.
#[cfg(test)]
pub(crate) fn test_store() -> ZkStore {
    test_store_of(4, 2)
}

/// An ensemble of `topics` topics of `per_topic` partitions over 3 brokers (2 replicas each),
/// for tests.
#[cfg(test)]
pub(crate) fn test_store_of(topics: u32, per_topic: u32) -> ZkStore {
    use crate::zk::column::ColumnBuilder;
    use crate::zk::partition::ReplicaAssignment;
    let layout = TopicLayout::new(topics, per_topic).expect("valid layout");
    let assignment = ReplicaAssignment::new(3, 2, 0);
    let mut states = ColumnBuilder::new();
    (0..layout.partitions()).for_each(|p| states.push(assignment.initial_state(p, 1)));
    ZkStore::new(layout, &ZkCosts::sync_reads_2017(), states.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::MS;

    use super::test_store as store;

    #[test]
    fn a_multi_applies_all_its_ops_or_none_checking_each_against_the_ones_before_it() {
        let mut zk = store();
        let owner = zk.open_session(0, 0);
        let watcher = zk.open_session(1, 0);
        let controller = |id| ZnodeData::Controller { broker_id: id, kraft_epoch: None };
        let epoch = |e| ZnodeData::ControllerEpoch(e);
        zk.multi(&[
            ZkOp::Create { path: ZnodePath::Controller, data: controller(0), ephemeral_owner: Some(owner) },
            ZkOp::SetData { path: ZnodePath::ControllerEpoch, data: epoch(1), version: Some(0) },
        ])
        .expect("the election's multi");
        assert_eq!(zk.stats().writes, 1, "one request");
        zk.exists(ZnodePath::Controller, Some(watcher)).expect("watch");
        // A stale version anywhere refuses the whole multi: nothing changes, no watch fires.
        let stale = [
            ZkOp::Delete { path: ZnodePath::Controller, version: Some(0) },
            ZkOp::Create { path: ZnodePath::Controller, data: controller(5), ephemeral_owner: None },
            ZkOp::Check { path: ZnodePath::ControllerEpoch, version: 0 },
        ];
        let refused = zk.multi(&stale);
        assert_eq!(
            refused,
            Err(ZkError::BadVersion { path: ZnodePath::ControllerEpoch, expected: 0, actual: 1 })
        );
        assert_eq!(zk.inspect(ZnodePath::Controller).map(|n| n.data), Some(controller(0)));
        assert_eq!(zk.stats().writes, 2, "a refused multi is a request too");
        // Delete then create the same path: the create sees the delete.
        let fired = zk
            .multi(&[
                ZkOp::Check { path: ZnodePath::ControllerEpoch, version: 1 },
                ZkOp::Delete { path: ZnodePath::Controller, version: Some(0) },
                ZkOp::Create { path: ZnodePath::Controller, data: controller(5), ephemeral_owner: None },
            ])
            .expect("replaced");
        let node = zk.inspect(ZnodePath::Controller).unwrap();
        assert_eq!(
            (node.data, node.version, node.ephemeral_owner),
            (controller(5), 0, None),
            "persistent now"
        );
        assert_eq!(fired.len(), 1, "the watcher hears /controller go, once");
        assert_eq!(
            zk.check_session(owner, u64::MAX / 2),
            SessionStatus::Expired { deleted: vec![], fired: vec![] }
        );
        assert!(zk.inspect(ZnodePath::Controller).is_some(), "its old owner's expiry no longer removes it");
        let state = ZnodePath::PartitionState { topic: 0, partition: 0 };
        assert_eq!(
            zk.multi(&[ZkOp::Check { path: state, version: 0 }]),
            Ok(vec![]),
            "a state znode is checked"
        );
        let misfit = ZkOp::SetData { path: state, data: ZnodeData::Empty, version: None };
        assert_eq!(zk.multi(&[misfit]), Err(ZkError::BadData(state)), "a state znode holds a state");
        let delete = ZkOp::Delete { path: state, version: None };
        assert_eq!(zk.multi(&[delete]), Err(ZkError::BadData(state)), "but never deleted");
    }

    #[test]
    fn ephemeral_znode_vanishes_when_its_session_expires_and_watch_fires_once() {
        let mut zk = store();
        let owner = zk.open_session(0, 0);
        let watcher = zk.open_session(1, 0);
        zk.create(
            ZnodePath::Controller,
            ZnodeData::Controller { broker_id: 0, kraft_epoch: None },
            Some(owner),
        )
        .expect("create /controller");
        zk.exists(ZnodePath::Controller, Some(watcher)).expect("watch");
        zk.ping(watcher, 5_000 * MS).expect("ping");
        let timeout = ZkCosts::sync_reads_2017().zk_session_timeout;
        assert!(matches!(zk.check_session(owner, timeout - 1), SessionStatus::Alive { .. }));
        let SessionStatus::Expired { deleted, fired } = zk.check_session(owner, timeout) else {
            panic!("session should expire at its deadline");
        };
        assert_eq!(deleted, vec![ZnodePath::Controller]);
        assert_eq!(fired.len(), 1);
        assert_eq!(fired[0].event, WatchEvent::NodeDeleted);
        let again = zk.create(ZnodePath::Controller, ZnodeData::Empty, Some(watcher));
        assert_eq!(again, Ok(Vec::new()), "the one-shot watch must not fire twice");
    }

    #[test]
    fn set_data_checks_the_version_and_bumps_it() {
        let mut zk = store();
        let path = ZnodePath::ControllerEpoch;
        let (version, _) = zk.set_data(path, ZnodeData::ControllerEpoch(1), Some(0)).expect("v0");
        assert_eq!(version, 1);
        let stale = zk.set_data(path, ZnodeData::ControllerEpoch(2), Some(0));
        assert!(matches!(stale, Err(ZkError::BadVersion { actual: 1, .. })));
    }

    #[test]
    fn partition_state_znodes_are_versioned_and_typed() {
        let mut zk = store();
        let path = ZnodePath::PartitionState { topic: 3, partition: 1 };
        let node = zk.get_data(path, None).expect("state znode");
        let mut state = node.partition_state().expect("state data");
        state.leader = 2;
        let (version, _) = zk.set_data(path, ZnodeData::PartitionState(state), Some(0)).expect("write");
        assert_eq!(version, 1);
        assert_eq!(zk.inspect(path).and_then(|n| n.partition_state()), Some(state));
        let wrong = zk.set_data(path, ZnodeData::ControllerEpoch(1), None);
        assert_eq!(wrong, Err(ZkError::BadData(path)));
    }

    #[test]
    fn counting_children_reads_and_watches_like_listing_them() {
        let mut zk = store();
        let watcher = zk.open_session(0, 0);
        for path in [ZnodePath::Topics, ZnodePath::Topic(1), ZnodePath::BrokerIds] {
            let listed = zk.get_children(path, None).expect("listed").len() as u64;
            let reads = zk.stats().reads;
            assert_eq!(zk.count_children(path, Some(watcher)), Ok(listed));
            assert_eq!(zk.stats().reads, reads + 1);
        }
        zk.create(ZnodePath::BrokerId(0), ZnodeData::BrokerRegistration { broker_id: 0 }, None)
            .expect("create a registration");
        assert_eq!(zk.stats().watches_fired, 1, "the children watch on /brokers/ids fired");
    }

    #[test]
    fn requests_queue_behind_the_rate_ceiling() {
        let mut zk = store();
        let sync = zk.submit(0, ZkRequestKind::Read, 10, 1);
        assert_eq!(sync, 10 * 290);
        let saturated = zk.submit(0, ZkRequestKind::Read, 100_000, 1_000);
        assert_eq!(saturated, 1_000 * MS + 100, "100k requests at 100k/s, behind the first 10");
    }
}

//! The active controller (KIP-631, Kafka 4.3's `QuorumController`): the quorum leader, once it
//! has replayed its epoch's LeaderChange, turns requests into metadata records. It keeps a
//! working image (committed state plus its own appended records), broker sessions as soft
//! state, a NoOpRecord every idle interval, and answers a request once its records commit.

use std::fmt;
use std::sync::Arc;

use crate::harness::Micros;
use crate::quorum::{NodeId, Offset, Record, RoleKind};
use crate::util::broker_set::BrokerId;
use crate::util::rng::Rng;
use crate::util::small_map::SmallMap;

use super::acl::{AclEntry, AclOperation, AclResource, Denied, authorize};
use super::bootstrap;
use super::config::{MetadataConfig, MetadataSabotage};
use super::image::{MetadataImage, RejectedRecord};
use super::placement::{
    lead_offline_partitions, move_away_from, new_partition, place_replicas, records_for_shutdown,
    valid_isr_change,
};
use super::record::{ConfigRecord, LEADER_UNCHANGED, MetadataRecord, PartitionChangeRecord, TopicId};
use super::rpc::{ControllerRpc, HeartbeatReply, RpcError};
use super::state::MetadataNode;

/// How soon a periodic task that did work runs again (`PeriodicTask.DEFAULT_IMMEDIATE_PERIOD_NS`,
/// 10 ms in 4.3.1).
const IMMEDIATE_PERIOD: Micros = 10_000;

/// A reply held until the record at `offset` is committed.
#[derive(Clone, Debug)]
struct PendingReply {
    offset: Offset,
    to: NodeId,
    rpc: ControllerRpc,
}

/// What the active controller knows of a broker's session (`BrokerHeartbeatManager`).
#[derive(Clone, Copy, Debug)]
struct Session {
    /// The last heartbeat of its current broker epoch (or the activation that found it
    /// unfenced); none since it registered (`BrokerHeartbeatTracker`'s contact times).
    last_contact: Option<Micros>,
    /// The metadata offset the broker last reported as applied.
    metadata_offset: Option<Offset>,
    /// The last offset of the batch that put it in controlled shutdown.
    controlled_shutdown_offset: Option<Offset>,
}

/// State that exists only while this controller is active.
#[derive(Clone, Debug)]
struct Active {
    image: MetadataImage,
    sessions: SmallMap<BrokerId, Session>,
    pending: Vec<PendingReply>,
    next_session_check: Micros,
    next_noop: Micros,
}

/// A controller: standby (replaying the log like everyone) or active (the quorum leader).
#[derive(Clone, Debug)]
pub struct Controller {
    config: MetadataConfig,
    rng: Rng,
    active: Option<Active>,
}

/// Messages a controller or broker wants sent.
pub type RpcOutbox = Vec<(NodeId, ControllerRpc)>;

/// Why the controller refused an admin client's request (Kafka's error code in brackets).
#[derive(Clone, Debug, PartialEq)]
pub enum AdminError {
    /// This controller is a standby (NOT_CONTROLLER).
    NotActive,
    /// Not 1 to 249 of a-z, A-Z, 0-9, '.', '_', '-' (INVALID_TOPIC_EXCEPTION).
    InvalidTopicName(String),
    /// TOPIC_ALREADY_EXISTS.
    TopicExists(String),
    /// Partitions must be 1 to `max` (INVALID_PARTITIONS).
    Partitions { max: u32 },
    /// More replicas than active brokers, or than the simulation models (INVALID_REPLICATION_FACTOR).
    ReplicationFactor { replication_factor: usize, available: usize },
    /// UNKNOWN_TOPIC_OR_PARTITION.
    UnknownTopic(String),
    /// The working image rejected a record the request produced (a controller bug).
    Rejected(RejectedRecord),
    /// The quorum refused the records: this controller's node no longer leads.
    LostLeadership,
    /// The authorizer denied the request (TOPIC_ or CLUSTER_AUTHORIZATION_FAILED).
    Unauthorized(Box<Denied>),
}

impl fmt::Display for AdminError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AdminError::NotActive => write!(f, "this controller is not active"),
            AdminError::InvalidTopicName(name) => {
                write!(f, "invalid topic name '{name}': use 1 to 249 of a-z, A-Z, 0-9, '.', '_', '-'")
            }
            AdminError::TopicExists(name) => write!(f, "topic '{name}' already exists"),
            AdminError::Partitions { max } => write!(f, "partitions must be between 1 and {max}"),
            AdminError::ReplicationFactor { replication_factor, available } => write!(
                f,
                "replication factor {replication_factor} needs that many active brokers ({available} available, at most 4)"
            ),
            AdminError::UnknownTopic(name) => write!(f, "no topic '{name}'"),
            AdminError::Rejected(rejected) => fmt::Display::fmt(rejected, f),
            AdminError::LostLeadership => write!(f, "lost leadership"),
            AdminError::Unauthorized(denied) => fmt::Display::fmt(denied, f),
        }
    }
}

impl std::error::Error for AdminError {}

impl From<RejectedRecord> for AdminError {
    fn from(rejected: RejectedRecord) -> Self {
        AdminError::Rejected(rejected)
    }
}

impl Controller {
    pub(crate) fn new(config: MetadataConfig, rng: Rng) -> Controller {
        Controller { config, rng, active: None }
    }

    /// Follow the quorum: become active once leading and the epoch's first record is applied
    /// (`ListenerContext.maybeFireLeaderChange`, then `QuorumController.claim`), step down on
    /// losing leadership (`renounce`), and send replies now committed.
    pub(crate) fn sync(&mut self, node: &mut MetadataNode, now: Micros, out: &mut RpcOutbox) {
        let leading = node.role() == RoleKind::Leader;
        let replayed_epoch_start =
            node.epoch_start_offset().is_some_and(|start| node.applied().applied_offset > start);
        match (&mut self.active, leading) {
            (None, true) if replayed_epoch_start => self.activate(node, now),
            (Some(_), false) => self.active = None,
            (Some(active), true) => {
                let applied = node.applied().applied_offset;
                active.pending.retain(|reply| {
                    if reply.offset < applied {
                        out.push((reply.to, reply.rpc.clone()));
                    }
                    reply.offset >= applied
                });
            }
            (None, _) => {}
        }
    }

    /// `QuorumController.claim`: the working image is the applied image (everything up to the
    /// epoch start is committed by now), and every registered broker's session starts afresh.
    /// On a log with no `metadata.version` yet, the first records are the bootstrap
    /// transaction (`QuorumController.CompleteActivationEvent`).
    fn activate(&mut self, node: &mut MetadataNode, now: Micros) {
        let mut image = node.applied().state.image.clone();
        // `ClusterControlManager.activate`: only an unfenced broker gets a contact time.
        let sessions = image
            .brokers()
            .iter()
            .map(|(id, b)| {
                let last_contact = (!b.fenced).then_some(now);
                (*id, Session { last_contact, metadata_offset: None, controlled_shutdown_offset: None })
            })
            .collect();
        let bootstrap = if image.features().contains_key("metadata.version") {
            Ok(Vec::new())
        } else {
            let mut staged = Staged::new(&mut image);
            staged.extend(bootstrap::records());
            staged.finish()
        };
        let next_session_check = now + self.session_check_period();
        let next_noop = now + self.config.max_idle_interval;
        self.active = Some(Active { image, sessions, pending: Vec::new(), next_session_check, next_noop });
        match bootstrap {
            Ok(records) => {
                Self::append(node, now, records);
            }
            Err(_) => self.revert(node),
        }
    }

    /// `QuorumController.maybeFenceStaleBrokerPeriodNs`: an eighth of the session timeout (at
    /// least 1 ms).
    fn session_check_period(&self) -> Micros {
        (self.config.session_timeout / 8).max(1)
    }

    /// When the controller next needs a tick.
    pub(crate) fn next_deadline(&self) -> Micros {
        let noop_on = self.config.max_idle_interval > 0;
        self.active.as_ref().map_or(Micros::MAX, |a| {
            a.next_session_check.min(if noop_on { a.next_noop } else { Micros::MAX })
        })
    }

    /// The active controller's periodic tasks: fence one broker whose session expired
    /// (`ReplicationControlManager.maybeFenceOneStaleBroker`), and append a NoOpRecord every
    /// `metadata.max.idle.interval.ms` (KIP-835) so followers see the log move. A check that
    /// fenced a broker runs again after [`IMMEDIATE_PERIOD`], not a whole period: the task
    /// answers true and `PeriodicTaskControlManager.reschedule` takes its immediate period.
    pub(crate) fn tick(&mut self, node: &mut MetadataNode, now: Micros) {
        let (period, idle) = (self.session_check_period(), self.config.max_idle_interval);
        let Some(active) = &mut self.active else { return };
        if idle > 0 && now >= active.next_noop {
            active.next_noop = now + idle;
            Self::append(node, now, vec![MetadataRecord::NoOp]);
        }
        if now < active.next_session_check {
            return;
        }
        active.next_session_check = now + period;
        let timeout = self.config.session_timeout;
        let expired = active
            .image
            .brokers()
            .iter()
            .find(|(id, b)| {
                !b.fenced
                    && active.sessions.get(id).and_then(|s| s.last_contact).is_none_or(|t| now >= t + timeout)
            })
            .map(|(id, _)| *id);
        if let Some(broker) = expired {
            active.next_session_check = now + IMMEDIATE_PERIOD;
            self.fence(node, now, broker);
        }
    }

    /// Append staged records to the log through the quorum leader's accumulator (the working
    /// image already has them); returns the offset of the last one.
    fn append(node: &mut MetadataNode, now: Micros, records: Vec<MetadataRecord>) -> Option<Offset> {
        let mut last = None;
        for record in records {
            last = node.next_offset();
            node.propose(now, record.into()).ok()?;
        }
        last
    }

    fn fence(&mut self, node: &mut MetadataNode, now: Micros, broker: BrokerId) {
        let Some(active) = &mut self.active else { return };
        match fence_records(&mut active.image, broker, self.config.sabotage) {
            Ok(records) => {
                Self::append(node, now, records);
            }
            Err(_) => self.revert(node),
        }
    }

    /// A request produced a record the working image rejects (a controller bug): nothing was
    /// written, so rebuild the working image from the applied image and the log's uncommitted
    /// tail, as `QuorumController` reverts to its last committed state on a failed operation.
    fn revert(&mut self, node: &MetadataNode) {
        let Some(active) = &mut self.active else { return };
        let mut image = node.applied().state.image.clone();
        let log = node.log();
        let tail = (node.applied().applied_offset..log.end_offset()).filter_map(|offset| {
            match &log.get(offset)?.record {
                Record::Data(entry) => entry.record(),
                Record::LeaderChange(_) | Record::KRaftVersion(_) | Record::Voters(_) => None,
            }
        });
        for record in tail {
            if image.apply(record).is_err() {
                break;
            }
        }
        active.image = image;
    }

    /// Handle a broker's request; the reply goes out now or once its records commit.
    pub(crate) fn handle(
        &mut self,
        node: &mut MetadataNode,
        now: Micros,
        from: NodeId,
        rpc: ControllerRpc,
        out: &mut RpcOutbox,
    ) {
        if self.active.is_none() {
            if let Some(reply) = not_controller(&rpc) {
                out.push((from, reply));
            }
            return;
        }
        let (records, reply) = match rpc {
            ControllerRpc::BrokerRegistration {
                broker_id,
                incarnation,
                previous_broker_epoch,
                correlation,
            } => self.register(node, now, broker_id, (incarnation, previous_broker_epoch), correlation),
            ControllerRpc::BrokerHeartbeat {
                correlation,
                broker_id,
                broker_epoch,
                current_metadata_offset,
                want_fence,
                want_shut_down,
            } => self.heartbeat(
                now,
                node.next_offset().unwrap_or_default(),
                correlation,
                broker_id,
                broker_epoch,
                current_metadata_offset,
                want_fence,
                want_shut_down,
            ),
            ControllerRpc::AlterPartition {
                broker_id,
                broker_epoch,
                topic_id,
                partition,
                leader_epoch,
                partition_epoch,
                new_isr,
            } => self.alter_partition(
                broker_id,
                broker_epoch,
                topic_id,
                partition,
                (leader_epoch, partition_epoch),
                new_isr,
            ),
            _ => return,
        };
        let Ok(records) = records else {
            self.revert(node);
            return;
        };
        let last = Self::append(node, now, records);
        // An operation that wrote nothing read the latest state, committed or not: it answers
        // once the highest offset written so far commits, or at once when all of it has
        // (`QuorumController.ControllerWriteEvent.run`, `highestPendingOffset`). Errors answer
        // at once (`handleException`).
        let read_at = last.or_else(|| (!reply.is_error()).then(|| uncommitted_end(node)).flatten());
        match (read_at, &mut self.active) {
            (Some(offset), Some(active)) => {
                active.pending.push(PendingReply { offset, to: from, rpc: reply })
            }
            _ => out.push((from, reply)),
        }
    }

    /// BrokerRegistration (`ClusterControlManager.registerBroker`, Kafka 4.3.1): while the
    /// registered incarnation's session is valid (a heartbeat within `broker.session.timeout.ms`),
    /// another incarnation is refused with DUPLICATE_BROKER_REGISTRATION and retries; the same
    /// incarnation (a retry of one start) amends its registration: a RegisterBrokerRecord with
    /// the same epoch, fenced and controlled-shutdown states. A new incarnation replaces the old
    /// registration and stays fenced until caught up; its broker epoch is the offset the
    /// request's batch starts at (`QuorumController.registerBroker` passes
    /// `offsetControl.nextWriteOffset()`). In that batch, before the RegisterBrokerRecord, the old
    /// incarnation's partitions are handled as `ReplicationControlManager.handleBrokerShutdown`
    /// does: as a fencing after a clean shutdown (the previous epoch it sends is the registered
    /// one), else, with ELR on, as an unclean shutdown that takes it out of every ISR and ELR.
    fn register(
        &mut self,
        node: &MetadataNode,
        now: Micros,
        broker_id: BrokerId,
        (incarnation, previous_epoch): (u64, Option<u64>),
        correlation: u64,
    ) -> (Staging, ControllerRpc) {
        let answer = |result| ControllerRpc::BrokerRegistrationResponse { correlation, result };
        let timeout = self.config.session_timeout;
        let Some(active) = &mut self.active else {
            return (Ok(Vec::new()), answer(Err(RpcError::NotController)));
        };
        if let Some(existing) = active.image.brokers().get(&broker_id).copied() {
            if existing.incarnation == incarnation {
                let amend = MetadataRecord::RegisterBroker {
                    broker_id,
                    broker_epoch: existing.epoch,
                    incarnation,
                    fenced: existing.fenced,
                    in_controlled_shutdown: existing.in_controlled_shutdown,
                };
                let mut staged = Staged::new(&mut active.image);
                staged.push(amend);
                return (staged.finish(), answer(Ok(existing.epoch)));
            }
            let contact = active.sessions.get(&broker_id).and_then(|s| s.last_contact);
            if contact.is_some_and(|t| now <= t + timeout) {
                return (Ok(Vec::new()), answer(Err(RpcError::DuplicateBrokerRegistration)));
            }
        }
        let fresh = Session { last_contact: None, metadata_offset: None, controlled_shutdown_offset: None };
        active.sessions.insert(broker_id, fresh);
        let mut staged = Staged::new(&mut active.image);
        if let Some(existing) = staged.image.brokers().get(&broker_id) {
            let clean = previous_epoch == Some(existing.epoch);
            let moves = records_for_shutdown(staged.image, broker_id, clean, self.config.sabotage);
            staged.extend(moves);
        }
        let broker_epoch = node.next_offset().unwrap_or_default();
        staged.push(MetadataRecord::RegisterBroker {
            broker_id,
            broker_epoch,
            incarnation,
            fenced: true,
            in_controlled_shutdown: false,
        });
        (staged.finish(), answer(Ok(broker_epoch)))
    }

    /// BrokerHeartbeat (`QuorumController.processBrokerHeartbeat`): refresh the session and
    /// the broker's reported offset, then `BrokerHeartbeatManager.calculateNextBrokerState`:
    /// unfence a caught-up broker that asks; on a shutdown request, a broker that leads
    /// partitions enters controlled shutdown (leadership moves away) and is let go on a later
    /// heartbeat once it leads nothing and every active broker has replayed that change; one that
    /// leads nothing, or is fenced, shuts down at once. The shutdown's offset is the end of the
    /// batch that started it, or, after a controller failover, of the next heartbeat's
    /// (`BrokerHeartbeatManager.maybeUpdateControlledShutdownOffset`). `next_offset` is where
    /// the records of this request will start.
    // The parameters are the fields of `ControllerRpc::BrokerHeartbeat`, destructured at the one
    // dispatch in `handle`, like every other request's handler there; a struct for them would
    // only repeat the variant.
    #[expect(clippy::too_many_arguments, reason = "a BrokerHeartbeat's fields, see the comment")]
    fn heartbeat(
        &mut self,
        now: Micros,
        next_offset: Offset,
        correlation: u64,
        broker_id: BrokerId,
        broker_epoch: u64,
        metadata_offset: Offset,
        want_fence: bool,
        want_shut_down: bool,
    ) -> (Staging, ControllerRpc) {
        let stale =
            ControllerRpc::BrokerHeartbeatResponse { correlation, result: Err(RpcError::StaleBrokerEpoch) };
        let sabotage = self.config.sabotage;
        let Some(active) = &mut self.active else { return (Ok(Vec::new()), stale) };
        let Some(registration) =
            active.image.brokers().get(&broker_id).copied().filter(|b| b.epoch == broker_epoch)
        else {
            return (Ok(Vec::new()), stale);
        };
        let fresh = Session { last_contact: None, metadata_offset: None, controlled_shutdown_offset: None };
        let session = active.sessions.get_or_insert_with(broker_id, || fresh);
        session.last_contact = Some(now);
        session.metadata_offset = Some(metadata_offset);
        let shutdown_offset = session.controlled_shutdown_offset;
        let lowest_active = lowest_active_offset(&active.image, &active.sessions);
        let is_caught_up = metadata_offset >= broker_epoch;
        let leads = active.image.leads_any(broker_id);
        let mut staged = Staged::new(&mut active.image);
        let mut shut_down = false;
        let mut entered_controlled_shutdown = false;
        if want_shut_down {
            // The heartbeat manager's state decides, not the registration's flag: after a
            // failover the new manager has no shutdown offset, so a broker that leads nothing
            // goes at once, and one that still leads enters controlled shutdown again
            // (`calculateNextBrokerState`'s UNFENCED case).
            let shutting_down = shutdown_offset.is_some();
            let caught_up_with_shutdown = shutdown_offset.is_some_and(|o| o <= lowest_active);
            let done_leading = !leads && (!shutting_down || caught_up_with_shutdown);
            shut_down = registration.fenced || want_fence || done_leading;
            if shut_down && !registration.fenced {
                match fence_records(staged.image, broker_id, sabotage) {
                    Ok(fence) => staged.records.extend(fence),
                    Err(error) => staged.reject(error),
                }
            } else if !shut_down && !shutting_down {
                // `ReplicationControlManager.handleBrokerInControlledShutdown`.
                if !registration.in_controlled_shutdown {
                    staged.push(MetadataRecord::BrokerRegistrationChange {
                        broker_id,
                        broker_epoch,
                        fenced: None,
                        in_controlled_shutdown: Some(true),
                    });
                }
                staged.extend(move_away_from(staged.image, broker_id, sabotage));
                entered_controlled_shutdown = true;
            }
        } else if registration.fenced && !want_fence && is_caught_up {
            staged.push(MetadataRecord::BrokerRegistrationChange {
                broker_id,
                broker_epoch,
                fenced: Some(false),
                in_controlled_shutdown: None,
            });
            staged.extend(lead_offline_partitions(staged.image, broker_id, sabotage));
        }
        let fenced = staged.image.brokers().get(&broker_id).is_none_or(|b| b.fenced);
        let records = staged.finish();
        let written = records.as_ref().map_or(0, Vec::len);
        if let Some(session) = active.sessions.get_mut(&broker_id)
            && entered_controlled_shutdown
        {
            let batch_end = (next_offset + written as Offset).saturating_sub(1);
            session.controlled_shutdown_offset = Some(batch_end);
        }
        let reply = HeartbeatReply { is_caught_up, is_fenced: fenced, should_shut_down: shut_down };
        (records, ControllerRpc::BrokerHeartbeatResponse { correlation, result: Ok(reply) })
    }

    fn alter_partition(
        &mut self,
        broker_id: BrokerId,
        broker_epoch: u64,
        topic_id: TopicId,
        partition: u32,
        epochs: (u32, u32),
        new_isr: crate::util::broker_set::BrokerSet,
    ) -> (Staging, ControllerRpc) {
        let reply = |result| ControllerRpc::AlterPartitionResponse { topic_id, partition, result };
        let Some(active) = &self.active else { return (Ok(Vec::new()), reply(Err(RpcError::NotController))) };
        let current = active.image.partition(topic_id, partition);
        let registered = active.image.brokers().get(&broker_id).is_some_and(|b| b.epoch == broker_epoch);
        let fresh = current
            .is_some_and(|p| p.leader == broker_id as i32 && (p.leader_epoch, p.partition_epoch) == epochs);
        if !registered || !fresh || !valid_isr_change(&active.image, topic_id, partition, new_isr) {
            return (Ok(Vec::new()), reply(Err(RpcError::InvalidUpdate)));
        }
        let change = PartitionChangeRecord {
            topic_id,
            partition,
            leader: LEADER_UNCHANGED,
            isr: Some(new_isr),
            elr: None,
            last_known_elr: None,
        };
        let Some(active) = &mut self.active else {
            return (Ok(Vec::new()), reply(Err(RpcError::NotController)));
        };
        let mut staged = Staged::new(&mut active.image);
        staged.push(MetadataRecord::PartitionChange(change));
        (staged.finish(), reply(Ok(())))
    }

    /// CreateTopics from an admin client: place `partitions` partitions with `replication_factor`
    /// replicas on the unfenced brokers and append TopicRecord plus one PartitionRecord each as
    /// one atomic batch.
    pub(crate) fn create_topic(
        &mut self,
        node: &mut MetadataNode,
        now: Micros,
        name: &str,
        partitions: u32,
        replication_factor: u32,
    ) -> Result<TopicId, AdminError> {
        let active = self.active.as_ref().ok_or(AdminError::NotActive)?;
        if name.is_empty()
            || name.len() > 249
            || !name.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        {
            return Err(AdminError::InvalidTopicName(name.into()));
        }
        if active.image.topic_by_name(name).is_some() {
            return Err(AdminError::TopicExists(name.into()));
        }
        if partitions == 0 || partitions > self.config.max_partitions_per_topic {
            return Err(AdminError::Partitions { max: self.config.max_partitions_per_topic });
        }
        let brokers: Vec<BrokerId> = super::record::broker_ids(active.image.active_brokers()).collect();
        let rf = replication_factor as usize;
        if rf == 0 || rf > super::record::Replicas::MAX || rf > brokers.len() {
            return Err(AdminError::ReplicationFactor { replication_factor: rf, available: brokers.len() });
        }
        let topic_id = active.image.next_topic_id();
        let start = self.rng.below(brokers.len() as u64) as usize;
        let Some(active) = &mut self.active else { return Err(AdminError::NotActive) };
        let mut staged = Staged::new(&mut active.image);
        staged.push(MetadataRecord::Topic { name: name.into(), topic_id });
        let everyone = staged.image.active_brokers();
        for partition in 0..partitions {
            let replicas = place_replicas(&brokers, partition, rf, start);
            let mut record = new_partition(topic_id, partition, replicas);
            if self.config.sabotage.isr_beyond_replicas {
                record.isr = everyone;
            }
            staged.push(MetadataRecord::Partition(record));
        }
        let records = staged.finish()?;
        Self::append(node, now, records).ok_or(AdminError::LostLeadership)?;
        Ok(topic_id)
    }

    /// IncrementalAlterConfigs from an admin client: one ConfigRecord; returns its offset.
    pub(crate) fn alter_config(
        &mut self,
        node: &mut MetadataNode,
        now: Micros,
        resource: &str,
        name: &str,
        value: &str,
    ) -> Result<Offset, AdminError> {
        let active = self.active.as_mut().ok_or(AdminError::NotActive)?;
        let config =
            ConfigRecord { resource: resource.to_string(), name: name.to_string(), value: value.to_string() };
        let mut staged = Staged::new(&mut active.image);
        staged.push(MetadataRecord::Config(std::sync::Arc::new(config)));
        let records = staged.finish()?;
        Self::append(node, now, records).ok_or(AdminError::LostLeadership)
    }

    /// DeleteTopics from an admin client as `principal`, forwarded by a broker
    /// (`ControllerApis.deleteTopics`): allowed with DELETE on the cluster, else the topic must
    /// be describable (else TOPIC_AUTHORIZATION_FAILED, whether it exists or not) and deletable.
    pub(crate) fn delete_topic(
        &mut self,
        node: &mut MetadataNode,
        now: Micros,
        principal: &str,
        name: &str,
    ) -> Result<(), AdminError> {
        let active = self.active.as_mut().ok_or(AdminError::NotActive)?;
        let acls = || active.image.acls();
        if !authorize(acls(), principal, AclOperation::Delete, &AclResource::Cluster).allowed() {
            let topic = AclResource::Topic(name.into());
            for operation in [AclOperation::Describe, AclOperation::Delete] {
                let decision = authorize(acls(), principal, operation, &topic);
                if !decision.allowed() {
                    let principal = principal.to_string();
                    let resource = topic.clone();
                    return Err(AdminError::Unauthorized(Box::new(Denied {
                        principal,
                        operation,
                        resource,
                        decision,
                    })));
                }
            }
        }
        let topic_id = active
            .image
            .topic_by_name(name)
            .map(|t| t.id)
            .ok_or_else(|| AdminError::UnknownTopic(name.into()))?;
        let mut staged = Staged::new(&mut active.image);
        staged.push(MetadataRecord::RemoveTopic { topic_id });
        let records = staged.finish()?;
        Self::append(node, now, records).ok_or(AdminError::LostLeadership)?;
        Ok(())
    }
}

impl Controller {
    /// CreateAcls from an admin client as `principal`, forwarded by a broker: ALTER on the
    /// cluster is required (`AclApis.handleCreateAcls`, `authorizeClusterOperation`), then
    /// `AclControlManager.createAcls` writes an AccessControlEntryRecord unless the same ACL
    /// exists.
    pub(crate) fn create_acl(
        &mut self,
        node: &mut MetadataNode,
        now: Micros,
        principal: &str,
        acl: AclEntry,
    ) -> Result<(), AdminError> {
        let active = self.active.as_mut().ok_or(AdminError::NotActive)?;
        let decision = authorize(active.image.acls(), principal, AclOperation::Alter, &AclResource::Cluster);
        if !decision.allowed() {
            let (principal, operation, resource) =
                (principal.to_string(), AclOperation::Alter, AclResource::Cluster);
            return Err(AdminError::Unauthorized(Box::new(Denied {
                principal,
                operation,
                resource,
                decision,
            })));
        }
        if active.image.acls().any(|existing| *existing == acl) {
            return Ok(());
        }
        let id = active.image.next_acl_id();
        let mut staged = Staged::new(&mut active.image);
        staged.push(MetadataRecord::AccessControlEntry { id, acl: Arc::new(acl) });
        let records = staged.finish()?;
        Self::append(node, now, records).ok_or(AdminError::LostLeadership)?;
        Ok(())
    }
}

/// `ReplicationControlManager.handleBrokerFenced`: move leadership and ISR membership away
/// from `broker`, then `BrokerRegistrationChangeRecord{fenced}` (metadata.version 3.3-IV3 on).
fn fence_records(image: &mut MetadataImage, broker: BrokerId, sabotage: MetadataSabotage) -> Staging {
    let Some(registration) = image.brokers().get(&broker).copied() else { return Ok(Vec::new()) };
    let mut staged = Staged::new(image);
    staged.extend(move_away_from(staged.image, broker, sabotage));
    let record = |broker_id| MetadataRecord::BrokerRegistrationChange {
        broker_id,
        broker_epoch: registration.epoch,
        fenced: Some(true),
        in_controlled_shutdown: None,
    };
    if sabotage.fence_unregistered_broker {
        staged.records.push(record(UNREGISTERED_BROKER));
    } else {
        staged.push(record(broker));
    }
    staged.finish()
}

/// The broker id the `fence-unregistered-broker` sabotage writes: never registered.
const UNREGISTERED_BROKER: BrokerId = 99;

/// `BrokerHeartbeatManager.lowestActiveOffset`: the lowest offset any active broker (unfenced,
/// not shutting down) has reported; one that has not reported since this controller became
/// active holds everything back.
fn lowest_active_offset(image: &MetadataImage, sessions: &SmallMap<BrokerId, Session>) -> Offset {
    let active = image.brokers().iter().filter(|(_, b)| !b.fenced && !b.in_controlled_shutdown);
    active
        .map(|(id, _)| sessions.get(id).and_then(|s| s.metadata_offset).unwrap_or(0))
        .min()
        .unwrap_or(Offset::MAX)
}

/// The records a request produced, or why the working image rejected one of them.
type Staging = Result<Vec<MetadataRecord>, RejectedRecord>;

/// Records being generated for one request, applied to the working image as they are made so
/// later decisions in the same request see them. A record the image rejects is a controller
/// bug: the request fails and writes nothing (Kafka's controller throws and reverts).
struct Staged<'a> {
    image: &'a mut MetadataImage,
    records: Vec<MetadataRecord>,
    rejected: Option<RejectedRecord>,
}

impl<'a> Staged<'a> {
    fn new(image: &'a mut MetadataImage) -> Staged<'a> {
        Staged { image, records: Vec::new(), rejected: None }
    }

    fn push(&mut self, record: MetadataRecord) {
        if self.rejected.is_some() {
            return;
        }
        match self.image.apply(&record) {
            Ok(()) => self.records.push(record),
            Err(error) => self.reject(RejectedRecord { record: record.into(), error }),
        }
    }

    fn reject(&mut self, error: RejectedRecord) {
        self.rejected.get_or_insert(error);
    }

    fn finish(self) -> Staging {
        match self.rejected {
            Some(error) => Err(error),
            None => Ok(self.records),
        }
    }

    fn extend(&mut self, records: Vec<MetadataRecord>) {
        for record in records {
            self.push(record);
        }
    }
}

/// The offset of the latest record written and not yet committed, if any: the highest offset
/// an operation in the purgatory can wait for.
fn uncommitted_end(node: &MetadataNode) -> Option<Offset> {
    let last = node.next_offset()?.checked_sub(1)?;
    node.high_watermark().is_none_or(|hw| last >= hw).then_some(last)
}

/// The NOT_CONTROLLER answer to a request (responses get none).
fn not_controller(rpc: &ControllerRpc) -> Option<ControllerRpc> {
    let error = RpcError::NotController;
    match rpc {
        ControllerRpc::BrokerRegistration { correlation, .. } => {
            Some(ControllerRpc::BrokerRegistrationResponse { correlation: *correlation, result: Err(error) })
        }
        ControllerRpc::BrokerHeartbeat { correlation, .. } => {
            Some(ControllerRpc::BrokerHeartbeatResponse { correlation: *correlation, result: Err(error) })
        }
        ControllerRpc::AlterPartition { topic_id, partition, .. } => {
            Some(ControllerRpc::AlterPartitionResponse {
                topic_id: *topic_id,
                partition: *partition,
                result: Err(error),
            })
        }
        _ => None,
    }
}

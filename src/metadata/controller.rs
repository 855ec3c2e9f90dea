//! The active controller (KIP-631): the quorum leader turns requests into metadata records.
//! It keeps a working image (committed state plus its own appended records), broker heartbeats
//! as soft state, and answers a request once the records it produced are committed.

use std::collections::BTreeMap;

use crate::broker_set::BrokerId;
use crate::quorum::{Micros, NodeId, Offset, Record, RoleKind};
use crate::rng::Rng;

use super::config::MetadataConfig;
use super::image::MetadataImage;
use super::placement::{
    lead_offline_partitions, move_away_from, new_partition, place_replicas, valid_isr_change,
};
use super::record::{ConfigRecord, LEADER_UNCHANGED, MetadataRecord, PartitionChangeRecord, TopicId};
use super::rpc::{ControllerRpc, HeartbeatReply, RpcError};
use super::state::{MetadataEntry, MetadataNode};

/// A reply held until the record at `offset` is committed.
#[derive(Clone, Debug)]
struct PendingReply {
    offset: Offset,
    to: NodeId,
    rpc: ControllerRpc,
}

/// State that exists only while this controller is active.
#[derive(Debug)]
struct Active {
    image: MetadataImage,
    heartbeats: BTreeMap<BrokerId, Micros>,
    pending: Vec<PendingReply>,
    next_session_check: Micros,
}

/// A controller: standby (replaying the log like everyone) or active (the quorum leader).
#[derive(Debug)]
pub struct Controller {
    config: MetadataConfig,
    rng: Rng,
    active: Option<Active>,
}

/// Messages a controller or broker wants sent.
pub type RpcOutbox = Vec<(NodeId, ControllerRpc)>;

impl Controller {
    pub fn new(config: MetadataConfig, rng: Rng) -> Controller {
        Controller { config, rng, active: None }
    }

    /// Follow the quorum: become active on winning leadership (loading the log's uncommitted
    /// tail into the working image), step down on losing it, and send replies now committed.
    pub fn sync(&mut self, node: &MetadataNode, now: Micros, out: &mut RpcOutbox) {
        let leading = node.role() == RoleKind::Leader;
        match (&mut self.active, leading) {
            (None, true) => self.activate(node, now),
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
            (None, false) => {}
        }
    }

    fn activate(&mut self, node: &MetadataNode, now: Micros) {
        let mut image = node.applied().state.image.clone();
        let log = node.log();
        for offset in node.applied().applied_offset..log.end_offset() {
            if let Some(Record::Data(MetadataEntry::Record(record))) = log.get(offset).map(|e| &e.record) {
                let _ = image.apply(record);
            }
        }
        let heartbeats = image.brokers().keys().map(|b| (*b, now)).collect();
        let next_session_check = now + self.config.heartbeat_interval / 2;
        self.active = Some(Active { image, heartbeats, pending: Vec::new(), next_session_check });
    }

    /// When the controller next needs a tick.
    pub fn next_deadline(&self) -> Micros {
        self.active.as_ref().map_or(Micros::MAX, |a| a.next_session_check)
    }

    /// Fence brokers whose session expired.
    pub fn tick(&mut self, node: &mut MetadataNode, now: Micros) {
        let Some(active) = &mut self.active else { return };
        if now < active.next_session_check {
            return;
        }
        active.next_session_check = now + self.config.heartbeat_interval / 2;
        let timeout = self.config.session_timeout;
        let expired: Vec<BrokerId> = active
            .image
            .brokers()
            .iter()
            .filter(|(id, b)| !b.fenced && active.heartbeats.get(id).is_none_or(|t| now >= t + timeout))
            .map(|(id, _)| *id)
            .collect();
        for broker in expired {
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
        let Some(registration) = active.image.brokers().get(&broker).copied() else { return };
        let mut staged = Staged::new(&mut active.image);
        let moves = move_away_from(staged.image, broker, self.config.sabotage);
        staged.extend(moves);
        staged.push(MetadataRecord::FenceBroker { broker_id: broker, broker_epoch: registration.epoch });
        let records = staged.records;
        Self::append(node, now, records);
    }

    /// Handle a broker's request; the reply goes out now or once its records commit.
    pub fn handle(
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
            ControllerRpc::BrokerRegistration { broker_id, .. } => self.register(node, now, broker_id),
            ControllerRpc::BrokerHeartbeat {
                broker_id,
                broker_epoch,
                current_metadata_offset,
                want_fence,
                want_shut_down,
            } => self.heartbeat(
                now,
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
        let last = Self::append(node, now, records);
        match (last, &mut self.active) {
            (Some(offset), Some(active)) => {
                active.pending.push(PendingReply { offset, to: from, rpc: reply })
            }
            _ => out.push((from, reply)),
        }
    }

    /// BrokerRegistration: a new incarnation replaces the old registration (moving its
    /// partitions away first) and stays fenced until caught up; the broker epoch is the offset of
    /// its RegisterBrokerRecord.
    fn register(
        &mut self,
        node: &MetadataNode,
        now: Micros,
        broker_id: BrokerId,
    ) -> (Vec<MetadataRecord>, ControllerRpc) {
        let Some(active) = &mut self.active else { return (Vec::new(), not_active_registration()) };
        active.heartbeats.insert(broker_id, now);
        let mut staged = Staged::new(&mut active.image);
        if staged.image.brokers().contains_key(&broker_id) {
            let moves = move_away_from(staged.image, broker_id, self.config.sabotage);
            staged.extend(moves);
        }
        let broker_epoch = node.next_offset().unwrap_or_default() + staged.records.len() as Offset;
        staged.push(MetadataRecord::RegisterBroker { broker_id, broker_epoch });
        (staged.records, ControllerRpc::BrokerRegistrationResponse { result: Ok(broker_epoch) })
    }

    /// BrokerHeartbeat: refresh the session; unfence a caught-up broker that asks; run a
    /// controlled shutdown (move leadership away, then let it go once it leads nothing).
    fn heartbeat(
        &mut self,
        now: Micros,
        broker_id: BrokerId,
        broker_epoch: u64,
        metadata_offset: Offset,
        want_fence: bool,
        want_shut_down: bool,
    ) -> (Vec<MetadataRecord>, ControllerRpc) {
        let stale = ControllerRpc::BrokerHeartbeatResponse { result: Err(RpcError::StaleBrokerEpoch) };
        let Some(active) = &mut self.active else { return (Vec::new(), stale) };
        let Some(registration) =
            active.image.brokers().get(&broker_id).copied().filter(|b| b.epoch == broker_epoch)
        else {
            return (Vec::new(), stale);
        };
        active.heartbeats.insert(broker_id, now);
        let is_caught_up = metadata_offset >= broker_epoch;
        let mut staged = Staged::new(&mut active.image);
        if want_shut_down && !registration.in_controlled_shutdown {
            staged.push(MetadataRecord::BrokerRegistrationChange {
                broker_id,
                broker_epoch,
                fenced: None,
                in_controlled_shutdown: Some(true),
            });
            let moves = move_away_from(staged.image, broker_id, self.config.sabotage);
            staged.extend(moves);
        } else if registration.fenced && !want_fence && !want_shut_down && is_caught_up {
            staged.push(MetadataRecord::UnfenceBroker { broker_id, broker_epoch });
            let leads = lead_offline_partitions(staged.image, broker_id, self.config.sabotage);
            staged.extend(leads);
        }
        let should_shut_down = want_shut_down && staged.image.partitions_led_by(broker_id) == 0;
        let fenced = staged.image.brokers().get(&broker_id).is_none_or(|b| b.fenced);
        if should_shut_down && !fenced {
            staged.push(MetadataRecord::FenceBroker { broker_id, broker_epoch });
        }
        let reply = HeartbeatReply { is_caught_up, is_fenced: fenced || should_shut_down, should_shut_down };
        (staged.records, ControllerRpc::BrokerHeartbeatResponse { result: Ok(reply) })
    }

    fn alter_partition(
        &mut self,
        broker_id: BrokerId,
        broker_epoch: u64,
        topic_id: TopicId,
        partition: u32,
        epochs: (u32, u32),
        new_isr: crate::broker_set::BrokerSet,
    ) -> (Vec<MetadataRecord>, ControllerRpc) {
        let reply = |result| ControllerRpc::AlterPartitionResponse { topic_id, partition, result };
        let Some(active) = &self.active else { return (Vec::new(), reply(Err(RpcError::NotController))) };
        let current = active.image.partition(topic_id, partition);
        let registered = active.image.brokers().get(&broker_id).is_some_and(|b| b.epoch == broker_epoch);
        let fresh = current
            .is_some_and(|p| p.leader == broker_id as i32 && (p.leader_epoch, p.partition_epoch) == epochs);
        if !registered || !fresh || !valid_isr_change(&active.image, topic_id, partition, new_isr) {
            return (Vec::new(), reply(Err(RpcError::InvalidUpdate)));
        }
        let change =
            PartitionChangeRecord { topic_id, partition, leader: LEADER_UNCHANGED, isr: Some(new_isr) };
        let Some(active) = &mut self.active else { return (Vec::new(), reply(Err(RpcError::NotController))) };
        let mut staged = Staged::new(&mut active.image);
        staged.push(MetadataRecord::PartitionChange(change));
        (staged.records, reply(Ok(())))
    }

    /// CreateTopics from an admin client: place `partitions` partitions with `replication_factor`
    /// replicas on the unfenced brokers and append TopicRecord plus one PartitionRecord each as
    /// one atomic batch.
    pub fn create_topic(
        &mut self,
        node: &mut MetadataNode,
        now: Micros,
        name: &str,
        partitions: u32,
        replication_factor: u32,
    ) -> Result<TopicId, String> {
        let active = self.active.as_ref().ok_or("this controller is not active")?;
        if name.is_empty()
            || name.len() > 249
            || !name.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        {
            return Err(format!("invalid topic name '{name}': use 1 to 249 of a-z, A-Z, 0-9, '.', '_', '-'"));
        }
        if active.image.topic_by_name(name).is_some() {
            return Err(format!("topic '{name}' already exists"));
        }
        if partitions == 0 || partitions > self.config.max_partitions_per_topic {
            return Err(format!("partitions must be between 1 and {}", self.config.max_partitions_per_topic));
        }
        let brokers: Vec<BrokerId> =
            active.image.brokers().iter().filter(|(_, b)| !b.fenced).map(|(id, _)| *id).collect();
        let rf = replication_factor as usize;
        if rf == 0 || rf > super::record::Replicas::MAX || rf > brokers.len() {
            return Err(format!(
                "replication factor {rf} needs that many unfenced brokers ({} available, at most 4)",
                brokers.len()
            ));
        }
        let topic_id = active.image.next_topic_id();
        let start = self.rng.below(brokers.len() as u64) as usize;
        let Some(active) = &mut self.active else { return Err("this controller is not active".into()) };
        let mut staged = Staged::new(&mut active.image);
        staged.push(MetadataRecord::Topic { name: name.into(), topic_id });
        for partition in 0..partitions {
            let replicas = place_replicas(&brokers, partition, rf, start);
            staged.push(MetadataRecord::Partition(new_partition(topic_id, partition, replicas)));
        }
        let records = staged.records;
        Self::append(node, now, records).ok_or("lost leadership while creating the topic")?;
        Ok(topic_id)
    }

    /// IncrementalAlterConfigs from an admin client: one ConfigRecord; returns its offset.
    pub fn alter_config(
        &mut self,
        node: &mut MetadataNode,
        now: Micros,
        resource: &str,
        name: &str,
        value: &str,
    ) -> Result<Offset, String> {
        let active = self.active.as_mut().ok_or("this controller is not active")?;
        let config =
            ConfigRecord { resource: resource.to_string(), name: name.to_string(), value: value.to_string() };
        let mut staged = Staged::new(&mut active.image);
        staged.push(MetadataRecord::Config(std::sync::Arc::new(config)));
        let records = staged.records;
        Self::append(node, now, records).ok_or_else(|| "lost leadership".to_string())
    }

    /// DeleteTopics from an admin client.
    pub fn delete_topic(&mut self, node: &mut MetadataNode, now: Micros, name: &str) -> Result<(), String> {
        let active = self.active.as_mut().ok_or("this controller is not active")?;
        let topic_id =
            active.image.topic_by_name(name).map(|t| t.id).ok_or_else(|| format!("no topic '{name}'"))?;
        let mut staged = Staged::new(&mut active.image);
        staged.push(MetadataRecord::RemoveTopic { topic_id });
        let records = staged.records;
        Self::append(node, now, records).ok_or("lost leadership")?;
        Ok(())
    }
}

/// Records being generated for one request, applied to the working image as they are made so
/// later decisions in the same request see them.
struct Staged<'a> {
    image: &'a mut MetadataImage,
    records: Vec<MetadataRecord>,
}

impl<'a> Staged<'a> {
    fn new(image: &'a mut MetadataImage) -> Staged<'a> {
        Staged { image, records: Vec::new() }
    }

    fn push(&mut self, record: MetadataRecord) {
        let _ = self.image.apply(&record);
        self.records.push(record);
    }

    fn extend(&mut self, records: Vec<MetadataRecord>) {
        for record in records {
            self.push(record);
        }
    }
}

fn not_active_registration() -> ControllerRpc {
    ControllerRpc::BrokerRegistrationResponse { result: Err(RpcError::NotController) }
}

/// The NOT_CONTROLLER answer to a request (responses get none).
fn not_controller(rpc: &ControllerRpc) -> Option<ControllerRpc> {
    let error = RpcError::NotController;
    match rpc {
        ControllerRpc::BrokerRegistration { .. } => {
            Some(ControllerRpc::BrokerRegistrationResponse { result: Err(error) })
        }
        ControllerRpc::BrokerHeartbeat { .. } => {
            Some(ControllerRpc::BrokerHeartbeatResponse { result: Err(error) })
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

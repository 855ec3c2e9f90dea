//! The metadata image: what replaying the metadata log builds (Kafka's `MetadataImage`),
//! updated one record at a time as a delta, tagged with the offset it reflects.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::util::broker_set::{BrokerId, BrokerSet};
use crate::util::small_map::SmallMap;

use super::acl::AclEntry;
use super::partitions::{Partition, PartitionColumns};
use super::record::{LEADER_UNCHANGED, MetadataRecord, PartitionRecord, TopicId};

/// A broker as the image knows it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BrokerRegistration {
    pub epoch: u64,
    /// The registered process's incarnation id.
    pub incarnation: u64,
    pub fenced: bool,
    pub in_controlled_shutdown: bool,
}

/// A topic and its partitions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopicImage {
    pub id: TopicId,
    pub name: Arc<str>,
    pub partitions: PartitionColumns,
}

/// Brokers, topics with their partitions, configs and features. Cloning shares the partition
/// chunks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MetadataImage {
    brokers: SmallMap<BrokerId, BrokerRegistration>,
    topics: BTreeMap<TopicId, TopicImage>,
    names: BTreeMap<Arc<str>, TopicId>,
    partition_count: usize,
    configs: SmallMap<(String, String), String>,
    features: SmallMap<Arc<str>, u16>,
    /// One above the highest topic id ever created: ids are never reused after a delete.
    next_topic_id: TopicId,
    /// The ACLs by id (`AclsImage`), and one above the highest id ever given.
    acls: SmallMap<u64, Arc<AclEntry>>,
    next_acl_id: u64,
}

/// Why a record does not fit the image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApplyError {
    /// A TopicRecord whose name or id the image already has.
    TopicExists { name: Arc<str>, id: TopicId },
    /// A PartitionRecord for a topic the image lacks.
    PartitionOfUnknownTopic(TopicId),
    /// A PartitionRecord other than its topic's next partition.
    PartitionOutOfOrder { topic: Arc<str>, partition: u32 },
    /// A PartitionChangeRecord for a topic the image lacks.
    UnknownTopic(TopicId),
    /// A PartitionChangeRecord for a partition its topic lacks.
    NoSuchPartition { topic: Arc<str>, partition: u32 },
    /// A record about a broker that is not registered.
    UnknownBroker(BrokerId),
    /// A RemoveTopicRecord for a topic the image lacks.
    RemoveUnknownTopic(TopicId),
    /// A RemoveAccessControlEntryRecord for an ACL the image lacks.
    RemoveUnknownAcl(u64),
}

impl fmt::Display for ApplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApplyError::TopicExists { name, id } => write!(f, "topic {name} (id {id}) already exists"),
            ApplyError::PartitionOfUnknownTopic(id) => write!(f, "PartitionRecord for unknown topic {id}"),
            ApplyError::PartitionOutOfOrder { topic, partition } => {
                write!(f, "partition {partition} of topic {topic} arrived out of order")
            }
            ApplyError::UnknownTopic(id) => write!(f, "unknown topic {id}"),
            ApplyError::NoSuchPartition { topic, partition } => {
                write!(f, "topic {topic} has no partition {partition}")
            }
            ApplyError::UnknownBroker(id) => write!(f, "unknown broker {id}"),
            ApplyError::RemoveUnknownTopic(id) => write!(f, "RemoveTopicRecord for unknown topic {id}"),
            ApplyError::RemoveUnknownAcl(id) => {
                write!(f, "RemoveAccessControlEntryRecord for unknown ACL {id}")
            }
        }
    }
}

impl std::error::Error for ApplyError {}

/// A record the image rejected, and why (Kafka treats it as fatal: a controller bug or a
/// corrupt log).
#[derive(Clone, Debug, PartialEq)]
pub struct RejectedRecord {
    pub record: Arc<MetadataRecord>,
    pub error: ApplyError,
}

impl fmt::Display for RejectedRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.record, self.error)
    }
}

impl std::error::Error for RejectedRecord {}

impl MetadataImage {
    /// Apply one record as a delta; a record that does not fit the image is an error.
    pub fn apply(&mut self, record: &MetadataRecord) -> Result<(), ApplyError> {
        match record {
            MetadataRecord::RegisterBroker {
                broker_id,
                broker_epoch,
                incarnation,
                fenced,
                in_controlled_shutdown,
            } => {
                let registration = BrokerRegistration {
                    epoch: *broker_epoch,
                    incarnation: *incarnation,
                    fenced: *fenced,
                    in_controlled_shutdown: *in_controlled_shutdown,
                };
                self.brokers.insert(*broker_id, registration);
            }
            MetadataRecord::UnregisterBroker { broker_id, .. } => {
                self.brokers.remove(broker_id);
            }
            MetadataRecord::Topic { name, topic_id } => {
                if self.names.contains_key(name) || self.topics.contains_key(topic_id) {
                    return Err(ApplyError::TopicExists { name: name.clone(), id: *topic_id });
                }
                let topic =
                    TopicImage { id: *topic_id, name: name.clone(), partitions: PartitionColumns::default() };
                self.topics.insert(*topic_id, topic);
                self.names.insert(name.clone(), *topic_id);
                self.next_topic_id = self.next_topic_id.max(topic_id + 1);
            }
            MetadataRecord::Partition(p) => self.add_partition(p)?,
            MetadataRecord::Config(c) => {
                self.configs.insert((c.resource.clone(), c.name.clone()), c.value.clone());
            }
            MetadataRecord::PartitionChange(change) => {
                let topic =
                    self.topics.get_mut(&change.topic_id).ok_or(ApplyError::UnknownTopic(change.topic_id))?;
                let index = change.partition as usize;
                let mut p = topic.partitions.get(index).ok_or_else(|| ApplyError::NoSuchPartition {
                    topic: topic.name.clone(),
                    partition: change.partition,
                })?;
                if change.leader != LEADER_UNCHANGED {
                    p.leader = change.leader;
                    p.leader_epoch += 1;
                }
                if let Some(isr) = change.isr {
                    p.isr = isr;
                }
                if let Some(elr) = change.elr {
                    p.elr = elr;
                }
                if let Some(last_known_elr) = change.last_known_elr {
                    p.last_known_elr = last_known_elr;
                }
                p.partition_epoch += 1;
                topic.partitions.set(index, p);
            }
            MetadataRecord::FenceBroker { broker_id, .. } => self.broker_mut(*broker_id)?.fenced = true,
            MetadataRecord::UnfenceBroker { broker_id, .. } => self.broker_mut(*broker_id)?.fenced = false,
            MetadataRecord::RemoveTopic { topic_id } => self.remove_topic(*topic_id)?,
            MetadataRecord::FeatureLevel { name, level } => {
                self.features.insert(name.clone(), *level);
            }
            MetadataRecord::BrokerRegistrationChange {
                broker_id, fenced, in_controlled_shutdown, ..
            } => {
                let broker = self.broker_mut(*broker_id)?;
                if let Some(fenced) = fenced {
                    broker.fenced = *fenced;
                }
                if let Some(shutdown) = in_controlled_shutdown {
                    broker.in_controlled_shutdown = *shutdown;
                }
            }
            // A transaction's records apply as they come: Kafka's loader holds them back until
            // EndTransactionRecord, which changes nothing for a transaction in one batch.
            MetadataRecord::AccessControlEntry { id, acl } => {
                self.acls.insert(*id, acl.clone());
                self.next_acl_id = self.next_acl_id.max(id + 1);
            }
            MetadataRecord::RemoveAccessControlEntry { id } => {
                self.acls.remove(id).ok_or(ApplyError::RemoveUnknownAcl(*id))?;
            }
            MetadataRecord::NoOp
            | MetadataRecord::BeginTransaction { .. }
            | MetadataRecord::EndTransaction => {}
        }
        Ok(())
    }

    fn broker_mut(&mut self, id: BrokerId) -> Result<&mut BrokerRegistration, ApplyError> {
        self.brokers.get_mut(&id).ok_or(ApplyError::UnknownBroker(id))
    }

    fn add_partition(&mut self, p: &PartitionRecord) -> Result<(), ApplyError> {
        let topic =
            self.topics.get_mut(&p.topic_id).ok_or(ApplyError::PartitionOfUnknownTopic(p.topic_id))?;
        if p.partition as usize != topic.partitions.len() {
            return Err(ApplyError::PartitionOutOfOrder {
                topic: topic.name.clone(),
                partition: p.partition,
            });
        }
        let partition = Partition {
            replicas: p.replicas,
            isr: p.isr,
            leader: p.leader,
            leader_epoch: p.leader_epoch,
            partition_epoch: p.partition_epoch,
            elr: BrokerSet::EMPTY,
            last_known_elr: BrokerSet::EMPTY,
        };
        topic.partitions.push(partition);
        self.partition_count += 1;
        Ok(())
    }

    fn remove_topic(&mut self, id: TopicId) -> Result<(), ApplyError> {
        let topic = self.topics.remove(&id).ok_or(ApplyError::RemoveUnknownTopic(id))?;
        self.names.remove(&topic.name);
        self.partition_count -= topic.partitions.len();
        Ok(())
    }

    /// The registered brokers.
    pub fn brokers(&self) -> &SmallMap<BrokerId, BrokerRegistration> {
        &self.brokers
    }

    /// The topics by id.
    pub fn topics(&self) -> impl Iterator<Item = &TopicImage> {
        self.topics.values()
    }

    /// The ACLs, by id.
    pub fn acls(&self) -> impl Iterator<Item = &AclEntry> {
        self.acls.iter().map(|(_, acl)| &**acl)
    }

    /// The id the next ACL gets (Kafka draws a random Uuid; the simulation counts).
    pub(crate) fn next_acl_id(&self) -> u64 {
        self.next_acl_id.max(1)
    }

    /// The topic called `name`.
    pub fn topic_by_name(&self, name: &str) -> Option<&TopicImage> {
        self.topics.get(self.names.get(name)?)
    }

    /// The id the next topic gets (never one a deleted topic had).
    pub(crate) fn next_topic_id(&self) -> TopicId {
        self.next_topic_id.max(1)
    }

    /// Partition `partition` of topic `topic`.
    pub fn partition(&self, topic: TopicId, partition: u32) -> Option<Partition> {
        self.topics.get(&topic)?.partitions.get(partition as usize)
    }

    /// Every partition with its topic id and index, topic by topic.
    pub(crate) fn partitions(&self) -> impl Iterator<Item = (TopicId, u32, Partition)> + '_ {
        self.topics
            .values()
            .flat_map(|t| t.partitions.iter().enumerate().map(move |(i, p)| (t.id, i as u32, p)))
    }

    /// The partitions `broker` leads whose ISR lacks a replica in `active`, with their topic id
    /// and index, topic by topic.
    pub(crate) fn partitions_led_by_lacking(
        &self,
        broker: BrokerId,
        active: BrokerSet,
    ) -> impl Iterator<Item = (TopicId, u32, Partition)> + '_ {
        let leader = broker as i32;
        self.topics.values().flat_map(move |t| {
            t.partitions.led_by_lacking(leader, active).map(move |(i, p)| (t.id, i as u32, p))
        })
    }

    /// Number of partitions.
    pub fn partition_count(&self) -> usize {
        self.partition_count
    }

    /// Partitions with no leader.
    pub(crate) fn offline_partitions(&self) -> usize {
        self.topics.values().map(|t| t.partitions.leaders().filter(|l| *l < 0).count()).sum()
    }

    /// Whether `broker` leads any partition (stops at the first it finds).
    pub fn leads_any(&self, broker: BrokerId) -> bool {
        let leader = broker as i32;
        self.topics.values().any(|t| t.partitions.leaders().any(|l| l == leader))
    }

    /// Brokers that are registered and not fenced.
    /// Brokers that may lead and join ISRs: registered, unfenced and not in controlled shutdown
    /// (`ClusterControlManager.isActive`).
    pub(crate) fn active_brokers(&self) -> BrokerSet {
        let active = self.brokers.iter().filter(|(_, b)| !b.fenced && !b.in_controlled_shutdown);
        super::record::broker_set(active.map(|(id, _)| *id))
    }

    /// A configuration value.
    pub(crate) fn config(&self, resource: &str, name: &str) -> Option<&str> {
        self.configs.get(&(resource.to_string(), name.to_string())).map(String::as_str)
    }

    /// Every configuration value by (resource, name).
    pub fn configs(&self) -> &SmallMap<(String, String), String> {
        &self.configs
    }

    /// The finalized feature levels by name.
    pub fn features(&self) -> &SmallMap<Arc<str>, u16> {
        &self.features
    }

    /// The serialized size of a snapshot of this image (the records that rebuild it).
    pub(crate) fn size_bytes(&self) -> u64 {
        let topics: u64 = self.topics.values().map(|t| 24 + t.name.len() as u64).sum();
        let configs: u64 =
            self.configs.iter().map(|((r, n), v)| 8 + (r.len() + n.len() + v.len()) as u64).sum();
        24 * self.brokers.len() as u64
            + topics
            + 64 * self.partition_count as u64
            + configs
            + 16 * self.features.len() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::{ApplyError, MetadataImage};
    use crate::metadata::record::{
        MetadataRecord, PartitionChangeRecord, PartitionRecord, Replicas, broker_set,
    };

    fn topic(id: u32) -> MetadataRecord {
        MetadataRecord::Topic { name: format!("t{id}").into(), topic_id: id }
    }

    fn partition(topic_id: u32, partition: u32, leader: u32) -> MetadataRecord {
        let replicas = Replicas::new(&[leader]);
        let record = PartitionRecord {
            topic_id,
            partition,
            replicas,
            isr: broker_set([leader]),
            leader: leader as i32,
            leader_epoch: 0,
            partition_epoch: 0,
        };
        MetadataRecord::Partition(record)
    }

    #[test]
    fn interleaved_topics_keep_their_own_partitions() {
        let mut image = MetadataImage::default();
        for record in [
            topic(1),
            topic(2),
            partition(2, 0, 102),
            partition(1, 0, 101),
            partition(2, 1, 103),
            partition(1, 1, 104),
        ] {
            image.apply(&record).unwrap();
        }
        let leaders: Vec<(u32, u32, i32)> = image.partitions().map(|(t, p, s)| (t, p, s.leader)).collect();
        assert_eq!(leaders, [(1, 0, 101), (1, 1, 104), (2, 0, 102), (2, 1, 103)]);
        image.apply(&MetadataRecord::RemoveTopic { topic_id: 1 }).unwrap();
        assert_eq!(image.partition(2, 1).unwrap().leader, 103);
        assert_eq!(image.partition_count(), 2);
    }

    #[test]
    fn a_leader_change_bumps_the_leader_epoch_and_every_change_the_partition_epoch() {
        let mut image = MetadataImage::default();
        for record in [topic(1), partition(1, 0, 101)] {
            image.apply(&record).unwrap();
        }
        let change = |leader| {
            MetadataRecord::PartitionChange(PartitionChangeRecord {
                topic_id: 1,
                partition: 0,
                leader,
                isr: None,
                elr: None,
                last_known_elr: None,
            })
        };
        image.apply(&change(-2)).unwrap();
        image.apply(&change(-1)).unwrap();
        let p = image.partition(1, 0).unwrap();
        assert_eq!((p.leader, p.leader_epoch, p.partition_epoch), (-1, 1, 2));
    }

    #[test]
    fn records_that_do_not_fit_are_errors() {
        let mut image = MetadataImage::default();
        assert_eq!(image.apply(&partition(9, 0, 101)), Err(ApplyError::PartitionOfUnknownTopic(9)));
        image.apply(&topic(1)).unwrap();
        assert_eq!(image.apply(&topic(1)), Err(ApplyError::TopicExists { name: "t1".into(), id: 1 }));
        let out_of_order = ApplyError::PartitionOutOfOrder { topic: "t1".into(), partition: 3 };
        assert_eq!(image.apply(&partition(1, 3, 101)), Err(out_of_order));
        let fence = MetadataRecord::FenceBroker { broker_id: 101, broker_epoch: 0 };
        assert_eq!(image.apply(&fence), Err(ApplyError::UnknownBroker(101)));
        assert_eq!(
            image.apply(&MetadataRecord::RemoveTopic { topic_id: 2 }),
            Err(ApplyError::RemoveUnknownTopic(2))
        );
    }

    /// ACL records add and remove entries by id; ids are never given twice.
    #[test]
    fn acl_records_add_and_remove_entries() {
        use crate::metadata::acl::{AclEntry, AclOperation, AclPermission, AclResource};
        use std::sync::Arc;
        let mut image = MetadataImage::default();
        let acl = Arc::new(AclEntry {
            principal: "User:alice".into(),
            resource: AclResource::Topic("orders".into()),
            operation: AclOperation::Delete,
            permission: AclPermission::Allow,
        });
        let id = image.next_acl_id();
        image.apply(&MetadataRecord::AccessControlEntry { id, acl: acl.clone() }).unwrap();
        assert_eq!(image.acls().collect::<Vec<_>>(), [&*acl]);
        image.apply(&MetadataRecord::RemoveAccessControlEntry { id }).unwrap();
        assert_eq!(image.acls().count(), 0);
        assert!(image.next_acl_id() > id, "a removed ACL's id is not given again");
        let remove = MetadataRecord::RemoveAccessControlEntry { id };
        assert_eq!(image.apply(&remove), Err(ApplyError::RemoveUnknownAcl(id)));
    }
}

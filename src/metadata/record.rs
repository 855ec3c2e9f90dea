//! The metadata records of the `__cluster_metadata` log, with Kafka's names and apiKeys
//! (KIP-631), compact enough that a batch of many PartitionRecords stays cheap.

use std::fmt;
use std::sync::Arc;

use crate::util::broker_set::{BrokerId, BrokerSet, MAX_BROKERS};

use super::acl::AclEntry;
use crate::util::hash::{self, mix};

/// Brokers (observers) have node ids from here up; bit `id - FIRST_BROKER_ID` of a
/// [`BrokerSet`] stands for broker `id`.
pub const FIRST_BROKER_ID: BrokerId = 101;

/// A combined node (`process.roles=broker,controller`) is a broker with its controller's id,
/// 1 to this; bit `MAX_BROKERS - id` stands for it, so the controllers' bits count down from the
/// top of a [`BrokerSet`] and the dedicated brokers' count up from 0.
pub const MAX_COMBINED_ID: BrokerId = 9;

/// The first bit of a combined node: dedicated brokers are `FIRST_BROKER_ID` up to
/// `FIRST_BROKER_ID + FIRST_COMBINED_BIT - 1`.
const FIRST_COMBINED_BIT: BrokerId = MAX_BROKERS - MAX_COMBINED_ID;

/// The highest id a dedicated broker can have.
pub const LAST_BROKER_ID: BrokerId = FIRST_BROKER_ID + FIRST_COMBINED_BIT - 1;

/// A topic's id (Kafka uses a UUID; a counter serves the simulation).
pub type TopicId = u32;

/// `PartitionChangeRecord.leader`: the leader does not change.
pub const LEADER_UNCHANGED: i32 = -2;
/// No leader: the partition is offline.
pub const NO_LEADER: i32 = -1;

/// The bit of broker `id` in a [`BrokerSet`]; an id no bit stands for (0, 10 to 100, above
/// [`LAST_BROKER_ID`]) gives a bit every set ignores.
pub(crate) fn broker_bit(id: BrokerId) -> BrokerId {
    match id {
        FIRST_BROKER_ID..=LAST_BROKER_ID => id - FIRST_BROKER_ID,
        1..=MAX_COMBINED_ID => MAX_BROKERS - id,
        _ => MAX_BROKERS,
    }
}

/// Whether broker `id` can be in a [`BrokerSet`].
pub(crate) fn has_broker_bit(id: BrokerId) -> bool {
    broker_bit(id) < MAX_BROKERS
}

/// The broker id bit `bit` stands for (the inverse of [`broker_bit`]).
fn broker_of_bit(bit: BrokerId) -> BrokerId {
    if bit >= FIRST_COMBINED_BIT { MAX_BROKERS - bit } else { bit + FIRST_BROKER_ID }
}

/// The broker ids in `set`, ascending: combined nodes first, then dedicated brokers.
pub(crate) fn broker_ids(set: BrokerSet) -> impl Iterator<Item = BrokerId> {
    let combined = (FIRST_COMBINED_BIT..MAX_BROKERS).rev();
    combined.chain(0..FIRST_COMBINED_BIT).filter(move |bit| set.contains(*bit)).map(broker_of_bit)
}

/// A set of broker ids.
pub fn broker_set(ids: impl IntoIterator<Item = BrokerId>) -> BrokerSet {
    ids.into_iter().map(broker_bit).collect()
}

/// A partition's replicas in preference order (at most four; the first is the preferred leader).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Replicas {
    len: u8,
    bits: [u8; 4],
}

impl Replicas {
    /// The most replicas a partition can have here.
    pub const MAX: usize = 4;

    /// Replicas from broker ids, in order (extra ones beyond [`Replicas::MAX`] are dropped).
    pub fn new(ids: &[BrokerId]) -> Replicas {
        let mut replicas = Replicas::default();
        for &id in ids.iter().take(Self::MAX) {
            replicas.bits[replicas.len as usize] = broker_bit(id) as u8;
            replicas.len += 1;
        }
        replicas
    }

    /// The broker ids, preferred first.
    pub(crate) fn iter(&self) -> impl Iterator<Item = BrokerId> + '_ {
        self.bits[..self.len as usize].iter().map(|b| broker_of_bit(BrokerId::from(*b)))
    }

    /// The replicas as a set.
    pub fn set(&self) -> BrokerSet {
        broker_set(self.iter())
    }
}

/// `PartitionRecord` (apiKey 3): a new partition with its replicas, ISR and leader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartitionRecord {
    pub topic_id: TopicId,
    pub partition: u32,
    pub replicas: Replicas,
    pub isr: BrokerSet,
    pub leader: i32,
    pub leader_epoch: u32,
    pub partition_epoch: u32,
}

/// `PartitionChangeRecord` (apiKey 5): `leader` is [`LEADER_UNCHANGED`], [`NO_LEADER`] or a
/// broker id; `isr: None` leaves the ISR as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartitionChangeRecord {
    pub topic_id: TopicId,
    pub partition: u32,
    pub leader: i32,
    pub isr: Option<BrokerSet>,
    /// `EligibleLeaderReplicas` (tagged field 6, KIP-966), when it changes.
    pub elr: Option<BrokerSet>,
    /// `LastKnownElr` (tagged field 7), when it changes.
    pub last_known_elr: Option<BrokerSet>,
}

/// `ConfigRecord` (apiKey 4): one configuration key of a resource (a topic, a broker).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigRecord {
    pub resource: String,
    pub name: String,
    pub value: String,
}

/// One metadata record.
#[derive(Clone, Debug, PartialEq)]
pub enum MetadataRecord {
    /// `incarnation` is the broker process's incarnation id (`IncarnationId`), new at each start.
    /// A new registration is fenced; one amended by a retry of the same start keeps the
    /// registration's fenced and controlled-shutdown states (`RegisterBrokerRecord`'s `Fenced`
    /// and `InControlledShutdown`).
    RegisterBroker {
        broker_id: BrokerId,
        broker_epoch: u64,
        incarnation: u64,
        fenced: bool,
        in_controlled_shutdown: bool,
    },
    UnregisterBroker {
        broker_id: BrokerId,
        broker_epoch: u64,
    },
    Topic {
        name: Arc<str>,
        topic_id: TopicId,
    },
    Partition(PartitionRecord),
    Config(Arc<ConfigRecord>),
    PartitionChange(PartitionChangeRecord),
    FenceBroker {
        broker_id: BrokerId,
        broker_epoch: u64,
    },
    UnfenceBroker {
        broker_id: BrokerId,
        broker_epoch: u64,
    },
    RemoveTopic {
        topic_id: TopicId,
    },
    FeatureLevel {
        name: Arc<str>,
        level: u16,
    },
    BrokerRegistrationChange {
        broker_id: BrokerId,
        broker_epoch: u64,
        fenced: Option<bool>,
        in_controlled_shutdown: Option<bool>,
    },
    NoOp,
    /// The start of a metadata transaction (KIP-868), named.
    BeginTransaction {
        name: Arc<str>,
    },
    /// Its end: the records since the begin apply together.
    EndTransaction,
    /// `AccessControlEntryRecord` (apiKey 18): an ACL, under its id.
    AccessControlEntry {
        id: u64,
        acl: Arc<AclEntry>,
    },
    /// `RemoveAccessControlEntryRecord` (apiKey 19).
    RemoveAccessControlEntry {
        id: u64,
    },
}

impl MetadataRecord {
    /// Kafka's apiKey for the record type.
    pub(crate) fn api_key(&self) -> u16 {
        match self {
            MetadataRecord::RegisterBroker { .. } => 0,
            MetadataRecord::UnregisterBroker { .. } => 1,
            MetadataRecord::Topic { .. } => 2,
            MetadataRecord::Partition(_) => 3,
            MetadataRecord::Config(_) => 4,
            MetadataRecord::PartitionChange(_) => 5,
            MetadataRecord::FenceBroker { .. } => 7,
            MetadataRecord::UnfenceBroker { .. } => 8,
            MetadataRecord::RemoveTopic { .. } => 9,
            MetadataRecord::FeatureLevel { .. } => 12,
            MetadataRecord::BrokerRegistrationChange { .. } => 17,
            MetadataRecord::NoOp => 20,
            MetadataRecord::BeginTransaction { .. } => 23,
            MetadataRecord::EndTransaction => 24,
            MetadataRecord::AccessControlEntry { .. } => 18,
            MetadataRecord::RemoveAccessControlEntry { .. } => 19,
        }
    }

    /// Kafka's name for the record type.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            MetadataRecord::RegisterBroker { .. } => "RegisterBrokerRecord",
            MetadataRecord::UnregisterBroker { .. } => "UnregisterBrokerRecord",
            MetadataRecord::Topic { .. } => "TopicRecord",
            MetadataRecord::Partition(_) => "PartitionRecord",
            MetadataRecord::Config(_) => "ConfigRecord",
            MetadataRecord::PartitionChange(_) => "PartitionChangeRecord",
            MetadataRecord::FenceBroker { .. } => "FenceBrokerRecord",
            MetadataRecord::UnfenceBroker { .. } => "UnfenceBrokerRecord",
            MetadataRecord::RemoveTopic { .. } => "RemoveTopicRecord",
            MetadataRecord::FeatureLevel { .. } => "FeatureLevelRecord",
            MetadataRecord::BrokerRegistrationChange { .. } => "BrokerRegistrationChangeRecord",
            MetadataRecord::NoOp => "NoOpRecord",
            MetadataRecord::BeginTransaction { .. } => "BeginTransactionRecord",
            MetadataRecord::EndTransaction => "EndTransactionRecord",
            MetadataRecord::AccessControlEntry { .. } => "AccessControlEntryRecord",
            MetadataRecord::RemoveAccessControlEntry { .. } => "RemoveAccessControlEntryRecord",
        }
    }

    /// Approximate serialized size in bytes (frame, apiKey, version and body).
    pub(crate) fn size_bytes(&self) -> u64 {
        match self {
            MetadataRecord::Topic { name, .. } => 24 + name.len() as u64,
            MetadataRecord::Partition(p) => 40 + 8 * p.replicas.iter().count() as u64,
            MetadataRecord::Config(c) => 8 + (c.resource.len() + c.name.len() + c.value.len()) as u64,
            MetadataRecord::FeatureLevel { name, .. } => 8 + name.len() as u64,
            MetadataRecord::NoOp | MetadataRecord::EndTransaction => 4,
            MetadataRecord::BeginTransaction { name } => 8 + name.len() as u64,
            _ => 24,
        }
    }

    /// Whether applying the record can change a partition's leader, replicas or ISR, or which
    /// brokers are active.
    pub(crate) fn can_change_placement(&self) -> bool {
        !matches!(
            self,
            MetadataRecord::Topic { .. }
                | MetadataRecord::Config(_)
                | MetadataRecord::FeatureLevel { .. }
                | MetadataRecord::NoOp
                | MetadataRecord::BeginTransaction { .. }
                | MetadataRecord::EndTransaction
                | MetadataRecord::AccessControlEntry { .. }
                | MetadataRecord::RemoveAccessControlEntry { .. }
        )
    }

    /// A stable fingerprint of the record's content.
    pub(crate) fn fingerprint(&self) -> u64 {
        let text_hash = |t: &str| hash::text(0, t);
        let body = match self {
            MetadataRecord::RegisterBroker {
                broker_id,
                broker_epoch,
                incarnation,
                fenced,
                in_controlled_shutdown,
            } => {
                // A new registration (fenced, not shutting down) adds nothing for its flags.
                let flags = u64::from(!fenced) << 1 | u64::from(*in_controlled_shutdown) << 2;
                mix(u64::from(*broker_id) ^ broker_epoch << 20) ^ mix(*incarnation) ^ flags
            }
            MetadataRecord::UnregisterBroker { broker_id, broker_epoch }
            | MetadataRecord::FenceBroker { broker_id, broker_epoch }
            | MetadataRecord::UnfenceBroker { broker_id, broker_epoch } => {
                mix(u64::from(*broker_id) ^ broker_epoch << 20)
            }
            MetadataRecord::Topic { name, topic_id } => text_hash(name) ^ u64::from(*topic_id),
            MetadataRecord::Partition(p) => {
                let replicas = p.replicas.iter().fold(0, |h, r| mix(h ^ u64::from(r)));
                mix(replicas
                    ^ u64::from(p.topic_id) << 32
                    ^ u64::from(p.partition)
                    ^ p.isr.bits() << 40
                    ^ (p.leader as u64) << 8)
            }
            MetadataRecord::Config(c) => {
                text_hash(&c.resource) ^ mix(text_hash(&c.name)) ^ mix(mix(text_hash(&c.value)))
            }
            MetadataRecord::PartitionChange(c) => {
                let isr = c.isr.map_or(u64::MAX, |s| s.bits());
                mix(u64::from(c.topic_id) << 32 ^ u64::from(c.partition) ^ (c.leader as u64) << 12 ^ mix(isr))
            }
            MetadataRecord::RemoveTopic { topic_id } => u64::from(*topic_id),
            MetadataRecord::FeatureLevel { name, level } => text_hash(name) ^ u64::from(*level),
            MetadataRecord::BrokerRegistrationChange {
                broker_id,
                broker_epoch,
                fenced,
                in_controlled_shutdown,
            } => {
                let flags = |f: &Option<bool>| f.map_or(0u64, |b| 1 + u64::from(b));
                mix(u64::from(*broker_id)
                    ^ broker_epoch << 20
                    ^ flags(fenced) << 60
                    ^ flags(in_controlled_shutdown) << 62)
            }
            MetadataRecord::NoOp | MetadataRecord::EndTransaction => 0,
            MetadataRecord::BeginTransaction { name } => text_hash(name),
            MetadataRecord::AccessControlEntry { id, acl } => mix(*id) ^ text_hash(&acl.to_string()),
            MetadataRecord::RemoveAccessControlEntry { id } => mix(*id),
        };
        mix(body ^ u64::from(self.api_key()) << 56)
    }
}

fn fmt_set(set: BrokerSet) -> String {
    let ids: Vec<String> = broker_ids(set).map(|b| b.to_string()).collect();
    format!("[{}]", ids.join(","))
}

impl fmt::Display for MetadataRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.name();
        match self {
            MetadataRecord::RegisterBroker { broker_id, broker_epoch, .. }
            | MetadataRecord::UnregisterBroker { broker_id, broker_epoch }
            | MetadataRecord::FenceBroker { broker_id, broker_epoch }
            | MetadataRecord::UnfenceBroker { broker_id, broker_epoch } => {
                write!(f, "{name}(broker={broker_id}, epoch={broker_epoch})")
            }
            MetadataRecord::Topic { name: topic, topic_id } => write!(f, "{name}({topic}, id={topic_id})"),
            MetadataRecord::Partition(p) => {
                let replicas: Vec<String> = p.replicas.iter().map(|r| r.to_string()).collect();
                write!(
                    f,
                    "{name}({}-{}, replicas=[{}], isr={}, leader={})",
                    p.topic_id,
                    p.partition,
                    replicas.join(","),
                    fmt_set(p.isr),
                    p.leader
                )
            }
            MetadataRecord::Config(c) => write!(f, "{name}({} {}={})", c.resource, c.name, c.value),
            MetadataRecord::PartitionChange(c) => {
                let leader = match c.leader {
                    LEADER_UNCHANGED => "unchanged".to_string(),
                    l => l.to_string(),
                };
                let isr = c.isr.map_or("unchanged".to_string(), fmt_set);
                write!(f, "{name}({}-{}, leader={leader}, isr={isr})", c.topic_id, c.partition)
            }
            MetadataRecord::RemoveTopic { topic_id } => write!(f, "{name}(id={topic_id})"),
            MetadataRecord::FeatureLevel { name: feature, level } => write!(f, "{name}({feature}={level})"),
            MetadataRecord::BrokerRegistrationChange {
                broker_id, fenced, in_controlled_shutdown, ..
            } => {
                write!(
                    f,
                    "{name}(broker={broker_id}, fenced={fenced:?}, controlled_shutdown={in_controlled_shutdown:?})"
                )
            }
            MetadataRecord::NoOp | MetadataRecord::EndTransaction => write!(f, "{name}"),
            MetadataRecord::BeginTransaction { name: transaction } => write!(f, "{name}({transaction})"),
            MetadataRecord::AccessControlEntry { id, acl } => write!(f, "{name}(id={id}, {acl})"),
            MetadataRecord::RemoveAccessControlEntry { id } => write!(f, "{name}(id={id})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{
        LAST_BROKER_ID, MAX_COMBINED_ID, Replicas, broker_bit, broker_ids, broker_set, has_broker_bit,
    };

    #[test]
    fn combined_and_dedicated_brokers_have_distinct_bits_and_come_back_in_order() {
        let ids: Vec<u32> = (1..=MAX_COMBINED_ID).chain(101..=LAST_BROKER_ID).collect();
        let bits: std::collections::BTreeSet<u32> = ids.iter().map(|id| broker_bit(*id)).collect();
        assert_eq!(bits.len(), ids.len());
        assert_eq!(broker_ids(broker_set(ids.iter().rev().copied())).collect::<Vec<_>>(), ids);
        assert_eq!(Replicas::new(&[102, 2, 101]).iter().collect::<Vec<_>>(), [102, 2, 101]);
        for outside in [0, 10, 100, LAST_BROKER_ID + 1] {
            assert!(!has_broker_bit(outside), "{outside}");
            assert!(broker_set([outside]).is_empty(), "{outside}");
        }
    }
}

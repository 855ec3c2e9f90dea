//! The image a real metadata log builds: brokers, controllers, topics with their partitions,
//! configs and finalized features (metadata.version among them), replayed record by record as
//! Kafka's controllers replay them. Ids are Kafka's own (broker ids, topic UUIDs).

use std::collections::BTreeMap;
use std::fmt;

use crate::util::small_map::SmallMap;

use super::value::{Value, uuid_text};
use crate::metadata::zk_migration::ZkMigrationState;

/// A registered broker.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct Broker {
    pub epoch: i64,
    pub fenced: bool,
    pub in_controlled_shutdown: bool,
    pub rack: Option<String>,
    /// Registered by a ZooKeeper-mode broker in migration mode (`IsMigratingZkBroker`).
    pub migrating_zk_broker: bool,
}

/// A partition's registration (`PartitionRegistration`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct Partition {
    pub replicas: Vec<i32>,
    pub isr: Vec<i32>,
    pub leader: i32,
    pub leader_epoch: i32,
    pub partition_epoch: i32,
}

/// A topic and its partitions by index.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct Topic {
    pub name: String,
    pub partitions: BTreeMap<i32, Partition>,
}

/// What the records replayed so far describe.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct LogImage {
    pub brokers: SmallMap<i32, Broker>,
    /// Controllers registered with RegisterControllerRecord.
    pub controllers: Vec<i32>,
    /// Topics by their UUID in Kafka's text form.
    pub topics: BTreeMap<String, Topic>,
    /// Configs by resource (`<ResourceType>:<ResourceName>`), then key.
    pub configs: BTreeMap<String, SmallMap<String, String>>,
    /// Finalized feature levels (`metadata.version`, `kraft.version`, ...).
    pub features: SmallMap<String, i16>,
    /// Where a migration from ZooKeeper stands, once a ZkMigrationStateRecord said.
    #[cfg_attr(not(target_arch = "wasm32"), serde(serialize_with = "zk_migration_name"))]
    pub zk_migration: Option<ZkMigrationState>,
}

/// The migration state as Kafka names it, in JSON.
#[cfg(not(target_arch = "wasm32"))]
fn zk_migration_name<S: serde::Serializer>(
    state: &Option<ZkMigrationState>,
    out: S,
) -> Result<S::Ok, S::Error> {
    match state {
        Some(state) => out.serialize_str(state.name()),
        None => out.serialize_none(),
    }
}

/// Why a record does not fit the image replayed so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// A field the record needs is absent.
    Missing(&'static str),
    /// An UnregisterBrokerRecord for a broker that is not registered.
    UnregistersUnknownBroker(i32),
    /// A PartitionRecord for a topic UUID (text form) the image lacks.
    PartitionOfUnknownTopic(String),
    /// A PartitionChangeRecord for a topic UUID the image lacks.
    ChangeOfUnknownTopic(String),
    /// A PartitionChangeRecord for a partition its topic lacks.
    ChangeOfUnknownPartition(i32),
    /// A fencing or registration change for a broker that is not registered.
    UnknownBroker(i32),
    /// A RemoveTopicRecord for a topic UUID the image lacks.
    RemovesUnknownTopic(String),
    /// A ZkMigrationStateRecord with a value Kafka does not define.
    UnknownZkMigrationState(i64),
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Missing(field) => write!(f, "missing {field}"),
            ReplayError::UnregistersUnknownBroker(id) => write!(f, "unregisters unknown broker {id}"),
            ReplayError::PartitionOfUnknownTopic(id) => write!(f, "partition of unknown topic {id}"),
            ReplayError::ChangeOfUnknownTopic(id) => write!(f, "change of unknown topic {id}"),
            ReplayError::ChangeOfUnknownPartition(index) => write!(f, "change of unknown partition {index}"),
            ReplayError::UnknownBroker(id) => write!(f, "unknown broker {id}"),
            ReplayError::RemovesUnknownTopic(id) => write!(f, "removes unknown topic {id}"),
            ReplayError::UnknownZkMigrationState(value) => {
                write!(f, "names ZkMigrationState {value}, which Kafka does not define")
            }
        }
    }
}

impl std::error::Error for ReplayError {}

/// `PartitionChangeRecord.Leader`: no change (`LeaderConstants.NO_LEADER_CHANGE`).
const NO_LEADER_CHANGE: i64 = -2;

impl LogImage {
    /// The `metadata.version` feature level, once a FeatureLevelRecord set it.
    pub fn metadata_version(&self) -> Option<i16> {
        self.features.get("metadata.version").copied()
    }

    /// Number of partitions over all topics.
    pub fn partition_count(&self) -> usize {
        self.topics.values().map(|t| t.partitions.len()).sum()
    }

    /// Replay metadata record `api_key`; a record that does not fit the image is an error (the
    /// image is left as it was). Types that do not shape this image are accepted and ignored.
    pub(crate) fn apply(&mut self, api_key: u16, value: &Value) -> Result<(), ReplayError> {
        if !self.apply_to_brokers(api_key, value)? && !self.apply_to_topics(api_key, value)? {
            self.apply_to_features(api_key, value)?;
        }
        Ok(())
    }

    /// A record of the cluster's brokers and controllers (whether `api_key` is one).
    fn apply_to_brokers(&mut self, api_key: u16, value: &Value) -> Result<bool, ReplayError> {
        let field = Fields(value);
        match api_key {
            // ClusterControlManager.replay(RegisterBrokerRecord)
            0 => {
                let broker = Broker {
                    epoch: field.int("BrokerEpoch")?,
                    fenced: value.flag("Fenced").unwrap_or(true),
                    in_controlled_shutdown: value.flag("InControlledShutdown").unwrap_or(false),
                    rack: value.text("Rack").map(str::to_string),
                    migrating_zk_broker: value.flag("IsMigratingZkBroker").unwrap_or(false),
                };
                self.brokers.insert(field.int("BrokerId")? as i32, broker);
            }
            // ClusterControlManager.replay(UnregisterBrokerRecord)
            1 => {
                let id = field.int("BrokerId")? as i32;
                self.brokers.remove(&id).ok_or(ReplayError::UnregistersUnknownBroker(id))?;
            }
            // ClusterControlManager.replay(FenceBrokerRecord / UnfenceBrokerRecord)
            7 | 8 => {
                let id = field.int("Id")? as i32;
                let broker = self.brokers.get_mut(&id).ok_or(ReplayError::UnknownBroker(id))?;
                broker.fenced = api_key == 7;
            }
            // ClusterControlManager.replay(BrokerRegistrationChangeRecord):
            // BrokerRegistrationFencingChange (-1 unfence, 0 none, 1 fence) and
            // BrokerRegistrationInControlledShutdownChange (0 none, 1 in shutdown).
            17 => {
                let id = field.int("BrokerId")? as i32;
                let broker = self.brokers.get_mut(&id).ok_or(ReplayError::UnknownBroker(id))?;
                match value.int("Fenced").unwrap_or(0) {
                    -1 => broker.fenced = false,
                    1 => broker.fenced = true,
                    _ => {}
                }
                if value.int("InControlledShutdown") == Some(1) {
                    broker.in_controlled_shutdown = true;
                }
            }
            // ClusterControlManager.replay(RegisterControllerRecord)
            27 => {
                let id = field.int("ControllerId")? as i32;
                if let Err(at) = self.controllers.binary_search(&id) {
                    self.controllers.insert(at, id);
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// A record of the topics and their partitions (whether `api_key` is one).
    fn apply_to_topics(&mut self, api_key: u16, value: &Value) -> Result<bool, ReplayError> {
        let field = Fields(value);
        match api_key {
            // ReplicationControlManager.replay(TopicRecord)
            2 => {
                let name = field.text("Name")?.to_string();
                self.topics.insert(field.uuid("TopicId")?, Topic { name, partitions: BTreeMap::new() });
            }
            // ReplicationControlManager.replay(PartitionRecord)
            3 => {
                let id = field.uuid("TopicId")?;
                let topic = self.topics.get_mut(&id).ok_or(ReplayError::PartitionOfUnknownTopic(id))?;
                let partition = Partition {
                    replicas: value.ints("Replicas").unwrap_or_default(),
                    isr: value.ints("Isr").unwrap_or_default(),
                    leader: field.int("Leader")? as i32,
                    leader_epoch: field.int("LeaderEpoch")? as i32,
                    partition_epoch: field.int("PartitionEpoch")? as i32,
                };
                topic.partitions.insert(field.int("PartitionId")? as i32, partition);
            }
            // ReplicationControlManager.replay(PartitionChangeRecord) -> PartitionRegistration.merge
            5 => {
                let id = field.uuid("TopicId")?;
                let index = field.int("PartitionId")? as i32;
                let topic = self.topics.get_mut(&id).ok_or(ReplayError::ChangeOfUnknownTopic(id))?;
                let p =
                    topic.partitions.get_mut(&index).ok_or(ReplayError::ChangeOfUnknownPartition(index))?;
                if let Some(isr) = value.ints("Isr") {
                    p.isr = isr;
                }
                if let Some(replicas) = value.ints("Replicas") {
                    p.replicas = replicas;
                }
                let leader = field.int("Leader")?;
                if leader != NO_LEADER_CHANGE {
                    p.leader = leader as i32;
                    p.leader_epoch = p.leader_epoch.wrapping_add(1);
                }
                p.partition_epoch = p.partition_epoch.wrapping_add(1);
            }
            // ReplicationControlManager.replay(RemoveTopicRecord)
            9 => {
                let id = field.uuid("TopicId")?;
                self.topics.remove(&id).ok_or(ReplayError::RemovesUnknownTopic(id))?;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// A record of configs, features or the migration's state (whether `api_key` is one).
    fn apply_to_features(&mut self, api_key: u16, value: &Value) -> Result<bool, ReplayError> {
        let field = Fields(value);
        match api_key {
            // ConfigurationControlManager.replay(ConfigRecord): a null value deletes the key.
            4 => {
                let resource =
                    format!("{}:{}", field.int("ResourceType")?, value.text("ResourceName").unwrap_or(""));
                let name = field.text("Name")?.to_string();
                let configs = self.configs.entry(resource.clone()).or_default();
                match value.text("Value") {
                    Some(v) => {
                        configs.insert(name, v.to_string());
                    }
                    None => {
                        configs.remove(&name);
                        if configs.is_empty() {
                            self.configs.remove(&resource);
                        }
                    }
                }
            }
            // FeatureControlManager.replay(FeatureLevelRecord): level 0 removes the feature.
            12 => {
                let name = field.text("Name")?.to_string();
                match field.int("FeatureLevel")? as i16 {
                    0 => self.features.remove(&name),
                    level => self.features.insert(name, level),
                };
            }
            // FeatureControlManager.replay(ZkMigrationStateRecord) (Kafka 3.4 to 3.9)
            21 => {
                let raw = field.int("ZkMigrationState")?;
                self.zk_migration =
                    Some(ZkMigrationState::of(raw).ok_or(ReplayError::UnknownZkMigrationState(raw))?);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// A record's fields that must be there: each missing one is an error naming it.
struct Fields<'a>(&'a Value);

impl Fields<'_> {
    fn int(&self, name: &'static str) -> Result<i64, ReplayError> {
        self.0.int(name).ok_or(ReplayError::Missing(name))
    }

    fn uuid(&self, name: &'static str) -> Result<String, ReplayError> {
        self.0.uuid(name).map(|u| uuid_text(&u)).ok_or(ReplayError::Missing(name))
    }

    fn text(&self, name: &'static str) -> Result<&str, ReplayError> {
        self.0.text(name).ok_or(ReplayError::Missing(name))
    }
}

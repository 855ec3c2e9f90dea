//! Between the simulation's records and Kafka's: each metadata record type the simulation
//! models, as the Kafka record of the same name at the highest version Kafka 4.3.1 defines,
//! and back. Topic ids become UUIDs that carry the simulation's id; a real file's UUIDs get
//! ids in the order their topics appear. Types the simulation does not model map to nothing
//! (the inspector still names and counts them).

use std::fmt;
use std::sync::Arc;

use crate::metadata::acl::{AclEntry, AclOperation, AclPermission, AclResource};
use crate::metadata::record::{
    ConfigRecord, FIRST_BROKER_ID, LAST_BROKER_ID, MAX_COMBINED_ID, MetadataRecord, PartitionChangeRecord,
    PartitionRecord, Replicas, TopicId, broker_ids, broker_set, has_broker_bit,
};
use crate::metadata::state::MetadataEntry;
use crate::quorum::node::SUPPORTED_KRAFT_VERSIONS;
use crate::quorum::record::{LeaderChange, Record};
use crate::quorum::voters::{DirectoryId, KRaftVersion, ReplicaKey, VoterSet};
use crate::util::broker_set::BrokerSet;
use crate::util::small_map::{SmallMap, SmallSet};

use super::inspect::voter_ids;
use super::payload::{ControlType, Payload};
use super::schemas;
use super::value::Value;

/// The first 12 bytes of the UUIDs the writer gives topics ("kraftscope" and two zero bytes).
const TOPIC_UUID_MARK: [u8; 12] = *b"kraftscope\0\0";

/// The UUID the writer gives simulation topic `id`.
pub(crate) fn topic_uuid(id: TopicId) -> [u8; 16] {
    let mut uuid = [0u8; 16];
    uuid[..12].copy_from_slice(&TOPIC_UUID_MARK);
    uuid[12..].copy_from_slice(&id.to_be_bytes());
    uuid
}

/// The low 64 bits of a Uuid: what the simulation keeps of an incarnation id or an ACL id.
fn low(uuid: [u8; 16]) -> u64 {
    u64::from_be_bytes(uuid[8..].try_into().expect("8 bytes of a UUID"))
}

/// An ACL's id as a Uuid: the simulation's counter in the low eight bytes.
fn acl_uuid(id: u64) -> [u8; 16] {
    let mut uuid = [0u8; 16];
    uuid[8..].copy_from_slice(&id.to_be_bytes());
    uuid
}

/// `ConfigResource.Type`: BROKER (4) and TOPIC (2).
const BROKER_RESOURCE: i8 = 4;
const TOPIC_RESOURCE: i8 = 2;

/// A simulation config resource as Kafka's (type, name): `cluster` is the cluster-wide broker
/// default (a BROKER resource with an empty name), `broker:N` broker N, anything else a topic.
fn config_resource(resource: &str) -> (i8, &str) {
    match resource {
        "cluster" => (BROKER_RESOURCE, ""),
        _ => match resource.strip_prefix("broker:") {
            Some(id) => (BROKER_RESOURCE, id),
            None => (TOPIC_RESOURCE, resource),
        },
    }
}

fn simulation_resource(kind: i64, name: &str) -> String {
    match (kind, name) {
        (4, "") => "cluster".into(),
        (4, id) => format!("broker:{id}"),
        (2, topic) => topic.into(),
        (other, name) => format!("resource{other}:{name}"),
    }
}

/// A metadata record at the highest version of its schema.
fn metadata(api_key: u16, fill: impl FnOnce(Value) -> Value) -> Payload {
    let schema = schemas::metadata(api_key).expect("every modelled apiKey has a schema");
    let version = schema.versions.1;
    Payload::Metadata { api_key, version, value: fill(Value::defaults(schema.fields, version)) }
}

fn ids(set: BrokerSet) -> Value {
    Value::int32s(broker_ids(set).map(|id| id as i32))
}

/// The Kafka record for a simulation record.
pub fn to_payload(record: &MetadataRecord) -> Payload {
    let api_key = record.api_key();
    let broker = |v: Value, id: &str, epoch: &str, broker_id: u32, broker_epoch: u64| {
        v.with(id, Value::Int32(broker_id as i32)).with(epoch, Value::Int64(broker_epoch as i64))
    };
    metadata(api_key, |v| match record {
        MetadataRecord::RegisterBroker {
            broker_id,
            broker_epoch,
            incarnation,
            fenced,
            in_controlled_shutdown,
        } => {
            let mut uuid = [0u8; 16];
            uuid[8..].copy_from_slice(&incarnation.to_be_bytes());
            broker(v, "BrokerId", "BrokerEpoch", *broker_id, *broker_epoch)
                .with("IncarnationId", Value::Uuid(uuid))
                .with("Fenced", Value::Bool(*fenced))
                .with("InControlledShutdown", Value::Bool(*in_controlled_shutdown))
        }
        MetadataRecord::UnregisterBroker { broker_id, broker_epoch } => {
            broker(v, "BrokerId", "BrokerEpoch", *broker_id, *broker_epoch)
        }
        MetadataRecord::FenceBroker { broker_id, broker_epoch }
        | MetadataRecord::UnfenceBroker { broker_id, broker_epoch } => {
            broker(v, "Id", "Epoch", *broker_id, *broker_epoch)
        }
        MetadataRecord::Topic { name, topic_id } => {
            v.with("Name", Value::string(&**name)).with("TopicId", Value::Uuid(topic_uuid(*topic_id)))
        }
        MetadataRecord::Partition(p) => v
            .with("PartitionId", Value::Int32(p.partition as i32))
            .with("TopicId", Value::Uuid(topic_uuid(p.topic_id)))
            .with("Replicas", Value::int32s(p.replicas.iter().map(|id| id as i32)))
            .with("Isr", ids(p.isr))
            .with("Leader", Value::Int32(p.leader))
            .with("LeaderEpoch", Value::Int32(p.leader_epoch as i32))
            .with("PartitionEpoch", Value::Int32(p.partition_epoch as i32))
            // DirectoryId.UNASSIGNED for each replica (PartitionRegistration.checkDirectories)
            .with(
                "Directories",
                Value::Array(Some(p.replicas.iter().map(|_| Value::Uuid([0; 16])).collect())),
            ),
        MetadataRecord::Config(c) => {
            let (kind, name) = config_resource(&c.resource);
            v.with("ResourceType", Value::Int8(kind))
                .with("ResourceName", Value::string(name))
                .with("Name", Value::string(&c.name))
                .with("Value", Value::string(&c.value))
        }
        MetadataRecord::PartitionChange(c) => v
            .with("PartitionId", Value::Int32(c.partition as i32))
            .with("TopicId", Value::Uuid(topic_uuid(c.topic_id)))
            .with("Leader", Value::Int32(c.leader))
            .with("Isr", c.isr.map_or(Value::Array(None), ids))
            .with("EligibleLeaderReplicas", c.elr.map_or(Value::Array(None), ids))
            .with("LastKnownElr", c.last_known_elr.map_or(Value::Array(None), ids)),
        MetadataRecord::RemoveTopic { topic_id } => v.with("TopicId", Value::Uuid(topic_uuid(*topic_id))),
        MetadataRecord::FeatureLevel { name, level } => {
            v.with("Name", Value::string(&**name)).with("FeatureLevel", Value::Int16(*level as i16))
        }
        MetadataRecord::BrokerRegistrationChange {
            broker_id,
            broker_epoch,
            fenced,
            in_controlled_shutdown,
        } => {
            // BrokerRegistrationFencingChange: -1 unfence, 0 none, 1 fence;
            // BrokerRegistrationInControlledShutdownChange: 0 none, 1 in controlled shutdown.
            let fenced = match fenced {
                None => 0,
                Some(true) => 1,
                Some(false) => -1,
            };
            broker(v, "BrokerId", "BrokerEpoch", *broker_id, *broker_epoch)
                .with("Fenced", Value::Int8(fenced))
                .with("InControlledShutdown", Value::Int8(i8::from(in_controlled_shutdown.unwrap_or(false))))
        }
        MetadataRecord::NoOp | MetadataRecord::EndTransaction => v,
        MetadataRecord::BeginTransaction { name } => v.with("Name", Value::string(&**name)),
        // PatternType LITERAL (3), host "*": the only ones modelled.
        MetadataRecord::AccessControlEntry { id, acl } => v
            .with("Id", Value::Uuid(acl_uuid(*id)))
            .with("ResourceType", Value::Int8(acl.resource.code()))
            .with("ResourceName", Value::string(acl.resource.name()))
            .with("PatternType", Value::Int8(3))
            .with("Principal", Value::string(&*acl.principal))
            .with("Host", Value::string("*"))
            .with("Operation", Value::Int8(acl.operation.code()))
            .with("PermissionType", Value::Int8(acl.permission.code())),
        MetadataRecord::RemoveAccessControlEntry { id } => v.with("Id", Value::Uuid(acl_uuid(*id))),
    })
}

/// The LeaderChange control record for the simulation's (`LeaderChangeMessage` v0).
pub(crate) fn leader_change_payload(change: &LeaderChange) -> Payload {
    let voters = |ids: &[u32]| {
        Value::Array(Some(
            ids.iter().map(|id| Value::of_fields(vec![("VoterId", Value::Int32(*id as i32))])).collect(),
        ))
    };
    let value = Value::of_fields(vec![
        ("Version", Value::Int16(0)),
        ("LeaderId", Value::Int32(change.leader as i32)),
        ("Voters", voters(&change.voters)),
        ("GrantingVoters", voters(&change.granting)),
    ]);
    Payload::Control { kind: ControlType::LeaderChange, value }
}

/// A KRaftVersionRecord (control type 5, `KRaftVersionRecord.json` v0).
pub(crate) fn kraft_version_payload(version: KRaftVersion) -> Payload {
    let value = Value::of_fields(vec![
        ("Version", Value::Int16(0)),
        ("KRaftVersion", Value::Int16(i16::from(version))),
    ]);
    Payload::Control { kind: ControlType::KRaftVersion, value }
}

/// A directory id as the UUID Kafka writes: the 64 bits in the low half.
pub(crate) fn dir_uuid(dir: Option<DirectoryId>) -> [u8; 16] {
    let mut uuid = [0; 16];
    uuid[8..].copy_from_slice(&dir.unwrap_or(0).to_be_bytes());
    uuid
}

/// A VotersRecord (control type 6, `VotersRecord.json` v0): each voter with its directory id,
/// one endpoint on the controller listener and the kraft.version range it supports.
pub(crate) fn voters_payload(voters: &VoterSet) -> Payload {
    let (min, max) = SUPPORTED_KRAFT_VERSIONS;
    let voter = |key: &ReplicaKey| {
        let endpoint = Value::of_fields(vec![
            ("Name", Value::String(Some("CONTROLLER".into()))),
            ("Host", Value::string(format!("n{}", key.id))),
            ("Port", Value::Uint16(9093)),
        ]);
        let range = Value::of_fields(vec![
            ("MinSupportedVersion", Value::Int16(i16::from(min))),
            ("MaxSupportedVersion", Value::Int16(i16::from(max))),
        ]);
        Value::of_fields(vec![
            ("VoterId", Value::Int32(key.id as i32)),
            ("VoterDirectoryId", Value::Uuid(dir_uuid(key.dir))),
            ("Endpoints", Value::Array(Some(Box::new([endpoint])))),
            ("KRaftVersionFeature", range),
        ])
    };
    let value = Value::of_fields(vec![
        ("Version", Value::Int16(0)),
        ("Voters", Value::Array(Some(voters.keys().iter().map(voter).collect()))),
    ]);
    Payload::Control { kind: ControlType::KRaftVoters, value }
}

/// The voter set of a decoded VotersRecord.
pub(crate) fn voters_of(value: &Value) -> Result<VoterSet, MappingError> {
    let keys = value.list("Voters").unwrap_or(&[]).iter().map(|v| {
        let raw = v.int("VoterId").ok_or(MappingError::Missing("VoterId"))?;
        let id = u32::try_from(raw).map_err(|_| MappingError::NegativeNodeId(raw as i32))?;
        let uuid = v.uuid("VoterDirectoryId").unwrap_or([0; 16]);
        let low = u64::from_be_bytes(uuid[8..].try_into().unwrap_or([0; 8]));
        Ok(ReplicaKey { id, dir: (uuid != [0; 16]).then_some(low) })
    });
    Ok(VoterSet::new(keys.collect::<Result<Vec<_>, MappingError>>()?))
}

/// Why a record of a real log does not fit the simulation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MappingError {
    /// A LeaderChange names a negative node id.
    NegativeNodeId(i32),
    /// A field the record needs is absent.
    Missing(&'static str),
    /// A broker id outside the simulation's range.
    BrokerOutOfRange(i64),
    /// A partition index or epoch below zero.
    Negative { what: &'static str, value: i64 },
    /// More replicas than the simulation models.
    TooManyReplicas(usize),
    /// A ConfigRecord with a null value (a deletion).
    ConfigDeletion,
    /// A FeatureLevelRecord below zero.
    NegativeFeatureLevel,
    /// The problem of the metadata record at this offset.
    At { offset: i64, error: Box<MappingError> },
}

impl fmt::Display for MappingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MappingError::NegativeNodeId(id) => write!(f, "node id {id} is negative"),
            MappingError::Missing(field) => write!(f, "missing {field}"),
            MappingError::BrokerOutOfRange(id) => write!(
                f,
                "broker id {id} is outside the simulation's 1-{MAX_COMBINED_ID} (combined nodes) and \
                 {FIRST_BROKER_ID}-{LAST_BROKER_ID}"
            ),
            MappingError::Negative { what, value } => write!(f, "{what} {value} is negative"),
            MappingError::TooManyReplicas(n) => {
                write!(f, "{n} replicas (the simulation models at most {})", Replicas::MAX)
            }
            MappingError::ConfigDeletion => write!(f, "a config deletion (null value) is not modelled"),
            MappingError::NegativeFeatureLevel => write!(f, "negative feature level"),
            MappingError::At { offset, error } => write!(f, "offset {offset}: {error}"),
        }
    }
}

impl std::error::Error for MappingError {}

/// The simulation's LeaderChange from the control record's value.
pub(crate) fn leader_change(value: &Value) -> Result<LeaderChange, MappingError> {
    let id = |i: i32| u32::try_from(i).map_err(|_| MappingError::NegativeNodeId(i));
    let list =
        |field| voter_ids(value, field).into_iter().map(id).collect::<Result<Arc<[u32]>, MappingError>>();
    Ok(LeaderChange {
        leader: id(value.int("LeaderId").unwrap_or(-1) as i32)?,
        voters: list("Voters")?,
        granting: list("GrantingVoters")?,
    })
}

/// Reads Kafka records as the simulation's, remembering which topic UUID got which id.
#[derive(Clone, Debug, Default)]
pub struct SimulationMapper {
    topics: SmallMap<[u8; 16], TopicId>,
    /// The ACL ids mapped so far: a removal of an ACL the simulation does not model (another
    /// resource type or operation) is left out with it.
    acls: SmallSet<u64>,
}

fn broker_id(v: i64) -> Result<u32, MappingError> {
    u32::try_from(v).ok().filter(|id| has_broker_bit(*id)).ok_or(MappingError::BrokerOutOfRange(v))
}

fn unsigned(v: i64, what: &'static str) -> Result<u32, MappingError> {
    u32::try_from(v).map_err(|_| MappingError::Negative { what, value: v })
}

fn brokers(ids: &[i32]) -> Result<BrokerSet, MappingError> {
    let ids: Vec<u32> = ids.iter().map(|id| broker_id(i64::from(*id))).collect::<Result<_, _>>()?;
    Ok(broker_set(ids))
}

impl SimulationMapper {
    /// The simulation id of topic `uuid`: the id a writer's UUID carries, else the next free one.
    fn topic(&mut self, uuid: [u8; 16]) -> TopicId {
        let next = self.topics.values().max().map_or(1, |m| m + 1);
        *self.topics.get_or_insert_with(uuid, || {
            if uuid[..12] == TOPIC_UUID_MARK {
                u32::from_be_bytes([uuid[12], uuid[13], uuid[14], uuid[15]])
            } else {
                next
            }
        })
    }

    /// The simulation records for metadata record `api_key` (none for a type it does not
    /// model); an error when the record does not fit the simulation (a broker id outside its
    /// range, more than four replicas).
    pub(crate) fn records(&mut self, api_key: u16, v: &Value) -> Result<Vec<MetadataRecord>, MappingError> {
        let int = |name: &'static str| v.int(name).ok_or(MappingError::Missing(name));
        let uuid = |name: &'static str| v.uuid(name).ok_or(MappingError::Missing(name));
        let text = |name: &'static str| v.text(name).ok_or(MappingError::Missing(name));
        let epoch = |name: &'static str| int(name).map(|e| e as u64);
        Ok(match api_key {
            0 => {
                let broker_id = broker_id(int("BrokerId")?)?;
                let broker_epoch = epoch("BrokerEpoch")?;
                let incarnation = v.uuid("IncarnationId").map_or(0, low);
                vec![MetadataRecord::RegisterBroker {
                    broker_id,
                    broker_epoch,
                    incarnation,
                    fenced: v.flag("Fenced").unwrap_or(true),
                    in_controlled_shutdown: v.flag("InControlledShutdown").unwrap_or(false),
                }]
            }
            1 => vec![MetadataRecord::UnregisterBroker {
                broker_id: broker_id(int("BrokerId")?)?,
                broker_epoch: epoch("BrokerEpoch")?,
            }],
            2 => {
                let name: Arc<str> = text("Name")?.into();
                vec![MetadataRecord::Topic { name, topic_id: self.topic(uuid("TopicId")?) }]
            }
            3 => {
                let replicas = v.ints("Replicas").unwrap_or_default();
                if replicas.len() > Replicas::MAX {
                    return Err(MappingError::TooManyReplicas(replicas.len()));
                }
                let replica_ids: Vec<u32> =
                    replicas.iter().map(|r| broker_id(i64::from(*r))).collect::<Result<_, _>>()?;
                vec![MetadataRecord::Partition(PartitionRecord {
                    topic_id: self.topic(uuid("TopicId")?),
                    partition: unsigned(int("PartitionId")?, "partition")?,
                    replicas: Replicas::new(&replica_ids),
                    isr: brokers(&v.ints("Isr").unwrap_or_default())?,
                    leader: int("Leader")? as i32,
                    leader_epoch: unsigned(int("LeaderEpoch")?, "leader epoch")?,
                    partition_epoch: unsigned(int("PartitionEpoch")?, "partition epoch")?,
                })]
            }
            4 => {
                let value = v.text("Value").ok_or(MappingError::ConfigDeletion)?;
                let resource =
                    simulation_resource(int("ResourceType")?, v.text("ResourceName").unwrap_or(""));
                let name = text("Name")?.to_string();
                vec![MetadataRecord::Config(Arc::new(ConfigRecord {
                    resource,
                    name,
                    value: value.to_string(),
                }))]
            }
            5 => vec![MetadataRecord::PartitionChange(PartitionChangeRecord {
                topic_id: self.topic(uuid("TopicId")?),
                partition: unsigned(int("PartitionId")?, "partition")?,
                leader: int("Leader")? as i32,
                isr: v.ints("Isr").map(|isr| brokers(&isr)).transpose()?,
                elr: v.ints("EligibleLeaderReplicas").map(|elr| brokers(&elr)).transpose()?,
                last_known_elr: v.ints("LastKnownElr").map(|lke| brokers(&lke)).transpose()?,
            })],
            7 => vec![MetadataRecord::FenceBroker {
                broker_id: broker_id(int("Id")?)?,
                broker_epoch: epoch("Epoch")?,
            }],
            8 => vec![MetadataRecord::UnfenceBroker {
                broker_id: broker_id(int("Id")?)?,
                broker_epoch: epoch("Epoch")?,
            }],
            9 => vec![MetadataRecord::RemoveTopic { topic_id: self.topic(uuid("TopicId")?) }],
            12 => {
                let level =
                    u16::try_from(int("FeatureLevel")?).map_err(|_| MappingError::NegativeFeatureLevel)?;
                vec![MetadataRecord::FeatureLevel { name: text("Name")?.into(), level }]
            }
            17 => vec![MetadataRecord::BrokerRegistrationChange {
                broker_id: broker_id(int("BrokerId")?)?,
                broker_epoch: epoch("BrokerEpoch")?,
                fenced: match v.int("Fenced").unwrap_or(0) {
                    1 => Some(true),
                    -1 => Some(false),
                    _ => None,
                },
                in_controlled_shutdown: (v.int("InControlledShutdown") == Some(1)).then_some(true),
            }],
            20 => vec![MetadataRecord::NoOp],
            23 => vec![MetadataRecord::BeginTransaction { name: Arc::from(v.text("Name").unwrap_or("")) }],
            24 => vec![MetadataRecord::EndTransaction],
            18 => {
                let id = low(uuid("Id")?);
                let resource = AclResource::of(int("ResourceType")? as i8, text("ResourceName")?);
                let operation = AclOperation::of(int("Operation")? as i8);
                let permission = AclPermission::of(int("PermissionType")? as i8);
                let literal = int("PatternType")? == 3 && text("Host")? == "*";
                match (resource, operation, permission) {
                    (Some(resource), Some(operation), Some(permission)) if literal => {
                        self.acls.insert(id);
                        let principal = text("Principal")?.into();
                        let acl = Arc::new(AclEntry { principal, resource, operation, permission });
                        vec![MetadataRecord::AccessControlEntry { id, acl }]
                    }
                    _ => Vec::new(),
                }
            }
            19 => {
                let id = low(uuid("Id")?);
                if self.acls.remove(&id) {
                    vec![MetadataRecord::RemoveAccessControlEntry { id }]
                } else {
                    Vec::new()
                }
            }
            _ => Vec::new(),
        })
    }
}

/// The simulation's log records for decoded entries, in order: LeaderChange control records
/// and the metadata records the simulation models (other types are left out).
pub fn simulation_records(
    entries: &[super::reader::LogEntry],
) -> Result<Vec<Record<MetadataEntry>>, MappingError> {
    let mut mapper = SimulationMapper::default();
    let mut records = Vec::with_capacity(entries.len());
    for entry in entries {
        match &entry.payload {
            Payload::Control { kind: ControlType::LeaderChange, value } => {
                records.push(Record::LeaderChange(Arc::new(leader_change(value)?)));
            }
            Payload::Control { kind: ControlType::KRaftVersion, value } => {
                let version = value.int("KRaftVersion").ok_or(MappingError::Missing("KRaftVersion"))?;
                records.push(Record::KRaftVersion(u8::try_from(version).unwrap_or(u8::MAX)));
            }
            Payload::Control { kind: ControlType::KRaftVoters, value } => {
                records.push(Record::Voters(Arc::new(voters_of(value)?)));
            }
            Payload::Metadata { api_key, value, .. } => {
                let mapped = mapper
                    .records(*api_key, value)
                    .map_err(|error| MappingError::At { offset: entry.offset, error: Box::new(error) })?;
                records.extend(mapped.into_iter().map(|r| Record::Data(MetadataEntry::from(r))));
            }
            _ => {}
        }
    }
    Ok(records)
}

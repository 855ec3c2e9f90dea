//! Every metadata record type of Kafka 4.3.1 and the KRaft control records' values, as schema
//! tables: one entry per JSON file, read from `metadata/src/main/resources/common/metadata/`
//! and `clients/src/main/resources/common/message/` at Kafka 4.3.1 (the file is named beside
//! each). All of them are flexible from version 0 (`"flexibleVersions": "0+"`).

use super::schema::Default::{Int, Null, True};
use super::schema::Type::{
    Array, Bool, Bytes, Float64, Int8, Int16, Int32, Int64, String, Struct, Uint16, Uuid,
};
use super::schema::{Field, Schema, Type};

const INT32S: Type = Array(&Int32);
const UUIDS: Type = Array(&Uuid);
const STRINGS: Type = Array(&String);

/// `Name`, `Host`, `Port`, `SecurityProtocol` (RegisterBrokerRecord's BrokerEndpoint and
/// RegisterControllerRecord's ControllerEndpoint).
const ENDPOINT: &[Field] = &[
    Field::new("Name", String, 0),
    Field::new("Host", String, 0),
    Field::new("Port", Uint16, 0),
    Field::new("SecurityProtocol", Int16, 0),
];

/// `Name`, `MinSupportedVersion`, `MaxSupportedVersion` (BrokerFeature, ControllerFeature).
const FEATURE_RANGE: &[Field] = &[
    Field::new("Name", String, 0),
    Field::new("MinSupportedVersion", Int16, 0),
    Field::new("MaxSupportedVersion", Int16, 0),
];

/// The metadata record types by apiKey.
pub const METADATA: &[(u16, Schema)] = &[
    // RegisterBrokerRecord.json
    (
        0,
        Schema {
            name: "RegisterBrokerRecord",
            versions: (0, 4),
            fields: &[
                Field::new("BrokerId", Int32, 0),
                Field::new("IsMigratingZkBroker", Bool, 2),
                Field::new("IncarnationId", Uuid, 0),
                Field::new("BrokerEpoch", Int64, 0),
                Field::new("EndPoints", Array(&Struct(ENDPOINT)), 0),
                Field::new("Features", Array(&Struct(FEATURE_RANGE)), 0),
                Field::new("Rack", String, 0).nullable(0),
                Field::new("Fenced", Bool, 0).default(True),
                Field::new("InControlledShutdown", Bool, 1),
                Field::new("LogDirs", UUIDS, 3).tagged(0),
                Field::new("CordonedLogDirs", UUIDS, 4).nullable(4).tagged(1).default(Null),
            ],
        },
    ),
    // UnregisterBrokerRecord.json
    (
        1,
        Schema {
            name: "UnregisterBrokerRecord",
            versions: (0, 0),
            fields: &[Field::new("BrokerId", Int32, 0), Field::new("BrokerEpoch", Int64, 0)],
        },
    ),
    // TopicRecord.json
    (
        2,
        Schema {
            name: "TopicRecord",
            versions: (0, 0),
            fields: &[Field::new("Name", String, 0), Field::new("TopicId", Uuid, 0)],
        },
    ),
    // PartitionRecord.json
    (
        3,
        Schema {
            name: "PartitionRecord",
            versions: (0, 2),
            fields: &[
                Field::new("PartitionId", Int32, 0).default(Int(-1)),
                Field::new("TopicId", Uuid, 0),
                Field::new("Replicas", INT32S, 0),
                Field::new("Isr", INT32S, 0),
                Field::new("RemovingReplicas", INT32S, 0),
                Field::new("AddingReplicas", INT32S, 0),
                Field::new("Leader", Int32, 0).default(Int(-1)),
                Field::new("LeaderRecoveryState", Int8, 0).tagged(0),
                Field::new("LeaderEpoch", Int32, 0).default(Int(-1)),
                Field::new("PartitionEpoch", Int32, 0).default(Int(-1)),
                Field::new("Directories", UUIDS, 1),
                Field::new("EligibleLeaderReplicas", INT32S, 2).nullable(2).tagged(1).default(Null),
                Field::new("LastKnownElr", INT32S, 2).nullable(2).tagged(2).default(Null),
            ],
        },
    ),
    // ConfigRecord.json
    (
        4,
        Schema {
            name: "ConfigRecord",
            versions: (0, 0),
            fields: &[
                Field::new("ResourceType", Int8, 0),
                Field::new("ResourceName", String, 0),
                Field::new("Name", String, 0),
                Field::new("Value", String, 0).nullable(0),
            ],
        },
    ),
    // PartitionChangeRecord.json
    (
        5,
        Schema {
            name: "PartitionChangeRecord",
            versions: (0, 2),
            fields: &[
                Field::new("PartitionId", Int32, 0).default(Int(-1)),
                Field::new("TopicId", Uuid, 0),
                Field::new("Isr", INT32S, 0).nullable(0).tagged(0).default(Null),
                Field::new("Leader", Int32, 0).tagged(1).default(Int(-2)),
                Field::new("Replicas", INT32S, 0).nullable(0).tagged(2).default(Null),
                Field::new("RemovingReplicas", INT32S, 0).nullable(0).tagged(3).default(Null),
                Field::new("AddingReplicas", INT32S, 0).nullable(0).tagged(4).default(Null),
                Field::new("LeaderRecoveryState", Int8, 0).tagged(5).default(Int(-1)),
                Field::new("Directories", UUIDS, 1).nullable(1).tagged(8).default(Null),
                Field::new("EligibleLeaderReplicas", INT32S, 2).nullable(2).tagged(6).default(Null),
                Field::new("LastKnownElr", INT32S, 2).nullable(2).tagged(7).default(Null),
            ],
        },
    ),
    // FenceBrokerRecord.json
    (
        7,
        Schema {
            name: "FenceBrokerRecord",
            versions: (0, 0),
            fields: &[Field::new("Id", Int32, 0), Field::new("Epoch", Int64, 0)],
        },
    ),
    // UnfenceBrokerRecord.json
    (
        8,
        Schema {
            name: "UnfenceBrokerRecord",
            versions: (0, 0),
            fields: &[Field::new("Id", Int32, 0), Field::new("Epoch", Int64, 0)],
        },
    ),
    // RemoveTopicRecord.json
    (9, Schema { name: "RemoveTopicRecord", versions: (0, 0), fields: &[Field::new("TopicId", Uuid, 0)] }),
    // DelegationTokenRecord.json
    (
        10,
        Schema {
            name: "DelegationTokenRecord",
            versions: (0, 0),
            fields: &[
                Field::new("Owner", String, 0),
                Field::new("Requester", String, 0),
                Field::new("Renewers", STRINGS, 0),
                Field::new("IssueTimestamp", Int64, 0),
                Field::new("MaxTimestamp", Int64, 0),
                Field::new("ExpirationTimestamp", Int64, 0),
                Field::new("TokenId", String, 0),
            ],
        },
    ),
    // UserScramCredentialRecord.json
    (
        11,
        Schema {
            name: "UserScramCredentialRecord",
            versions: (0, 0),
            fields: &[
                Field::new("Name", String, 0),
                Field::new("Mechanism", Int8, 0),
                Field::new("Salt", Bytes, 0),
                Field::new("StoredKey", Bytes, 0),
                Field::new("ServerKey", Bytes, 0),
                Field::new("Iterations", Int32, 0),
            ],
        },
    ),
    // FeatureLevelRecord.json
    (
        12,
        Schema {
            name: "FeatureLevelRecord",
            versions: (0, 0),
            fields: &[Field::new("Name", String, 0), Field::new("FeatureLevel", Int16, 0)],
        },
    ),
    // ClientQuotaRecord.json
    (
        14,
        Schema {
            name: "ClientQuotaRecord",
            versions: (0, 0),
            fields: &[
                Field::new(
                    "Entity",
                    Array(&Struct(&[
                        Field::new("EntityType", String, 0),
                        Field::new("EntityName", String, 0).nullable(0),
                    ])),
                    0,
                ),
                Field::new("Key", String, 0),
                Field::new("Value", Float64, 0),
                Field::new("Remove", Bool, 0),
            ],
        },
    ),
    // ProducerIdsRecord.json
    (
        15,
        Schema {
            name: "ProducerIdsRecord",
            versions: (0, 0),
            fields: &[
                Field::new("BrokerId", Int32, 0),
                Field::new("BrokerEpoch", Int64, 0).default(Int(-1)),
                Field::new("NextProducerId", Int64, 0),
            ],
        },
    ),
    // BrokerRegistrationChangeRecord.json
    (
        17,
        Schema {
            name: "BrokerRegistrationChangeRecord",
            versions: (0, 3),
            fields: &[
                Field::new("BrokerId", Int32, 0),
                Field::new("BrokerEpoch", Int64, 0),
                Field::new("Fenced", Int8, 0).tagged(0),
                Field::new("InControlledShutdown", Int8, 1).tagged(1),
                Field::new("LogDirs", UUIDS, 2).tagged(2),
                Field::new("CordonedLogDirs", UUIDS, 3).nullable(3).tagged(3).default(Null),
            ],
        },
    ),
    // AccessControlEntryRecord.json
    (
        18,
        Schema {
            name: "AccessControlEntryRecord",
            versions: (0, 0),
            fields: &[
                Field::new("Id", Uuid, 0),
                Field::new("ResourceType", Int8, 0),
                Field::new("ResourceName", String, 0),
                Field::new("PatternType", Int8, 0),
                Field::new("Principal", String, 0),
                Field::new("Host", String, 0),
                Field::new("Operation", Int8, 0),
                Field::new("PermissionType", Int8, 0),
            ],
        },
    ),
    // RemoveAccessControlEntryRecord.json
    (
        19,
        Schema {
            name: "RemoveAccessControlEntryRecord",
            versions: (0, 0),
            fields: &[Field::new("Id", Uuid, 0)],
        },
    ),
    // NoOpRecord.json
    (20, Schema { name: "NoOpRecord", versions: (0, 0), fields: &[] }),
    // ZkMigrationRecord.json
    (
        21,
        Schema {
            name: "ZkMigrationStateRecord",
            versions: (0, 0),
            fields: &[Field::new("ZkMigrationState", Int8, 0)],
        },
    ),
    // RemoveUserScramCredentialRecord.json
    (
        22,
        Schema {
            name: "RemoveUserScramCredentialRecord",
            versions: (0, 0),
            fields: &[Field::new("Name", String, 0), Field::new("Mechanism", Int8, 0)],
        },
    ),
    // BeginTransactionRecord.json
    (
        23,
        Schema {
            name: "BeginTransactionRecord",
            versions: (0, 0),
            fields: &[Field::new("Name", String, 0).nullable(0).tagged(0).default(Null)],
        },
    ),
    // EndTransactionRecord.json
    (24, Schema { name: "EndTransactionRecord", versions: (0, 0), fields: &[] }),
    // AbortTransactionRecord.json
    (
        25,
        Schema {
            name: "AbortTransactionRecord",
            versions: (0, 0),
            fields: &[Field::new("Reason", String, 0).nullable(0).tagged(0).default(Null)],
        },
    ),
    // RemoveDelegationTokenRecord.json
    (
        26,
        Schema {
            name: "RemoveDelegationTokenRecord",
            versions: (0, 0),
            fields: &[Field::new("TokenId", String, 0)],
        },
    ),
    // RegisterControllerRecord.json
    (
        27,
        Schema {
            name: "RegisterControllerRecord",
            versions: (0, 0),
            fields: &[
                Field::new("ControllerId", Int32, 0),
                Field::new("IncarnationId", Uuid, 0),
                Field::new("ZkMigrationReady", Bool, 0),
                Field::new("EndPoints", Array(&Struct(ENDPOINT)), 0),
                Field::new("Features", Array(&Struct(FEATURE_RANGE)), 0),
            ],
        },
    ),
    // ClearElrRecord.json
    (28, Schema { name: "ClearElrRecord", versions: (0, 0), fields: &[Field::new("TopicName", String, 0)] }),
];

/// The schema of metadata record type `api_key`.
pub(crate) fn metadata(api_key: u16) -> Option<&'static Schema> {
    METADATA.iter().find(|(key, _)| *key == api_key).map(|(_, schema)| schema)
}

/// LeaderChangeMessage.json (control record type 2).
pub const LEADER_CHANGE: Schema = Schema {
    name: "LeaderChange",
    versions: (0, 1),
    fields: &[
        Field::new("Version", Int16, 0),
        Field::new("LeaderId", Int32, 0),
        Field::new("Voters", Array(&Struct(VOTER)), 0),
        Field::new("GrantingVoters", Array(&Struct(VOTER)), 0),
    ],
};

/// LeaderChangeMessage.json's common struct `Voter`.
const VOTER: &[Field] = &[Field::new("VoterId", Int32, 0), Field::new("VoterDirectoryId", Uuid, 1)];

/// SnapshotHeaderRecord.json (control record type 3).
pub const SNAPSHOT_HEADER: Schema = Schema {
    name: "SnapshotHeader",
    versions: (0, 0),
    fields: &[Field::new("Version", Int16, 0), Field::new("LastContainedLogTimestamp", Int64, 0)],
};

/// SnapshotFooterRecord.json (control record type 4).
pub const SNAPSHOT_FOOTER: Schema =
    Schema { name: "SnapshotFooter", versions: (0, 0), fields: &[Field::new("Version", Int16, 0)] };

/// KRaftVersionRecord.json (control record type 5).
pub const KRAFT_VERSION: Schema = Schema {
    name: "KRaftVersion",
    versions: (0, 0),
    fields: &[Field::new("Version", Int16, 0), Field::new("KRaftVersion", Int16, 0)],
};

/// VotersRecord.json (control record type 6).
pub const KRAFT_VOTERS: Schema = Schema {
    name: "KRaftVoters",
    versions: (0, 0),
    fields: &[
        Field::new("Version", Int16, 0),
        Field::new(
            "Voters",
            Array(&Struct(&[
                Field::new("VoterId", Int32, 0),
                Field::new("VoterDirectoryId", Uuid, 0),
                Field::new(
                    "Endpoints",
                    Array(&Struct(&[
                        Field::new("Name", String, 0),
                        Field::new("Host", String, 0),
                        Field::new("Port", Uint16, 0),
                    ])),
                    0,
                ),
                Field::new(
                    "KRaftVersionFeature",
                    Struct(&[
                        Field::new("MinSupportedVersion", Int16, 0),
                        Field::new("MaxSupportedVersion", Int16, 0),
                    ]),
                    0,
                ),
            ])),
            0,
        ),
    ],
};

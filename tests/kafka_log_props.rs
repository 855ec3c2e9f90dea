//! Property tests of the Kafka file format: every metadata record type and version, and every
//! control record, encodes and decodes to the same value; generated simulation logs survive
//! write-then-read unchanged; mutated and random files never panic and every problem names its
//! file and byte. Cases per property come from KRAFTSCOPE_FUZZ_CASES (256 by default), drawn
//! from KRAFTSCOPE_FUZZ_SEED (1 by default, so a run repeats exactly); the full run is
//! `KRAFTSCOPE_FUZZ_CASES=100000 cargo test --release --test suite kafka_log_props::`.

use crate::common;
use crate::fuzz;

use fuzz::config;
use std::sync::{Arc, OnceLock};

use proptest::prelude::*;

use kraftscope::kafka_log::inspect::Inspection;
use kraftscope::kafka_log::payload::{ControlType, Payload};
use kraftscope::kafka_log::reader::read_all;
use kraftscope::kafka_log::schema::{Field, Type};
use kraftscope::kafka_log::schemas::METADATA;
use kraftscope::kafka_log::simulation::simulation_records;
use kraftscope::kafka_log::value::Value;
use kraftscope::kafka_log::writer::{log_payload, put_batch};
use kraftscope::metadata::acl::{AclEntry, AclOperation, AclPermission, AclResource};
use kraftscope::metadata::record::{
    ConfigRecord, FIRST_BROKER_ID, LAST_BROKER_ID, MAX_COMBINED_ID, MetadataRecord, PartitionChangeRecord,
    PartitionRecord, Replicas, broker_set,
};
use kraftscope::metadata::state::MetadataEntry;
use kraftscope::quorum::record::{LeaderChange, Record};
use kraftscope::quorum::voters::{ReplicaKey, VoterSet};

fn value_of(ty: Type, nullable: bool, version: u16) -> BoxedStrategy<Value> {
    match ty {
        Type::Bool => any::<bool>().prop_map(Value::Bool).boxed(),
        Type::Int8 => any::<i8>().prop_map(Value::Int8).boxed(),
        Type::Int16 => any::<i16>().prop_map(Value::Int16).boxed(),
        Type::Uint16 => any::<u16>().prop_map(Value::Uint16).boxed(),
        Type::Int32 => any::<i32>().prop_map(Value::Int32).boxed(),
        Type::Int64 => any::<i64>().prop_map(Value::Int64).boxed(),
        Type::Float64 => (-1e12f64..1e12).prop_map(Value::Float64).boxed(),
        Type::Uuid => any::<[u8; 16]>().prop_map(Value::Uuid).boxed(),
        Type::String => {
            let text = "[a-zA-Z0-9._é-]{0,12}";
            if nullable {
                prop::option::of(text).prop_map(|s| Value::String(s.map(Into::into))).boxed()
            } else {
                text.prop_map(|s| Value::String(Some(s.into()))).boxed()
            }
        }
        Type::Bytes => {
            let bytes = prop::collection::vec(any::<u8>(), 0..8);
            if nullable {
                prop::option::of(bytes).prop_map(|b| Value::Bytes(b.map(Into::into))).boxed()
            } else {
                bytes.prop_map(|b| Value::Bytes(Some(b.into()))).boxed()
            }
        }
        Type::Array(element) => {
            let items = prop::collection::vec(value_of(*element, false, version), 0..4);
            if nullable {
                prop::option::of(items).prop_map(|v| Value::Array(v.map(Into::into))).boxed()
            } else {
                items.prop_map(|v| Value::Array(Some(v.into()))).boxed()
            }
        }
        Type::Struct(fields) => struct_of(fields, version),
    }
}

fn struct_of(fields: &'static [Field], version: u16) -> BoxedStrategy<Value> {
    let parts: Vec<BoxedStrategy<(&'static str, Value)>> = fields
        .iter()
        .filter(|f| f.in_version(version))
        .map(|f| value_of(f.ty, f.nullable_in(version), version).prop_map(move |v| (f.name, v)).boxed())
        .collect();
    parts.prop_map(|fields| Value::Struct(fields.into())).boxed()
}

/// Any metadata record of any type and version Kafka 4.3.1 defines, or any control record.
fn any_payload() -> BoxedStrategy<Payload> {
    let metadata = (0..METADATA.len())
        .prop_flat_map(|i| {
            let (api_key, schema) = METADATA[i];
            (schema.versions.0..=schema.versions.1).prop_flat_map(move |version| {
                struct_of(schema.fields, version).prop_map(move |value| Payload::Metadata {
                    api_key,
                    version,
                    value,
                })
            })
        })
        .boxed();
    let kinds = [
        ControlType::LeaderChange,
        ControlType::SnapshotHeader,
        ControlType::SnapshotFooter,
        ControlType::KRaftVersion,
        ControlType::KRaftVoters,
    ];
    let control = prop::sample::select(kinds.to_vec())
        .prop_flat_map(|kind| {
            struct_of(kind.schema().fields, 0).prop_map(move |value| Payload::Control { kind, value })
        })
        .boxed();
    prop_oneof![3 => metadata, 1 => control].boxed()
}

proptest! {
    #![proptest_config(config(4))]

    #[test]
    fn every_record_type_and_version_reads_back_as_written(payloads in prop::collection::vec(any_payload(), 1..6), epoch in 0i32..1000, base in 0i64..1_000_000) {
        // One batch per record: control and metadata records never share a batch.
        let mut bytes = Vec::new();
        for (i, payload) in payloads.iter().enumerate() {
            put_batch(&mut bytes, base + i as i64, epoch, 1_700_000_000_000, std::slice::from_ref(payload));
        }
        let read = read_all("props.log", &bytes);
        prop_assert!(read.problems.is_empty(), "{:?}", read.problems);
        let decoded: Vec<Payload> = read.entries.iter().map(|e| e.payload.clone()).collect();
        prop_assert_eq!(decoded, payloads);
        for (i, entry) in read.entries.iter().enumerate() {
            prop_assert_eq!((entry.offset, entry.epoch), (base + i as i64, epoch));
        }
    }
}

fn broker() -> impl Strategy<Value = u32> + Clone {
    prop_oneof![1u32..=MAX_COMBINED_ID, FIRST_BROKER_ID..=LAST_BROKER_ID]
}

fn simulation_record() -> impl Strategy<Value = MetadataRecord> {
    let epoch = 0u64..1 << 40;
    let name = "[a-z][a-z0-9._-]{0,11}";
    let ids = prop::collection::vec(broker(), 0..5);
    prop_oneof![
        (broker(), epoch.clone(), any::<u64>(), any::<(bool, bool)>()).prop_map(
            |(broker_id, broker_epoch, incarnation, (fenced, in_controlled_shutdown))| {
                MetadataRecord::RegisterBroker {
                    broker_id,
                    broker_epoch,
                    incarnation,
                    fenced,
                    in_controlled_shutdown,
                }
            }
        ),
        (broker(), epoch.clone()).prop_map(|(broker_id, broker_epoch)| MetadataRecord::UnregisterBroker {
            broker_id,
            broker_epoch
        }),
        (broker(), epoch.clone())
            .prop_map(|(broker_id, broker_epoch)| MetadataRecord::FenceBroker { broker_id, broker_epoch }),
        (broker(), epoch.clone())
            .prop_map(|(broker_id, broker_epoch)| MetadataRecord::UnfenceBroker { broker_id, broker_epoch }),
        (name, any::<u32>())
            .prop_map(|(name, topic_id)| MetadataRecord::Topic { name: name.into(), topic_id }),
        (
            any::<u32>(),
            0u32..1 << 31,
            prop::collection::vec(broker(), 0..=Replicas::MAX),
            ids.clone(),
            prop_oneof![Just(-1), broker().prop_map(|b| b as i32)],
            0u32..1 << 31,
            0u32..1 << 31
        )
            .prop_map(
                |(topic_id, partition, replicas, isr, leader, leader_epoch, partition_epoch)| {
                    MetadataRecord::Partition(PartitionRecord {
                        topic_id,
                        partition,
                        replicas: Replicas::new(&replicas),
                        isr: broker_set(isr),
                        leader,
                        leader_epoch,
                        partition_epoch,
                    })
                }
            ),
        (prop::sample::select(vec!["cluster", "broker:101", "events"]), name, "[ -~]{0,16}").prop_map(
            |(resource, name, value)| {
                MetadataRecord::Config(Arc::new(ConfigRecord { resource: resource.into(), name, value }))
            }
        ),
        (
            any::<u32>(),
            0u32..1 << 31,
            prop_oneof![Just(-2), Just(-1), broker().prop_map(|b| b as i32)],
            (prop::option::of(ids.clone()), prop::option::of(ids.clone()), prop::option::of(ids))
        )
            .prop_map(|(topic_id, partition, leader, (isr, elr, last_known_elr))| {
                MetadataRecord::PartitionChange(PartitionChangeRecord {
                    topic_id,
                    partition,
                    leader,
                    isr: isr.map(broker_set),
                    elr: elr.map(broker_set),
                    last_known_elr: last_known_elr.map(broker_set),
                })
            }),
        any::<u32>().prop_map(|topic_id| MetadataRecord::RemoveTopic { topic_id }),
        // A removal maps back only after its entry (the mapper skips ACLs it does not model).
        (
            any::<u64>(),
            "User:[a-z*]{1,8}",
            prop::option::of("[a-z]{1,12}"),
            prop::sample::select(AclOperation::ALL.to_vec()),
            any::<bool>()
        )
            .prop_map(|(id, principal, topic, operation, allow)| {
                let resource = topic.map_or(AclResource::Cluster, |t| AclResource::Topic(t.into()));
                let permission = if allow { AclPermission::Allow } else { AclPermission::Deny };
                let acl = Arc::new(AclEntry { principal: principal.into(), resource, operation, permission });
                MetadataRecord::AccessControlEntry { id, acl }
            }),
        (name, 0u16..=i16::MAX as u16)
            .prop_map(|(name, level)| MetadataRecord::FeatureLevel { name: name.into(), level }),
        // Kafka can say a broker entered controlled shutdown, not that it left it.
        (broker(), epoch, prop::option::of(any::<bool>()), prop::option::of(Just(true))).prop_map(
            |(broker_id, broker_epoch, fenced, in_controlled_shutdown)| {
                MetadataRecord::BrokerRegistrationChange {
                    broker_id,
                    broker_epoch,
                    fenced,
                    in_controlled_shutdown,
                }
            }
        ),
        Just(MetadataRecord::NoOp),
    ]
}

/// A log of simulation records, LeaderChanges and KRaftVersion + Voters control batches, cut
/// into batches.
fn simulation_log() -> impl Strategy<Value = Vec<Vec<Record<MetadataEntry>>>> {
    let leader_change = (1u32..6, prop::collection::vec(1u32..6, 1..4)).prop_map(|(leader, voters)| {
        vec![Record::LeaderChange(Arc::new(LeaderChange {
            leader,
            voters: voters.clone().into(),
            granting: voters[..1].into(),
        }))]
    });
    let key = (1u32..9, prop::option::of(1u64..u64::MAX)).prop_map(|(id, dir)| ReplicaKey { id, dir });
    let voters = prop::collection::vec(key, 1..6)
        .prop_map(|keys| vec![Record::KRaftVersion(1), Record::Voters(Arc::new(VoterSet::new(keys)))]);
    let data =
        prop::collection::vec(simulation_record().prop_map(|r| Record::Data(MetadataEntry::from(r))), 1..8);
    prop::collection::vec(prop_oneof![1 => leader_change, 1 => voters, 4 => data], 1..12)
}

proptest! {
    #![proptest_config(config(4))]

    #[test]
    fn simulation_logs_read_back_as_written(batches in simulation_log()) {
        let mut bytes = Vec::new();
        let mut offset = 0i64;
        for (epoch, batch) in batches.iter().enumerate() {
            let payloads: Vec<Payload> = batch.iter().map(log_payload).collect();
            put_batch(&mut bytes, offset, epoch as i32, 0, &payloads);
            offset += payloads.len() as i64;
        }
        let read = read_all("sim.log", &bytes);
        prop_assert!(read.problems.is_empty(), "{:?}", read.problems);
        let expected: Vec<Record<MetadataEntry>> = batches.into_iter().flatten().collect();
        prop_assert_eq!(simulation_records(&read.entries).unwrap(), expected);
    }
}

/// Valid files to mutate: a real segment's first batches and the real bootstrap snapshot (where
/// `../shared` is beside the project), and a written log with every record type.
fn seeds() -> &'static [(String, Vec<u8>)] {
    static SEEDS: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let mut seeds = Vec::new();
        if let Some(path) = common::real("ldi-poc/__cluster_metadata-0/00000000000000000000.log") {
            let real = std::fs::read(path).unwrap();
            let cut = read_all("real.log", &real).batches[60].position;
            seeds.push(("00000000000000000000.log".to_string(), real[..cut].to_vec()));
        }
        if let Some(path) = common::real("ldi-poc/bootstrap.checkpoint") {
            seeds.push(("bootstrap.checkpoint".to_string(), std::fs::read(path).unwrap()));
        }
        let mut written = Vec::new();
        for (i, (api_key, schema)) in METADATA.iter().enumerate() {
            let value = Value::defaults(schema.fields, schema.versions.1);
            put_batch(
                &mut written,
                i as i64,
                3,
                0,
                &[Payload::Metadata { api_key: *api_key, version: schema.versions.1, value }],
            );
        }
        seeds.push(("00000000000000000000.log".to_string(), written));
        seeds
    })
}

#[derive(Clone, Debug)]
enum Mutation {
    Flip {
        at: usize,
        mask: u8,
    },
    Truncate {
        at: usize,
    },
    Delete {
        at: usize,
        len: usize,
    },
    /// Overwrite four bytes with a big-endian integer (lengths, counts, offsets).
    Int {
        at: usize,
        value: i32,
    },
    /// Copy a run of bytes from elsewhere in the file.
    Splice {
        at: usize,
        from: usize,
        len: usize,
    },
}

fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    let one = prop_oneof![
        (any::<usize>(), 1u8..=255).prop_map(|(at, mask)| Mutation::Flip { at, mask }),
        any::<usize>().prop_map(|at| Mutation::Truncate { at }),
        (any::<usize>(), 1usize..24).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (any::<usize>(), prop_oneof![any::<i32>(), -2i32..70, Just(i32::MAX), Just(i32::MIN)])
            .prop_map(|(at, value)| Mutation::Int { at, value }),
        (any::<usize>(), any::<usize>(), 1usize..64).prop_map(|(at, from, len)| Mutation::Splice {
            at,
            from,
            len
        }),
    ];
    prop::collection::vec(one, 1..4)
}

fn mutate(mut bytes: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for m in mutations {
        if bytes.is_empty() {
            break;
        }
        let n = bytes.len();
        match *m {
            Mutation::Flip { at, mask } => bytes[at % n] ^= mask,
            Mutation::Truncate { at } => bytes.truncate(at % n),
            Mutation::Delete { at, len } => {
                let at = at % n;
                bytes.drain(at..(at + len).min(n));
            }
            Mutation::Int { at, value } => {
                let at = at % n;
                for (i, b) in value.to_be_bytes().iter().enumerate() {
                    if let Some(slot) = bytes.get_mut(at + i) {
                        *slot = *b;
                    }
                }
            }
            Mutation::Splice { at, from, len } => {
                let from = from % n;
                let run: Vec<u8> = bytes[from..(from + len).min(n)].to_vec();
                let at = at % n;
                bytes.splice(at..at, run);
            }
        }
    }
    bytes
}

fn check_never_panics(name: &str, bytes: &[u8]) -> Result<(), TestCaseError> {
    let inspection = Inspection::of(&[(name.to_string(), bytes.to_vec())]);
    for problem in inspection.problems.iter().chain(&inspection.crc_failures) {
        prop_assert!(problem.starts_with(&format!("{name}: byte ")), "{problem}");
    }
    let read = read_all(name, bytes);
    for (error, _) in &read.problems {
        prop_assert!(error.position <= bytes.len(), "{error}");
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(1))]

    #[test]
    fn mutated_files_never_panic_and_name_the_byte(seed in 0usize..3, mutations in mutations()) {
        let (name, bytes) = &seeds()[seed % seeds().len()];
        let mutated = mutate(bytes.clone(), &mutations);
        check_never_panics(name, &mutated)?;
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400), snapshot in any::<bool>()) {
        let name = if snapshot { "00000000000000000007-0000000002.checkpoint" } else { "00000000000000000000.log" };
        check_never_panics(name, &bytes)?;
    }
}

/// Valid node files to mutate, as the writer writes them: a quorum-state of each data version,
/// a meta.properties and a leader-epoch-checkpoint.
const NODE_FILES: [(&str, &str); 5] = [
    (
        "quorum-state",
        r#"{"clusterId":"","leaderId":1,"leaderEpoch":2,"votedId":-1,"appliedOffset":0,"currentVoters":[{"voterId":1},{"voterId":2}],"data_version":0}"#,
    ),
    (
        "quorum-state",
        r#"{"leaderId":-1,"leaderEpoch":7,"votedId":3,"votedDirectoryId":"J8aAPcfLQt2bqs1JT_rMgQ","data_version":1}"#,
    ),
    (
        "meta.properties",
        "#\n#Tue Jan 01 00:00:00 UTC 2026\nnode.id=1\ndirectory.id=J8aAPcfLQt2bqs1JT_rMgQ\nversion=1\ncluster.id=a3JhZnRzY29wZSBzaW0AAA\n",
    ),
    ("leader-epoch-checkpoint", "0\n3\n1 0\n2 13\n5 120\n"),
    ("leader-epoch-checkpoint", "0\n0\n"),
];

/// Read `bytes` as the node file `name`: it reads, or its error names a byte within the file.
fn check_node_file(name: &str, bytes: &[u8]) -> Result<(), TestCaseError> {
    use kraftscope::kafka_log::node_files::{leader_epoch_checkpoint, meta_properties, quorum_state};
    let error = match name {
        "quorum-state" => quorum_state(bytes).err(),
        "meta.properties" => meta_properties(bytes).err(),
        _ => leader_epoch_checkpoint(bytes).err(),
    };
    if let Some(error) = error {
        prop_assert!(
            error.byte <= bytes.len().max(kraftscope::kafka_log::node_files::MAX_SMALL_FILE),
            "{name}: {error}"
        );
        prop_assert!(!error.what.is_empty());
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(1))]

    #[test]
    fn mutated_node_files_read_or_name_the_byte(seed in 0usize..5, mutations in mutations()) {
        let (name, text) = NODE_FILES[seed];
        check_node_file(name, &mutate(text.as_bytes().to_vec(), &mutations))?;
    }

    #[test]
    fn random_bytes_as_node_files_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300), seed in 0usize..5) {
        check_node_file(NODE_FILES[seed].0, &bytes)?;
    }
}

#[test]
fn the_valid_node_files_read() {
    use kraftscope::kafka_log::node_files::{leader_epoch_checkpoint, meta_properties, quorum_state};
    let v0 = quorum_state(NODE_FILES[0].1.as_bytes()).unwrap();
    assert_eq!((v0.data_version, v0.leader_id, v0.leader_epoch, v0.voted_id), (0, Some(1), 2, None));
    assert_eq!(v0.current_voters, Some(vec![1, 2]));
    let v1 = quorum_state(NODE_FILES[1].1.as_bytes()).unwrap();
    assert_eq!((v1.leader_id, v1.leader_epoch, v1.voted_id), (None, 7, Some(3)));
    assert_eq!(v1.voted_directory_id.as_deref(), Some("J8aAPcfLQt2bqs1JT_rMgQ"));
    let meta = meta_properties(NODE_FILES[2].1.as_bytes()).unwrap();
    assert_eq!((meta.version, meta.node_id), (1, Some(1)));
    assert_eq!(meta.directory_id.as_deref(), Some("J8aAPcfLQt2bqs1JT_rMgQ"));
    assert_eq!(leader_epoch_checkpoint(NODE_FILES[3].1.as_bytes()).unwrap().len(), 3);
    assert!(leader_epoch_checkpoint(NODE_FILES[4].1.as_bytes()).unwrap().is_empty());
}

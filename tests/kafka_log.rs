//! Kafka's on-disk format: real files read as an independent reader reads them, the writer's
//! files read back as the records and image they came from, and bad files rejected with the
//! file, byte position and batch named.

use std::process::Command;

use kraftscope::harness::MS;
use kraftscope::kafka_log::inspect::Inspection;
use kraftscope::kafka_log::reader::read_all;
use kraftscope::kafka_log::simulation::simulation_records;
use kraftscope::kafka_log::writer::{self, KafkaFile};
use kraftscope::metadata::acl::{AclEntry, AclOperation, AclPermission, AclResource, SUPER_USER};
use kraftscope::metadata::image::MetadataImage;
use kraftscope::metadata::state::MetadataEntry;
use kraftscope::quorum::record::Record;
use kraftscope::sim::{ClusterConfig, Simulation};
use kraftscope::util::small_map::SmallMap;

use crate::common;

/// A real one-node log (`../shared/fixtures/kafka/`) and its bootstrap snapshot.
const REAL_LOG: &str = "ldi-poc/__cluster_metadata-0/00000000000000000000.log";
const REAL_SNAPSHOT: &str = "ldi-poc/bootstrap.checkpoint";

fn fixture(path: &str) -> (String, Vec<u8>) {
    (path.to_string(), std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}")))
}

/// What `read_kafka_log.py` says about `path`.
fn independent_reading(path: &str) -> serde_json::Value {
    let output = Command::new("python3")
        .arg("tests/fixtures/kafka/read_kafka_log.py")
        .arg(path)
        .output()
        .expect("python3 runs the independent reader");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("the reader prints JSON")
}

fn check_against_independent_reader(path: &str) -> Inspection {
    let expected = independent_reading(path);
    let inspection = Inspection::of(&[fixture(path)]);
    let file = &inspection.files[0];
    assert_eq!(file.batches, expected["batches"].as_u64().unwrap(), "batches of {path}");
    assert_eq!(file.records, expected["records"].as_u64().unwrap(), "records of {path}");
    assert_eq!(file.first_offset, expected["first_offset"].as_i64(), "first offset of {path}");
    assert_eq!(file.last_offset, expected["last_offset"].as_i64(), "last offset of {path}");
    assert_eq!(inspection.crc_failures.len() as u64, expected["crc_failures"].as_u64().unwrap());
    let counts: SmallMap<String, u64> = expected["record_types"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, count)| (name.clone(), count.as_u64().unwrap()))
        .collect();
    assert_eq!(inspection.record_types, counts, "record types of {path}");
    assert!(inspection.problems.is_empty(), "{:?}", inspection.problems);
    inspection
}

#[test]
fn a_real_segment_reads_as_the_independent_reader_reads_it() {
    let Some(log) = common::real(REAL_LOG) else { return };
    let inspection = check_against_independent_reader(&log);
    let expected = independent_reading(&log);
    let mut topics: Vec<&str> =
        expected["topics"].as_array().unwrap().iter().map(|t| t.as_str().unwrap()).collect();
    topics.sort();
    let mut names: Vec<&str> = inspection.image.topics.values().map(|t| t.name.as_str()).collect();
    names.sort();
    assert_eq!(names, topics, "the image holds every topic the log created (none was removed)");
    assert_eq!(inspection.image.partition_count() as u64, inspection.record_types["PartitionRecord"]);
    let brokers: Vec<i32> = inspection.image.brokers.keys().copied().collect();
    assert_eq!(brokers, [1]);
    assert_eq!(inspection.image.metadata_version(), Some(19));
    assert_eq!(inspection.epochs.len(), 1);
    assert_eq!(
        (inspection.leader_changes[0].leader, inspection.leader_changes[0].voters.clone()),
        (1, vec![1])
    );
    assert_eq!(inspection.replay_problem_count, 0, "{:?}", inspection.replay_problems);
}

#[test]
fn a_real_bootstrap_snapshot_reads_as_the_independent_reader_reads_it() {
    let Some(snapshot) = common::real(REAL_SNAPSHOT) else { return };
    let inspection = check_against_independent_reader(&snapshot);
    assert_eq!(inspection.image.metadata_version(), Some(19));
}

/// A cluster with topics, a config, ACLs, a controlled shutdown, a deletion by an ACL, a leader failover and
/// snapshots, run long enough to commit it all.
fn busy_cluster() -> Simulation {
    let mut config = ClusterConfig { voters: 3, observers: 2, ..ClusterConfig::default() };
    config.quorum.max_record_bytes_between_snapshots = 3000;
    let mut sim = Simulation::new(config, 7);
    sim.run_until(6000 * MS);
    sim.create_topic("events", 40, 2).unwrap();
    sim.create_topic("scratch", 3, 2).unwrap();
    sim.alter_config("cluster", "min.insync.replicas", "2").unwrap();
    let acl = |principal: &str, operation, permission| AclEntry {
        principal: principal.into(),
        resource: AclResource::Topic("scratch".into()),
        operation,
        permission,
    };
    sim.create_acl(SUPER_USER, acl("User:alice", AclOperation::Delete, AclPermission::Allow)).unwrap();
    sim.create_acl(SUPER_USER, acl("User:*", AclOperation::Alter, AclPermission::Deny)).unwrap();
    sim.run_until(7000 * MS);
    sim.delete_topic("User:alice", "scratch").unwrap();
    let leader = sim.leader().unwrap().id();
    sim.crash(leader).unwrap();
    let mut t = 9000 * MS;
    while sim.leader().is_none_or(|n| n.id() == leader) {
        sim.run_until(t);
        t += 500 * MS;
        assert!(t < 30_000 * MS, "no new leader");
    }
    sim.create_topic("orders", 20, 2).unwrap();
    sim.run_until(t + 2000 * MS);
    sim.shut_down_broker(102).unwrap();
    sim.run_until(t + 4000 * MS);
    sim
}

fn records_of(file: &KafkaFile) -> Vec<Record<MetadataEntry>> {
    let collected = read_all(&file.name, &file.bytes);
    assert!(collected.problems.is_empty(), "{:?}", collected.problems);
    simulation_records(&collected.entries).unwrap()
}

#[test]
fn the_writers_files_read_back_as_the_same_records_and_image() {
    let sim = busy_cluster();
    let node = sim.leader().expect("a leader");
    let log = node.log();
    let committed = node.high_watermark().unwrap();
    let files = writer::directory(log, committed);
    assert!(
        files.len() >= 2,
        "the run took a snapshot: {:?}",
        files.iter().map(|f| &f.name).collect::<Vec<_>>()
    );

    // The segment: the same records, at the same offsets and epochs.
    let segment = files.last().unwrap();
    let collected = read_all(&segment.name, &segment.bytes);
    let expected: Vec<Record<MetadataEntry>> = (log.start_offset()..committed)
        .map(|o| match &log.get(o).unwrap().record {
            Record::Data(MetadataEntry::Write(_)) => {
                Record::Data(MetadataEntry::from(kraftscope::metadata::record::MetadataRecord::NoOp))
            }
            other => other.clone(),
        })
        .collect();
    assert!(expected.iter().any(|r| matches!(r, Record::LeaderChange(_))), "the log has a LeaderChange");
    assert_eq!(records_of(segment), expected);
    for entry in &collected.entries {
        assert_eq!(
            entry.epoch as u32,
            log.get(entry.offset as u64).unwrap().epoch,
            "epoch at {}",
            entry.offset
        );
    }

    // Each snapshot rebuilds its image.
    for (file, snapshot) in files.iter().zip(log.snapshots()) {
        let mut image = MetadataImage::default();
        for record in records_of(file) {
            if let Record::Data(MetadataEntry::Record(r)) = record {
                image.apply(&r).unwrap();
            }
        }
        let original = &snapshot.state.state.image;
        assert_eq!(image.brokers(), original.brokers(), "brokers of {}", file.name);
        assert!(image.topics().eq(original.topics()), "topics of {}", file.name);
        assert_eq!(image.configs(), original.configs());
        assert_eq!(image.features(), original.features());
    }

    // The latest snapshot plus the log after it is the node's applied image.
    let inspection =
        Inspection::of(&files.iter().map(|f| (f.name.clone(), f.bytes.clone())).collect::<Vec<_>>());
    assert!(
        inspection.problems.is_empty() && inspection.crc_failures.is_empty(),
        "{:?}",
        inspection.problems
    );
    assert_eq!(inspection.replay_problem_count, 0, "{:?}", inspection.replay_problems);
    let applied = &node.applied().state.image;
    assert_eq!(inspection.image.topics.len(), applied.topics().count());
    assert_eq!(inspection.image.partition_count(), applied.partition_count());
    let fenced: Vec<(i32, bool, bool)> =
        inspection.image.brokers.iter().map(|(id, b)| (*id, b.fenced, b.in_controlled_shutdown)).collect();
    let original: Vec<(i32, bool, bool)> =
        applied.brokers().iter().map(|(id, b)| (*id as i32, b.fenced, b.in_controlled_shutdown)).collect();
    assert_eq!(fenced, original);
    let leaders: Vec<i32> =
        inspection.image.topics.values().flat_map(|t| t.partitions.values().map(|p| p.leader)).collect();
    let mut by_topic: Vec<(&str, Vec<i32>)> =
        applied.topics().map(|t| (&*t.name, t.partitions.leaders().collect())).collect();
    by_topic.sort_by_key(|(_, l)| l.len());
    let mut expected_leaders: Vec<i32> = by_topic.iter().flat_map(|(_, l)| l.clone()).collect();
    let mut got = leaders;
    got.sort();
    expected_leaders.sort();
    assert_eq!(got, expected_leaders);
}

/// The independent reader agrees with the decoder on the writer's files too.
#[test]
fn the_writers_files_read_as_the_independent_reader_reads_them() {
    let sim = busy_cluster();
    let node = sim.leader().unwrap();
    let dir = std::env::temp_dir().join(format!("kraftscope-writer-{}", std::process::id()));
    let files = writer::directory(node.log(), node.high_watermark().unwrap());
    kraftscope::kafka_log::directory::write_files(&dir, &files).unwrap();
    for file in &files {
        check_against_independent_reader(dir.join(&file.name).to_str().unwrap());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

fn problems(name: &str, bytes: &[u8]) -> Vec<String> {
    read_all(name, bytes).problems.iter().map(|(e, _)| e.to_string()).collect()
}

fn small_segment() -> KafkaFile {
    let sim = busy_cluster();
    let node = sim.leader().unwrap();
    writer::segment(node.log(), node.high_watermark().unwrap())
}

#[test]
fn bad_files_are_named_with_the_byte_and_the_batch() {
    let good = small_segment();
    let bytes = &good.bytes;
    let first = read_all(&good.name, bytes);
    let second_batch = first.batches[1];
    let at = second_batch.position;
    let base = second_batch.header.base_offset;

    // Truncated inside the second batch.
    let cut = problems("seg.log", &bytes[..at + 70]);
    assert_eq!(
        cut,
        [format!(
            "seg.log: byte {} (batch at offset {base}): truncated: the batch is {} bytes, only 70 are left",
            at + 8,
            second_batch.header.length + 12
        )]
    );

    // A flipped byte in the records: a CRC failure, the batch skipped, the next one read.
    let mut flipped = bytes.clone();
    flipped[at + 65] ^= 0x40;
    let read = read_all("seg.log", &flipped);
    assert_eq!(read.problems.len(), 1);
    let (error, crc) = &read.problems[0];
    assert!(*crc && error.position == at && error.base_offset == Some(base), "{error}");
    assert!(error.message.starts_with("CRC mismatch"), "{error}");
    assert_eq!(read.entries.len(), first.entries.len() - (second_batch.header.records_count as usize));

    // Wrong magic.
    let mut magic = bytes.clone();
    magic[at + 16] = 1;
    assert_eq!(
        problems("seg.log", &magic),
        [format!(
            "seg.log: byte {} (batch at offset {base}): magic 1 (KRaft writes only v2 record batches, magic 2)",
            at + 16
        )]
    );

    // An absurd batch length.
    let mut length = bytes.clone();
    length[at + 8..at + 12].copy_from_slice(&i32::MAX.to_be_bytes());
    let message = &problems("seg.log", &length)[0];
    assert!(
        message.contains(&format!(
            "byte {} (batch at offset {base}): truncated: the batch is 2147483659 bytes",
            at + 8
        )),
        "{message}"
    );
    length[at + 8..at + 12].copy_from_slice(&(-5i32).to_be_bytes());
    assert!(problems("seg.log", &length)[0].contains("batch length -5 is below the 49-byte minimum"));

    // An absurd record count, CRC fixed up so only the count is wrong.
    let mut count = bytes.clone();
    count[at + 57..at + 61].copy_from_slice(&i32::MAX.to_be_bytes());
    let end = at + second_batch.header.length as usize + 12;
    let crc = kraftscope::kafka_log::crc32c::crc32c(&count[at + 21..end]);
    count[at + 17..at + 21].copy_from_slice(&crc.to_be_bytes());
    let message = &problems("seg.log", &count)[0];
    assert!(
        message.contains(&format!("(batch at offset {base})")) && message.contains("record length"),
        "{message}"
    );

    // Random bytes.
    let noise: Vec<u8> = (0..1000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    assert_eq!(problems("noise.log", &noise).len(), 1);
}

#[test]
fn a_snapshot_without_its_footer_is_rejected() {
    let Some(snapshot) = common::real(REAL_SNAPSHOT) else { return };
    let (_, bytes) = fixture(&snapshot);
    let batches = read_all("x.checkpoint", &bytes).batches;
    let footer = batches.last().unwrap().position;
    let without = problems("00000000000000000000-0000000000.checkpoint", &bytes[..footer]);
    assert_eq!(
        without,
        [format!(
            "00000000000000000000-0000000000.checkpoint: byte {footer} (batch at offset 1): the snapshot does not end with a SnapshotFooter"
        )]
    );
    let headless = problems("1-1.checkpoint", &bytes[batches[1].position..]);
    assert!(headless[0].ends_with("the snapshot does not start with a SnapshotHeader"), "{headless:?}");
    assert!(problems("00000000000000000000.log", &bytes[..footer]).is_empty(), "a segment needs no footer");
}

#[test]
fn leader_changes_carry_their_voters() {
    let sim = busy_cluster();
    let node = sim.leader().unwrap();
    let files = writer::directory(node.log(), node.high_watermark().unwrap());
    let inspection =
        Inspection::of(&files.iter().map(|f| (f.name.clone(), f.bytes.clone())).collect::<Vec<_>>());
    let change = inspection.leader_changes.last().expect("a LeaderChange after the failover");
    assert_eq!(change.leader as u32, node.id());
    assert_eq!(change.voters, [1, 2, 3]);
    assert!(change.granting_voters.len() >= 2);
    assert_eq!(inspection.epochs.last().unwrap().epoch as u32, node.epoch());
}

#[test]
fn inspect_prints_json_and_fails_on_a_bad_file() {
    let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_kraftscope")).args(args).output().unwrap();
    let Some(log) = common::real(REAL_LOG) else { return };
    let Some(dir) = common::real("ldi-poc/__cluster_metadata-0") else { return };
    let output = run(&["inspect", &dir, "--json"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["records"], 4929);
    assert_eq!(json["last_offset"], 4928);
    assert_eq!(json["record_types"]["PartitionRecord"], 54);
    assert_eq!(json["image"]["features"]["metadata.version"], 19);

    let mut bytes = std::fs::read(&log).unwrap();
    bytes[100] ^= 1;
    let path = std::env::temp_dir().join(format!("kraftscope-bad-{}.log", std::process::id()));
    std::fs::write(&path, &bytes).unwrap();
    let output = run(&["inspect", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    assert!(!output.status.success(), "a CRC failure fails the command");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("CRC failures: 1") && text.contains("(batch at offset 1): CRC mismatch"), "{text}");
}

/// A dynamic quorum grown from one voter to three, then shrunk to two, with snapshots.
fn reconfigured_cluster() -> Simulation {
    use kraftscope::sim::simulation::QuorumFormat;
    let mut config = ClusterConfig {
        voters: 3,
        observers: 1,
        format: QuorumFormat::Standalone,
        ..ClusterConfig::default()
    };
    config.quorum.max_record_bytes_between_snapshots = 600;
    let mut sim = Simulation::new(config, 3);
    sim.run_until(300 * MS);
    for (id, at) in [(2, 600), (3, 1200)] {
        sim.add_voter(id).unwrap();
        sim.run_until(at * MS);
    }
    sim.create_topic("events", 12, 1).unwrap();
    sim.run_until(2000 * MS);
    sim.remove_voter(3).unwrap();
    sim.run_until(4000 * MS);
    sim
}

/// `kraftscope inspect` of the writer's files names every voter set and kraft.version record,
/// in the segment and in each `.checkpoint` (whose first batch carries them, as
/// `RecordsSnapshotWriter` writes it), in text and in `--json`, as the simulation holds them.
#[test]
fn inspect_prints_the_voter_sets_and_kraft_version_of_a_dynamic_quorum() {
    let sim = reconfigured_cluster();
    let node = sim.leader().expect("a leader");
    let files = writer::directory(node.log(), node.high_watermark().unwrap());
    assert!(
        files.len() >= 2,
        "a snapshot was taken: {:?}",
        files.iter().map(|f| &f.name).collect::<Vec<_>>()
    );
    let dir = std::env::temp_dir().join(format!("kraftscope-voters-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for file in &files {
        std::fs::write(dir.join(&file.name), &file.bytes).unwrap();
    }
    let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_kraftscope")).args(args).output().unwrap();
    let json = run(&["inspect", dir.to_str().unwrap(), "--json"]);
    let text = run(&["inspect", dir.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(json.status.success(), "{}", String::from_utf8_lossy(&json.stderr));
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();

    let sets = json["voter_sets"].as_array().unwrap();
    let ids = |set: &serde_json::Value| -> Vec<u64> {
        set["voters"].as_array().unwrap().iter().map(|v| v["id"].as_u64().unwrap()).collect()
    };
    let last = sets.last().expect("voter sets");
    assert_eq!(ids(last), node.voter_set().ids().map(u64::from).collect::<Vec<_>>(), "the latest set");
    assert_eq!(ids(last), [1, 2], "n3 removed");
    for voter in last["voters"].as_array().unwrap() {
        assert_eq!(voter["endpoints"][0], format!("CONTROLLER://n{}:9093", voter["id"]));
        assert_eq!(voter["directory_id"].as_str().unwrap().len(), 22, "a directory id in Kafka's text form");
    }
    for (file, snapshot) in files.iter().zip(node.log().snapshots()) {
        let held: Vec<&serde_json::Value> =
            sets.iter().filter(|s| s["file"].as_str().unwrap().ends_with(&file.name)).collect();
        let expected: Vec<u64> = snapshot.state.voters.as_ref().unwrap().ids().map(u64::from).collect();
        assert_eq!(held.iter().map(|s| ids(s)).collect::<Vec<_>>(), [expected], "{}", file.name);
        let versions = json["kraft_versions"].as_array().unwrap();
        assert!(
            versions
                .iter()
                .any(|v| v["file"].as_str().unwrap().ends_with(&file.name) && v["kraft_version"] == 1)
        );
    }

    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("  kraft.version 1 at offset "), "{text}");
    let line = text.lines().rfind(|l| l.starts_with("  voters at offset ")).unwrap();
    assert!(
        line.contains("1 (directory ") && line.contains("2 (directory ") && !line.contains("3 (directory "),
        "{line}"
    );
}

/// A segment as a cluster in the middle of its migration from ZooKeeper writes it (Kafka 3.9):
/// a ZooKeeper-mode broker registered in migration mode, then the one-time copy's transaction
/// ending with ZkMigrationStateRecord(MIGRATION).
fn migrating_segment(state: i8) -> Vec<u8> {
    use kraftscope::kafka_log::payload::Payload;
    use kraftscope::kafka_log::value::Value;
    let record = |api_key: u16, version: u16, fields: Vec<(&'static str, Value)>| Payload::Metadata {
        api_key,
        version,
        value: Value::of_fields(fields),
    };
    let mut out = Vec::new();
    writer::put_batch(
        &mut out,
        0,
        1,
        0,
        &[
            record(
                12,
                0,
                vec![
                    ("Name", Value::String(Some("metadata.version".into()))),
                    ("FeatureLevel", Value::Int16(21)),
                ],
            ),
            record(21, 0, vec![("ZkMigrationState", Value::Int8(2))]),
        ],
    );
    writer::put_batch(
        &mut out,
        2,
        1,
        0,
        &[record(
            0,
            2,
            vec![
                ("BrokerId", Value::Int32(0)),
                ("IsMigratingZkBroker", Value::Bool(true)),
                ("BrokerEpoch", Value::Int64(7)),
                ("Fenced", Value::Bool(false)),
            ],
        )],
    );
    writer::put_batch(
        &mut out,
        3,
        1,
        0,
        &[
            record(23, 0, vec![("Name", Value::String(Some("ZK Migration".into())))]),
            record(21, 0, vec![("ZkMigrationState", Value::Int8(state))]),
            record(24, 0, vec![]),
        ],
    );
    out
}

#[test]
fn a_log_written_during_a_migration_from_zookeeper_says_where_it_stands() {
    let inspection = Inspection::of(&[("00000000000000000000.log".to_string(), migrating_segment(1))]);
    assert!(
        inspection.problems.is_empty() && inspection.crc_failures.is_empty(),
        "{:?}",
        inspection.problems
    );
    let image = &inspection.image;
    assert_eq!(
        image.zk_migration.map(|s| s.name()),
        Some("MIGRATION"),
        "the copy's state, after PRE_MIGRATION"
    );
    assert!(image.brokers.get(&0).is_some_and(|b| b.migrating_zk_broker));
    let features = kraftscope::kafka_log::report::features(image);
    assert!(
        features.ends_with("; ZooKeeper migration MIGRATION (copied from ZooKeeper, which is still written behind the log (dual-write) until finalized)"),
        "{features}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_kraftscope"))
        .arg("inspect")
        .arg(write_temp("migrating.log", &migrating_segment(1)))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("broker 0: epoch 7, active, a ZooKeeper-mode broker in migration mode"), "{text}");
    assert!(text.contains("ZooKeeper migration MIGRATION"), "{text}");
    // A value Kafka does not define is a problem named with its record.
    let bad = Inspection::of(&[("00000000000000000000.log".to_string(), migrating_segment(9))]);
    assert_eq!(
        bad.replay_problems,
        ["ZkMigrationStateRecord at offset 4: names ZkMigrationState 9, which Kafka does not define"]
    );
    assert_eq!(bad.image.zk_migration.map(|s| s.name()), Some("PRE_MIGRATION"), "the image as it was");
}

/// `bytes` written to a file of the temporary directory named `name`; its path.
fn write_temp(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("kraftscope-{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    path
}

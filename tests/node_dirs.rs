//! Several KRaft nodes' directories read at once (`kafka_log::nodes`): the simulation writes
//! each node's files as Kafka keeps them (`Simulation::node_directories`), and what the reader
//! finds in them is checked against the simulation's own memory of each node (its quorum
//! state, its log, its snapshots), which the reader never sees. Then the disagreements a real
//! cluster's files show, each produced by the moment that makes it, and every file type
//! damaged.

use crate::common;

use kraftscope::harness::MS;
use kraftscope::kafka_log::nodes::{NodeSummary, Nodes};
use kraftscope::quorum::RoleKind;
use kraftscope::session::Settings;
use kraftscope::sim::Simulation;

/// The files of every node, as (path, bytes).
fn exported(sim: &Simulation) -> Vec<(String, Vec<u8>)> {
    sim.node_directories().into_iter().map(|f| (f.name, f.bytes)).collect()
}

fn node<'a>(nodes: &'a Nodes, name: &str) -> &'a NodeSummary {
    nodes.nodes.iter().find(|n| n.name == name).unwrap_or_else(|| panic!("no {name} in {:?}", names(nodes)))
}

fn names(nodes: &Nodes) -> Vec<&str> {
    nodes.nodes.iter().map(|n| n.name.as_str()).collect()
}

/// A dynamic quorum of three controllers and two brokers taking snapshots every 4 KiB, run for
/// `seconds`.
fn cluster(seed: u64, seconds: u64) -> Simulation {
    let settings = Settings { snapshot_bytes: 4_096, brokers: 2, ..Settings::default() };
    let mut sim = Simulation::new(settings.cluster_config(), seed);
    sim.run_until(seconds * 1_000 * MS);
    sim
}

fn disagreements(nodes: &Nodes) -> Vec<&str> {
    nodes.disagreements.iter().map(|d| d.text.as_str()).collect()
}

#[test]
fn each_nodes_files_say_what_the_node_holds() {
    for seed in [1, 7, 42] {
        let sim = cluster(seed, 1_200);
        let nodes = Nodes::read(&exported(&sim));
        assert_eq!(nodes.nodes.len(), 5, "seed {seed}: {:?}", names(&nodes));
        for running in sim.running_nodes() {
            let name = format!("n{}", running.id());
            let read = node(&nodes, &name);
            let state = running.quorum_state_file();
            let file = read.quorum_state.as_ref().expect("a quorum-state");
            assert_eq!(file.data_version, 1, "seed {seed} {name}: a dynamic quorum writes data version 1");
            assert_eq!(file.leader_epoch, i64::from(state.leader_epoch), "seed {seed} {name}");
            assert_eq!(file.leader_id, state.leader_id.map(i64::from), "seed {seed} {name}");
            assert_eq!(file.voted_id, state.voted_id.map(i64::from), "seed {seed} {name}");
            let meta = read.meta.as_ref().expect("a meta.properties");
            assert_eq!(meta.node_id, Some(i64::from(running.id())));
            let log = running.log();
            assert_eq!(read.log_start, Some(log.start_offset() as i64), "seed {seed} {name}");
            assert_eq!(read.log_end, Some(log.end_offset() as i64), "seed {seed} {name}");
            assert_eq!(read.records, log.end_offset() - log.start_offset() + snapshot_records(&nodes, &name));
            let snapshots: Vec<(i64, i64)> =
                log.snapshots().iter().map(|s| (s.id.end_offset as i64, i64::from(s.id.epoch))).collect();
            let read_snapshots: Vec<(i64, i64)> =
                read.snapshots.iter().map(|s| (s.end_offset, s.epoch)).collect();
            assert_eq!(read_snapshots, snapshots, "seed {seed} {name}");
            assert!(!snapshots.is_empty(), "seed {seed} {name}: 20 minutes at 4 KiB a snapshot take some");
            let epochs = read.leader_epochs.as_ref().expect("a leader-epoch-checkpoint");
            let first_epoch = log.get(log.start_offset()).map(|e| i64::from(e.epoch));
            assert_eq!(epochs.first().map(|e| e.epoch), first_epoch);
            assert_eq!(
                epochs.last().map(|e| e.epoch),
                log.get(log.end_offset() - 1).map(|e| i64::from(e.epoch))
            );
            assert!(read.problems.is_empty() && read.files.iter().all(|f| f.problem.is_none()), "{read:?}");
        }
        assert!(
            disagreements(&nodes).iter().all(|d| !d.contains("quorum-state names epoch")),
            "{:?}",
            nodes.disagreements
        );
    }
}

/// Records in `name`'s snapshots (the reader counts records in every record file).
fn snapshot_records(nodes: &Nodes, name: &str) -> u64 {
    let read = node(nodes, name);
    let in_log: u64 = match (read.log_start, read.log_end) {
        (Some(start), Some(end)) => (end - start) as u64,
        _ => 0,
    };
    read.records - in_log
}

/// A cluster whose leader was cut off from the others until they elected a new one: the cut-off
/// leader's id, and the new leader's id and epoch.
fn cut_off_leader() -> (Simulation, u32, u32, u32) {
    let mut sim = cluster(3, 20);
    let old = sim.leader().expect("a leader").id();
    let old_epoch = sim.leader().unwrap().epoch();
    sim.isolate(old);
    let until = sim.now() + 20_000 * MS;
    while sim.now() < until
        && !sim.running_nodes().any(|n| n.role() == RoleKind::Leader && n.epoch() > old_epoch)
    {
        sim.step();
    }
    sim.run_until(sim.now() + 3_000 * MS);
    let new = sim
        .running_nodes()
        .find(|n| n.role() == RoleKind::Leader && n.epoch() > old_epoch)
        .expect("a new leader");
    let (new_id, new_epoch) = (new.id(), new.epoch());
    (sim, old, new_id, new_epoch)
}

#[test]
fn a_cut_off_leader_keeps_its_old_epoch_and_misses_the_new_leader_change() {
    let (sim, old, new_id, new_epoch) = cut_off_leader();
    let nodes = Nodes::read(&exported(&sim));
    let texts = disagreements(&nodes);
    let cut_off = sim.running_nodes().find(|n| n.id() == old).unwrap().quorum_state_file().leader_epoch;
    assert!(cut_off < new_epoch, "the cut-off leader cannot have learned epoch {new_epoch}");
    let stale = format!("n{old}'s quorum-state names epoch {cut_off} (");
    assert!(texts.iter().any(|t| t.starts_with(&stale) && t.contains(&format!("at epoch {new_epoch} (leader n{new_id})"))), "{texts:#?}");
    assert!(
        texts.iter().any(|t| t.starts_with(&format!("the LeaderChange of epoch {new_epoch} at offset"))
            && t.contains(&format!("not in n{old}'s log"))),
        "{texts:#?}"
    );
    assert!(
        texts.iter().any(|t| t.starts_with("log end offsets ") && t.contains(&format!("n{old}'s log at"))),
        "{texts:#?}"
    );
    let diverges = format!("n{old}'s log diverges from n{new_id}'s at offset ");
    let truncates = format!("n{old} is answered with a DivergingEpoch and truncates its log to ");
    assert!(texts.iter().any(|t| t.starts_with(&diverges) && t.contains(&truncates)), "{texts:#?}");
}

#[test]
fn a_leader_change_only_the_new_leader_holds_is_not_committed() {
    let mut sim = cluster(5, 20);
    let old = sim.leader().expect("a leader").id();
    let old_epoch = sim.leader().unwrap().epoch();
    sim.crash(old).unwrap();
    let until = sim.now() + 20_000 * MS;
    while sim.now() < until
        && !sim.running_nodes().any(|n| n.role() == RoleKind::Leader && n.epoch() > old_epoch)
    {
        sim.step();
    }
    let new = sim.leader().expect("a new leader");
    let nodes = Nodes::read(&exported(&sim));
    let texts = disagreements(&nodes);
    let expected = format!("the LeaderChange of epoch {} at offset", new.epoch());
    let found = texts.iter().find(|t| t.starts_with(&expected)).unwrap_or_else(|| panic!("{texts:#?}"));
    assert!(found.contains(&format!("is in n{}'s log, not in", new.id())), "{found}");
    assert!(
        found.ends_with("1 of its 3 voters hold it, fewer than a majority, so it is not committed"),
        "{found}"
    );
}

#[test]
fn a_wiped_disk_is_named_against_the_voter_set() {
    let mut sim = cluster(2, 20);
    let follower = sim.running_nodes().find(|n| n.is_voter() && n.role() == RoleKind::Follower).unwrap().id();
    sim.wipe_disk(follower).unwrap();
    sim.run_until(sim.now() + 10_000 * MS);
    let nodes = Nodes::read(&exported(&sim));
    let texts = disagreements(&nodes);
    let name = format!("n{follower}'s directory id ");
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with(&name)
                && t.contains("its disk was replaced, and the old entry still counts")),
        "{texts:#?}"
    );
    assert!(texts.iter().any(|t| t.starts_with("n101 is not in the voter set")), "{texts:#?}");
}

/// `files` with the file of `node` whose path ends in `name` replaced by `bytes`.
fn replaced(files: &[(String, Vec<u8>)], node: &str, name: &str, bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let path = |p: &str| p.starts_with(&format!("{node}/")) && p.ends_with(name);
    assert!(files.iter().any(|(p, _)| path(p)), "no {node}/.../{name}");
    files.iter().map(|(p, b)| (p.clone(), if path(p) { bytes.to_vec() } else { b.clone() })).collect()
}

#[test]
fn every_damaged_file_is_named_with_its_byte_and_the_rest_still_opens() {
    let sim = cluster(1, 30);
    let files = exported(&sim);
    let good = Nodes::read(&files);
    let huge = vec![b' '; 70_000];
    let cases: [(&str, &[u8], &str); 12] = [
        ("quorum-state", b"", "byte 0: empty"),
        (
            "quorum-state",
            b"{\"leaderId\":1,\"leaderEpoch\":",
            "byte 28: the file ends where a value was expected",
        ),
        (
            "quorum-state",
            b"{\"leaderId\":1,\"leaderEpoch\":2,\"votedId\":-1,\"data_version\":7}",
            "byte 58: data_version 7 is not 0 or 1",
        ),
        ("quorum-state", b"{\"leaderId\":1,\"leaderEpoch\":2,\"votedId\":-1}", "no data_version field"),
        (
            "quorum-state",
            b"{\"leaderId\":\"one\",\"leaderEpoch\":2,\"votedId\":-1,\"data_version\":1}",
            "byte 12: leaderId is not a number",
        ),
        ("quorum-state", &huge, "too large for a quorum-state file"),
        ("quorum-state", &[b'['; 40], "nested deeper than 8 levels"),
        ("meta.properties", b"version=1\nnode.id=one\n", "byte 10: node.id \"one\" is not a number"),
        ("meta.properties", b"node.id=1\n", "no version property"),
        ("meta.properties", b"version=1\n\xff\xfe", "byte 10: not text (UTF-8)"),
        ("leader-epoch-checkpoint", b"0\n2\n1 0\n", "2 entries announced, 1 found"),
        ("leader-epoch-checkpoint", b"1\n0\n", "byte 0: version \"1\" is not 0"),
    ];
    for (name, bytes, expected) in cases {
        let nodes = Nodes::read(&replaced(&files, "n2", name, bytes));
        let n2 = node(&nodes, "n2");
        let problems: Vec<&String> = n2.files.iter().filter_map(|f| f.problem.as_ref()).collect();
        assert_eq!(problems.len(), 1, "{name} {expected}: {problems:?}");
        assert!(problems[0].starts_with("n2/") && problems[0].contains(name), "{}", problems[0]);
        assert!(problems[0].contains(expected), "{name}: {} does not say {expected:?}", problems[0]);
        let before = node(&good, "n2");
        assert_eq!(
            (n2.log_end, n2.records, &n2.snapshots),
            (before.log_end, before.records, &before.snapshots),
            "the log still opens"
        );
    }
}

fn kraftscope(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_kraftscope")).args(args).output().unwrap()
}

/// `run --write-nodes` writes each node's directories; `inspect DIR1 DIR2 DIR3 --json` reads
/// them as the independent reader (`read_kafka_node.py`) does, node by node, and says what they
/// disagree on; the parent folder reads the same; a lone quorum-state is not a damaged batch.
#[test]
fn inspect_reads_nodes_directories_as_the_independent_reader_does() {
    let dir = std::env::temp_dir().join(format!("kraftscope-nodes-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let root = dir.to_str().unwrap();
    let wrote =
        kraftscope(&["run", "--scenario", "candidate_waits_out_timeout", "--notable", "--write-nodes", root]);
    assert!(wrote.status.success(), "{}", String::from_utf8_lossy(&wrote.stderr));
    let nodes: Vec<String> = ["n1", "n2", "n3"].iter().map(|n| dir.join(n).display().to_string()).collect();
    let paths: Vec<&str> = nodes.iter().map(String::as_str).collect();
    let independent = std::process::Command::new("python3")
        .arg("tests/fixtures/kafka/read_kafka_node.py")
        .args(&paths)
        .output()
        .expect("python3 runs the independent reader");
    assert!(independent.status.success(), "{}", String::from_utf8_lossy(&independent.stderr));
    let expected: serde_json::Value = serde_json::from_slice(&independent.stdout).unwrap();
    let output = kraftscope(&[&["inspect"], &paths[..], &["--json"]].concat());
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let read: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let read_nodes = read["nodes"].as_array().unwrap();
    assert_eq!(read_nodes.len(), 3);
    for node in read_nodes {
        let id = node["meta"]["node_id"].as_i64().unwrap().to_string();
        let want = &expected[&id];
        let state = &node["quorum_state"];
        let or_minus_one = |v: &serde_json::Value| v.as_i64().unwrap_or(-1);
        assert_eq!(state["leader_epoch"], want["leader_epoch"], "n{id}");
        assert_eq!(or_minus_one(&state["leader_id"]), want["leader_id"].as_i64().unwrap(), "n{id}");
        assert_eq!(or_minus_one(&state["voted_id"]), want["voted_id"].as_i64().unwrap(), "n{id}");
        assert_eq!(state["data_version"], want["data_version"], "n{id}");
        assert_eq!(node["meta"]["directory_id"], want["directory_id"], "n{id}");
        assert_eq!((&node["log_start"], &node["log_end"]), (&want["log_start"], &want["log_end"]), "n{id}");
        assert_eq!(node["record_types"], want["record_types"], "n{id}");
        let epochs: Vec<[i64; 2]> = node["leader_epochs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| [e["epoch"].as_i64().unwrap(), e["start_offset"].as_i64().unwrap()])
            .collect();
        let want_epochs: Vec<[i64; 2]> = serde_json::from_value(want["leader_epochs"].clone()).unwrap();
        assert_eq!(epochs, want_epochs, "n{id}");
        let damaged = node["files"].as_array().unwrap().iter().filter(|f| !f["problem"].is_null()).count();
        assert_eq!(damaged, 0, "n{id}: {}", node["files"]);
    }
    let texts: Vec<&str> =
        read["disagreements"].as_array().unwrap().iter().map(|d| d["text"].as_str().unwrap()).collect();
    assert!(texts.iter().any(|t| t.starts_with("n2's quorum-state names epoch 1 (leader n2)")), "{texts:#?}");
    let parent = kraftscope(&["inspect", root, "--json"]);
    let parent: serde_json::Value = serde_json::from_slice(&parent.stdout).unwrap();
    assert_eq!(parent["disagreements"], read["disagreements"], "the parent folder reads as its nodes");
    let state = dir.join("n1/__cluster_metadata-0/quorum-state");
    let lone = kraftscope(&["inspect", state.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&lone.stdout);
    assert!(
        lone.status.success() && text.contains("quorum-state (data_version 0): epoch 2, leader n1"),
        "{text}"
    );
    assert!(!text.contains("truncated") && !text.contains("batch"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The cluster drawn from the files: the cut-off leader stale and marked with the
/// disagreements that name it, the new leader leading, the brokers observers.
#[test]
fn the_files_draw_the_cluster_with_each_disagreement_marked() {
    use kraftscope::log_reader::node_dirs::ClusterFiles;
    let (sim, old, new_id, new_epoch) = cut_off_leader();
    let drawn = ClusterFiles::of(&exported(&sim));
    let find = |name: String| {
        drawn.nodes.iter().find(|n| n.name == name).unwrap_or_else(|| panic!("{name}: {drawn:?}"))
    };
    let cut_off = find(format!("n{old}"));
    assert!(cut_off.controller && cut_off.stale && !cut_off.leads, "{cut_off:?}");
    assert!(!cut_off.marks.is_empty());
    for mark in &cut_off.marks {
        assert!(
            drawn.disagreements[mark - 1].contains(&format!("n{old}")),
            "{}",
            drawn.disagreements[mark - 1]
        );
    }
    let leader = find(format!("n{new_id}"));
    assert!(
        leader.controller && leader.leads && !leader.stale && leader.epoch == Some(i64::from(new_epoch)),
        "{leader:?}"
    );
    assert!(leader.line.starts_with(&format!("epoch {new_epoch}, leader n{new_id}, ")), "{}", leader.line);
    let broker = find("n101".to_string());
    assert!(!broker.controller && !broker.leads, "{broker:?}");
    let ends: Vec<i64> = sim.running_nodes().map(|n| n.log().end_offset() as i64).collect();
    assert_eq!(drawn.furthest, *ends.iter().max().unwrap());
    let unmarked: Vec<usize> = (1..=drawn.disagreements.len())
        .filter(|i| !drawn.nodes.iter().any(|n| n.marks.contains(i)))
        .collect();
    assert!(unmarked.is_empty(), "every disagreement is marked on a node: {unmarked:?}");
}

/// The page's log reader opens nodes' directories as a cluster, its timeline the new leader's
/// log; a lone log still opens as before, with no cluster.
#[test]
fn the_log_reader_opens_nodes_directories_as_a_cluster() {
    use kraftscope::log_reader::{LogReader, LogRequest};
    let (sim, _, new_id, _) = cut_off_leader();
    let files = exported(&sim);
    let opened = LogReader::default().answer(LogRequest::Open(files.clone())).unwrap();
    let cluster = opened.cluster.as_ref().expect("nodes' directories draw a cluster");
    assert_eq!(cluster.nodes.len(), 5);
    assert_eq!(cluster.source.as_deref(), Some(format!("n{new_id}").as_str()));
    let leader_log = sim.running_nodes().find(|n| n.id() == new_id).unwrap().log();
    assert_eq!(
        opened.last_offset,
        Some(leader_log.end_offset() as i64 - 1),
        "the timeline is the leader's log"
    );
    assert!(opened.files.iter().all(|f| f.starts_with(&format!("n{new_id}/"))), "{:?}", opened.files);
    assert_eq!(opened.image.brokers.len(), 2, "the leader's image: {:?}", opened.image);
    let segment: Vec<(String, Vec<u8>)> = files
        .into_iter()
        .filter(|(path, _)| path.starts_with(&format!("n{new_id}/")) && path.ends_with(".log"))
        .collect();
    assert_eq!(LogReader::default().answer(LogRequest::Open(segment)).unwrap().cluster, None);
}

/// A real three-node cluster's directories, in Docker volumes named `kafka-1`..`kafka-3` (like
/// partitions' folders): each node is named from its `meta.properties`, all three are voters of
/// epoch 36 led by n2, and kafka-1's log, one batch shorter, is their one disagreement.
#[test]
fn a_real_clusters_nodes_are_named_from_their_files_not_their_folders() {
    let Some(data) = common::real("docker-compose-kafka4.10/data") else { return };
    let dirs: Vec<String> = (1..=3).map(|n| format!("{data}/kafka-{n}")).collect();
    let paths: Vec<&std::path::Path> = dirs.iter().map(std::path::Path::new).collect();
    let files = kraftscope::kafka_log::directory::read_tree(&paths).unwrap();
    let nodes = Nodes::read(&files);
    assert_eq!(names(&nodes), ["n1", "n2", "n3"]);
    for n in &nodes.nodes {
        let state = n.quorum_state.as_ref().expect("a quorum-state");
        assert_eq!((state.leader_epoch, state.leader_id), (36, Some(2)), "{}", n.name);
        assert!(n.files.iter().all(|f| !f.kind.contains("another partition")), "{}: {:?}", n.name, n.files);
    }
    assert!(nodes.skipped.is_empty(), "no other partition in these volumes: {:?}", nodes.skipped);
    let found = disagreements(&nodes);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("log end offsets "), "{found:?}");
    assert_eq!(nodes.disagreements[0].nodes.iter().filter(|n| *n == "n1").count(), 1, "kafka-1 is n1");
}

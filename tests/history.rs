//! A log's history (`kraftscope history`) checked against what is known to have happened: the
//! simulation's elections as it saw them happen, and its leader's records at the times it
//! appended them (the reader sees neither, only the files), then the shared real cluster's
//! against the independent reader.

use std::process::Command;

use crate::common;

use kraftscope::harness::{MS, Micros};
use kraftscope::kafka_log::history::{History, What};
use kraftscope::metadata::record::MetadataRecord;
use kraftscope::metadata::state::MetadataEntry;
use kraftscope::quorum::Record;
use kraftscope::session::Settings;
use kraftscope::sim::Simulation;

/// An election as the simulation saw it: the new leader's epoch, id, the time it became leader,
/// and how long before that no node was leader (from the old leader's crash).
#[derive(Debug)]
struct Seen {
    epoch: i32,
    leader: i32,
    at: Micros,
    leaderless: Option<Micros>,
}

/// The page's default cluster; the active controller is killed `kills` times (each brought back
/// 20 s later), the first broker is killed once and restarted. Returns the simulation and
/// the elections it saw, stepping one event at a time.
fn history_run(seed: u64, kills: u32) -> (Simulation, Vec<Seen>) {
    let settings = Settings { seed, ..Settings::default() };
    let mut sim = Simulation::new(settings.cluster_config(), seed);
    let mut seen: Vec<Seen> = Vec::new();
    let mut leader: Option<(i32, i32)> = None;
    let mut leaderless_since: Option<Micros> = None;
    let mut plan: Vec<(Micros, &str)> = Vec::new();
    for k in 0..u64::from(kills) {
        plan.push(((8 + 30 * k) * 1_000 * MS, "kill leader"));
        plan.push(((28 + 30 * k) * 1_000 * MS, "restart"));
    }
    plan.push((15_000 * MS, "kill broker"));
    plan.push((40_000 * MS, "restart broker"));
    plan.sort();
    let end = (20 + 30 * u64::from(kills)) * 1_000 * MS;
    let mut killed = Vec::new();
    let mut plan = plan.into_iter().peekable();
    let broker = broker_id(&sim);
    while sim.now() < end {
        if let Some(&(at, action)) = plan.peek()
            && sim.now() >= at
        {
            plan.next();
            match action {
                "kill leader" => {
                    let id = sim.leader().expect("a leader to kill").id();
                    sim.crash(id).unwrap();
                    killed.push(id);
                    leader = None;
                    leaderless_since = Some(sim.now());
                }
                "restart" => sim.restart(killed.pop().unwrap()).unwrap(),
                "kill broker" => sim.crash(broker).unwrap(),
                _ => sim.restart(broker).unwrap(),
            }
        }
        if !sim.step() {
            break;
        }
        let now_leader = sim.leader().map(|n| (n.epoch() as i32, n.id() as i32));
        if let Some((epoch, id)) = now_leader
            && now_leader != leader
        {
            let leaderless = leaderless_since.take().map(|since| sim.now() - since);
            seen.push(Seen { epoch, leader: id, at: sim.now(), leaderless });
        }
        leader = now_leader;
    }
    (sim, seen)
}

/// The first node that is only a broker.
fn broker_id(sim: &Simulation) -> u32 {
    sim.node_ids().find(|id| !sim.controller_ids().contains(id)).expect("a broker")
}

fn exported(sim: &Simulation) -> Vec<(String, Vec<u8>)> {
    sim.node_directories().into_iter().map(|f| (f.name, f.bytes)).collect()
}

#[test]
fn a_simulated_clusters_history_gives_its_elections_and_gaps_at_the_simulated_times() {
    for seed in 1..=40 {
        let (sim, seen) = history_run(seed, 3);
        assert!(seen.len() >= 4, "seed {seed}: a first election and one after each kill: {seen:?}");
        let history = History::read(&exported(&sim)).expect("a history");
        assert!(history.problems.is_empty(), "seed {seed}: {:?}", history.problems);
        assert_eq!(history.from_snapshot, None, "seed {seed}: the log still starts at offset 0");
        let elections: Vec<_> = history
            .events
            .iter()
            .filter_map(|e| match &e.what {
                What::Election(election) => Some((e.timestamp, election)),
                _ => None,
            })
            .collect();
        assert_eq!(elections.len(), seen.len(), "seed {seed}: {seen:?}");
        for ((timestamp, election), seen) in elections.iter().zip(&seen) {
            let what = format!("seed {seed}, epoch {}", seen.epoch);
            assert_eq!((election.epoch, election.leader), (seen.epoch, seen.leader), "{what}");
            assert_eq!(
                *timestamp,
                (seen.at / MS) as i64,
                "{what}: the LeaderChange's time, to the millisecond"
            );
            match (&election.gap, seen.leaderless) {
                (None, None) => {}
                (Some(gap), Some(leaderless)) => {
                    let leaderless = (leaderless / MS) as i64;
                    // The old leader wrote a NoOpRecord at least every 500 ms
                    // (metadata.max.idle.interval.ms) before it died, and its last record reached
                    // the next leader within one message's latency unless it died first; the
                    // files' times are whole milliseconds, so the two ends' rounding adds one.
                    let latency = i64::from(Settings::default().latency_max_ms);
                    assert!(
                        gap.ms >= leaderless && gap.ms <= leaderless + 500 + latency + 1,
                        "{what}: measured {} ms, the simulation had no leader for {leaderless} ms",
                        gap.ms
                    );
                }
                (gap, leaderless) => panic!("{what}: measured {gap:?}, simulation {leaderless:?}"),
            }
        }
        assert_eq!(history.summary.elections as usize, seen.len());
    }
}

#[test]
fn a_simulated_clusters_history_gives_its_registrations_and_fences_at_the_times_they_were_appended() {
    let (sim, _) = history_run(7, 1);
    let source = sim.leader().expect("a leader at the end");
    let log = source.log();
    let mut expected = Vec::new();
    for offset in log.start_offset()..log.end_offset() {
        let entry = log.get(offset).expect("in the log");
        let at = (entry.appended_at / MS) as i64;
        let Record::Data(MetadataEntry::Record(record)) = &entry.record else { continue };
        match &**record {
            MetadataRecord::RegisterBroker { broker_id, .. } => expected.push((at, "registered", *broker_id)),
            MetadataRecord::FenceBroker { broker_id, .. } => expected.push((at, "fenced", *broker_id)),
            MetadataRecord::UnfenceBroker { broker_id, .. } => expected.push((at, "unfenced", *broker_id)),
            MetadataRecord::BrokerRegistrationChange { broker_id, fenced: Some(fenced), .. } => {
                expected.push((at, if *fenced { "fenced" } else { "unfenced" }, *broker_id))
            }
            _ => {}
        }
    }
    let broker = broker_id(&sim);
    assert!(
        expected.iter().any(|e| e.1 == "fenced" && e.2 == broker),
        "broker {broker}'s death fenced it: {expected:?}"
    );
    let history = History::read(&exported(&sim)).expect("a history");
    let found: Vec<(i64, &str, u32)> = history
        .events
        .iter()
        .filter_map(|e| match e.what {
            What::BrokerRegistered { broker, .. } => Some((e.timestamp, "registered", broker as u32)),
            What::BrokerFenced { broker } => Some((e.timestamp, "fenced", broker as u32)),
            What::BrokerUnfenced { broker } => Some((e.timestamp, "unfenced", broker as u32)),
            _ => None,
        })
        .collect();
    assert_eq!(found, expected);
    let restarts: Vec<_> = history
        .events
        .iter()
        .filter(|e| matches!(e.what, What::BrokerRegistered { restart: true, .. }))
        .collect();
    assert_eq!(restarts.len(), 1, "broker {broker} came back once with a new incarnation: {restarts:?}");
    assert_eq!(history.summary.nodes.get(&(broker as i32)).map(|n| n.restarts()), Some(1));
}

/// The shared three-node set (docker-compose-kafka4.10).
const THREE_NODES: &str = "docker-compose-kafka4.10/data";

#[test]
fn the_shared_three_node_clusters_history_agrees_with_the_independent_reader() {
    let Some(dir) = common::real(THREE_NODES) else { return };
    let tree = kraftscope::kafka_log::directory::read_tree(&[std::path::Path::new(&dir)]).expect("readable");
    let history = History::read(&tree).expect("a history");
    assert!(history.source.starts_with("n2's log"), "the leader of epoch 36 is n2: {}", history.source);
    let segment = format!("{dir}/kafka-2/__cluster_metadata-0/00000000000000000000.log");
    let output = Command::new("python3")
        .args(["tests/fixtures/kafka/read_kafka_log.py", &segment])
        .output()
        .expect("python3 runs the independent reader");
    let expected: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let elections: Vec<serde_json::Value> = history
        .events
        .iter()
        .filter_map(|e| match &e.what {
            What::Election(el) => {
                Some(serde_json::json!([el.epoch, el.leader, e.timestamp, el.gap.as_ref().map(|g| g.ms)]))
            }
            _ => None,
        })
        .collect();
    assert_eq!(serde_json::Value::Array(elections.clone()), expected["elections"]);
    assert_eq!(elections.len(), 18);
    let registrations =
        history.events.iter().filter(|e| matches!(e.what, What::BrokerRegistered { .. })).count();
    assert_eq!(registrations, expected["brokers"].as_array().unwrap().len());
    assert_eq!(registrations, 39);
    assert_eq!(history.summary.elections, 18);
    assert!(history.problems.is_empty(), "{:?}", history.problems);
}

#[test]
fn the_history_command_prints_the_shared_clusters_elections_gaps_and_registrations() {
    let Some(dir) = common::real(THREE_NODES) else { return };
    let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_kraftscope")).args(args).output().unwrap();
    let out = run(&["history", &dir]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().filter(|l| l.contains("  ELECTION epoch ")).count(), 18, "{text}");
    assert!(text.contains("ELECTION epoch 4: n3 leads (voters n1, n2, n3; votes from n2, n3); no controller wrote for 16.424 s before it (since offset 1538, a BrokerRegistrationChangeRecord of epoch 1); 2 epochs before it left no record"), "{text}");
    assert_eq!(
        text.lines()
            .filter(|l| l.contains("  broker ") && (l.contains(" registered (") || l.contains(" restarted:")))
            .count(),
        39
    );
    assert!(text.contains("summary: 18 elections"), "{text}");
    assert!(
        text.contains(
            "n1: won 7 elections; 13 broker registrations, 13 controller registrations, 12 restarts"
        ),
        "{text}"
    );
    let json = run(&["history", &dir, "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(json["summary"]["elections"], 18);
    assert_eq!(json["events"][0]["what"]["kind"], "election");
    let junk = std::env::temp_dir().join(format!("kraftscope-history-{}.log", std::process::id()));
    std::fs::write(&junk, [0x7Fu8; 100]).unwrap();
    let damaged = run(&["history", junk.to_str().unwrap()]);
    std::fs::remove_file(&junk).unwrap();
    assert_eq!(damaged.status.code(), Some(1), "a file that does not read whole fails");
    let text = String::from_utf8(damaged.stdout).unwrap();
    assert!(text.contains(": no records\nPROBLEM "), "the problem is named: {text}");
    let bad = run(&["history", "/nonexistent/kraftscope"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).starts_with("kraftscope: "), "a clear message");
}

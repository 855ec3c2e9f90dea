//! `kraftscope quorum describe`: what Kafka's `kafka-metadata-quorum describe` prints, read off
//! nodes' directories. On a simulated cluster's exported directories every value is checked
//! against the simulation's own memory (its leader, epoch, voters and each node's log), which
//! the reader never sees; on a real three-node cluster's (`../shared/fixtures/kafka/`), against
//! what its files hold.

use crate::common;

use kraftscope::harness::MS;
use kraftscope::kafka_log::nodes::Nodes;
use kraftscope::kafka_log::quorum::{QuorumDescription, REPLICATION_HEAD as HEAD};
use kraftscope::scenario::{Detail, ScenarioRun, script};
use kraftscope::session::Settings;
use kraftscope::sim::Simulation;

fn kraftscope(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_kraftscope")).args(args).output().unwrap()
}

/// The cells of each line of a `--replication` table (cells end in a tab; padding trimmed).
fn cells(table: &str) -> Vec<Vec<String>> {
    table
        .lines()
        .take_while(|line| line.contains('\t'))
        .map(|line| line.split('\t').filter(|c| !c.is_empty()).map(|c| c.trim().to_string()).collect())
        .collect()
}

#[test]
fn a_simulated_clusters_directories_describe_its_leaders_view() {
    for seed in [1, 7] {
        let settings = Settings { brokers: 2, ..Settings::default() };
        let mut sim = Simulation::new(settings.cluster_config(), seed);
        sim.run_until(90_000 * MS);
        let files: Vec<(String, Vec<u8>)> =
            sim.node_directories().into_iter().map(|f| (f.name, f.bytes)).collect();
        let described = QuorumDescription::of(&Nodes::read(&files)).unwrap();
        let leader = sim.leader().expect("a leader after 90 s");
        assert_eq!(
            (described.leader_id, described.leader_epoch),
            (i64::from(leader.id()), i64::from(leader.epoch()))
        );
        let voters: Vec<i64> = sim.voter_set().ids().map(i64::from).collect();
        let listed: Vec<i64> = described.current_voters.iter().map(|m| m.id).collect();
        assert_eq!(listed, voters, "seed {seed}");
        let observers: Vec<i64> = described.current_observers.iter().map(|m| m.id).collect();
        assert_eq!(observers.len(), 2, "seed {seed}: the brokers observe: {observers:?}");
        let leader_end = leader.log().end_offset() as i64;
        for row in &described.replicas {
            let node = sim.running_nodes().find(|n| i64::from(n.id()) == row.node_id).unwrap();
            assert_eq!(row.log_end_offset, node.log().end_offset() as i64, "seed {seed} n{}", row.node_id);
            assert_eq!(row.lag, leader_end - row.log_end_offset);
            let status = match (row.node_id == described.leader_id, voters.contains(&row.node_id)) {
                (true, _) => "Leader",
                (false, true) => "Follower",
                (false, false) => "Observer",
            };
            assert_eq!(row.status, status, "seed {seed} n{}", row.node_id);
        }
        assert_eq!(described.replicas[0].status, "Leader", "the leader's row first, as Kafka prints it");
        let hw = leader.high_watermark().expect("a high watermark") as i64;
        assert!(described.high_watermark >= hw && described.high_watermark <= leader_end, "seed {seed}");
    }
}

#[test]
fn a_real_clusters_directories_print_kafkas_lines_and_columns() {
    let Some(data) = common::real("docker-compose-kafka4.10/data") else { return };
    let dirs: Vec<String> = (1..=3).map(|n| format!("{data}/kafka-{n}")).collect();
    let run = |mode: &str, json: bool| {
        let mut args = vec!["quorum", "describe", mode];
        args.extend(dirs.iter().map(String::as_str));
        if json {
            args.push("--json");
        }
        let output = kraftscope(&args);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).unwrap()
    };
    let table = cells(&run("--replication", false));
    assert_eq!(table[0], HEAD);
    let rows: Vec<(&str, &str, &str)> =
        table[1..].iter().map(|r| (r[0].as_str(), r[2].as_str(), r[6].as_str())).collect();
    assert_eq!(rows, [("2", "31934", "Leader"), ("1", "31933", "Follower"), ("3", "31934", "Follower")]);
    assert!(table[1..].iter().all(|r| r[4] == "-1" && r[5] == "-1"), "no file holds fetch times: {table:?}");

    let status = run("--status", false);
    let labels: Vec<&str> = status.lines().take(8).map(|l| l.split(':').next().unwrap()).collect();
    assert_eq!(
        labels,
        [
            "ClusterId",
            "LeaderId",
            "LeaderEpoch",
            "HighWatermark",
            "MaxFollowerLag",
            "MaxFollowerLagTimeMs",
            "CurrentVoters",
            "CurrentObservers"
        ]
    );
    assert!(status.contains("LeaderId:               2\nLeaderEpoch:            36\n"), "{status}");
    assert!(status.contains("CurrentVoters:          [{\"id\": 1}, {\"id\": 2}, {\"id\": 3}]"), "{status}");

    let json: serde_json::Value = serde_json::from_str(&run("--replication", true)).unwrap();
    assert_eq!((json["leader_id"].as_i64(), json["leader_epoch"].as_i64()), (Some(2), Some(36)));
    assert_eq!(json["replicas"][0]["status"], "Leader");
}

#[test]
fn describe_refuses_what_it_cannot_read_with_a_clear_message() {
    for (args, says) in [
        (&["quorum"][..], "give: kraftscope quorum describe"),
        (&["quorum", "list"][..], "'list' is not a command of it"),
        (&["quorum", "describe", "."][..], "one of --status and --replication"),
        (&["quorum", "describe", "--status", "--replication", "."][..], "one of --status and --replication"),
        (&["quorum", "describe", "--status"][..], "needs the nodes' directories"),
        (&["quorum", "describe", "--status", "--all", "."][..], "unknown option --all"),
        (&["quorum", "describe", "--status", "no/such/dir"][..], "no/such/dir does not exist"),
        (&["quorum", "describe", "--status", "src/cli"][..], "no node's quorum-state was read"),
    ] {
        let out = kraftscope(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// A simulated leader's `DescribeQuorum` answer holds what its `LeaderState` holds for each
/// replica, and `run --describe-quorum` prints it as Kafka's tool does.
#[test]
fn the_simulated_leaders_answer_is_what_it_holds_of_each_replica() {
    let settings = Settings { brokers: 2, ..Settings::default() };
    let mut sim = Simulation::new(settings.cluster_config(), 3);
    sim.run_until(60_000 * MS);
    let leader = sim.leader().expect("a leader");
    let described = QuorumDescription::of_leader(leader, sim.now()).unwrap();
    let (voters, observers) = leader.replica_states().unwrap();
    assert_eq!(described.replicas.len(), voters.len() + observers.len());
    assert_eq!(described.current_observers.len(), 2, "the brokers fetch as observers");
    for state in voters.iter().chain(observers) {
        let row = described.replicas.iter().find(|r| r.node_id == i64::from(state.key.id)).unwrap();
        if state.key.id == leader.id() {
            let now = (sim.now() / MS) as i64;
            assert_eq!((row.last_fetch_timestamp, row.last_caught_up_timestamp), (now, now));
            assert_eq!(row.log_end_offset, leader.log().end_offset() as i64);
            continue;
        }
        let ms = |t: Option<u64>| t.map_or(-1, |t| (t / MS) as i64);
        assert_eq!(row.log_end_offset, state.end_offset.map_or(-1, |o| o as i64), "n{}", row.node_id);
        assert_eq!(row.last_fetch_timestamp, ms(state.last_fetch), "n{}", row.node_id);
        assert_eq!(row.last_caught_up_timestamp, ms(state.last_caught_up), "n{}", row.node_id);
        assert!(row.last_fetch_timestamp > 50_000, "n{} fetched lately: {row:?}", row.node_id);
    }
    assert_eq!(described.high_watermark, leader.high_watermark().unwrap() as i64);
    assert!(!described.high_watermark_derived);
}

/// `run --scenario leader-crash --describe-quorum` (the page's spelling): after the old leader
/// has come back, every cell of both tables is known, and each equals what the same run's
/// leader holds (the run replayed here in process, with the same seed).
#[test]
fn run_describe_quorum_prints_what_the_runs_leader_holds() {
    let out = kraftscope(&["run", "--scenario", "leader-crash", "--notable", "--describe-quorum"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let status = &text[text.find("describe --status\n").expect("the status lines") + 18..];
    let table = &text[text.find("describe --replication\n").expect("the replication table") + 23..];
    let rows = cells(table);
    assert_eq!(rows[0], HEAD);

    let script = kraftscope::scenario::catalog::find("leader_crash").unwrap();
    let mut run = ScenarioRun::new(1, Detail::Notable);
    for block in script::parse(script).unwrap() {
        run.execute(&block).unwrap();
    }
    let sim = run.simulation().unwrap();
    let leader = sim.leader().expect("a leader at the end");
    let now = (sim.now() / MS) as i64;
    let (voters, observers) = leader.replica_states().unwrap();
    assert_eq!((voters.len(), observers.len(), rows.len()), (3, 0, 4), "{table}");
    for state in voters {
        let id = state.key.id;
        let row =
            rows[1..].iter().find(|r| r[0] == id.to_string()).unwrap_or_else(|| panic!("n{id}: {table}"));
        let ms = |t: Option<u64>| t.map_or(-1, |t| (t / MS) as i64);
        let (end, fetch, caught_up, status) = if id == leader.id() {
            (leader.log().end_offset() as i64, now, now, "Leader")
        } else {
            (
                state.end_offset.map_or(-1, |o| o as i64),
                ms(state.last_fetch),
                ms(state.last_caught_up),
                "Follower",
            )
        };
        let lag = leader.log().end_offset() as i64 - end;
        let want =
            [end.to_string(), lag.to_string(), fetch.to_string(), caught_up.to_string(), status.into()];
        assert_eq!(row[2..], want, "n{id}");
    }
    assert!(rows[1..].iter().flatten().all(|cell| cell != "-1"), "every value known:\n{table}");
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(':'))
            .map(str::trim)
            .unwrap()
            .to_string()
    };
    assert_eq!(field("LeaderId"), leader.id().to_string());
    assert_eq!(field("LeaderEpoch"), leader.epoch().to_string());
    assert_eq!(field("HighWatermark"), leader.high_watermark().unwrap().to_string());
    assert_eq!((field("MaxFollowerLag"), field("MaxFollowerLagTimeMs")), ("0".into(), "0".into()));
}

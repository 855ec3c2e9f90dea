//! `kraftscope`: run, check and measure the KRaft simulation from the command line.

mod cli;

use std::process::ExitCode;

use cli::args::Args;

const USAGE: &str = "usage:
  kraftscope check [--seeds N] [--first-seed S] [--seed S] [--sabotage NAME[,NAME]] [--threads T] [--quiet]
      sweep seeds through crashes, restarts, drops, partitions and writes, checking every
      invariant after every event; each seed also migrates a ZooKeeper-mode cluster to KRaft
      (Kafka 3.9) through controller deaths, ZooKeeper outages, broker deaths and brokers cut off
      ZooKeeper past their session timeout
  kraftscope run --scenario NAME [--seed S] [--notable] [--write-log DIR] [--write-nodes DIR] [--describe-quorum]
      (the migration's scenarios: migration, migration-failover, migration-copy-failover,
      migration-zk-down, migration-rollback, migration-rollback-hazard, migration-stranded,
      migration-zk-session)
  kraftscope run --file PATH [--seed S] [--notable] [--write-log DIR] [--write-nodes DIR] [--describe-quorum]
      play a scenario script and print its trace (every event, or state changes only);
      --write-log exports the committed metadata log and snapshots as Kafka's files in DIR;
      --write-nodes every running node's directories as Kafka keeps them (DIR/n1, DIR/n2, ...);
      --describe-quorum the active controller's DescribeQuorum answer at the end, as
      kafka-metadata-quorum describe --status and --replication print it
  kraftscope elections [--trials N] [--voters V[,V...]] [--election-timeout MS] [--fetch-timeout MS] [--first-seed S]
      kill the leader in N seeded trials and print the distribution of time to a new leader
  kraftscope quorum-sizing [--voters V[,V...]] [--latency MIN-MAX[,MIN-MAX...]] [--trials N] [--first-seed S]
      for each number of voters: the majority, the failures tolerated, commit latency and
      leaderless time after the leader dies, at each one-way link latency (ms)
  kraftscope failover [--partitions N,N,...] [--mode both|kraft|zk] [--kraft-roles both|dedicated|combined] [--zk-preset async|sync-2017] [--csv] [--detail] [--seed S]
      kill the active controller and measure metadata unavailability, KRaft against ZooKeeper mode
  kraftscope migration [--partitions N,N,...] [--partitions-per-topic N] [--seed S]
      migrate a ZooKeeper-mode cluster to KRaft (Kafka 3.9) at each size: how long the claim,
      the copy, the reconcile and the first push take, and how long no controller acts
  kraftscope inspect PATH [--json]
      decode a real __cluster_metadata .log segment, .checkpoint snapshot or directory: batches,
      records, offsets, leader epochs, LeaderChange records, CRC failures, a count per record
      type and the image the records build
  kraftscope inspect DIR... [--json]
      read KRaft nodes' directories (each node's, or a parent holding several): every file
      recognised, per node its quorum-state, meta.properties, log range, snapshots, last
      LeaderChange and record counts, then what the nodes' files disagree on
  kraftscope history DIR...|FILE... [--json]
      a metadata log's history on the cluster's own clock (its batches' timestamps, UTC):
      each election with how long no controller wrote before it, brokers registering,
      restarting, fenced, unfenced and shut down, topics, features and partitions losing and
      regaining their leader; totals at the end (nodes' directories: the leader's log)
  kraftscope quorum describe --status|--replication DIR... [--json]
      what Kafka's kafka-metadata-quorum describe prints, read off nodes' directories: the
      leader, epoch, voters and observers (--status), each replica's log end offset and lag
      (--replication); what only a live leader knows printed as -1, the high watermark derived
  kraftscope render --scenario NAME [--at MS] [--seed S] [--theme light|dark] [--caption TEXT] [--out FILE.svg]
  kraftscope render --view race [--partitions N] [--kraft-roles dedicated|combined] [--at MS] [--seed S] [--theme ...] [--caption ...] [--out ...]
  kraftscope render --view pains --scenario zk-stale-cache|zk-liveness|zk-watch-storm|zk-security [--at MS] [--theme ...] [--caption ...] [--out ...]
  kraftscope render --view log --files PATH[,PATH...] [--at RECORDS] [--theme ...] [--caption ...] [--out ...]
      a still of a scenario's cluster (its opening moment, or MS of simulated time) as SVG:
      the file the page's Save picture saves for that moment, made by the same code; or of
      the failover race MS after the kill (before the kill without --at); or of a ZooKeeper
      pain MS into it; or of a metadata log's files (or nodes' directories) opened as the page
      opens them, its image after RECORDS records (after the last without --at)
  kraftscope render --scenario NAME [--at MS] [--seed S] [--theme ...] [--caption ...] --clip SECONDS [--fps N] --frames DIR
      a clip of the cluster for a slide tool: 2 to 60 s played as the page plays it, one SVG a
      frame (30 a second without --fps) written as DIR/frame-0000.svg, ...; frame 0 is the still
  kraftscope help";

/// A write to a closed pipe (`kraftscope failover | head`) ends the process quietly, as it does
/// a C tool's: Rust's runtime ignores SIGPIPE, so `println!` would panic on the EPIPE instead.
#[cfg(unix)]
fn die_quietly_on_a_closed_pipe() {
    const SIGPIPE: i32 = 13;
    const SIG_DFL: usize = 0;
    unsafe extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }
    // SAFETY: `signal` from the C library the standard library already links, called before
    // any other thread exists, restoring SIGPIPE's default action (no handler of ours runs).
    unsafe {
        signal(SIGPIPE, SIG_DFL);
    }
}

fn main() -> ExitCode {
    #[cfg(unix)]
    die_quietly_on_a_closed_pipe();
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let Some((command, rest)) = argv.split_first() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    if rest.iter().any(|arg| arg == "--help" || arg == "-h") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let result = match command.as_str() {
        "check" => Args::parse(rest, &["quiet"]).and_then(|a| cli::check_cmd::run(&a)),
        "run" => Args::parse(rest, &["notable", "describe-quorum"]).and_then(|a| cli::run_cmd::run(&a)),
        "failover" => Args::parse(rest, &["csv", "detail"]).and_then(|a| cli::failover_cmd::run(&a)),
        "migration" => Args::parse(rest, &[]).and_then(|a| cli::migration_cmd::run(&a)),
        "elections" => Args::parse(rest, &[]).and_then(|a| cli::elections_cmd::run(&a)),
        "render" => Args::parse(rest, &[]).and_then(|a| cli::render_cmd::run(&a)),
        "quorum-sizing" => Args::parse(rest, &[]).and_then(|a| cli::sizing_cmd::run(&a)),
        "quorum" => cli::quorum_cmd::run(rest),
        "inspect" | "history" => {
            let paths: Vec<&str> =
                rest.iter().take_while(|a| !a.starts_with("--")).map(String::as_str).collect();
            match paths.as_slice() {
                [] => Err(format!("{command} needs a PATH\n{USAGE}")),
                _ => Args::parse(&rest[paths.len()..], &["json"]).and_then(|a| match command.as_str() {
                    "inspect" => cli::inspect_cmd::run(&paths, &a),
                    _ => cli::history_cmd::run(&paths, &a),
                }),
            }
        }
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(true)
        }
        other => Err(format!("unknown command '{other}'\n{USAGE}")),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("kraftscope: {message}");
            ExitCode::from(2)
        }
    }
}

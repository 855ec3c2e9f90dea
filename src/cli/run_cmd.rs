//! `kraftscope run`: play a built-in scenario (or a script file) and print its trace.

use std::path::Path;

use kraftscope::harness::format_time;
use kraftscope::kafka_log::directory::write_files;
use kraftscope::kafka_log::quorum::QuorumDescription;
use kraftscope::migration;
use kraftscope::scenario::{Detail, ScenarioRun, ScriptError, catalog, script};

use super::args::Args;

pub(crate) fn run(args: &Args) -> Result<bool, String> {
    args.only(&["scenario", "file", "seed", "notable", "write-log", "write-nodes", "describe-quorum"])?;
    let seed: u64 = args.get("seed", 1)?;
    if let Some(scenario) = args.text("scenario").and_then(migration::scenarios::find) {
        return run_migration(scenario, seed, args.has("notable"));
    }
    let text = match (args.text("scenario"), args.text("file")) {
        (Some(name), None) => catalog::find(name)
            .map_err(|e| {
                let migrations: Vec<&str> = migration::scenarios::SCENARIOS.iter().map(|s| s.id).collect();
                format!("{e}; the migration's: {}", migrations.join(", "))
            })?
            .to_string(),
        (None, Some(path)) => {
            std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?
        }
        _ => {
            let names: Vec<&str> = catalog::SCENARIOS.iter().map(|(n, _)| *n).collect();
            let migrations = migration::scenarios::SCENARIOS.iter().map(|s| s.id);
            let names: Vec<&str> = names.into_iter().chain(migrations).collect();
            return Err(format!("give --scenario NAME or --file PATH (scenarios: {})", names.join(", ")));
        }
    };
    let detail = if args.has("notable") { Detail::Notable } else { Detail::Full };
    let blocks = script::parse(&text).map_err(|e| e.to_string())?;
    let mut run = ScenarioRun::new(seed, detail);
    for block in &blocks {
        println!("> {}", block.directive());
        let lines = run.execute(block).map_err(|e| ScriptError::at(block, e).to_string())?;
        for line in lines {
            println!("{line}");
        }
    }
    if let Some(dir) = args.text("write-log") {
        write_log(&run, Path::new(dir))?;
    }
    if let Some(dir) = args.text("write-nodes") {
        write_nodes(&run, Path::new(dir))?;
    }
    if args.has("describe-quorum") {
        print!("{}", describe_quorum(&run));
    }
    Ok(true)
}

/// What `kafka-metadata-quorum describe --status` and `--replication` would print at the end of
/// the run: the active controller's `DescribeQuorum` answer.
fn describe_quorum(run: &ScenarioRun) -> String {
    let Some(sim) = run.simulation() else { return "no cluster was started: nothing to describe\n".into() };
    let described = sim.leader().and_then(|leader| QuorumDescription::of_leader(leader, sim.now()));
    match described {
        Some(d) => format!(
            "\n$ kafka-metadata-quorum describe --status\n{}\n$ kafka-metadata-quorum describe --replication\n{}\nTimestamps are simulated milliseconds since the run began (Kafka's are since the Unix epoch).\n",
            d.status_text(),
            d.replication_text()
        ),
        None => {
            "\nno active controller at the end of the run: DescribeQuorum has no leader to answer it\n".into()
        }
    }
}

/// A migration scenario (Kafka 3.9): its trace, then the invariants' verdict.
fn run_migration(
    scenario: &migration::scenarios::Scenario,
    seed: u64,
    notable: bool,
) -> Result<bool, String> {
    println!("# {}: {} (Kafka 3.9, seed {seed})", scenario.id, scenario.about);
    let sim = scenario.run(seed).map_err(|e| format!("{}: {e}", scenario.id))?;
    for line in sim.trace().iter().filter(|l| !notable || l.kind.notable()) {
        println!("{:>12}  {}", format_time(line.at), line.kind);
    }
    let violations = sim.violations();
    if !violations.is_empty() {
        println!(
            "{} invariant violations; reproduce: kraftscope run --scenario {} --seed {seed}",
            violations.len(),
            scenario.id
        );
    }
    Ok(violations.is_empty())
}

/// Export every running node's directories as Kafka keeps them, one folder a node.
fn write_nodes(run: &ScenarioRun, dir: &Path) -> Result<(), String> {
    let sim = run.simulation().ok_or("the scenario started no cluster, so there are no nodes to write")?;
    let files = sim.node_directories();
    if files.is_empty() {
        return Err("no node is running, so there are no directories to write".into());
    }
    write_files(dir, &files)?;
    let mut nodes: Vec<&str> = files.iter().filter_map(|f| f.name.split('/').next()).collect();
    nodes.dedup();
    println!("wrote {} nodes' directories to {}: {}", nodes.len(), dir.display(), nodes.join(", "));
    Ok(())
}

/// Export the committed log and snapshots of the active controller (or, with none, of the
/// running node furthest ahead) as a Kafka `__cluster_metadata-0` directory.
fn write_log(run: &ScenarioRun, dir: &Path) -> Result<(), String> {
    let sim = run.simulation().ok_or("the scenario started no cluster, so there is no log to write")?;
    let (node, committed, files) =
        sim.kafka_files().ok_or("no node is running, so there is no log to write")?;
    write_files(dir, &files)?;
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    println!(
        "wrote n{node}'s committed log (offsets below {committed}) to {}: {}",
        dir.display(),
        names.join(", ")
    );
    Ok(())
}

//! `kraftscope check`: sweep seeds through chaos and report any invariant violation with the
//! command that reproduces it.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use kraftscope::invariants::Violation;
use kraftscope::migration::sim::MigrationSabotage;
use kraftscope::sim::simulation::QuorumFormat;
use kraftscope::sweep::check::{Failure, SeedParams, SeedReport, run_seed};
use kraftscope::sweep::migration::{
    MIGRATION_FINISHES, MigrationFailure, MigrationOutcome, MigrationSeed, run_migration_seed,
};
use kraftscope::sweep::sabotage::Sabotage;

use super::args::Args;

/// The most seeds one sweep runs.
const MAX_SEEDS: u64 = 10_000_000;

pub(crate) fn run(args: &Args) -> Result<bool, String> {
    args.only(&["seeds", "seed", "first-seed", "sabotage", "threads", "quiet"])?;
    let mut sabotage = Sabotage::default();
    let mut migration = MigrationSabotage::default();
    if let Some(names) = args.text("sabotage") {
        for name in names.split(',') {
            if !migration.enable(name) {
                let names = MigrationSabotage::NAMES.map(|(n, _)| n).join(", ");
                sabotage.enable(name).map_err(|e| format!("{e}; the migration's: {names}"))?;
            }
        }
    }
    let seeds: Vec<u64> = match args.text("seed") {
        Some(_) => vec![args.get("seed", 0u64)?],
        None => {
            let count: u64 = args.get("seeds", 100)?;
            if count > MAX_SEEDS {
                return Err(format!("--seeds: at most {MAX_SEEDS} in one sweep"));
            }
            let first: u64 = args.get("first-seed", 1)?;
            (first..first.saturating_add(count)).collect()
        }
    };
    let threads = args.get("threads", std::thread::available_parallelism().map_or(1, |n| n.get()))?.max(1);
    let quiet = args.has("quiet");
    let started = std::time::Instant::now();
    let results = sweep(&seeds, (sabotage, migration), threads);
    let mut violations = 0;
    let (mut dynamic, mut changes, mut wipes, mut upgrades) = (0, 0, 0, 0);
    let (mut reordering, mut overtaken, mut duplicating, mut duplicated) = (0, 0, 0, 0);
    let (mut powering, mut power_losses, mut torn_writes) = (0, 0, 0);
    let (mut stranded, mut migration_violations, mut copies_lost) = (Vec::new(), 0, 0);
    let (mut expiring, mut sessions_expired, mut failed_starts) = (0, 0, 0);
    for (params, result, migrated) in &results {
        if !quiet {
            println!("{params}");
            println!("{}", MigrationSeed::derive(params.seed, migration));
        }
        match migrated {
            Ok(outcome) => {
                copies_lost += outcome.copies_lost;
                sessions_expired += outcome.sessions_expired;
                failed_starts += outcome.failed_starts;
                if outcome.sessions_expired > 0 {
                    expiring += 1;
                }
                if outcome.stranded {
                    stranded.push(params.seed.to_string());
                }
            }
            Err(failure) => {
                migration_violations += 1;
                violations += 1;
                if violations <= 3 {
                    report_migration(params.seed, failure, args.text("sabotage"));
                }
            }
        }
        if params.cluster.format != QuorumFormat::Static {
            dynamic += 1;
        }
        if let Ok(report) = result {
            changes += report.voter_changes;
            wipes += report.disk_wipes;
            upgrades += report.kraft_upgrades;
            overtaken += report.chaos.overtaken;
            duplicated += report.chaos.duplicated;
            power_losses += report.chaos.power_losses;
            torn_writes += report.chaos.torn_writes;
            if params.storage_share > 0.0 {
                powering += 1;
            }
            if params.cluster.network.reorder {
                reordering += 1;
            }
            if params.cluster.network.duplicate_rate > 0.0 {
                duplicating += 1;
            }
        }
        if let Err(failure) = result {
            violations += 1;
            if violations <= 3 {
                report(params, failure, args.text("sabotage"));
            }
        }
    }
    println!(
        "the network's chaos in the seeds that passed: messages may overtake in {reordering} ({overtaken} delivered before one sent earlier), are duplicated in {duplicating} ({duplicated} second copies delivered)"
    );
    println!(
        "the disks' chaos in the seeds that passed: the power fails in {powering} ({power_losses} power losses, {torn_writes} of them in the middle of a write: torn writes)"
    );
    println!(
        "dynamic quorums in {dynamic} of {} seeds: {changes} voter changes accepted, {wipes} disks wiped, {upgrades} static quorums upgraded to kraft.version 1",
        seeds.len()
    );
    println!(
        "migrations from ZooKeeper mode (Kafka 3.9) in {} seeds: {copies_lost} copies lost with their controller and redone; {migration_violations} broke an invariant; {} stranded where 3.9 strands them (the copy committed, /migration not written: every later driver stays INACTIVE){}",
        seeds.len(),
        stranded.len(),
        match stranded.len() {
            0 => String::new(),
            1..=10 => format!(": seeds {}", stranded.join(", ")),
            _ => format!(": seeds {}, ...", stranded[..10].join(", ")),
        }
    );
    println!(
        "the migrations' ZooKeeper sessions in the seeds that passed: a broker cut off ZooKeeper lost its session in {expiring} ({sessions_expired} sessions expired); {failed_starts} broker starts failed on a /brokers/ids znode a dead process's session still held (the operator tries again 5 s later)"
    );
    println!(
        "checked {} seeds: {violations} violations in {:.1} s on {threads} thread(s)",
        seeds.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(violations == 0)
}

type SeedResult =
    (SeedParams, Result<SeedReport, Box<Failure>>, Result<MigrationOutcome, Box<MigrationFailure>>);

/// Each seed runs a KRaft cluster under chaos, then migrates a ZooKeeper-mode cluster.
fn sweep(
    seeds: &[u64],
    (sabotage, migration): (Sabotage, MigrationSabotage),
    threads: usize,
) -> Vec<SeedResult> {
    let next = AtomicU64::new(0);
    let results = Mutex::new(Vec::with_capacity(seeds.len()));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed) as usize;
                    let Some(&seed) = seeds.get(index) else { break };
                    let params = SeedParams::derive(seed, sabotage);
                    let result = run_guarded(&params, seeds.len() == 1);
                    let migrated = migrate_guarded(&MigrationSeed::derive(seed, migration));
                    results.lock().expect("a sweep thread panicked").push((index, params, result, migrated));
                }
            });
        }
    });
    let mut results = results.into_inner().expect("a sweep thread panicked");
    results.sort_by_key(|(index, _, _, _)| *index);
    results.into_iter().map(|(_, p, r, m)| (p, r, m)).collect()
}

/// Run a seed, turning a panic inside the core into a reported failure.
fn run_guarded(params: &SeedParams, trace: bool) -> Result<SeedReport, Box<Failure>> {
    match catch_unwind(AssertUnwindSafe(|| run_seed(params, trace))) {
        Ok(result) => result,
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            let violation = Violation { invariant: "no panic in the core", detail: message };
            Err(Box::new(Failure { violation, event: 0, at: 0, trace_tail: Vec::new() }))
        }
    }
}

/// A seed's migration, a panic in it reported as a failure.
fn migrate_guarded(params: &MigrationSeed) -> Result<MigrationOutcome, Box<MigrationFailure>> {
    catch_unwind(AssertUnwindSafe(|| run_migration_seed(params))).unwrap_or_else(|panic| {
        let detail = panic.downcast_ref::<String>().cloned().unwrap_or_else(|| format!("{params}"));
        Err(Box::new(MigrationFailure {
            invariant: "no panic in the core",
            detail,
            at: 0,
            trace_tail: Vec::new(),
        }))
    })
}

fn report_migration(seed: u64, failure: &MigrationFailure, sabotage: Option<&str>) {
    let params = MigrationSeed::derive(seed, MigrationSabotage::default());
    let kind = if failure.invariant == MIGRATION_FINISHES { "LIVENESS" } else { "VIOLATION" };
    println!("{kind} in seed {seed}'s migration: {failure}");
    println!("  swarm: {params}");
    for line in &failure.trace_tail {
        println!("  | {line}");
    }
    let sabotage = sabotage.map_or(String::new(), |s| format!(" --sabotage {s}"));
    println!("  reproduce with: kraftscope check --seed {seed}{sabotage}");
}

fn report(params: &SeedParams, failure: &Failure, sabotage: Option<&str>) {
    println!("VIOLATION in seed {}: {}", params.seed, failure.violation);
    println!("  swarm: {params}");
    println!("  after event #{} at {}", failure.event, kraftscope::harness::format_time(failure.at));
    for line in &failure.trace_tail {
        println!("  | {line}");
    }
    let sabotage = sabotage.map_or(String::new(), |s| format!(" --sabotage {s}"));
    println!("  reproduce with: kraftscope check --seed {}{sabotage}", params.seed);
}

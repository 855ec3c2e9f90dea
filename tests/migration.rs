//! The migration's scenarios (Kafka 3.9) with their expected traces, and what each fault does
//! that the trace alone does not show: who kept up while ZooKeeper was down, what a failover
//! re-wrote, what the aborted copy left in the log, what a rollback finds in ZooKeeper.

use kraftscope::harness::MS;
use kraftscope::migration::driver::DriverNote;
use kraftscope::migration::log::MetaRecord;
use kraftscope::migration::scenarios::{self, SCENARIOS};
use kraftscope::migration::sim::{Action, BrokerMode, MigrationConfig, MigrationSim, TraceKind, TraceLine};
use kraftscope::migration::state::{MigrationDriverState, ZkMigrationState};
use kraftscope::migration::timeline::Timeline;
use kraftscope::zk::{PartitionState, ZnodeData, ZnodePath};

/// `kraftscope run --scenario migration --notable` up to the copy's first batch, less the times:
/// the start every scenario but the copy's failover shares (seed 1).
const TO_THE_COPY: [&str; 17] = [
    "operator: provision the KRaft controllers in migration mode",
    "controller 3002 leads epoch 1",
    "controller 3002 activates: BeginTransaction, bootstrap records, ZkMigrationState(PRE_MIGRATION), EndTransaction",
    "driver 3002: INACTIVE -> WAIT_FOR_CONTROLLER_QUORUM",
    "operator: restart broker 0 in migration mode",
    "driver 3002: WAIT_FOR_CONTROLLER_QUORUM -> WAIT_FOR_BROKERS",
    "operator: restart broker 1 in migration mode",
    "broker 3 wins /controller: ZooKeeper controller at epoch 2",
    "operator: restart broker 2 in migration mode",
    "operator: restart broker 3 in migration mode",
    "broker 2 wins /controller: ZooKeeper controller at epoch 3",
    "driver 3002: WAIT_FOR_BROKERS -> BECOME_CONTROLLER",
    "driver 3002: claimed /controller, /controller_epoch now 4",
    "driver 3002: BECOME_CONTROLLER -> ZK_MIGRATION",
    "broker 2 hears /controller changed and resigns as ZooKeeper controller",
    "driver 3002: copy started: BeginTransaction, then ZooKeeper read topic by topic",
    "copy: a batch of 18 records appended, committed by 21669.584ms",
];

/// Then, up to dual-write, in every scenario that gets there without a fault.
const TO_DUAL_WRITE: [&str; 6] = [
    "driver 3002: copy committed at offset 34 (epoch 1); /migration records it",
    "driver 3002: ZK_MIGRATION -> SYNC_KRAFT_TO_ZK",
    "driver 3002: ZooKeeper reconciled with the image in full",
    "driver 3002: SYNC_KRAFT_TO_ZK -> KRAFT_CONTROLLER_TO_BROKER_COMM",
    "driver 3002: full UpdateMetadata and LeaderAndIsr sent, controller epoch 4",
    "driver 3002: KRAFT_CONTROLLER_TO_BROKER_COMM -> DUAL_WRITE",
];

/// `kraftscope run --scenario migration --notable`, after dual-write, less the times.
const MIGRATION: [&str; 9] = [
    "operator: restart broker 0 as a KRaft broker",
    "operator: restart broker 1 as a KRaft broker",
    "operator: restart broker 2 as a KRaft broker",
    "operator: restart broker 3 as a KRaft broker",
    "operator: finalize: roll the controllers without the migration flag",
    "controller 3000 leads epoch 2",
    "controller 3000 activates: ZkMigrationState(POST_MIGRATION)",
    "POST_MIGRATION: ZooKeeper is no longer written; no rollback from here",
    "operator: roll back: deprovision the controllers, delete /controller and /migration: refused, the migration was finalized: ZooKeeper is no longer written, so it is behind the log for good",
];

/// `kraftscope run --scenario migration-failover --notable`, after dual-write, less the times.
const MIGRATION_FAILOVER: [&str; 14] = [
    "operator: kill broker 1",
    "broker 1 fenced (no heartbeat for 9 s), 3 leaders moved, 6 ISRs shrunk with a higher leader epoch (for the ZooKeeper-mode brokers)",
    "ZooKeeper: 9 partition states written in 6 per-topic batches, done at 30656.334ms",
    "operator: kill the active KRaft controller",
    "controller 3000 leads epoch 2",
    "controller 3000 activates, writing nothing",
    "driver 3000: INACTIVE -> WAIT_FOR_CONTROLLER_QUORUM",
    "driver 3000: WAIT_FOR_CONTROLLER_QUORUM -> BECOME_CONTROLLER",
    "driver 3000: claimed /controller, /controller_epoch now 5",
    "driver 3000: BECOME_CONTROLLER -> SYNC_KRAFT_TO_ZK",
    "driver 3000: ZooKeeper reconciled with the image in full",
    "driver 3000: SYNC_KRAFT_TO_ZK -> KRAFT_CONTROLLER_TO_BROKER_COMM",
    "driver 3000: full UpdateMetadata and LeaderAndIsr sent, controller epoch 5",
    "driver 3000: KRAFT_CONTROLLER_TO_BROKER_COMM -> DUAL_WRITE",
];

/// `kraftscope run --scenario migration-copy-failover --notable`, whole, less the times.
const MIGRATION_COPY_FAILOVER: [&str; 34] = [
    "operator: provision the KRaft controllers in migration mode",
    "controller 3001 leads epoch 1",
    "controller 3001 activates: BeginTransaction, bootstrap records, ZkMigrationState(PRE_MIGRATION), EndTransaction",
    "driver 3001: INACTIVE -> WAIT_FOR_CONTROLLER_QUORUM",
    "operator: restart broker 0 in migration mode",
    "driver 3001: WAIT_FOR_CONTROLLER_QUORUM -> WAIT_FOR_BROKERS",
    "operator: restart broker 1 in migration mode",
    "operator: restart broker 2 in migration mode",
    "broker 1 wins /controller: ZooKeeper controller at epoch 2",
    "operator: restart broker 3 in migration mode",
    "driver 3001: WAIT_FOR_BROKERS -> BECOME_CONTROLLER",
    "driver 3001: claimed /controller, /controller_epoch now 3",
    "driver 3001: BECOME_CONTROLLER -> ZK_MIGRATION",
    "broker 1 hears /controller changed and resigns as ZooKeeper controller",
    "driver 3001: copy started: BeginTransaction, then ZooKeeper read topic by topic",
    "copy: a batch of 209 records appended, committed by 21512.980ms",
    "operator: kill the active KRaft controller",
    "copy: lost with controller 3001",
    "controller 3002 leads epoch 2",
    "controller 3002 activates: AbortTransaction",
    "driver 3002: INACTIVE -> WAIT_FOR_CONTROLLER_QUORUM",
    "driver 3002: WAIT_FOR_CONTROLLER_QUORUM -> WAIT_FOR_BROKERS",
    "driver 3002: WAIT_FOR_BROKERS -> BECOME_CONTROLLER",
    "driver 3002: claimed /controller, /controller_epoch now 4",
    "driver 3002: BECOME_CONTROLLER -> ZK_MIGRATION",
    "driver 3002: copy started: BeginTransaction, then ZooKeeper read topic by topic",
    "copy: a batch of 209 records appended, committed by 23623.945ms",
    "copy: a batch of 121 records appended, committed by 23637.355ms",
    "driver 3002: copy committed at offset 557 (epoch 2); /migration records it",
    "driver 3002: ZK_MIGRATION -> SYNC_KRAFT_TO_ZK",
    "driver 3002: ZooKeeper reconciled with the image in full",
    "driver 3002: SYNC_KRAFT_TO_ZK -> KRAFT_CONTROLLER_TO_BROKER_COMM",
    "driver 3002: full UpdateMetadata and LeaderAndIsr sent, controller epoch 4",
    "driver 3002: KRAFT_CONTROLLER_TO_BROKER_COMM -> DUAL_WRITE",
];

/// `kraftscope run --scenario migration-zk-down --notable`, after dual-write, less the times.
const MIGRATION_ZK_DOWN: [&str; 8] = [
    "operator: restart broker 0 as a KRaft broker",
    "operator: ZooKeeper unreachable for 30000 ms",
    "ZooKeeper unreachable until 59681.964ms",
    "operator: kill broker 2",
    "driver 3002 blocks retrying ZooKeeper until 59681.964ms",
    "broker 2 fenced (no heartbeat for 9 s), 3 leaders moved, 6 ISRs shrunk with a higher leader epoch (for the ZooKeeper-mode brokers)",
    "ZooKeeper back; ZooKeeper is 10 records behind the log",
    "ZooKeeper: 9 partition states written in 6 per-topic batches, done at 59687.964ms",
];

/// `kraftscope run --scenario migration-rollback --notable`, after dual-write, less the times:
/// a broker in migration mode is elected at once, then the brokers roll one at a time (and each
/// restart of the ZooKeeper-mode controller's broker moves it).
const MIGRATION_ROLLBACK: [&str; 11] = [
    "operator: kill broker 1",
    "broker 1 fenced (no heartbeat for 9 s), 3 leaders moved, 6 ISRs shrunk with a higher leader epoch (for the ZooKeeper-mode brokers)",
    "ZooKeeper: 9 partition states written in 6 per-topic batches, done at 30656.334ms",
    "operator: roll back: deprovision the controllers, delete /controller and /migration",
    "broker 0 wins /controller: ZooKeeper controller at epoch 5",
    "operator: restart broker 0 in ZooKeeper mode, the migration flag removed",
    "broker 2 wins /controller: ZooKeeper controller at epoch 6",
    "operator: restart broker 1 in ZooKeeper mode, the migration flag removed",
    "operator: restart broker 2 in ZooKeeper mode, the migration flag removed",
    "broker 0 wins /controller: ZooKeeper controller at epoch 7",
    "operator: restart broker 3 in ZooKeeper mode, the migration flag removed",
];

/// `kraftscope run --scenario migration-isr-shrink --notable`, after dual-write, less the times:
/// the fence raises the leader epoch of the ISRs broker 1 leaves, and dual-write writes the
/// change topic by topic.
const MIGRATION_ISR_SHRINK: [&str; 3] = [
    "operator: kill broker 1",
    "broker 1 fenced (no heartbeat for 9 s), 3 leaders moved, 6 ISRs shrunk with a higher leader epoch (for the ZooKeeper-mode brokers)",
    "ZooKeeper: 9 partition states written in 6 per-topic batches, done at 30656.334ms",
];

/// `kraftscope run --scenario migration-unfence --notable`, after dual-write, less the times:
/// the partitions broker 3 was the last to hold get no leader, then it leads them again.
const MIGRATION_UNFENCE: [&str; 12] = [
    "operator: kill broker 1",
    "broker 1 fenced (no heartbeat for 9 s), 3 leaders moved, 6 ISRs shrunk with a higher leader epoch (for the ZooKeeper-mode brokers)",
    "ZooKeeper: 9 partition states written in 6 per-topic batches, done at 30656.334ms",
    "operator: kill broker 2",
    "broker 2 fenced (no heartbeat for 9 s), 6 leaders moved, 3 ISRs shrunk with a higher leader epoch (for the ZooKeeper-mode brokers)",
    "ZooKeeper: 9 partition states written in 6 per-topic batches, done at 41656.334ms",
    "operator: kill broker 3",
    "broker 3 fenced (no heartbeat for 9 s), 9 leaders moved (3 to none: no other replica in the ISR is alive)",
    "ZooKeeper: 9 partition states written in 6 per-topic batches, done at 54656.334ms",
    "operator: restart broker 3",
    "broker 3 unfenced, 3 leaders elected",
    "ZooKeeper: 3 partition states written in 3 per-topic batches, done at 67689.964ms",
];

/// migration-zk-session after dual-write: broker 1's registration goes and comes back with no
/// fencing (KRaft hears its heartbeats); broker 2's first start fails on its old session.
const MIGRATION_ZK_SESSION: [&str; 9] = [
    "operator: cut broker 1 off ZooKeeper for 20 s",
    "ZooKeeper expires broker 1's session, unheard from for 18 s: /brokers/ids/1 deleted",
    "broker 1 reaches ZooKeeper again, its session gone: a new session, /brokers/ids/1 registered again, a run for /controller if it is free",
    "operator: kill broker 2",
    "operator: restart broker 2",
    "broker 2 fails to start: /brokers/ids/2 is still held by the session of the process that died (it expires at 64681.964ms); NODEEXISTS, the process exits",
    "broker 2 fenced (no heartbeat for 9 s), 3 leaders moved, 6 ISRs shrunk with a higher leader epoch (for the ZooKeeper-mode brokers)",
    "ZooKeeper: 9 partition states written in 6 per-topic batches, done at 55656.334ms",
    "operator: restart broker 2",
];

/// `kraftscope run --scenario migration-stranded --notable` after the copy's first batch, less the times.
const MIGRATION_STRANDED: [&str; 12] = [
    "operator: ZooKeeper unreachable for 10000 ms",
    "ZooKeeper unreachable until 31669.584ms",
    "driver 3002 blocks retrying ZooKeeper until 31669.584ms",
    "operator: kill the active KRaft controller",
    "controller 3000 leads epoch 2",
    "controller 3000 activates, writing nothing",
    "driver 3000 blocks retrying ZooKeeper until 31669.584ms",
    "driver 3000 blocks retrying ZooKeeper until 31669.584ms",
    "ZooKeeper back; /migration records no copy yet",
    "driver 3000: INACTIVE -> WAIT_FOR_CONTROLLER_QUORUM",
    "driver 3000: nothing to migrate: the log says MIGRATION",
    "driver 3000: WAIT_FOR_CONTROLLER_QUORUM -> INACTIVE",
];

/// The scenario's notable lines, as `run --notable` prints them without their times.
fn notable(id: &str, seed: u64) -> (MigrationSim, Vec<String>) {
    let sim = scenarios::find(id).expect("a scenario").run(seed).expect("runs to its end");
    let lines = sim.trace().iter().filter(|l| l.kind.notable()).map(|l| l.kind.to_string()).collect();
    (sim, lines)
}

#[test]
fn each_scenario_traces_as_expected() {
    let (_, lines) = notable("migration-copy-failover", 1);
    let reproduce = "reproduce with kraftscope run --scenario ID --notable";
    assert_eq!(lines, MIGRATION_COPY_FAILOVER, "migration-copy-failover: {reproduce}");
    let (_, lines) = notable("migration-stranded", 1);
    let (start, rest) = lines.split_at(TO_THE_COPY.len().min(lines.len()));
    assert_eq!(start, TO_THE_COPY, "migration-stranded: {reproduce}");
    assert_eq!(rest, MIGRATION_STRANDED, "migration-stranded: {reproduce}");
    for (id, expected) in [
        ("migration", &MIGRATION[..]),
        ("migration-failover", &MIGRATION_FAILOVER[..]),
        ("migration-zk-down", &MIGRATION_ZK_DOWN[..]),
        ("migration-rollback", &MIGRATION_ROLLBACK[..]),
        ("migration-isr-shrink", &MIGRATION_ISR_SHRINK[..]),
        ("migration-unfence", &MIGRATION_UNFENCE[..]),
        ("migration-zk-session", &MIGRATION_ZK_SESSION[..]),
    ] {
        let (_, lines) = notable(id, 1);
        let start: Vec<&str> = TO_THE_COPY.iter().chain(&TO_DUAL_WRITE).copied().collect();
        let (head, rest) = lines.split_at(start.len().min(lines.len()));
        assert_eq!(head, start, "{id}: {reproduce}");
        assert_eq!(rest, expected, "{id}: {reproduce}");
    }
}

#[test]
fn every_scenario_keeps_every_invariant_over_many_seeds() {
    for scenario in &SCENARIOS {
        for seed in 1..=30 {
            let sim = scenario.run(seed).unwrap_or_else(|e| panic!("{} seed {seed}: {e}", scenario.id));
            assert_eq!(
                sim.violations(),
                [],
                "reproduce: kraftscope run --scenario {} --seed {seed}",
                scenario.id
            );
        }
    }
}

/// Partition `p`'s state znode (`/brokers/topics/<topic>/partitions/<partition>/state`), if any.
fn state_znode(sim: &MigrationSim, p: u32) -> Option<PartitionState> {
    let per_topic = sim.config().partitions_per_topic;
    let (topic, partition) = (p / per_topic, p % per_topic);
    sim.zk().inspect(ZnodePath::PartitionState { topic, partition }).and_then(|n| n.partition_state())
}

fn at_of(trace: &[TraceLine], found: impl Fn(&TraceKind) -> bool) -> Option<u64> {
    trace.iter().find(|l| found(&l.kind)).map(|l| l.at)
}

#[test]
fn with_zookeeper_down_the_kraft_broker_keeps_up_and_the_zookeeper_mode_brokers_starve() {
    let (sim, _) = notable("migration-zk-down", 1);
    let trace = sim.trace();
    let back = at_of(trace, |k| matches!(k, TraceKind::ZkBack { .. })).expect("ZooKeeper came back");
    let fenced =
        at_of(trace, |k| matches!(k, TraceKind::BrokerFenced { broker: 2, .. })).expect("broker 2 fenced");
    let kraft_at = trace
        .iter()
        .filter(|l| l.at >= fenced)
        .find(|l| matches!(l.kind, TraceKind::Fetched { broker: 0, .. }));
    let kraft_at = kraft_at.expect("the KRaft broker fetched the change").at;
    assert!(kraft_at < fenced + 10 * MS, "the KRaft broker applied it at once");
    let zk_mode = trace
        .iter()
        .filter(|l| l.at >= fenced)
        .find(|l| matches!(l.kind, TraceKind::RpcApplied { full: false, .. }));
    assert!(zk_mode.expect("the ZooKeeper-mode brokers got it").at >= back, "not before ZooKeeper was back");
    let lag = trace.iter().find_map(|l| match l.kind {
        TraceKind::ZkBack { lag } => lag,
        _ => None,
    });
    assert!(lag.is_some_and(|lag| lag > 0), "the write-behind lag grew: {lag:?}");
    assert_eq!(sim.write_behind_lag(), Some(0), "and drained once ZooKeeper answered");
}

#[test]
fn a_failover_in_dual_write_writes_nothing_until_the_reclaim_then_pushes_in_full_at_a_new_epoch() {
    let (sim, _) = notable("migration-failover", 1);
    let trace = sim.trace();
    let killed = at_of(trace, |k| *k == TraceKind::Operator(Action::KillActiveController)).expect("killed");
    let claim = trace.iter().filter(|l| l.at >= killed).find_map(|l| match l.kind {
        TraceKind::Driver { note: DriverNote::Claimed { zk_controller_epoch }, .. } => {
            Some((l.at, zk_controller_epoch))
        }
        _ => None,
    });
    let (claimed_at, epoch) = claim.expect("the new leader claimed /controller");
    let wrote = trace.iter().any(|l| {
        l.at > killed
            && l.at < claimed_at
            && matches!(l.kind, TraceKind::Driver { note: DriverNote::DualWrote { .. }, .. })
    });
    assert!(!wrote, "no dual-write between the failover and the re-claim");
    let full = trace
        .iter()
        .filter(|l| l.at > claimed_at && matches!(l.kind, TraceKind::RpcApplied { full: true, .. }));
    let epochs: Vec<u32> = full
        .filter_map(|l| match l.kind {
            TraceKind::RpcApplied { zk_epoch, .. } => Some(zk_epoch),
            _ => None,
        })
        .collect();
    assert_eq!(epochs.len(), 3, "every live ZooKeeper-mode broker got the full state again");
    assert!(epochs.iter().all(|e| *e as i32 == epoch), "at the claim's epoch {epoch}: {epochs:?}");
    assert_eq!(sim.driver_state(), Some(MigrationDriverState::DualWrite));
    // The brokers in migration mode replicate the log as observers all along.
    let end = sim.log().image().highest.offset;
    assert_eq!(sim.broker_mode(0), Some(BrokerMode::Migrating));
    assert_eq!(sim.broker_replicated(0), Some(end), "broker 0 holds the log to its end");
}

#[test]
fn a_failover_during_the_copy_aborts_its_transaction_and_the_copy_is_done_again_whole() {
    let (sim, _) = notable("migration-copy-failover", 1);
    let log = sim.log();
    let records: Vec<&MetaRecord> = (0..log.len()).filter_map(|o| log.entry(o)).map(|e| &e.record).collect();
    let begins =
        records.iter().filter(|r| matches!(r, MetaRecord::BeginTransaction { name: "ZK Migration" })).count();
    let aborts = records.iter().filter(|r| matches!(r, MetaRecord::AbortTransaction)).count();
    assert_eq!((begins, aborts), (2, 1), "two copies, the first aborted");
    let image = log.image();
    assert_eq!(image.migration, ZkMigrationState::Migration);
    assert_eq!(image.topics, 30, "each topic once: the aborted copy's records are not in the image");
    assert!(image.partitions.iter().all(Option::is_some));
}

/// #62 item 4: deleting `/controller` fires the migration-mode brokers' watch and one is elected
/// at once (`ControllerChangeHandler.handleDeletion`, `Reelect`), before any broker restarts;
/// then the brokers roll one at a time, never two down at once.
#[test]
fn a_rollback_elects_a_zookeeper_controller_at_once_then_rolls_the_brokers_one_at_a_time() {
    for id in ["migration-rollback", "migration-rollback-hazard"] {
        let (sim, _) = notable(id, 1);
        let trace = sim.trace();
        let rollback = at_of(trace, |k| matches!(k, TraceKind::Operator(Action::RollBack))).unwrap();
        // The first line after the rollback that `found` matches: its place in the trace and time.
        let after = |found: &dyn Fn(&TraceKind) -> bool| {
            trace.iter().enumerate().find(|(_, l)| l.at >= rollback && found(&l.kind)).map(|(i, l)| (i, l.at))
        };
        let elected = after(&|k| matches!(k, TraceKind::ZkControllerElected { .. })).unwrap();
        let restarted = after(&|k| matches!(k, TraceKind::BrokerDown { clean: true, .. })).unwrap();
        assert!(
            elected < restarted,
            "{id}: elected (line, us) {elected:?}, a broker restarted {restarted:?}"
        );
        assert!(elected.1 - rollback <= MS, "{id}: elected one watch delivery after the deletion");
        let mut rolling: Vec<u32> = Vec::new();
        for line in trace.iter().filter(|l| l.at >= rollback) {
            match line.kind {
                TraceKind::Operator(Action::BrokerToZkMode(b)) => {
                    assert!(rolling.is_empty(), "{id}: broker {b} restarted while {rolling:?} restart");
                    rolling.push(b);
                }
                TraceKind::BrokerUp { broker, .. } => rolling.retain(|b| *b != broker),
                _ => {}
            }
        }
        assert!(rolling.is_empty(), "{id}: every broker back");
    }
}

#[test]
fn a_rollback_finds_in_zookeeper_what_dual_write_kept_and_a_new_zookeeper_controller_above_every_claim() {
    let (sim, _) = notable("migration-rollback", 1);
    let image = sim.log().image();
    let zk = sim.zk();
    for p in 0..sim.config().partitions() {
        let state = state_znode(&sim, p).expect("a state znode");
        let kraft = image.partitions[p as usize].expect("copied");
        assert_eq!(
            (state.leader, state.leader_epoch, state.isr),
            (kraft.leader, kraft.leader_epoch, kraft.isr),
            "partition {p}"
        );
    }
    assert!(zk.inspect(ZnodePath::Migration).is_none(), "/migration deleted");
    let Some(ZnodeData::Controller { kraft_epoch: None, .. }) =
        zk.inspect(ZnodePath::Controller).map(|n| n.data)
    else {
        panic!("a ZooKeeper-mode broker holds /controller");
    };
    for b in 0..sim.config().brokers {
        assert_eq!(sim.broker_mode(b), Some(BrokerMode::Zk));
    }
}

#[test]
fn in_pre_migration_a_dead_broker_is_not_fenced_until_the_copy_commits() {
    let mut sim = MigrationSim::new(MigrationConfig::small(), 3).expect("a cluster");
    sim.act(Action::ProvisionControllers).unwrap();
    sim.run_until(5_000 * MS);
    sim.act(Action::BrokerToMigrationMode(0)).unwrap();
    sim.run_until(12_000 * MS);
    sim.act(Action::KillBroker(0)).unwrap();
    sim.run_until(30_000 * MS);
    let refused = sim
        .trace()
        .iter()
        .any(|l| matches!(l.kind, TraceKind::WriteRefused { log: ZkMigrationState::PreMigration, .. }));
    assert!(refused, "maybeFenceStaleBroker refused while the log says PRE_MIGRATION");
    assert!(!sim.trace().iter().any(|l| matches!(l.kind, TraceKind::BrokerFenced { .. })));
    assert_eq!(sim.log_migration_state(), ZkMigrationState::PreMigration);
    assert_eq!(sim.violations(), []);
}

#[test]
fn the_operator_is_told_why_a_step_cannot_be_taken() {
    let mut sim = MigrationSim::new(MigrationConfig::small(), 1).expect("a cluster");
    for (action, why) in [
        (Action::BrokerToKraft(0), "only a broker in migration mode"),
        (Action::Finalize, "the copy has not committed"),
        (Action::KillActiveController, "no KRaft controller is active"),
        (Action::KillBroker(9), "no broker 9"),
        (Action::ZkOutage { lasting: 0 }, "an outage lasts"),
    ] {
        let refused = sim.act(action).expect_err("refused");
        assert!(refused.0.contains(why), "{action}: {refused}");
    }
    assert!(MigrationSim::new(MigrationConfig { brokers: 0, ..MigrationConfig::small() }, 1).is_err());
}

/// Kafka 3.9's guide from KRaft mode: the brokers go back to migration mode first, while the
/// controllers run (a KRaft-mode broker needs them); only then the controllers go.
#[test]
fn a_rollback_waits_for_every_broker_to_leave_kraft_mode() {
    let mut sim = scenarios::run_to_dual_write(MigrationConfig::small(), 1).expect("dual-write");
    assert!(sim.act(Action::BrokerToZkMode(0)).unwrap_err().0.contains("only after the rollback"));
    sim.act(Action::BrokerToKraft(0)).unwrap();
    sim.run_until_that(sim.now() + 60_000 * MS, |s| s.registered_as(0) == Some(BrokerMode::Kraft));
    let refused = sim.act(Action::RollBack).unwrap_err();
    assert!(refused.0.contains("broker 0 runs in KRaft mode"), "{refused}");
    sim.act(Action::BrokerToMigrationMode(0)).unwrap();
    sim.run_until_that(sim.now() + 60_000 * MS, |s| s.registered_as(0) == Some(BrokerMode::Migrating));
    sim.act(Action::RollBack).unwrap();
    sim.run_until_that(sim.now() + 1_000 * MS, |s| s.zk_controller().is_some());
    assert!(sim.zk_controller().is_some(), "a broker in migration mode elected");
    assert!(sim.violations().is_empty(), "{:?}", sim.violations());
}

/// README's migration table is `kraftscope migration`'s output at these sizes, but for the wall
/// time (rewrite the rows with `kraftscope migration` after a change to the model or its costs).
#[test]
fn the_readme_phase_table_is_what_the_model_measures() {
    use kraftscope::migration::phases;
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README.md");
    assert!(readme.contains(phases::Phases::HEAD), "README lacks the table's head");
    for partitions in [1_000, 100_000] {
        let row = phases::measure(phases::config(partitions, 1), 1).expect("migrates").row();
        assert!(readme.contains(&format!("    {row} ")), "README lacks the row:\n{row}");
    }
}

#[test]
fn the_command_line_runs_the_scenarios_and_the_table_and_says_what_is_wrong() {
    let kraftscope = |args: &[&str]| {
        let out =
            std::process::Command::new(env!("CARGO_BIN_EXE_kraftscope")).args(args).output().expect("runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, out, _) = kraftscope(&["run", "--scenario", "migration-failover", "--notable"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("driver 3000: claimed /controller, /controller_epoch now 5"), "{out}");
    let (code, out, _) = kraftscope(&["migration", "--partitions", "1000"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("      1000     1000    0.031"), "{out}");
    for (args, says) in [
        (&["migration", "--partitions", "0"][..], "--partitions: 1 to 2000000 each, not 0"),
        (
            &["migration", "--partitions-per-topic", "0"][..],
            "--partitions-per-topic must be between 1 and 10000",
        ),
        (&["run", "--scenario", "migration-nope"][..], "the migration's: migration, migration-failover"),
    ] {
        let (code, _, err) = kraftscope(args);
        assert_eq!(code, Some(2), "{args:?}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn a_copy_committed_but_not_recorded_in_zookeeper_strands_the_migration_as_kafka_3_9_does() {
    let (mut sim, _) = notable("migration-stranded", 1);
    assert!(sim.stranded());
    assert_eq!(sim.log_migration_state(), ZkMigrationState::Migration, "the log says the copy is done");
    assert_eq!(sim.write_behind_lag(), None, "/migration says it is not");
    // However long it runs, nothing is dual-written again: the driver stays INACTIVE.
    sim.run_until(sim.now() + 600_000 * MS);
    assert_eq!(sim.driver_state(), Some(MigrationDriverState::Inactive));
    assert_eq!(sim.violations(), []);
}

#[test]
fn a_rollback_after_more_kraft_elections_than_zookeeper_controllers_leaves_znodes_above_the_new_epoch() {
    let (sim, lines) = notable("migration-rollback-hazard", 1);
    let elected = sim.trace().iter().rev().find_map(|l| match l.kind {
        TraceKind::ZkControllerElected { zk_epoch, above_epoch, .. } => Some((zk_epoch, above_epoch)),
        _ => None,
    });
    let (zk_epoch, above) = elected.expect("a ZooKeeper-mode controller after the rollback");
    let stamped: Vec<u32> = (0..sim.config().partitions())
        .filter_map(|p| state_znode(&sim, p))
        .map(|s| s.controller_epoch)
        .filter(|epoch| *epoch > zk_epoch)
        .collect();
    assert_eq!(stamped.len(), above, "the count the trace gives");
    assert!(above > 0, "dual-write stamped the partitions it wrote: {lines:#?}");
    assert!(stamped.iter().all(|e| *e == 7), "with the KRaft epoch, 7 after six failovers: {stamped:?}");
}

/// #62 item 1: while ZooKeeper-mode brokers may still register (the controllers' migration flag,
/// until finalizing), every ISR shrink bumps the leader epoch too, for their sake
/// (`PartitionChangeBuilder.triggerLeaderEpochBumpForIsrShrinkIfNeeded`, `zkMigrationEnabled`
/// from `ClusterControlManager.zkRegistrationAllowed`, Kafka 3.9). A follower fenced in
/// dual-write: each partition it was in sync for has its leader epoch bumped in the log, in its
/// state znode and in every ZooKeeper-mode broker's cache.
#[test]
fn an_isr_shrink_in_dual_write_bumps_the_leader_epoch_in_kraft_zookeeper_and_the_caches() {
    let scenario = scenarios::find("migration-isr-shrink").unwrap();
    let mut timeline = Timeline::record(scenario, scenario.config(), 1).expect("a migration");
    let killed = at_of(timeline.sim().trace(), |k| matches!(k, TraceKind::Operator(Action::KillBroker(1))));
    timeline.seek(killed.expect("broker 1 killed") - 1);
    let before: Vec<_> = timeline.sim().log().image().partitions.clone();
    timeline.seek(timeline.end());
    let sim = timeline.sim();
    let image = &sim.log().image().partitions;
    let mut shrunk = 0;
    for (p, (was, now)) in before.iter().zip(image).enumerate() {
        let (Some(was), Some(now)) = (was, now) else { continue };
        if !was.isr.contains(1) || was.leader == 1 || was.isr.len() == 1 {
            continue;
        }
        shrunk += 1;
        assert!(!now.isr.contains(1), "partition {p}: broker 1 left its ISR");
        assert_eq!(now.leader_epoch, was.leader_epoch + 1, "partition {p}: KRaft's leader epoch");
        let znode = state_znode(sim, p as u32);
        assert_eq!(znode.map(|s| s.leader_epoch), Some(now.leader_epoch), "partition {p}: its state znode");
        for b in [0, 2, 3] {
            assert_eq!(
                sim.broker_leader_epoch(b, p as u32),
                Some(now.leader_epoch),
                "partition {p}: broker {b}'s cache"
            );
        }
    }
    assert!(shrunk > 0, "broker 1 followed some partitions");
}

/// #62 item 2: a broker that unfences gives every partition without a leader one, from its ISR
/// (`ReplicationControlManager.handleBrokerUnfenced`: `generateLeaderAndIsrUpdates` over
/// `partitionsWithNoLeader`, Kafka 3.9). Three of four brokers die in dual-write: the partitions
/// they alone held are left without a leader, the last of them still in their ISR; when that
/// broker comes back and unfences, it leads them again, in the log, ZooKeeper and the caches.
#[test]
fn an_unfenced_broker_leads_again_the_partitions_left_without_a_leader() {
    let scenario = scenarios::find("migration-unfence").unwrap();
    let mut timeline = Timeline::record(scenario, scenario.config(), 1).expect("a migration");
    let restarted =
        at_of(timeline.sim().trace(), |k| matches!(k, TraceKind::Operator(Action::RestartBroker(3))));
    timeline.seek(restarted.expect("broker 3 restarted") - 1);
    let partitions = &timeline.sim().log().image().partitions;
    let leaderless: Vec<(usize, u32)> = partitions
        .iter()
        .enumerate()
        .filter_map(|(p, s)| s.filter(|s| s.leader == -1).map(|s| (p, s.leader_epoch)))
        .collect();
    assert!(!leaderless.is_empty(), "the partitions brokers 1 to 3 alone held have no leader");
    assert!(
        leaderless.iter().all(|(p, _)| partitions[*p].unwrap().isr.contains(3)),
        "the last one fenced stays in their ISR"
    );
    timeline.seek(timeline.end());
    let sim = timeline.sim();
    let unfenced = sim.trace().iter().any(|l| matches!(l.kind, TraceKind::BrokerUnfenced { broker: 3, .. }));
    assert!(unfenced, "broker 3 unfenced");
    for (p, epoch) in leaderless {
        let now = sim.log().image().partitions[p].unwrap();
        assert_eq!((now.leader, now.leader_epoch), (3, epoch + 1), "partition {p} led again by broker 3");
        let znode = state_znode(sim, p as u32);
        assert_eq!(
            znode.map(|s| (s.leader, s.leader_epoch)),
            Some((3, epoch + 1)),
            "partition {p}: its state znode"
        );
        assert_eq!(sim.broker_leader_epoch(0, p as u32), Some(epoch + 1), "partition {p}: broker 0's cache");
    }
}

/// #62 item 5 (registration): once the controllers are rolled without the migration flag, a
/// broker still in migration mode (ZooKeeper mode) is refused, as Kafka 3.9's
/// `ClusterControlManager.registerBroker` refuses it ("Controller does not support registering
/// ZK brokers.": `zkRegistrationAllowed` is false).
#[test]
fn after_finalizing_a_broker_in_migration_mode_cannot_register() {
    let mut sim = scenarios::run_to_dual_write(MigrationConfig::small(), 1).expect("dual-write");
    for b in [0, 1, 2] {
        sim.act(Action::BrokerToKraft(b)).expect("to KRaft");
        sim.run_until(sim.now() + 10_000 * MS);
    }
    sim.act(Action::Finalize).expect("finalize");
    sim.run_until(sim.now() + 20_000 * MS);
    assert!(sim.finalized());
    sim.act(Action::KillBroker(3)).expect("kill broker 3");
    sim.run_until(sim.now() + 19_000 * MS);
    sim.act(Action::RestartBroker(3)).expect("restart broker 3, still in migration mode");
    sim.run_until(sim.now() + 20_000 * MS);
    let refused = sim.trace().iter().any(|l| {
        matches!(&l.kind, TraceKind::RegistrationRefused { broker: 3, why } if why == "Controller does not support registering ZK brokers.")
    });
    assert!(refused, "broker 3's registration refused");
    assert_eq!(sim.broker_mode(3), Some(BrokerMode::Migrating));
}

/// A partition's state znode's version: ZooKeeper's partition epoch (`TopicPartitionStateZNode`
/// decodes it from the znode's stat).
fn zk_partition_epoch(sim: &MigrationSim, p: u32) -> u32 {
    let per_topic = sim.config().partitions_per_topic;
    let (topic, partition) = (p / per_topic, p % per_topic);
    sim.zk().inspect(ZnodePath::PartitionState { topic, partition }).expect("a state znode").version
}

/// `/migration`'s version: one more for every batch dual-write ends, and for each offset it records.
fn migration_version(sim: &MigrationSim) -> u32 {
    sim.zk().inspect(ZnodePath::Migration).expect("/migration").version
}

/// #62 item 3: dual-write hands each topic's changed partitions to its own
/// `updateTopicPartitions` (`KRaftMigrationZkWriter.handleTopicsDelta`), each batch ending with
/// its own `/migration` write, then the driver records the offset there once more.
#[test]
fn dual_write_writes_a_change_topic_by_topic() {
    let mut sim = scenarios::run_to_dual_write(MigrationConfig::small(), 1).expect("dual-write");
    sim.run_until(sim.now() + 2_000 * MS);
    let (before, lines) = (migration_version(&sim), sim.trace().len());
    let epochs: Vec<u32> = (0..sim.config().partitions()).map(|p| zk_partition_epoch(&sim, p)).collect();
    sim.act(Action::KillBroker(1)).unwrap();
    let wrote = |s: &MigrationSim| {
        s.trace()[lines..].iter().any(|l| matches!(l.kind, TraceKind::ZkStatesWritten { .. }))
    };
    assert!(sim.run_until_that(sim.now() + 20_000 * MS, wrote), "the fence dual-written");
    sim.run_until(sim.now() + 1_000 * MS);
    let changed: Vec<u32> = (0..sim.config().partitions())
        .filter(|p| zk_partition_epoch(&sim, *p) != epochs[*p as usize])
        .collect();
    let per_topic = sim.config().partitions_per_topic;
    let mut topics: Vec<u32> = changed.iter().map(|p| p / per_topic).collect();
    topics.dedup();
    assert!(topics.len() > 1 && changed.len() > topics.len(), "a change over several topics: {changed:?}");
    assert_eq!(
        migration_version(&sim),
        before + topics.len() as u32 + 1,
        "one /migration write per topic, then the offset"
    );
    let written = sim.trace()[lines..].iter().find_map(|l| match l.kind {
        TraceKind::ZkStatesWritten { partitions, batches, .. } => Some((partitions, batches)),
        _ => None,
    });
    assert_eq!(written, Some((changed.len(), topics.len())));
}

/// #62 item 3 (the reconcile): changes to one partition published while the driver is busy are
/// written to ZooKeeper as one, so its state znode's version (ZooKeeper's partition epoch) falls
/// behind KRaft's partition epoch. The next leader's reconcile (`handleTopicsSnapshot`) compares
/// whole registrations (`PartitionRegistration.equals`) and writes exactly those partitions again
/// (each write adds one to the version; the JSON carries no partition epoch, so the lag shrinks
/// by one per reconcile, as in Kafka).
#[test]
fn a_reconcile_writes_again_a_partition_whose_epoch_zookeeper_lags() {
    let mut sim = scenarios::run_to_dual_write(MigrationConfig::small(), 1).expect("dual-write");
    // ZooKeeper away: the first fence's write blocks the driver; the next two fences are
    // published while it waits, and written as one.
    sim.act(Action::ZkOutage { lasting: 30_000 * MS }).unwrap();
    sim.act(Action::KillBroker(0)).unwrap();
    sim.run_until(sim.now() + 1_000 * MS);
    sim.act(Action::KillBroker(1)).unwrap();
    sim.act(Action::KillBroker(2)).unwrap();
    sim.run_until(sim.now() + 40_000 * MS);
    let partitions = sim.config().partitions();
    let kraft_epoch =
        |s: &MigrationSim, p: u32| s.log().image().partitions[p as usize].unwrap().partition_epoch;
    let before: Vec<u32> = (0..partitions).map(|p| zk_partition_epoch(&sim, p)).collect();
    let lagging: Vec<u32> = (0..partitions).filter(|p| before[*p as usize] < kraft_epoch(&sim, *p)).collect();
    assert!(!lagging.is_empty(), "a partition changed more than once in one write");
    let lines = sim.trace().len();
    sim.act(Action::KillActiveController).unwrap();
    sim.run_until(sim.now() + 1_000 * MS);
    sim.run_until_that(sim.now() + 60_000 * MS, |s| {
        s.driver_state() == Some(MigrationDriverState::DualWrite)
    });
    let written = sim.trace()[lines..].iter().find_map(|l| match l.kind {
        TraceKind::ZkStatesWritten { partitions, .. } => Some(partitions),
        _ => None,
    });
    assert_eq!(written, Some(lagging.len()), "the reconcile writes the lagging partitions");
    for p in 0..partitions {
        let once = u32::from(lagging.contains(&p));
        assert_eq!(zk_partition_epoch(&sim, p), before[p as usize] + once, "partition {p}'s znode version");
    }
    assert!(sim.violations().is_empty(), "{:?}", sim.violations());
}

/// A broker started again before the ZooKeeper session of its dead process expires finds its
/// `/brokers/ids` znode still held: Kafka 3.9's `KafkaZkClient.registerBroker` fails with
/// NODEEXISTS (`CheckedEphemeral.getAfterNodeExists`, the owner is not its session) and the
/// process exits. Started again after the expiry (18 s, `zookeeper.session.timeout.ms`), it
/// registers, and keeps its znode.
#[test]
fn a_broker_started_before_its_old_session_expires_fails_and_a_later_start_registers() {
    let mut sim = MigrationSim::new(MigrationConfig::small(), 1).expect("a cluster");
    sim.run_until(1_000 * MS);
    sim.act(Action::KillBroker(1)).expect("kill broker 1");
    let killed = sim.now();
    sim.run_until(killed + 5_000 * MS);
    sim.act(Action::RestartBroker(1)).expect("restart broker 1");
    sim.run_until(killed + 6_000 * MS);
    assert!(sim.start_failed(1) && sim.running_in(1).is_none(), "the start failed");
    let failed = sim.trace().iter().find_map(|l| match l.kind {
        TraceKind::BrokerStartFailed { broker: 1, held_until } => Some(held_until),
        _ => None,
    });
    assert_eq!(failed, Some(Some(killed + 18_000 * MS)), "the line names when the old session expires");
    sim.run_until(killed + 19_000 * MS);
    assert!(sim.zk().inspect(ZnodePath::BrokerId(1)).is_none(), "the old session expired with its znode");
    sim.act(Action::RestartBroker(1)).expect("restart broker 1 again");
    sim.run_until(killed + 60_000 * MS);
    assert_eq!(sim.running_in(1), Some(BrokerMode::Zk));
    assert!(!sim.start_failed(1));
    let owner = sim.zk().inspect(ZnodePath::BrokerId(1)).and_then(|n| n.ephemeral_owner);
    assert!(owner.is_some(), "registered with its new session, which keeps it");
}

/// At the end of migration-zk-session every broker runs and holds its `/brokers/ids` znode with
/// a live session: broker 1's new one after its expiry, broker 2's after its second start.
#[test]
fn after_a_session_expiry_and_a_failed_start_every_broker_is_registered_in_zookeeper() {
    let sim = scenarios::find("migration-zk-session").unwrap().run(1).expect("the scenario runs");
    for b in 0..4 {
        assert_eq!(sim.running_in(b), Some(BrokerMode::Migrating), "broker {b} runs");
        let owner = sim.zk().inspect(ZnodePath::BrokerId(b)).and_then(|n| n.ephemeral_owner);
        let live = owner.and_then(|s| sim.zk().session_expires_at(s));
        assert!(live.is_some(), "broker {b}'s /brokers/ids znode is held by a live session");
    }
}

/// A broker cut off ZooKeeper while the ensemble itself is unreachable keeps its session: no
/// session expires while ZooKeeper is down, and once its link is back it pings again, so its
/// session and `/brokers/ids` znode outlive the outage and the session timeout after it.
#[test]
fn a_broker_cut_off_during_a_zookeeper_outage_keeps_its_session_once_its_link_is_back() {
    let mut sim = MigrationSim::new(MigrationConfig::small(), 1).expect("a cluster");
    sim.run_until(1_000 * MS);
    sim.act(Action::ZkOutage { lasting: 40_000 * MS }).expect("the outage");
    sim.act(Action::CutFromZk(1)).expect("cut broker 1");
    sim.run_until(120_000 * MS);
    let lines: Vec<&TraceKind> = sim.trace().iter().map(|l| &l.kind).collect();
    assert!(lines.contains(&&TraceKind::ZkLinkBack { broker: 1, expired: false }), "back, its session alive");
    assert!(!lines.iter().any(|k| matches!(k, TraceKind::SessionExpired { .. })), "nothing expired");
    let owner = sim.zk().inspect(ZnodePath::BrokerId(1)).and_then(|n| n.ephemeral_owner);
    assert!(owner.is_some_and(|s| sim.zk().session_expires_at(s).is_some()), "its znode stays");
}

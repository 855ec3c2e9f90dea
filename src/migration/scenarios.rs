//! The migration's scenarios: the whole road from ZooKeeper mode to KRaft as the operator walks
//! it (Kafka 3.9's guide), and the faults along it, each a script of [`Action`]s on a
//! [`MigrationSim`] that waits for what the operator would wait for.

use crate::harness::{MS, Micros};

use super::log::MetaRecord;
use super::sim::{Action, ActionError, BrokerMode, MigrationConfig, MigrationSim, TraceKind};
use super::state::{MigrationDriverState, ZkMigrationState};

/// How long a scenario waits for a step before giving up (a run that never gets there): three
/// simulated hours, for a copy of millions of topics takes many minutes.
const PATIENCE: Micros = 3 * 3_600_000 * MS;

/// A built-in scenario.
pub struct Scenario {
    pub id: &'static str,
    pub about: &'static str,
    config: fn() -> MigrationConfig,
    script: fn(&mut MigrationSim) -> Result<(), ActionError>,
}

impl Scenario {
    /// Runs it with `seed`; the simulation as it ended.
    pub fn run(&self, seed: u64) -> Result<MigrationSim, ActionError> {
        let mut sim = MigrationSim::new((self.config)(), seed).map_err(ActionError)?;
        (self.script)(&mut sim)?;
        Ok(sim)
    }

    /// The cluster it runs on.
    pub fn config(&self) -> MigrationConfig {
        (self.config)()
    }

    /// Runs it with `seed` at `config`'s size (and checks).
    pub(crate) fn run_with(&self, config: MigrationConfig, seed: u64) -> Result<MigrationSim, ActionError> {
        let mut sim = MigrationSim::new(config, seed).map_err(ActionError)?;
        (self.script)(&mut sim)?;
        Ok(sim)
    }
}

/// The scenarios' names, without their code: the page's links are read by a build that does
/// not carry the migration.
pub const IDS: [&str; 9] = [
    "migration",
    "migration-failover",
    "migration-isr-shrink",
    "migration-unfence",
    "migration-copy-failover",
    "migration-zk-down",
    "migration-rollback",
    "migration-rollback-hazard",
    "migration-stranded",
];

pub const SCENARIOS: [Scenario; 9] = [
    Scenario {
        id: IDS[0],
        about: "the whole migration: controllers, brokers in migration mode, claim, copy, dual-write, brokers to KRaft, finalize",
        config: MigrationConfig::small,
        script: full_migration,
    },
    Scenario {
        id: IDS[1],
        about: "the active KRaft controller dies in dual-write: re-claim, full reconcile, full push",
        config: MigrationConfig::small,
        script: failover_in_dual_write,
    },
    Scenario {
        id: IDS[2],
        about: "a broker fenced in dual-write: the ISRs it leaves get a higher leader epoch, in the log, ZooKeeper and every broker's cache",
        config: MigrationConfig::small,
        script: isr_shrink,
    },
    Scenario {
        id: IDS[3],
        about: "three of four brokers die in dual-write, leaving partitions without a leader; the last one back unfences and leads them again",
        config: MigrationConfig::small,
        script: unfence,
    },
    Scenario {
        id: IDS[4],
        about: "the active KRaft controller dies during the copy: the transaction aborted, the copy redone",
        config: copy_sized,
        script: failover_during_copy,
    },
    Scenario {
        id: IDS[5],
        about: "ZooKeeper unreachable in dual-write: the write-behind lag grows, ZooKeeper-mode brokers starve",
        config: MigrationConfig::small,
        script: zookeeper_down,
    },
    Scenario {
        id: IDS[6],
        about: "a rollback before finalizing: back to a ZooKeeper-mode controller on the state dual-write kept",
        config: MigrationConfig::small,
        script: roll_back,
    },
    Scenario {
        id: IDS[7],
        about: "KAFKA-20488: a rollback after more KRaft elections than ZooKeeper controllers leaves state znodes above the new controller's epoch",
        config: MigrationConfig::small,
        script: rollback_hazard,
    },
    Scenario {
        id: IDS[8],
        about: "Kafka 3.9's dead end: the copy commits, ZooKeeper is down, the controller dies before writing /migration",
        config: MigrationConfig::small,
        script: stranded,
    },
];

/// The scenario named `id`.
pub fn find(id: &str) -> Option<&'static Scenario> {
    SCENARIOS.iter().find(|s| s.id == id)
}

/// A cluster whose copy takes two batches (330 records), so a failover can land inside it.
fn copy_sized() -> MigrationConfig {
    MigrationConfig { topics: 30, partitions_per_topic: 10, ..MigrationConfig::small() }
}

fn wait(
    sim: &mut MigrationSim,
    what: &str,
    done: impl FnMut(&MigrationSim) -> bool,
) -> Result<(), ActionError> {
    let limit = sim.now() + PATIENCE;
    match sim.run_until_that(limit, done) {
        true => Ok(()),
        false => Err(ActionError(format!("waited {} s for {what}", PATIENCE / 1_000_000))),
    }
}

fn pause(sim: &mut MigrationSim, ms: Micros) {
    sim.run_until(sim.now() + ms * MS);
}

/// Provision the controllers, restart each broker in migration mode, and wait for dual-write.
pub fn to_dual_write(sim: &mut MigrationSim) -> Result<(), ActionError> {
    provision_and_roll_brokers(sim)?;
    wait(sim, "dual-write", |s| s.driver_state() == Some(MigrationDriverState::DualWrite))
}

/// Provision the controllers, then restart each broker in migration mode, one after another,
/// each once it has registered with KRaft.
fn provision_and_roll_brokers(sim: &mut MigrationSim) -> Result<(), ActionError> {
    sim.act(Action::ProvisionControllers)?;
    roll_brokers(sim)
}

/// Once a controller is active, restart each broker in migration mode, one after another, each
/// once it has registered with KRaft.
fn roll_brokers(sim: &mut MigrationSim) -> Result<(), ActionError> {
    wait(sim, "an active controller", |s| {
        s.driver_state().is_some_and(|d| d >= MigrationDriverState::WaitForControllerQuorum)
    })?;
    for b in 0..sim.config().brokers {
        sim.act(Action::BrokerToMigrationMode(b))?;
        wait(sim, "the broker to register with KRaft", |s| {
            s.registered_as(b) == Some(BrokerMode::Migrating)
        })?;
    }
    Ok(())
}

fn full_migration(sim: &mut MigrationSim) -> Result<(), ActionError> {
    to_dual_write(sim)?;
    pause(sim, 1_000);
    for b in 0..sim.config().brokers {
        sim.act(Action::BrokerToKraft(b))?;
        wait(sim, "the broker back in KRaft mode", |s| s.registered_as(b) == Some(BrokerMode::Kraft))?;
    }
    sim.act(Action::Finalize)?;
    wait(sim, "POST_MIGRATION", MigrationSim::finalized)?;
    pause(sim, 1_000);
    // After finalizing there is no way back: the refusal goes in the trace.
    if let Err(refused) = sim.act(Action::RollBack) {
        sim.note_refusal(Action::RollBack, refused);
    }
    Ok(())
}

fn failover_in_dual_write(sim: &mut MigrationSim) -> Result<(), ActionError> {
    to_dual_write(sim)?;
    sim.act(Action::KillBroker(1))?;
    pause(sim, 12_000);
    sim.act(Action::KillActiveController)?;
    pause(sim, 100);
    wait(sim, "dual-write again", |s| s.driver_state() == Some(MigrationDriverState::DualWrite))?;
    pause(sim, 2_000);
    Ok(())
}

/// A broker dies in dual-write; once fenced, the partitions it led get new leaders and the ISRs
/// it followed in shrink, each with a higher leader epoch while ZooKeeper-mode brokers may
/// register (`PartitionChangeBuilder.triggerLeaderEpochBumpForIsrShrinkIfNeeded`), written to
/// ZooKeeper topic by topic and sent to the brokers.
fn isr_shrink(sim: &mut MigrationSim) -> Result<(), ActionError> {
    to_dual_write(sim)?;
    pause(sim, 1_000);
    sim.act(Action::KillBroker(1))?;
    pause(sim, 12_000);
    Ok(())
}

/// Brokers 1, 2 and 3 die in turn in dual-write: the partitions whose ISR held only them are
/// left without a leader, broker 3 (fenced last) still in their ISR. When it starts again and
/// unfences, `ReplicationControlManager.handleBrokerUnfenced` elects it leader of each.
fn unfence(sim: &mut MigrationSim) -> Result<(), ActionError> {
    to_dual_write(sim)?;
    for b in [1, 2, 3] {
        sim.act(Action::KillBroker(b))?;
        pause(sim, 12_000);
    }
    sim.act(Action::RestartBroker(3))?;
    pause(sim, 20_000);
    Ok(())
}

fn failover_during_copy(sim: &mut MigrationSim) -> Result<(), ActionError> {
    provision_and_roll_brokers(sim)?;
    wait(sim, "the copy's first batch", |s| {
        s.trace().iter().any(|l| matches!(l.kind, TraceKind::CopyBatch { .. }))
    })?;
    pause(sim, 10);
    sim.act(Action::KillActiveController)?;
    pause(sim, 1);
    wait(sim, "dual-write", |s| s.driver_state() == Some(MigrationDriverState::DualWrite))?;
    pause(sim, 1_000);
    Ok(())
}

fn zookeeper_down(sim: &mut MigrationSim) -> Result<(), ActionError> {
    to_dual_write(sim)?;
    sim.act(Action::BrokerToKraft(0))?;
    wait(sim, "broker 0 in KRaft mode", |s| s.registered_as(0) == Some(BrokerMode::Kraft))?;
    pause(sim, 3_000);
    sim.act(Action::ZkOutage { lasting: 30_000 * MS })?;
    pause(sim, 1_000);
    sim.act(Action::KillBroker(2))?;
    pause(sim, 40_000);
    Ok(())
}

fn roll_back(sim: &mut MigrationSim) -> Result<(), ActionError> {
    to_dual_write(sim)?;
    sim.act(Action::KillBroker(1))?;
    pause(sim, 12_000);
    roll_back_and_roll_brokers(sim)
}

/// Kafka 3.9's guide from migration mode: deprovision the controllers and delete `/controller`
/// and `/migration` (a broker is elected ZooKeeper-mode controller at once), then restart each
/// broker in ZooKeeper mode, one after another, each once it is back.
fn roll_back_and_roll_brokers(sim: &mut MigrationSim) -> Result<(), ActionError> {
    sim.act(Action::RollBack)?;
    wait(sim, "a ZooKeeper-mode controller", |s| s.zk_controller().is_some())?;
    for b in 0..sim.config().brokers {
        sim.act(Action::BrokerToZkMode(b))?;
        wait(sim, "the broker back in ZooKeeper mode", |s| s.running_in(b) == Some(BrokerMode::Zk))?;
    }
    pause(sim, 2_000);
    Ok(())
}

/// What the sweep found: the copy commits while ZooKeeper is unreachable, so the driver blocks
/// before recording it in `/migration`, and its controller dies. Every later leader's driver
/// reads MIGRATION in the log and no copy in `/migration`, and stays INACTIVE
/// (`WaitForControllerQuorumEvent`: "an active migration, but the ZK state does not").
fn stranded(sim: &mut MigrationSim) -> Result<(), ActionError> {
    provision_and_roll_brokers(sim)?;
    // The copy's last read done, its `ZkMigrationStateRecord(MIGRATION)` appended, not yet
    // committed: ZooKeeper goes away now.
    wait(sim, "the copy's end appended", |s| {
        let log = s.log();
        log.len() > 1
            && matches!(
                log.entry(log.len() - 2).map(|e| &e.record),
                Some(MetaRecord::MigrationState(ZkMigrationState::Migration))
            )
    })?;
    sim.act(Action::ZkOutage { lasting: 10_000 * MS })?;
    pause(sim, 1_000);
    sim.act(Action::KillActiveController)?;
    pause(sim, 30_000);
    Ok(())
}

/// KAFKA-20488: dual-write stamps each state znode it writes with the KRaft epoch as its
/// `controller_epoch` (`ZkTopicMigrationClient.partitionStatePathAndData`). A quorum that has had
/// more elections than ZooKeeper has had controllers (here: the active controller killed six
/// times before the brokers were ready, elections that claim nothing) leaves, after a rollback,
/// state znodes above the new ZooKeeper controller's epoch; its elections of those partitions
/// abort ("written by another controller"), leaving them offline.
fn rollback_hazard(sim: &mut MigrationSim) -> Result<(), ActionError> {
    sim.act(Action::ProvisionControllers)?;
    for _ in 0..6 {
        wait(sim, "an active controller", |s| s.leader().is_some())?;
        sim.act(Action::KillActiveController)?;
        pause(sim, 1);
    }
    roll_brokers(sim)?;
    wait(sim, "dual-write", |s| s.driver_state() == Some(MigrationDriverState::DualWrite))?;
    sim.act(Action::KillBroker(1))?;
    pause(sim, 12_000);
    roll_back_and_roll_brokers(sim)
}

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
    /// Its script for a cluster: the operator's steps and faults, and what each waits for.
    script: fn(&MigrationConfig) -> Vec<Step>,
}

impl Scenario {
    /// Runs it with `seed`; the simulation as it ended.
    pub fn run(&self, seed: u64) -> Result<MigrationSim, ActionError> {
        self.run_with(self.config(), seed)
    }

    /// The cluster it runs on.
    pub fn config(&self) -> MigrationConfig {
        (self.config)()
    }

    /// Runs it with `seed` at `config`'s size.
    pub(crate) fn run_with(&self, config: MigrationConfig, seed: u64) -> Result<MigrationSim, ActionError> {
        ScriptRun::new(self, config, seed)?.run_out()
    }
}

/// A cluster of `config` with `seed` migrated to dual-write, the controllers provisioned and the
/// brokers rolled in migration mode as the operator does it.
pub fn run_to_dual_write(config: MigrationConfig, seed: u64) -> Result<MigrationSim, ActionError> {
    ScriptRun::of(to_dual_write(&config), config, seed)?.run_out()
}

/// One step of a scenario's script.
pub(crate) enum Step {
    /// An operator's step or a fault; a refusal ends the run with an error.
    Act(Action),
    /// A step Kafka refuses at this point: the refusal goes in the trace.
    Refused(Action),
    /// Wait for what the operator would wait for (at most [`PATIENCE`]).
    Wait(&'static str, Box<dyn Fn(&MigrationSim) -> bool>),
    /// Let this much simulated time pass.
    Pause(Micros),
}

/// A scenario's run, in slices (a large cluster's run takes longer than a frame).
pub struct ScriptRun {
    steps: Vec<Step>,
    /// The step under way.
    next: usize,
    /// Where the wait or the pause under way ends.
    limit: Option<Micros>,
    sim: MigrationSim,
}

impl ScriptRun {
    /// `scenario` with `seed` at `config`'s size, at its start.
    pub(crate) fn new(
        scenario: &Scenario,
        config: MigrationConfig,
        seed: u64,
    ) -> Result<ScriptRun, ActionError> {
        ScriptRun::of((scenario.script)(&config), config, seed)
    }

    fn of(steps: Vec<Step>, config: MigrationConfig, seed: u64) -> Result<ScriptRun, ActionError> {
        let sim = MigrationSim::new(config, seed).map_err(ActionError)?;
        Ok(ScriptRun { steps, next: 0, limit: None, sim })
    }

    /// Runs on, at most `budget` events (what it runs is taken from it): whether the script
    /// has ended. Called again, it goes on where it stopped.
    pub(crate) fn advance(&mut self, budget: &mut u64) -> Result<bool, ActionError> {
        while let Some(step) = self.steps.get(self.next) {
            match step {
                Step::Act(action) => self.sim.act(*action)?,
                Step::Refused(action) => {
                    if let Err(refused) = self.sim.act(*action) {
                        self.sim.note_refusal(*action, refused);
                    }
                }
                Step::Wait(what, done) => {
                    let limit = *self.limit.get_or_insert(self.sim.now() + PATIENCE);
                    match self.sim.run_some(limit, done.as_ref(), budget) {
                        None => return Ok(false),
                        Some(false) => {
                            let waited = PATIENCE / 1_000_000;
                            return Err(ActionError(format!("waited {waited} s for {what}")));
                        }
                        Some(true) => {}
                    }
                }
                Step::Pause(span) => {
                    let until = *self.limit.get_or_insert(self.sim.now() + span);
                    if self.sim.run_some(until, &|_| false, budget).is_none() {
                        return Ok(false);
                    }
                }
            }
            self.limit = None;
            self.next += 1;
        }
        Ok(true)
    }

    /// Runs the whole script; the simulation as it ended.
    fn run_out(mut self) -> Result<MigrationSim, ActionError> {
        let mut unlimited = u64::MAX;
        self.advance(&mut unlimited)?;
        Ok(self.sim)
    }

    /// The simulation as far as it has run.
    pub(crate) fn sim(&self) -> &MigrationSim {
        &self.sim
    }
}

/// The scenarios' names, without their code: the page's links are read by a build that does
/// not carry the migration.
pub const IDS: [&str; 10] = [
    "migration",
    "migration-failover",
    "migration-isr-shrink",
    "migration-unfence",
    "migration-copy-failover",
    "migration-zk-down",
    "migration-rollback",
    "migration-rollback-hazard",
    "migration-stranded",
    "migration-zk-session",
];

pub const SCENARIOS: [Scenario; 10] = [
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
    Scenario {
        id: IDS[9],
        about: "in dual-write a broker is cut off ZooKeeper past its 18 s session: ZooKeeper deletes its registration, KRaft still hears its heartbeats; a broker restarted too soon fails on its old session",
        config: MigrationConfig::small,
        script: zk_session,
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

fn wait(what: &'static str, done: impl Fn(&MigrationSim) -> bool + 'static) -> Step {
    Step::Wait(what, Box::new(done))
}

fn pause(ms: Micros) -> Step {
    Step::Pause(ms * MS)
}

/// Provision the controllers, restart each broker in migration mode, and wait for dual-write.
fn to_dual_write(config: &MigrationConfig) -> Vec<Step> {
    let mut steps = provision_and_roll_brokers(config);
    steps.push(wait("dual-write", |s| s.driver_state() == Some(MigrationDriverState::DualWrite)));
    steps
}

/// Provision the controllers, then restart each broker in migration mode, one after another,
/// each once it has registered with KRaft.
fn provision_and_roll_brokers(config: &MigrationConfig) -> Vec<Step> {
    let mut steps = vec![Step::Act(Action::ProvisionControllers)];
    steps.extend(roll_brokers(config));
    steps
}

/// Once a controller is active, restart each broker in migration mode, one after another, each
/// once it has registered with KRaft.
fn roll_brokers(config: &MigrationConfig) -> Vec<Step> {
    let mut steps = vec![wait("an active controller", |s| {
        s.driver_state().is_some_and(|d| d >= MigrationDriverState::WaitForControllerQuorum)
    })];
    for b in 0..config.brokers {
        steps.push(Step::Act(Action::BrokerToMigrationMode(b)));
        steps.push(wait("the broker to register with KRaft", move |s| {
            s.registered_as(b) == Some(BrokerMode::Migrating)
        }));
    }
    steps
}

fn full_migration(config: &MigrationConfig) -> Vec<Step> {
    let mut steps = to_dual_write(config);
    steps.push(pause(1_000));
    for b in 0..config.brokers {
        steps.push(Step::Act(Action::BrokerToKraft(b)));
        steps.push(wait("the broker back in KRaft mode", move |s| {
            s.registered_as(b) == Some(BrokerMode::Kraft)
        }));
    }
    steps.extend([
        Step::Act(Action::Finalize),
        wait("POST_MIGRATION", MigrationSim::finalized),
        pause(1_000),
        // After finalizing there is no way back: the refusal goes in the trace.
        Step::Refused(Action::RollBack),
    ]);
    steps
}

fn failover_in_dual_write(config: &MigrationConfig) -> Vec<Step> {
    let mut steps = to_dual_write(config);
    steps.extend([
        Step::Act(Action::KillBroker(1)),
        pause(12_000),
        Step::Act(Action::KillActiveController),
        pause(100),
        wait("dual-write again", |s| s.driver_state() == Some(MigrationDriverState::DualWrite)),
        pause(2_000),
    ]);
    steps
}

/// A broker dies in dual-write; once fenced, the partitions it led get new leaders and the ISRs
/// it followed in shrink, each with a higher leader epoch while ZooKeeper-mode brokers may
/// register (`PartitionChangeBuilder.triggerLeaderEpochBumpForIsrShrinkIfNeeded`), written to
/// ZooKeeper topic by topic and sent to the brokers.
fn isr_shrink(config: &MigrationConfig) -> Vec<Step> {
    let mut steps = to_dual_write(config);
    steps.extend([pause(1_000), Step::Act(Action::KillBroker(1)), pause(12_000)]);
    steps
}

/// Brokers 1, 2 and 3 die in turn in dual-write: the partitions whose ISR held only them are
/// left without a leader, broker 3 (fenced last) still in their ISR. When it starts again and
/// unfences, `ReplicationControlManager.handleBrokerUnfenced` elects it leader of each.
fn unfence(config: &MigrationConfig) -> Vec<Step> {
    let mut steps = to_dual_write(config);
    for b in [1, 2, 3] {
        steps.extend([Step::Act(Action::KillBroker(b)), pause(12_000)]);
    }
    // Started again once its dead process's ZooKeeper session (18 s) has expired: before, its
    // `/brokers/ids/3` would still be held and the start would fail.
    steps.extend([pause(8_000), Step::Act(Action::RestartBroker(3)), pause(20_000)]);
    steps
}

fn failover_during_copy(config: &MigrationConfig) -> Vec<Step> {
    let mut steps = provision_and_roll_brokers(config);
    steps.extend([
        wait("the copy's first batch", |s| {
            s.trace().iter().any(|l| matches!(l.kind, TraceKind::CopyBatch { .. }))
        }),
        pause(10),
        Step::Act(Action::KillActiveController),
        pause(1),
        wait("dual-write", |s| s.driver_state() == Some(MigrationDriverState::DualWrite)),
        pause(1_000),
    ]);
    steps
}

fn zookeeper_down(config: &MigrationConfig) -> Vec<Step> {
    let mut steps = to_dual_write(config);
    steps.extend([
        Step::Act(Action::BrokerToKraft(0)),
        wait("broker 0 in KRaft mode", |s| s.registered_as(0) == Some(BrokerMode::Kraft)),
        pause(3_000),
        Step::Act(Action::ZkOutage { lasting: 30_000 * MS }),
        pause(1_000),
        Step::Act(Action::KillBroker(2)),
        pause(40_000),
    ]);
    steps
}

/// In dual-write, broker 1 is cut off ZooKeeper past its session timeout: ZooKeeper deletes
/// `/brokers/ids/1` and nothing else changes, for the KRaft controller judges liveness by
/// heartbeats; back, broker 1 registers again with a new session. Then broker 2 dies and is
/// started 5 s later: its dead process's session still holds `/brokers/ids/2`, so the start
/// fails; started again once that session has expired, it comes back.
fn zk_session(config: &MigrationConfig) -> Vec<Step> {
    let mut steps = to_dual_write(config);
    steps.extend([
        Step::Act(Action::CutFromZk(1)),
        pause(25_000),
        Step::Act(Action::KillBroker(2)),
        pause(5_000),
        Step::Act(Action::RestartBroker(2)),
        pause(15_000),
        Step::Act(Action::RestartBroker(2)),
        pause(15_000),
    ]);
    steps
}

fn roll_back(config: &MigrationConfig) -> Vec<Step> {
    let mut steps = to_dual_write(config);
    steps.extend([Step::Act(Action::KillBroker(1)), pause(12_000)]);
    steps.extend(roll_back_and_roll_brokers(config));
    steps
}

/// Kafka 3.9's guide from migration mode: deprovision the controllers and delete `/controller`
/// and `/migration` (a broker is elected ZooKeeper-mode controller at once), then restart each
/// broker in ZooKeeper mode, one after another, each once it is back.
fn roll_back_and_roll_brokers(config: &MigrationConfig) -> Vec<Step> {
    let mut steps = vec![
        Step::Act(Action::RollBack),
        wait("a ZooKeeper-mode controller", |s| s.zk_controller().is_some()),
    ];
    for b in 0..config.brokers {
        steps.push(Step::Act(Action::BrokerToZkMode(b)));
        steps.push(wait("the broker back in ZooKeeper mode", move |s| {
            s.running_in(b) == Some(BrokerMode::Zk)
        }));
    }
    steps.push(pause(2_000));
    steps
}

/// What the sweep found: the copy commits while ZooKeeper is unreachable, so the driver blocks
/// before recording it in `/migration`, and its controller dies. Every later leader's driver
/// reads MIGRATION in the log and no copy in `/migration`, and stays INACTIVE
/// (`WaitForControllerQuorumEvent`: "an active migration, but the ZK state does not").
fn stranded(config: &MigrationConfig) -> Vec<Step> {
    let mut steps = provision_and_roll_brokers(config);
    steps.extend([
        // The copy's last read done, its `ZkMigrationStateRecord(MIGRATION)` appended, not yet
        // committed: ZooKeeper goes away now.
        wait("the copy's end appended", |s| {
            let log = s.log();
            log.len() > 1
                && matches!(
                    log.entry(log.len() - 2).map(|e| &e.record),
                    Some(MetaRecord::MigrationState(ZkMigrationState::Migration))
                )
        }),
        Step::Act(Action::ZkOutage { lasting: 10_000 * MS }),
        pause(1_000),
        Step::Act(Action::KillActiveController),
        pause(30_000),
    ]);
    steps
}

/// KAFKA-20488: dual-write stamps each state znode it writes with the KRaft epoch as its
/// `controller_epoch` (`ZkTopicMigrationClient.partitionStatePathAndData`). A quorum that has had
/// more elections than ZooKeeper has had controllers (here: the active controller killed six
/// times before the brokers were ready, elections that claim nothing) leaves, after a rollback,
/// state znodes above the new ZooKeeper controller's epoch; its elections of those partitions
/// abort ("written by another controller"), leaving them offline.
fn rollback_hazard(config: &MigrationConfig) -> Vec<Step> {
    let mut steps = vec![Step::Act(Action::ProvisionControllers)];
    for _ in 0..6 {
        steps.extend([
            wait("an active controller", |s| s.leader().is_some()),
            Step::Act(Action::KillActiveController),
            pause(1),
        ]);
    }
    steps.extend(roll_brokers(config));
    steps.extend([
        wait("dual-write", |s| s.driver_state() == Some(MigrationDriverState::DualWrite)),
        Step::Act(Action::KillBroker(1)),
        pause(12_000),
    ]);
    steps.extend(roll_back_and_roll_brokers(config));
    steps
}

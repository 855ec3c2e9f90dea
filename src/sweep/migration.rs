//! The migration in the seed sweep: each seed also migrates a cluster it derives (brokers,
//! topics, partitions, replicas, controllers) from ZooKeeper mode to KRaft (Kafka 3.9), with its
//! own subset of the migration's faults (swarm testing) injected along the way: the active
//! controller's death (in the copy or in dual-write), ZooKeeper outages, brokers dying and
//! coming back. The migration's invariants are checked after every event; and once the faults
//! stop, the migration must reach dual-write and then end as the seed says (brokers to KRaft and
//! finalize, a rollback, or dual-write going on).

use std::fmt;

use crate::harness::{MS, Micros, format_time};
use crate::migration::sim::{
    Action, BrokerMode, MigrationConfig, MigrationSabotage, MigrationSim, TraceKind,
};
use crate::migration::state::{MigrationDriverState, ZkMigrationState};
use crate::util::rng::Rng;

/// The name of the liveness check: the migration gets to dual-write, and finishes.
pub const MIGRATION_FINISHES: &str = "the migration reaches dual-write and finishes once faults stop";
/// How long the migration may take once the faults have stopped.
const PATIENCE: Micros = 300_000 * MS;

/// The faults a seed's migration suffers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MigrationFaults {
    pub controller_deaths: bool,
    pub zk_outages: bool,
    pub broker_deaths: bool,
    /// The active controller killed while it copies (random faults seldom land in the copy).
    pub copy_failover: bool,
    /// Brokers cut off ZooKeeper past their session timeout (what a network fault is to
    /// Kafka's ZooKeeper client: a session expiry).
    pub session_expiries: bool,
}

/// How a seed's migration ends once it is in dual-write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Every broker to KRaft, then the controllers without the flag.
    Finalize,
    RollBack,
    /// Dual-write goes on.
    DualWrite,
}

/// Everything a seed decides about its migration.
#[derive(Clone, Debug)]
pub struct MigrationSeed {
    pub seed: u64,
    pub config: MigrationConfig,
    pub faults: MigrationFaults,
    pub fault_every: Micros,
    pub max_faults: u32,
    pub ending: Ending,
}

impl MigrationSeed {
    /// Derive a seed's migration from the seed alone.
    pub fn derive(seed: u64, sabotage: MigrationSabotage) -> MigrationSeed {
        let mut rng = Rng::new(seed ^ 0x0866_2A7E_5EED_0039);
        let config = MigrationConfig {
            brokers: rng.range(3, 7) as u32,
            topics: rng.range(1, 13) as u32,
            partitions_per_topic: rng.range(1, 5) as u32,
            replication_factor: rng.range(2, 4) as u32,
            controllers: if rng.chance(0.7) { 3 } else { 5 },
            sabotage,
            ..MigrationConfig::small()
        };
        let faults = MigrationFaults {
            controller_deaths: rng.chance(0.5),
            zk_outages: rng.chance(0.5),
            broker_deaths: rng.chance(0.6),
            copy_failover: false,
            session_expiries: false,
        };
        let fault_every = rng.range(2_000, 20_000) * MS;
        let max_faults = rng.range(1, 8) as u32;
        let ending = match rng.below(3) {
            0 => Ending::Finalize,
            1 => Ending::RollBack,
            _ => Ending::DualWrite,
        };
        // Drawn last, so the seeds' other choices stay as they were before it.
        let faults = MigrationFaults { copy_failover: rng.chance(0.25), ..faults };
        let faults = MigrationFaults { session_expiries: rng.chance(0.5), ..faults };
        MigrationSeed { seed, config, faults, fault_every, max_faults, ending }
    }
}

impl fmt::Display for MigrationSeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.config;
        let mut faults = Vec::new();
        for (on, name) in [
            (self.faults.controller_deaths, "controller-deaths"),
            (self.faults.zk_outages, "zk-outages"),
            (self.faults.broker_deaths, "broker-deaths"),
            (self.faults.copy_failover, "copy-failover"),
            (self.faults.session_expiries, "zk-session-expiries"),
        ] {
            if on {
                faults.push(name);
            }
        }
        write!(
            f,
            "migration seed {}: brokers={} topics={}x{} rf={} controllers={} faults={} every={}ms at-most={} ending={:?}",
            self.seed,
            c.brokers,
            c.topics,
            c.partitions_per_topic,
            c.replication_factor,
            c.controllers,
            if faults.is_empty() { "none".to_string() } else { faults.join(",") },
            self.fault_every / MS,
            self.max_faults,
            self.ending
        )
    }
}

/// What broke in a seed's migration.
#[derive(Clone, Debug)]
pub struct MigrationFailure {
    pub invariant: &'static str,
    pub detail: String,
    pub at: Micros,
    /// The last trace lines before it.
    pub trace_tail: Vec<String>,
}

impl fmt::Display for MigrationFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} (at {})", self.invariant, self.detail, format_time(self.at))
    }
}

/// How a seed's migration that broke nothing went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MigrationOutcome {
    /// It reached Kafka 3.9's dead end ([`MigrationSim::stranded`]) and stopped there.
    pub stranded: bool,
    /// Copies lost with their controller (and so aborted and done again).
    pub copies_lost: u32,
    /// Sessions ZooKeeper expired while their brokers were cut off it.
    pub sessions_expired: u32,
    /// Broker starts that failed on a `/brokers/ids` znode a dead process's session still held.
    pub failed_starts: u32,
}

/// Runs one seed's migration: its first broken invariant, if any.
pub fn run_migration_seed(params: &MigrationSeed) -> Result<MigrationOutcome, Box<MigrationFailure>> {
    let mut sim = MigrationSim::new(params.config.clone(), params.seed).map_err(|detail| {
        Box::new(MigrationFailure { invariant: "a valid cluster", detail, at: 0, trace_tail: Vec::new() })
    })?;
    let mut chaos = Chaos { rng: Rng::new(params.seed ^ 0xC4A0_5000), params, injected: 0 };
    let result = chaos.migrate(&mut sim);
    let stranded = sim.stranded();
    let failure = match sim.violations().first() {
        Some(v) => Some((v.invariant, v.detail.clone(), v.at)),
        None if stranded => None,
        None => result.err().map(|why| (MIGRATION_FINISHES, why, sim.now())),
    };
    match failure {
        None => {
            let count =
                |kind: fn(&TraceKind) -> bool| sim.trace().iter().filter(|l| kind(&l.kind)).count() as u32;
            Ok(MigrationOutcome {
                stranded,
                copies_lost: count(|k| matches!(k, TraceKind::CopyLost { .. })),
                sessions_expired: count(|k| matches!(k, TraceKind::SessionExpired { .. })),
                failed_starts: count(|k| matches!(k, TraceKind::BrokerStartFailed { .. })),
            })
        }
        Some((invariant, detail, at)) => {
            let trace = sim.trace();
            let tail = trace.iter().filter(|l| l.at <= at).rev().take(40).collect::<Vec<_>>();
            let trace_tail = tail.iter().rev().map(|l| format!("{} {}", format_time(l.at), l.kind)).collect();
            Err(Box::new(MigrationFailure { invariant, detail, at, trace_tail }))
        }
    }
}

/// Whether the seed's migration breaks `invariant` (a sabotage's target).
pub fn catches_in_migration(params: &MigrationSeed, invariant: &str) -> bool {
    let Ok(mut sim) = MigrationSim::new(params.config.clone(), params.seed) else { return false };
    let mut chaos = Chaos { rng: Rng::new(params.seed ^ 0xC4A0_5000), params, injected: 0 };
    let finished = chaos.migrate(&mut sim);
    sim.violations().iter().any(|v| v.invariant == invariant)
        || (invariant == MIGRATION_FINISHES && finished.is_err() && !sim.stranded())
}

/// How often the operator tries again to start a broker whose start failed.
const START_AGAIN_EVERY: Micros = 5_000 * MS;

/// The operator starts again each broker whose start failed (the session of its previous
/// process still held its `/brokers/ids` znode).
fn start_again_what_failed_to_start(sim: &mut MigrationSim) {
    for b in 0..sim.config().brokers {
        if sim.start_failed(b) {
            sim.schedule(sim.now(), Action::RestartBroker(b));
        }
    }
}

/// The operator's script with faults injected along it.
struct Chaos<'a> {
    rng: Rng,
    params: &'a MigrationSeed,
    injected: u32,
}

impl Chaos<'_> {
    fn migrate(&mut self, sim: &mut MigrationSim) -> Result<(), String> {
        sim.act(Action::ProvisionControllers).map_err(|e| e.0)?;
        for b in 0..sim.config().brokers {
            sim.schedule(sim.now(), Action::BrokerToMigrationMode(b));
            self.run_until(sim, "a broker registered", |s| {
                s.registered_as(b) == Some(BrokerMode::Migrating)
            })?;
        }
        // The active controller killed at a random moment of the copy's reads and batches.
        if self.params.faults.copy_failover {
            self.run_until(sim, "the copy", |s| {
                s.last_copy().is_some() || s.log_migration_state() != ZkMigrationState::PreMigration
            })?;
            if let Some(reads_end) = sim.last_copy().map(|c| c.done_at).filter(|end| *end > sim.now()) {
                let at = sim.now() + self.rng.below(reads_end - sim.now());
                sim.schedule(at, Action::KillActiveController);
            }
        }
        self.run_until(sim, "dual-write", |s| s.driver_state() == Some(MigrationDriverState::DualWrite))?;
        self.run_for(sim, 20_000 * MS);
        match self.params.ending {
            Ending::Finalize => {
                for b in 0..sim.config().brokers {
                    sim.schedule(sim.now(), Action::BrokerToKraft(b));
                    self.run_until(sim, "a broker in KRaft mode", |s| {
                        s.registered_as(b) == Some(BrokerMode::Kraft)
                    })?;
                }
                sim.schedule(sim.now(), Action::Finalize);
                self.run_until(sim, "POST_MIGRATION", MigrationSim::finalized)?;
            }
            Ending::RollBack => {
                sim.schedule(sim.now(), Action::RollBack);
                self.run_until(sim, "a ZooKeeper-mode controller", |s| s.zk_controller().is_some())?;
                for b in 0..sim.config().brokers {
                    sim.schedule(sim.now(), Action::BrokerToZkMode(b));
                    self.run_until(sim, "a broker in ZooKeeper mode", |s| {
                        s.running_in(b) == Some(BrokerMode::Zk)
                    })?;
                }
            }
            Ending::DualWrite => {}
        }
        self.run_for(sim, 20_000 * MS);
        Ok(())
    }

    /// Runs with faults until `done`; once the faults are spent, `done` must hold within
    /// [`PATIENCE`].
    fn run_until(
        &mut self,
        sim: &mut MigrationSim,
        what: &str,
        done: impl Fn(&MigrationSim) -> bool,
    ) -> Result<(), String> {
        while self.injected < self.params.max_faults && self.any_fault() {
            let next =
                sim.now() + self.rng.range(self.params.fault_every / 2, self.params.fault_every * 3 / 2);
            if sim.run_until_that(next, &done) {
                return Ok(());
            }
            start_again_what_failed_to_start(sim);
            self.inject(sim);
        }
        let limit = sim.now() + PATIENCE;
        let mut at = sim.now();
        while at < limit {
            start_again_what_failed_to_start(sim);
            at = (at + START_AGAIN_EVERY).min(limit);
            if sim.run_until_that(at, &done) {
                return Ok(());
            }
        }
        Err(format!("no {what} {} s after the last fault", PATIENCE / 1_000_000))
    }

    fn run_for(&mut self, sim: &mut MigrationSim, span: Micros) {
        let end = sim.now() + span;
        let _ = self.run_until(sim, "the time to pass", |s| s.now() >= end);
    }

    fn any_fault(&self) -> bool {
        let f = self.params.faults;
        f.controller_deaths || f.zk_outages || f.broker_deaths || f.session_expiries
    }

    /// One fault of the seed's kinds, with its healing: a dead broker restarts later, a killed
    /// controller restarts on its own, an outage ends, a cut link comes back.
    fn inject(&mut self, sim: &mut MigrationSim) {
        let f = self.params.faults;
        let kinds: Vec<u8> =
            [(f.controller_deaths, 0), (f.zk_outages, 1), (f.broker_deaths, 2), (f.session_expiries, 3)]
                .into_iter()
                .filter_map(|(on, kind)| on.then_some(kind))
                .collect();
        self.injected += 1;
        match kinds[self.rng.below(kinds.len() as u64) as usize] {
            0 => sim.schedule(sim.now(), Action::KillActiveController),
            1 => sim.schedule(sim.now(), Action::ZkOutage { lasting: self.rng.range(1_000, 30_000) * MS }),
            3 => {
                let b = self.rng.below(u64::from(sim.config().brokers)) as u32;
                sim.schedule(sim.now(), Action::CutFromZk(b));
            }
            _ => {
                let b = self.rng.below(u64::from(sim.config().brokers)) as u32;
                sim.schedule(sim.now(), Action::KillBroker(b));
                sim.schedule(sim.now() + self.rng.range(1_000, 20_000) * MS, Action::RestartBroker(b));
            }
        }
    }
}

//! The seed sweep behind `kraftscope check`: each seed derives a cluster, a network, its own
//! subset of fault kinds (swarm testing) and a fault schedule, runs a safety phase under chaos
//! with every invariant checked after every event, then a liveness phase with faults healed in
//! which a leader must commit and every node and broker catch up within a bound.

use std::fmt;

use crate::faults::{FaultKind, FaultMix};
use crate::invariants::{Checker, Violation};
use crate::metadata::broker::BrokerLifecycle;
use crate::metadata::config::MetadataConfig;
use crate::quorum::{MS, Micros, NodeId, QuorumConfig};
use crate::rng::Rng;
use crate::sabotage::Sabotage;
use crate::sim::simulation::QuorumFormat;
use crate::sim::{ClusterConfig, NetworkConfig, Simulation, TraceLine};

/// Simulated time of the chaos phase.
const CHAOS_PHASE: Micros = 20_000 * MS;
/// After healing, a leader must commit a new write on every running node within this bound.
const LIVENESS_BOUND: Micros = 30_000 * MS;

/// Everything a seed decides about its run.
#[derive(Clone, Debug, PartialEq)]
pub struct SeedParams {
    pub seed: u64,
    pub cluster: ClusterConfig,
    /// Mean time between injected faults.
    pub fault_every: Micros,
    /// Mean time between client writes.
    pub write_every: Micros,
    /// The fault kinds this seed injects.
    pub faults: FaultMix,
    /// How much a latency spike or a slow node adds to a message's delay, at most.
    pub slowness: Micros,
}

impl SeedParams {
    /// Derive a seed's parameters from the seed alone.
    pub fn derive(seed: u64, sabotage: Sabotage) -> SeedParams {
        let mut rng = Rng::new(seed ^ 0x005E_ED0F_C4A0_5000);
        let voters = if rng.chance(0.5) { 3 } else { 5 };
        let observers = rng.below(5) as u32;
        let latency_min = rng.range(MS / 2, 5 * MS);
        let network = NetworkConfig {
            latency_min,
            latency_max: latency_min + rng.range(0, 20 * MS),
            drop_rate: rng.below(11) as f64 / 100.0,
            reorder: rng.chance(0.3),
        };
        let quorum = QuorumConfig {
            pre_vote: !rng.chance(0.2),
            max_record_bytes_between_snapshots: if rng.chance(0.5) { rng.range(160, 3200) } else { 0 },
            fetch_max_bytes: rng.range(64, 4096),
            fetch_snapshot_max_bytes: rng.range(16, 128),
            max_retention_bytes: rng.range(200, 4000),
            log_clean_interval: rng.range(500 * MS, 5000 * MS),
            sabotage: sabotage.quorum,
            ..QuorumConfig::default()
        };
        SeedParams {
            seed,
            cluster: ClusterConfig {
                voters,
                observers,
                quorum,
                network,
                metadata: MetadataConfig { sabotage: sabotage.metadata, ..MetadataConfig::default() },
                format: QuorumFormat::Static,
            },
            fault_every: rng.range(300 * MS, 3000 * MS),
            write_every: rng.range(5 * MS, 200 * MS),
            faults: FaultMix::draw(&mut rng),
            slowness: rng.range(10 * MS, 3000 * MS),
        }
    }
}

impl fmt::Display for SeedParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.cluster;
        write!(
            f,
            "seed {}: voters={} observers={} latency={}-{}us drop={:.0}% reorder={} pre-vote={} snapshot-bytes={} retention-bytes={} faults-every={}ms writes-every={}ms faults={} slowness={}ms",
            self.seed,
            c.voters,
            c.observers,
            c.network.latency_min,
            c.network.latency_max,
            c.network.drop_rate * 100.0,
            if c.network.reorder { "on" } else { "off" },
            if c.quorum.pre_vote { "on" } else { "off" },
            c.quorum.max_record_bytes_between_snapshots,
            c.quorum.max_retention_bytes,
            self.fault_every / MS,
            self.write_every / MS,
            self.faults,
            self.slowness / MS
        )
    }
}

/// What went wrong in a seed's run.
#[derive(Clone, Debug)]
pub struct Failure {
    pub violation: Violation,
    /// The number of the event after which the violation was seen.
    pub event: u64,
    pub at: Micros,
    /// The last trace lines before the failure (only when tracing was on).
    pub trace_tail: Vec<TraceLine>,
}

/// Run one seed; `trace` keeps the trace for the failure report.
pub fn run_seed(params: &SeedParams, trace: bool) -> Result<(), Box<Failure>> {
    let mut run = ChaosRun::new(params, trace, Checker::default());
    let result =
        run.safety_phase().and_then(|_| run.liveness_phase()).and_then(|_| run.checker.at_end(&run.sim));
    result.map_err(|violation| {
        let mut tail = run.sim.take_trace();
        let keep = tail.len().saturating_sub(60);
        tail.drain(..keep);
        Box::new(Failure {
            violation,
            event: run.sim.events_processed(),
            at: run.sim.now(),
            trace_tail: tail,
        })
    })
}

/// Run one seed reporting only `invariant` (the others are checked without stopping the run):
/// whether the sweep catches it. Shows that a sabotage breaks the invariant it targets.
pub fn catches(params: &SeedParams, invariant: &'static str) -> bool {
    let mut run = ChaosRun::new(params, false, Checker::watching(invariant));
    let result =
        run.safety_phase().and_then(|_| run.liveness_phase()).and_then(|_| run.checker.at_end(&run.sim));
    result.is_err_and(|violation| violation.invariant == invariant)
}

struct ChaosRun {
    sim: Simulation,
    checker: Checker,
    rng: Rng,
    fault_every: Micros,
    write_every: Micros,
    faults: FaultMix,
    slowness: Micros,
    /// The seed's own network, which a latency spike departs from.
    network: NetworkConfig,
    topics: u32,
}

impl ChaosRun {
    fn new(params: &SeedParams, trace: bool, checker: Checker) -> ChaosRun {
        let mut sim = Simulation::new(params.cluster.clone(), params.seed);
        if trace {
            sim.enable_trace();
        }
        ChaosRun {
            sim,
            checker,
            rng: Rng::new(params.seed.rotate_left(17)),
            fault_every: params.fault_every,
            write_every: params.write_every,
            faults: params.faults.clone(),
            slowness: params.slowness,
            network: params.cluster.network.clone(),
            topics: 0,
        }
    }

    /// Process events up to time `t`, checking invariants after each.
    fn advance_to(&mut self, t: Micros) -> Result<(), Violation> {
        while self.sim.next_event_time().is_some_and(|at| at <= t) {
            self.sim.step();
            self.checker.after_event(&self.sim)?;
        }
        self.sim.run_until(t);
        Ok(())
    }

    fn safety_phase(&mut self) -> Result<(), Violation> {
        let mut next_fault = self.rng.range(0, 2 * self.fault_every);
        let mut next_write = self.rng.range(0, 2 * self.write_every);
        while self.sim.now() < CHAOS_PHASE {
            let t = next_fault.min(next_write).min(CHAOS_PHASE);
            self.advance_to(t)?;
            if t == next_fault {
                self.inject_fault();
                next_fault = t + self.rng.range(1, 2 * self.fault_every);
            }
            if t == next_write {
                let _ = self.sim.write();
                next_write = t + self.rng.range(1, 2 * self.write_every);
            }
            self.checker.after_event(&self.sim)?;
        }
        Ok(())
    }

    fn inject_fault(&mut self) {
        let ids: Vec<NodeId> = self.sim.node_ids().collect();
        let pick = ids[self.rng.below(ids.len() as u64) as usize];
        let other = ids[self.rng.below(ids.len() as u64) as usize];
        match self.faults.pick(&mut self.rng) {
            FaultKind::Crash => {
                let _ = self.sim.crash(pick);
            }
            FaultKind::Restart => {
                let down: Vec<NodeId> =
                    ids.iter().copied().filter(|id| self.sim.node(*id).is_none()).collect();
                if let Some(&id) = down.get(self.rng.below(down.len().max(1) as u64) as usize) {
                    let _ = self.sim.restart(id);
                }
            }
            FaultKind::KillLeader => {
                if let Some(leader) = self.sim.leader().map(|l| l.id()) {
                    let _ = self.sim.crash(leader);
                }
            }
            FaultKind::Cut if pick != other => self.sim.cut(pick, other),
            FaultKind::OneWayCut if pick != other => self.sim.cut_one_way(pick, other),
            FaultKind::Isolate => self.sim.isolate(pick),
            FaultKind::Heal => self.sim.heal_all(),
            FaultKind::LatencySpike => {
                let mut network = self.network.clone();
                if self.rng.chance(0.5) {
                    network.latency_max += self.rng.range(1, self.slowness + 1);
                }
                self.sim.set_network(network);
            }
            FaultKind::SlowNode => {
                let extra = if self.rng.chance(0.3) { 0 } else { self.rng.range(1, self.slowness + 1) };
                self.sim.slow_down(pick, extra);
            }
            FaultKind::Resign => {
                let _ = self.sim.resign_leader();
            }
            FaultKind::ControlledShutdown => {
                let _ = self.sim.shut_down_broker(pick);
            }
            FaultKind::TopicChurn if self.topics > 0 && self.rng.chance(0.3) => {
                let _ = self
                    .sim
                    .delete_topic(&format!("topic-{}", self.rng.range(1, u64::from(self.topics) + 1)));
            }
            FaultKind::TopicChurn => {
                let (partitions, rf) = (self.rng.range(1, 12) as u32, self.rng.range(1, 4) as u32);
                self.topics += 1;
                let _ = self.sim.create_topic(&format!("topic-{}", self.topics), partitions, rf);
            }
            FaultKind::Cut | FaultKind::OneWayCut => {}
        }
    }

    /// Once a leader has committed a write made after healing, the offset every node must
    /// reach: the leader's high watermark at that moment.
    fn catch_up_target(&self, writes_before: u64) -> Option<u64> {
        let leader = self.sim.leader()?;
        (leader.applied().state.writes > writes_before).then_some(leader.high_watermark()?)
    }

    /// Whether every running node has applied up to `target` and every broker is RUNNING.
    fn converged(&self, target: u64) -> bool {
        let brokers_running = self
            .sim
            .running_servers()
            .filter_map(|s| s.broker())
            .all(|b| b.lifecycle() == BrokerLifecycle::Running);
        brokers_running && self.sim.running_nodes().all(|n| n.applied().applied_offset >= target)
    }

    /// Heal everything; within the bound a leader must be elected and a new write must reach
    /// every running node's high watermark.
    fn liveness_phase(&mut self) -> Result<(), Violation> {
        self.sim.heal_all();
        self.sim.clear_slow();
        let network = NetworkConfig { drop_rate: 0.0, ..self.network.clone() };
        self.sim.set_network(network);
        let down: Vec<NodeId> = self.sim.node_ids().filter(|id| self.sim.node(*id).is_none()).collect();
        for id in down {
            let _ = self.sim.restart(id);
        }
        let deadline = self.sim.now() + LIVENESS_BOUND;
        let writes_before = self.sim.running_nodes().map(|n| n.applied().state.writes).max().unwrap_or(0);
        let mut next_write = self.sim.now();
        let mut target = None;
        while self.sim.now() < deadline {
            if self.sim.now() >= next_write && self.sim.write().is_ok() {
                next_write = self.sim.now() + 1000 * MS;
            }
            let step_to = self.sim.now() + 50 * MS;
            self.advance_to(step_to)?;
            target = target.or_else(|| self.catch_up_target(writes_before));
            if target.is_some_and(|t| self.converged(t)) {
                return Ok(());
            }
        }
        let state: Vec<String> = self
            .sim
            .running_servers()
            .map(|s| {
                let n = s.node();
                let lifecycle = s.broker().map_or(String::new(), |b| format!(" {}", b.lifecycle()));
                let (applied, hw, log) = (n.applied().applied_offset, n.high_watermark(), n.log());
                let range = format!("log {}..{}", log.start_offset(), log.end_offset());
                format!(
                    "n{} {}{lifecycle} epoch {} hw {hw:?} applied {applied} {range}",
                    n.id(),
                    n.role(),
                    n.epoch()
                )
            })
            .collect();
        let target =
            target.map_or("no post-heal write committed".to_string(), |t| format!("target offset {t}"));
        Err(Violation {
            invariant: "liveness: with faults healed the cluster converges",
            detail: format!(
                "not converged within {}ms ({target}): {}",
                LIVENESS_BOUND / MS,
                state.join(", ")
            ),
        })
    }
}

//! The seed sweep behind `kraftscope check`: each seed derives a cluster, a network, its own
//! subset of fault kinds (swarm testing) and a fault schedule, runs a safety phase under chaos
//! with every invariant checked after every event, then a liveness phase with faults healed in
//! which a leader must commit and every node and broker catch up within a bound.

use std::fmt;

use crate::harness::{MS, Micros};
use crate::invariants::{Checker, Violation};
use crate::metadata::acl::SUPER_USER;
use crate::metadata::broker::BrokerLifecycle;
use crate::metadata::config::MetadataConfig;
use crate::quorum::voters::{ReplicaKey, VoterSet};
use crate::quorum::{NodeId, QuorumConfig};
use crate::sim::simulation::QuorumFormat;
use crate::sim::{ChaosCounts, ClusterConfig, NetworkConfig, Simulation, TraceLine};
use crate::sweep::faults::{FaultKind, FaultMix};
use crate::sweep::sabotage::Sabotage;
use crate::util::rng::Rng;

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
    /// With a dynamic quorum: the share of faults that are voter changes and disk wipes.
    pub reconfig_share: f64,
    /// The share of faults that are storage faults: power losses (of one server or several at
    /// once) and torn writes.
    pub storage_share: f64,
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
            duplicate_rate: 0.0,
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
        let mut params = SeedParams {
            seed,
            cluster: ClusterConfig {
                voters,
                observers,
                quorum,
                network,
                metadata: MetadataConfig { sabotage: sabotage.metadata, ..MetadataConfig::default() },
                format: QuorumFormat::Static,
                combined: false,
            },
            fault_every: rng.range(300 * MS, 3000 * MS),
            write_every: rng.range(5 * MS, 200 * MS),
            faults: FaultMix::draw(&mut rng),
            slowness: rng.range(10 * MS, 3000 * MS),
            reconfig_share: 0.0,
            storage_share: 0.0,
        };
        // Drawn last, so a static seed runs as it did before dynamic quorums were swept.
        params.cluster.format = match rng.below(5) {
            0 | 1 => QuorumFormat::InitialControllers,
            2 => QuorumFormat::Standalone,
            _ => QuorumFormat::Static,
        };
        if params.cluster.format != QuorumFormat::Static {
            params.reconfig_share = rng.range(5, 40) as f64 / 100.0;
        }
        // Drawn after the format, so the seeds without combined nodes run as before.
        params.cluster.combined = rng.chance(0.25);
        // Half the static quorums are upgraded to kraft.version 1 on the way.
        if params.cluster.format == QuorumFormat::Static && rng.chance(0.5) {
            params.reconfig_share = rng.range(5, 40) as f64 / 100.0;
        }
        // A third of the seeds' controllers auto-join (once the quorum is dynamic).
        params.cluster.quorum.auto_join = rng.chance(0.3);
        // Drawn last, so the seeds without duplication run as before: a third of the seeds
        // deliver 1% to 20% of their messages twice.
        if rng.chance(1.0 / 3.0) {
            params.cluster.network.duplicate_rate = rng.range(1, 21) as f64 / 100.0;
        }
        // Drawn last, so the seeds without storage faults run as before: in a third of the
        // seeds 5% to 30% of the faults cut the power.
        if rng.chance(1.0 / 3.0) {
            params.storage_share = rng.range(5, 31) as f64 / 100.0;
        }
        params
    }
}

impl fmt::Display for SeedParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.cluster;
        write!(
            f,
            "seed {}: format={} voters={} observers={} latency={}-{}us drop={:.0}% reorder={} pre-vote={} snapshot-bytes={} retention-bytes={} faults-every={}ms writes-every={}ms faults={} slowness={}ms",
            self.seed,
            c.format.name(),
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
        )?;
        if self.reconfig_share > 0.0 {
            write!(f, " voter-changes={:.0}%", self.reconfig_share * 100.0)?;
        }
        if c.network.duplicate_rate > 0.0 {
            write!(f, " duplicate={:.0}%", c.network.duplicate_rate * 100.0)?;
        }
        if self.storage_share > 0.0 {
            write!(f, " power-faults={:.0}%", self.storage_share * 100.0)?;
        }
        if self.cluster.combined {
            write!(f, " roles=combined")?;
        }
        if self.cluster.quorum.auto_join {
            write!(f, " auto-join=on")?;
        }
        Ok(())
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

/// What a seed that passed did, beyond passing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeedReport {
    /// AddRaftVoter and RemoveRaftVoter requests the leader accepted.
    pub voter_changes: u32,
    /// Controllers whose disk was wiped.
    pub disk_wipes: u32,
    /// Static quorums upgraded to kraft.version 1 (`kafka-features upgrade`).
    pub kraft_upgrades: u32,
    /// Messages delivered before one sent earlier on their link, second copies delivered,
    /// power losses and torn writes.
    pub chaos: ChaosCounts,
}

/// Run one seed; `trace` keeps the trace for the failure report.
pub fn run_seed(params: &SeedParams, trace: bool) -> Result<SeedReport, Box<Failure>> {
    let mut run = ChaosRun::new(params, trace, Checker::default());
    let result =
        run.safety_phase().and_then(|_| run.liveness_phase()).and_then(|_| run.checker.at_end(&run.sim));
    result.map(|_| SeedReport { chaos: run.sim.chaos_counts(), ..run.report }).map_err(|violation| {
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
    reconfig_share: f64,
    storage_share: f64,
    /// The seed's own network, which a latency spike departs from.
    network: NetworkConfig,
    topics: u32,
    report: SeedReport,
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
            reconfig_share: params.reconfig_share,
            storage_share: params.storage_share,
            network: params.cluster.network.clone(),
            topics: 0,
            report: SeedReport::default(),
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
        if self.reconfig_share > 0.0 && self.rng.chance(self.reconfig_share) {
            self.change_voters();
            return;
        }
        if self.storage_share > 0.0 && self.rng.chance(self.storage_share) {
            self.cut_power(&ids, pick);
            return;
        }
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
                let _ = self.sim.delete_topic(
                    SUPER_USER,
                    &format!("topic-{}", self.rng.range(1, u64::from(self.topics) + 1)),
                );
            }
            FaultKind::TopicChurn => {
                let (partitions, rf) = (self.rng.range(1, 12) as u32, self.rng.range(1, 4) as u32);
                self.topics += 1;
                let _ = self.sim.create_topic(&format!("topic-{}", self.topics), partitions, rf);
            }
            FaultKind::Cut | FaultKind::OneWayCut => {}
        }
    }

    /// A storage fault: the power fails on `pick` now, or in the middle of its next write (a
    /// torn write), or on several servers at once (a rack's power), each losing what it had not
    /// flushed.
    fn cut_power(&mut self, ids: &[NodeId], pick: NodeId) {
        match self.rng.below(3) {
            0 => {
                let _ = self.sim.power_loss(pick);
            }
            1 => {
                let _ = self.sim.tear_next_write(pick);
            }
            _ => {
                let count = self.rng.range(2, ids.len() as u64 + 1);
                let mut rack = ids.to_vec();
                for i in 0..count as usize {
                    let j = i + self.rng.below((rack.len() - i) as u64) as usize;
                    rack.swap(i, j);
                }
                for &id in &rack[..count as usize] {
                    let _ = self.sim.power_loss(id);
                }
            }
        }
    }

    /// Voters whose entry names the directory the node's disk has now (a wiped disk's old key
    /// is stale: no running process answers for it).
    fn healthy(&self, voters: &VoterSet) -> usize {
        let current: Vec<ReplicaKey> = self.sim.controller_logs().map(|(key, _)| key).collect();
        voters.keys().iter().filter(|k| current.iter().any(|c| k.matches(*c))).count()
    }

    /// Whether an operator would see a settled quorum (`kafka-metadata-quorum describe`): a
    /// leader whose latest VotersRecord is committed, and every running controller's log
    /// holding that same voter set.
    fn settled(&self) -> bool {
        let Some(leader) = self.sim.leader() else { return false };
        let control = leader.log().control();
        let committed =
            control.last_voters_offset().is_none_or(|o| leader.high_watermark().is_some_and(|hw| hw > o));
        let same = self
            .sim
            .running_nodes()
            .filter(|n| n.id() < crate::sim::FIRST_OBSERVER_ID)
            .all(|n| n.voter_set() == leader.voter_set());
        committed && same
    }

    /// A swarm step for a dynamic quorum: add a controller that is not a voter, remove a voter
    /// or a stale key, or wipe a controller's disk, as a careful operator would: never leaving
    /// fewer healthy voters than a majority of the old or the new set, which no operator could
    /// recover from without the lost disks.
    fn change_voters(&mut self) {
        // A static quorum is upgraded first (refused until every voter has sent the leader
        // UpdateRaftVoter), then, once that commits, every controller's configuration trades
        // controller.quorum.voters for controller.quorum.bootstrap.servers; nothing else changes
        // until then: a wiped voter that still had the static set would rejoin with an empty log
        // and still vote, the hazard the upgrade exists to remove.
        if self.sim.leader().is_some_and(|l| l.log().control().kraft_version() == 0) {
            if self.sim.upgrade_kraft_version().is_ok() {
                self.report.kraft_upgrades += 1;
            }
            return;
        }
        if self.sim.has_static_voters() {
            if self.settled() {
                self.sim.drop_static_voters();
            }
            return;
        }
        let set = self.sim.voter_set().clone();
        let controllers = self.sim.controller_ids().to_vec();
        let pick = controllers[self.rng.below(controllers.len() as u64) as usize];
        if !self.settled() {
            // An impatient operator adds a controller while the last change may still be
            // pending; the leader must refuse it (`AddVoterHandler`: REQUEST_TIMED_OUT).
            if !set.has_id(pick) && self.rng.chance(0.3) && self.sim.add_voter(pick).is_ok() {
                self.report.voter_changes += 1;
            }
            return;
        }
        match self.rng.below(3) {
            0 if !set.has_id(pick) => {
                if self.sim.add_voter(pick).is_ok() {
                    self.report.voter_changes += 1;
                }
            }
            0 | 1 => {
                let stale =
                    set.keys().iter().find(|k| self.healthy(&VoterSet::new([**k])) == 0).map(|k| k.id);
                let id = stale.unwrap_or(pick);
                let after = set.key_of(id).and_then(|k| set.without_voter(k));
                // The old set must keep a majority without the removed voter too: if the leader
                // that wrote the change fails before it commits, the others still hold the old
                // set, and the removed voter, now an observer with the longer log, refuses them
                // its vote (a two-voter quorum removing its leader deadlocks this way).
                let safe =
                    |a: &VoterSet| self.healthy(a) >= a.majority() && self.healthy(a) >= set.majority();
                if after.is_some_and(|a| safe(&a)) && self.sim.remove_voter(id).is_ok() {
                    self.report.voter_changes += 1;
                }
            }
            _ => {
                let loses = set.key_of(pick).is_some_and(|k| self.healthy(&VoterSet::new([k])) == 1);
                if self.healthy(&set) - usize::from(loses) >= set.majority()
                    && self.sim.wipe_disk(pick).is_ok()
                {
                    self.report.disk_wipes += 1;
                }
            }
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

    /// Restart every stopped server whose id `which` accepts.
    fn restart_down(&mut self, which: impl Fn(NodeId) -> bool) {
        let down: Vec<NodeId> =
            self.sim.node_ids().filter(|id| which(*id) && self.sim.node(*id).is_none()).collect();
        for id in down {
            let _ = self.sim.restart(id);
        }
    }

    /// Heal everything; within the bound a leader must be elected and a new write must reach
    /// every running node's high watermark.
    fn liveness_phase(&mut self) -> Result<(), Violation> {
        self.sim.heal_all();
        self.sim.clear_slow();
        let network = NetworkConfig { drop_rate: 0.0, ..self.network.clone() };
        self.sim.set_network(network);
        self.restart_down(|_| true);
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
            // A combined node whose controlled shutdown, asked before the heal, finished since
            // is a voter down: started again, as in a rolling restart.
            self.restart_down(|id| id < crate::sim::FIRST_OBSERVER_ID);
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
                let voters = if n.id() < crate::sim::FIRST_OBSERVER_ID {
                    format!(" as {}, voters {}", n.key(), n.voter_set())
                } else {
                    String::new()
                };
                format!(
                    "n{} {}{lifecycle} epoch {} hw {hw:?} applied {applied} {range}{voters}",
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

//! Runs scenario directives against a simulation, checking every invariant after every event,
//! and produces each directive's output: the notable trace lines (plus the messages of the kinds
//! a directive names with `messages=Kind,Kind`), or everything for the CLI.

use std::fmt;

use crate::harness::format_time;
use crate::harness::{MS, Micros};
use crate::invariants::{Checker, Violation};
use crate::metadata::acl::{AclEntry, AclOperation, AclPermission, AclResource, SUPER_USER};
use crate::metadata::config::MetadataConfig;
use crate::metadata::record::{LAST_BROKER_ID, MAX_COMBINED_ID};
use crate::metadata::state::MetadataNode;
use crate::quorum::{NodeId, QuorumConfig};
use crate::sim::simulation::QuorumFormat;
use crate::sim::trace::Arrival;
use crate::sim::{
    ActionError, ClusterConfig, FIRST_OBSERVER_ID, NetworkConfig, Simulation, TraceKind, TraceLine,
};
use crate::sweep::sabotage::{Sabotage, UnknownSabotage};

use super::script::Block;

/// How much of the trace a `run` directive prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    /// State changes and actions only (the scenario tests' expected output).
    Notable,
    /// Every event, messages included (`kraftscope run`).
    Full,
}

/// Which times a directive's output lines carry: none unless the scenario asks with
/// `times=relative` (since the directive began) or `times=absolute`, on the directive or for the
/// whole file on its `cluster` line, so that a change to the randomly drawn latencies rewrites
/// only the files whose story is about timing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Times {
    None,
    Relative,
    Absolute,
}

impl Times {
    fn of(asked: Option<&str>, detail: Detail) -> Result<Times, DirectiveError> {
        match (asked, detail) {
            (_, Detail::Full) | (Some("absolute"), _) => Ok(Times::Absolute),
            (None, _) => Ok(Times::None),
            (Some("relative"), _) => Ok(Times::Relative),
            (Some(other), _) => Err(DirectiveError::Times(other.to_string())),
        }
    }

    fn line(self, line: &TraceLine, began: Micros) -> String {
        match self {
            Times::None => format!("  {}", line.kind),
            Times::Relative => format!("{:>13} {}", format!("+{}", format_time(line.at - began)), line.kind),
            Times::Absolute => line.to_string(),
        }
    }
}

/// A scenario in progress.
pub struct ScenarioRun {
    seed: u64,
    detail: Detail,
    sim: Option<Simulation>,
    checker: Checker,
    /// The times the file's `cluster` line asks for, for directives that do not say.
    file_times: Option<String>,
}

const DEFAULT_RUN_MAX: Micros = 20_000 * MS;
/// The longest one-way latency a scenario may ask for, in ms.
const MAX_LATENCY_MS: u64 = 60_000;
/// The most client writes one `write` directive may make.
const MAX_WRITES: u64 = 100_000;
/// The longest one `run` directive may simulate (an hour).
const LONGEST_RUN: Micros = 3_600_000 * MS;

/// Why a directive failed.
#[derive(Clone, Debug, PartialEq)]
pub enum DirectiveError {
    /// A directive came before any `cluster` directive.
    NoCluster,
    /// A directive lacks an argument it needs (`what`, as it is written).
    Needs { directive: &'static str, what: &'static str },
    /// A directive naming a node lacks `n=`.
    NeedsNode { line: usize, directive: String },
    /// `key=value` does not parse as the key needs.
    InvalidArg { line: usize, key: &'static str, value: String },
    /// `latency=` is not a range like 1-5.
    Latency(String),
    /// `latency=` is reversed, or `drop=` is not 0 to 100.
    LatencyOrDrop(String),
    /// `duplicate=` is not 0 to 100 percent.
    DuplicatePercent(f64),
    /// `clean-every=` overflows in microseconds.
    CleanEveryTooLarge,
    /// `fetch-bytes=`, `chunk-bytes=` or `clean-every=` is 0.
    ZeroSize,
    /// The voter or observer count is out of range.
    ClusterSize,
    /// `write count=` is above [`MAX_WRITES`].
    TooManyWrites,
    /// `run for=` or `max=` is above [`LONGEST_RUN`].
    RunTooLong,
    /// `until=` names no goal.
    UnknownGoal(String),
    /// `until=` was not reached within this many ms.
    NotReached { goal: String, ms: u64 },
    /// An invariant broke during a run.
    Invariant(Violation),
    /// `n=leader` with no leader.
    NoLeader,
    /// `n=follower` with no follower.
    NoFollower,
    /// `n=down` with every node running.
    NoneDown,
    /// `n=` is not a node id.
    NotANode(String),
    /// `n=` names a node the cluster does not have.
    NoSuchNode(NodeId),
    /// The simulation refused the action.
    Action(ActionError),
    /// No directive has this name.
    UnknownDirective(String),
    /// `times=` is neither relative nor absolute.
    Times(String),
    /// `format=` names no `kafka-storage format` mode.
    UnknownFormat(String),
    /// `roles=` is neither dedicated nor combined.
    UnknownRoles(String),
    /// `sabotage=` names no deliberate bug.
    UnknownSabotage(UnknownSabotage),
}

impl fmt::Display for DirectiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DirectiveError::NoCluster => write!(f, "the first directive must be 'cluster'"),
            DirectiveError::Times(value) => write!(f, "times={value} must be relative or absolute"),
            DirectiveError::UnknownFormat(value) => {
                write!(f, "format={value} must be static, standalone or initial-controllers")
            }
            DirectiveError::UnknownRoles(value) => write!(f, "roles={value} must be dedicated or combined"),
            DirectiveError::UnknownSabotage(error) => write!(f, "sabotage={}: {error}", error.0),
            DirectiveError::Needs { directive, what } => write!(f, "{directive} needs {what}"),
            DirectiveError::NeedsNode { line, directive } => {
                write!(f, "line {line}: '{directive}' needs n=<node>")
            }
            DirectiveError::InvalidArg { line, key, value } => {
                write!(f, "line {line}: {key}={value} is not valid")
            }
            DirectiveError::DuplicatePercent(percent) => {
                write!(f, "duplicate={percent} must be 0 to 100 (percent of messages delivered twice)")
            }
            DirectiveError::Latency(latency) | DirectiveError::LatencyOrDrop(latency) => {
                write!(
                    f,
                    "latency={latency} must be a range like 1-5 (ms, whole numbers up to {MAX_LATENCY_MS})"
                )?;
                if matches!(self, DirectiveError::LatencyOrDrop(_)) {
                    write!(f, " (and drop= must be 0 to 100 percent)")?;
                }
                Ok(())
            }
            DirectiveError::CleanEveryTooLarge => write!(f, "clean-every is too large"),
            DirectiveError::ZeroSize => {
                write!(f, "fetch-bytes, chunk-bytes and clean-every must be at least 1")
            }
            DirectiveError::ClusterSize => {
                write!(
                    f,
                    "voters must be 1..=99 (1..={MAX_COMBINED_ID} with roles=combined) and observers 0..={}",
                    LAST_BROKER_ID + 1 - FIRST_OBSERVER_ID
                )
            }
            DirectiveError::TooManyWrites => write!(f, "write count must be at most {MAX_WRITES}"),
            DirectiveError::RunTooLong => write!(f, "a run may simulate at most {} ms", LONGEST_RUN / MS),
            DirectiveError::UnknownGoal(goal) => {
                write!(f, "unknown goal '{goal}' (leader, converged, violation)")
            }
            DirectiveError::NotReached { goal, ms } => write!(f, "'{goal}' not reached within {ms}ms"),
            DirectiveError::Invariant(violation) => write!(f, "invariant violated: {violation}"),
            DirectiveError::NoLeader => write!(f, "there is no leader"),
            DirectiveError::NoFollower => write!(f, "there is no follower"),
            DirectiveError::NoneDown => write!(f, "no node is down"),
            DirectiveError::NotANode(text) => write!(f, "'{text}' is not a node"),
            DirectiveError::NoSuchNode(id) => write!(f, "there is no node n{id}"),
            DirectiveError::Action(error) => fmt::Display::fmt(error, f),
            DirectiveError::UnknownDirective(name) => write!(f, "unknown directive '{name}'"),
        }
    }
}

impl std::error::Error for DirectiveError {}

impl From<ActionError> for DirectiveError {
    fn from(error: ActionError) -> Self {
        DirectiveError::Action(error)
    }
}

impl ScenarioRun {
    pub fn new(seed: u64, detail: Detail) -> ScenarioRun {
        ScenarioRun { seed, detail, sim: None, checker: Checker::default(), file_times: None }
    }

    /// The simulation, once `cluster` has created it.
    pub fn simulation(&self) -> Option<&Simulation> {
        self.sim.as_ref()
    }

    /// Execute one directive and return its output lines.
    pub fn execute(&mut self, block: &Block) -> Result<Vec<String>, DirectiveError> {
        if block.command == "cluster" {
            return self.create_cluster(block);
        }
        let times = Times::of(block.arg("times").or(self.file_times.as_deref()), self.detail)?;
        let sim = self.sim.as_mut().ok_or(DirectiveError::NoCluster)?;
        let began = sim.now();
        let mut output = Vec::new();
        match block.command.as_str() {
            "run" => output.extend(self.run(block)?),
            "crash" => {
                let id = node_arg(sim, block)?;
                sim.crash(id)?
            }
            "restart" => {
                let id = node_arg(sim, block)?;
                sim.restart(id)?
            }
            "power-loss" => {
                let id = node_arg(sim, block)?;
                sim.power_loss(id)?
            }
            "torn-write" => {
                let id = node_arg(sim, block)?;
                sim.tear_next_write(id)?
            }
            "isolate" => {
                let id = node_arg(sim, block)?;
                sim.isolate(id)
            }
            "partition" => {
                let groups = block.arg("groups").ok_or(needs("partition", "groups=1,2|3,4,5"))?;
                partition(sim, groups)?
            }
            "heal" => sim.heal_all(),
            "write" => {
                let count: u64 = parse_arg(block, "count", 1)?;
                if count > MAX_WRITES {
                    return Err(DirectiveError::TooManyWrites);
                }
                let written: Vec<u64> = (0..count).map_while(|_| sim.write().ok()).collect();
                let text = match (written.first(), written.last()) {
                    (Some(first), Some(last)) => {
                        format!("client writes {first}..={last} to the leader")
                    }
                    _ => "client write refused: no leader".to_string(),
                };
                sim.record_action(text);
            }
            "resign" => {
                sim.resign_leader()?;
            }
            "status" => output.extend(status(sim)),
            "brokers" => output.extend(brokers(sim)),
            "partitions" => output.extend(partitions(sim)),
            "create-topic" => {
                let name = block.arg("name").ok_or(needs("create-topic", "name=<topic>"))?;
                let (partitions, rf) = (parse_arg(block, "partitions", 1)?, parse_arg(block, "rf", 1)?);
                let _ = sim.create_topic(name, partitions, rf);
            }
            "delete-topic" => {
                let name = block.arg("name").ok_or(needs("delete-topic", "name=<topic>"))?;
                match block.arg("as") {
                    // A client's request may be refused; the trace says so and the script goes on.
                    Some(principal) => {
                        let _ = sim.delete_topic(principal, name);
                    }
                    None => sim.delete_topic(SUPER_USER, name)?,
                }
            }
            "create-acl" => {
                let acl = acl_arg(block)?;
                let _ = sim.create_acl(block.arg("as").unwrap_or(SUPER_USER), acl);
            }
            "shutdown" => {
                let id = node_arg(sim, block)?;
                sim.shut_down_broker(id)?
            }
            "provision-controller" => {
                sim.provision_controller();
            }
            "add-voter" => {
                let id = node_arg(sim, block)?;
                let _ = sim.add_voter(id);
            }
            "remove-voter" => {
                let id = node_arg(sim, block)?;
                let _ = sim.remove_voter(id);
            }
            "upgrade-kraft-version" => {
                let _ = sim.upgrade_kraft_version();
            }
            "wipe-disk" => {
                let id = node_arg(sim, block)?;
                sim.wipe_disk(id)?;
            }
            "voters" => output.push(voters(sim)),
            other => return Err(DirectiveError::UnknownDirective(other.to_string())),
        }
        let sim = self.sim.as_mut().ok_or(DirectiveError::NoCluster)?;
        let shown: Vec<&str> = block.arg("messages").map_or(Vec::new(), |kinds| kinds.split(',').collect());
        // `messages=` names message kinds to show, or `duplicates` and `overtaking`: the
        // deliveries of second copies and of messages that overtook one sent before them.
        let shown_message = |l: &TraceLine| match &l.kind {
            TraceKind::Deliver(_, Arrival::Duplicate) if shown.contains(&"duplicates") => true,
            TraceKind::Deliver(_, Arrival::Overtook) if shown.contains(&"overtaking") => true,
            TraceKind::Deliver(packet, _) | TraceKind::Lost { packet, .. } => {
                shown.contains(&packet.payload.kind())
            }
            _ => false,
        };
        let mut lines: Vec<String> = sim
            .take_trace()
            .into_iter()
            .filter(|l| self.detail == Detail::Full || l.is_notable() || shown_message(l))
            .map(|l| times.line(&l, began))
            .collect();
        lines.append(&mut output);
        Ok(lines)
    }

    fn create_cluster(&mut self, block: &Block) -> Result<Vec<String>, DirectiveError> {
        Times::of(block.arg("times"), self.detail)?;
        self.file_times = block.arg("times").map(String::from);
        let latency = block.arg("latency").unwrap_or("1-5");
        let bad_latency = || DirectiveError::Latency(latency.to_string());
        let (lo, hi) = latency.split_once('-').ok_or_else(bad_latency)?;
        let ms = |t: &str| {
            t.parse::<u64>().ok().filter(|v| *v <= MAX_LATENCY_MS).map(|v| v * MS).ok_or_else(bad_latency)
        };
        let (latency_min, latency_max) = (ms(lo)?, ms(hi)?);
        let drop_percent: f64 = parse_arg(block, "drop", 0.0)?;
        if latency_min > latency_max || !(0.0..=100.0).contains(&drop_percent) {
            return Err(DirectiveError::LatencyOrDrop(latency.to_string()));
        }
        let reorder = block.arg("reorder").unwrap_or("off") == "on";
        let duplicate_percent: f64 = parse_arg(block, "duplicate", 0.0)?;
        if !(0.0..=100.0).contains(&duplicate_percent) {
            return Err(DirectiveError::DuplicatePercent(duplicate_percent));
        }
        let network = NetworkConfig {
            latency_min,
            latency_max,
            drop_rate: drop_percent / 100.0,
            reorder,
            duplicate_rate: duplicate_percent / 100.0,
        };
        let mut sabotage = Sabotage::default();
        if let Some(name) = block.arg("sabotage") {
            sabotage.enable(name).map_err(DirectiveError::UnknownSabotage)?;
        }
        let defaults = QuorumConfig::default();
        let quorum = QuorumConfig {
            pre_vote: block.arg("pre-vote").unwrap_or("on") == "on",
            auto_join: block.arg("auto-join").unwrap_or("off") == "on",
            max_record_bytes_between_snapshots: parse_arg(block, "snapshot-bytes", 0)?,
            fetch_snapshot_max_bytes: parse_arg(block, "chunk-bytes", defaults.fetch_snapshot_max_bytes)?,
            fetch_max_bytes: parse_arg(block, "fetch-bytes", defaults.fetch_max_bytes)?,
            max_retention_bytes: parse_arg(block, "retention-bytes", defaults.max_retention_bytes)?,
            log_clean_interval: parse_arg::<u64>(block, "clean-every", defaults.log_clean_interval / MS)?
                .checked_mul(MS)
                .ok_or(DirectiveError::CleanEveryTooLarge)?,
            sabotage: sabotage.quorum,
            ..defaults
        };
        let config = ClusterConfig {
            voters: parse_arg(block, "voters", 3)?,
            observers: parse_arg(block, "observers", 0)?,
            quorum,
            network,
            metadata: MetadataConfig { sabotage: sabotage.metadata, ..MetadataConfig::default() },
            format: match block.arg("format") {
                None => QuorumFormat::Static,
                Some(name) => QuorumFormat::from_name(name)
                    .ok_or_else(|| DirectiveError::UnknownFormat(name.to_string()))?,
            },
            combined: match block.arg("roles") {
                None | Some("dedicated") => false,
                Some("combined") => true,
                Some(other) => return Err(DirectiveError::UnknownRoles(other.to_string())),
            },
        };
        if config.quorum.fetch_max_bytes == 0
            || config.quorum.fetch_snapshot_max_bytes == 0
            || config.quorum.log_clean_interval == 0
        {
            return Err(DirectiveError::ZeroSize);
        }
        let most_voters = if config.combined { MAX_COMBINED_ID } else { 99 };
        if config.voters == 0
            || config.voters > most_voters
            || config.observers > LAST_BROKER_ID + 1 - FIRST_OBSERVER_ID
        {
            return Err(DirectiveError::ClusterSize);
        }
        let seed = parse_arg(block, "seed", self.seed)?;
        let mut sim = Simulation::new(config.clone(), seed);
        sim.enable_trace();
        self.sim = Some(sim);
        self.checker = Checker::default();
        let observers = match config.observers {
            0 => "no observers".to_string(),
            n => format!("{n} observer(s) n{}..n{}", FIRST_OBSERVER_ID, FIRST_OBSERVER_ID + n - 1),
        };
        let roles = if config.combined { " (combined: each also a broker)" } else { "" };
        Ok(vec![format!(
            "{} voter(s) n1..n{}{roles} and {observers}, seed {seed}",
            config.voters, config.voters
        )])
    }

    /// Run for a time or until a goal; `until=violation` runs until an invariant breaks (a
    /// sabotage's scenario) and returns the violation, or says that none broke.
    fn run(&mut self, block: &Block) -> Result<Option<String>, DirectiveError> {
        let sim = self.sim.as_mut().ok_or(DirectiveError::NoCluster)?;
        let start = sim.now();
        let (until, span_ms) = match (block.arg("for"), block.arg("until")) {
            (Some(_), _) => (None, parse_arg::<u64>(block, "for", 0)?),
            (None, Some(goal)) => {
                (Some(goal.to_string()), parse_arg::<u64>(block, "max", DEFAULT_RUN_MAX / MS)?)
            }
            (None, None) => return Err(needs("run", "for=<ms> or until=leader|converged")),
        };
        if span_ms > LONGEST_RUN / MS {
            return Err(DirectiveError::RunTooLong);
        }
        let limit = start + span_ms * MS;
        let to_violation = until.as_deref() == Some("violation");
        loop {
            if let Some(goal) = until.as_deref().filter(|_| !to_violation)
                && goal_reached(sim, goal)?
            {
                return Ok(None);
            }
            match sim.next_event_time() {
                Some(at) if at <= limit => {
                    sim.step();
                    match self.checker.after_event(sim) {
                        Err(violation) if to_violation => {
                            return Ok(Some(format!("invariant violated: {violation}")));
                        }
                        checked => checked.map_err(DirectiveError::Invariant)?,
                    }
                }
                _ => break,
            }
        }
        sim.run_until(limit);
        match until {
            // A sabotage's story is told for one seed; another seed may not break the invariant.
            Some(_) if to_violation => Ok(Some(format!("no invariant broke within {} ms", span_ms))),
            Some(goal) => Err(DirectiveError::NotReached { goal, ms: (limit - start) / MS }),
            None => Ok(None),
        }
    }
}

fn goal_reached(sim: &Simulation, goal: &str) -> Result<bool, DirectiveError> {
    match goal {
        "leader" => Ok(sim.leader().is_some_and(|l| l.high_watermark().is_some())),
        "converged" => Ok(sim.leader().is_some_and(|l| {
            let end = l.log().end_offset();
            let last_epoch = l.log().last_epoch();
            let same_log =
                |n: &MetadataNode| n.log().end_offset() == end && n.log().last_epoch() == last_epoch;
            l.high_watermark() == Some(end) && sim.running_nodes().all(same_log)
        })),
        other => Err(DirectiveError::UnknownGoal(other.to_string())),
    }
}

fn needs(directive: &'static str, what: &'static str) -> DirectiveError {
    DirectiveError::Needs { directive, what }
}

fn parse_arg<T: std::str::FromStr>(
    block: &Block,
    key: &'static str,
    default: T,
) -> Result<T, DirectiveError> {
    match block.arg(key) {
        None => Ok(default),
        Some(text) => text.parse().map_err(|_| DirectiveError::InvalidArg {
            line: block.line,
            key,
            value: text.to_string(),
        }),
    }
}

/// The voter set as the active controller's log holds it, and whether its latest change is
/// committed there.
fn voters(sim: &Simulation) -> String {
    let set = sim.voter_set();
    let pending = sim.leader().and_then(|l| {
        let offset = l.log().control().last_voters_offset()?;
        (l.high_watermark().is_none_or(|hw| hw <= offset)).then_some(offset)
    });
    let state = match pending {
        Some(offset) => format!("; the VotersRecord at {offset} is not committed yet"),
        None => String::new(),
    };
    let kraft = sim
        .leader()
        .map_or(String::new(), |l| format!(" at kraft.version {}", l.log().control().kraft_version()));
    format!(
        "voters {set}{kraft}: {} of {} must agree, {} may fail{state}",
        set.majority(),
        set.len(),
        set.len().saturating_sub(set.majority())
    )
}

/// `create-acl principal=User:alice operation=DELETE [topic=orders] [permission=DENY] [as=User:bob]`:
/// an ACL on a topic, or on the cluster without `topic=`; ALLOW unless `permission=DENY`.
fn acl_arg(block: &Block) -> Result<AclEntry, DirectiveError> {
    let usage =
        "principal=User:<name> operation=ALL|CREATE|DELETE|ALTER|DESCRIBE [topic=<topic>] [permission=DENY]";
    let principal = block.arg("principal").ok_or(needs("create-acl", usage))?;
    let operation =
        block.arg("operation").and_then(AclOperation::from_name).ok_or(needs("create-acl", usage))?;
    let resource = block.arg("topic").map_or(AclResource::Cluster, |t| AclResource::Topic(t.into()));
    let permission = match block.arg("permission") {
        Some(p) if p.eq_ignore_ascii_case("deny") => AclPermission::Deny,
        Some(p) if !p.eq_ignore_ascii_case("allow") => return Err(needs("create-acl", usage)),
        _ => AclPermission::Allow,
    };
    Ok(AclEntry { principal: principal.into(), resource, operation, permission })
}

/// `n=3`, `n=n3`, `n=leader`, `n=follower` (a running voter following) or `n=down` (the first
/// node that is not running).
fn node_arg(sim: &Simulation, block: &Block) -> Result<NodeId, DirectiveError> {
    let text = block
        .arg("n")
        .ok_or_else(|| DirectiveError::NeedsNode { line: block.line, directive: block.command.clone() })?;
    parse_node(sim, text)
}

fn parse_node(sim: &Simulation, text: &str) -> Result<NodeId, DirectiveError> {
    if text == "leader" {
        return sim.leader().map(|l| l.id()).ok_or(DirectiveError::NoLeader);
    }
    if text == "follower" {
        let follower =
            sim.running_nodes().find(|n| n.is_voter() && n.role() == crate::quorum::RoleKind::Follower);
        return follower.map(|n| n.id()).ok_or(DirectiveError::NoFollower);
    }
    if text == "down" {
        let running: Vec<NodeId> = sim.running_nodes().map(|n| n.id()).collect();
        return sim.node_ids().find(|id| !running.contains(id)).ok_or(DirectiveError::NoneDown);
    }
    let id: NodeId =
        text.trim_start_matches('n').parse().map_err(|_| DirectiveError::NotANode(text.to_string()))?;
    sim.node_ids().find(|n| *n == id).ok_or(DirectiveError::NoSuchNode(id))
}

/// `groups=1,2|3,4,5`: cut every link between different groups.
fn partition(sim: &mut Simulation, groups: &str) -> Result<(), DirectiveError> {
    let groups: Vec<Vec<NodeId>> = groups
        .split('|')
        .map(|g| g.split(',').map(|n| parse_node(sim, n)).collect::<Result<Vec<_>, _>>())
        .collect::<Result<_, _>>()?;
    for (i, a) in groups.iter().enumerate() {
        for b in &groups[i + 1..] {
            for &x in a {
                for &y in b {
                    sim.cut(x, y);
                }
            }
        }
    }
    Ok(())
}

/// One line per node: role, epoch, leader, high watermark, log range.
fn status(sim: &Simulation) -> Vec<String> {
    sim.node_ids()
        .map(|id| match sim.node(id) {
            Some(n) => {
                let lifecycle = sim
                    .server(id)
                    .and_then(|s| s.broker())
                    .map_or(String::new(), |b| format!(" {}", b.lifecycle()));
                let opt = |v: Option<u64>| v.map_or("-".to_string(), |v| v.to_string());
                let leader = n.known_leader().map_or("-".to_string(), |l| format!("n{l}"));
                let log = n.log();
                format!(
                    "n{id} {:<11} epoch={} leader={leader} hw={} log=[{},{}) applied={}{lifecycle}",
                    n.role().name(),
                    n.epoch(),
                    opt(n.high_watermark()),
                    log.start_offset(),
                    log.end_offset(),
                    n.applied().applied_offset
                )
            }
            None => match sim.disk_of_down_node(id) {
                Some(disk) => format!(
                    "n{id} down, its disk: log=[{},{}){} {}",
                    disk.log.start_offset(),
                    disk.log.end_offset(),
                    disk.torn
                        .map_or(String::new(), |t| format!(" then a torn batch of {} records", t.records)),
                    disk.quorum_state
                ),
                None => format!("n{id} down"),
            },
        })
        .collect()
}

/// One line per broker: lifecycle, broker epoch, metadata offset and lag, what it fetched, and a
/// summary of its metadata image.
fn brokers(sim: &Simulation) -> Vec<String> {
    let hw = sim.leader().and_then(|l| l.high_watermark());
    sim.node_ids()
        .filter(|id| sim.runs_broker(*id))
        .map(|id| match (sim.server(id), sim.server(id).and_then(|s| s.broker())) {
            (Some(server), Some(broker)) => {
                let applied = server.node().applied();
                let image = &applied.state.image;
                let lag = hw.map_or("-".to_string(), |hw| hw.saturating_sub(applied.applied_offset).to_string());
                let fetched = server.fetched();
                format!(
                    "n{id} {} broker_epoch={} image@{}(epoch {}) lag={lag} fetched={}B/{}rec image: {} broker(s), {} topic(s), {} partition(s), {} offline",
                    broker.lifecycle(),
                    broker.broker_epoch().map_or("-".to_string(), |e| e.to_string()),
                    applied.applied_offset,
                    applied.applied_epoch,
                    fetched.bytes,
                    fetched.records,
                    image.brokers().len(),
                    image.topics().count(),
                    image.partition_count(),
                    image.offline_partitions()
                )
            }
            _ => format!("n{id} down"),
        })
        .collect()
}

/// The committed image of the active controller: registered brokers and every partition.
fn partitions(sim: &Simulation) -> Vec<String> {
    let Some(leader) = sim.leader() else { return vec!["no active controller".to_string()] };
    let image = &leader.applied().state.image;
    let fmt_ids = |ids: Vec<u32>| ids.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(",");
    let mut lines: Vec<String> = image
        .brokers()
        .iter()
        .map(|(id, b)| {
            let state = if b.fenced { "fenced" } else { "unfenced" };
            let shutdown = if b.in_controlled_shutdown { ", in controlled shutdown" } else { "" };
            format!("broker {id} epoch={} {state}{shutdown}", b.epoch)
        })
        .collect();
    for topic in image.topics() {
        for (_, index, p) in image.partitions().filter(|(t, _, _)| *t == topic.id) {
            let replicas = fmt_ids(p.replicas.iter().collect());
            let isr = fmt_ids(crate::metadata::record::broker_ids(p.isr).collect());
            let mut line = format!(
                "{}-{index} leader={} leader_epoch={} replicas=[{replicas}] isr=[{isr}]",
                topic.name, p.leader, p.leader_epoch
            );
            // KIP-966's fields, where a partition has them.
            for (name, set) in [("elr", p.elr), ("last_known_elr", p.last_known_elr)] {
                if !set.is_empty() {
                    line.push_str(&format!(
                        " {name}=[{}]",
                        fmt_ids(crate::metadata::record::broker_ids(set).collect())
                    ));
                }
            }
            lines.push(line);
        }
    }
    lines
}

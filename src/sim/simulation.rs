//! A whole cluster on virtual time: controllers (voters) and brokers (observers), the network
//! between them, crashes and restarts, client and admin requests. One seeded RNG drives every
//! random choice.

use std::sync::Arc;

use crate::harness::EventQueue;
use crate::harness::Micros;
use crate::metadata::acl::{AclEntry, SUPER_USER};
use crate::metadata::broker::incarnation;
use crate::metadata::config::MetadataConfig;
use crate::metadata::record::{FIRST_BROKER_ID, MAX_COMBINED_ID, TopicId};
use crate::metadata::state::{MetadataDisk, MetadataEntry, MetadataLog, MetadataNode};
use crate::quorum::disk::PowerLoss;
use crate::quorum::log::{LostWrites, TornBatch};
use crate::quorum::node::NotLeader;
use crate::quorum::reconfig::ReconfigError;
use crate::quorum::voters::{QuorumSetup, ReplicaKey, VoterSet, directory_id};
use crate::quorum::{NodeId, QuorumConfig, RoleKind};
use crate::util::rng::Rng;

use super::error::ActionError;
use super::network::{Loss, Network, NetworkConfig};
use super::packet::{Packet, Payload};
use super::server::{BrokerStart, ProcessRoles, Server, ServerOutbox};
use super::trace::{Arrival, LostBecause, TraceKind, TraceLine};

/// Observers (brokers) get ids from here up, voters (controllers) from 1.
pub const FIRST_OBSERVER_ID: NodeId = FIRST_BROKER_ID;

/// How the controllers' disks were formatted (`kafka-storage format`, `StorageTool` and
/// `Formatter` in Kafka 4.3.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum QuorumFormat {
    /// `controller.quorum.voters` names every controller: a static quorum (kraft.version 0).
    #[default]
    Static,
    /// `--standalone` on n1 (a voter set of itself), `--no-initial-controllers` on the others,
    /// which start as observers and are added one by one (kraft.version 1).
    Standalone,
    /// `--initial-controllers` naming every controller with its directory id, on all of them
    /// (kraft.version 1).
    InitialControllers,
}

impl QuorumFormat {
    /// The option's name on the command line and in scenario files.
    pub(crate) fn name(self) -> &'static str {
        match self {
            QuorumFormat::Static => "static",
            QuorumFormat::Standalone => "standalone",
            QuorumFormat::InitialControllers => "initial-controllers",
        }
    }

    /// The format of that name.
    pub(crate) fn from_name(name: &str) -> Option<QuorumFormat> {
        [QuorumFormat::Static, QuorumFormat::Standalone, QuorumFormat::InitialControllers]
            .into_iter()
            .find(|f| f.name() == name)
    }
}

/// The shape of a simulated cluster.
#[derive(Clone, Debug, PartialEq)]
pub struct ClusterConfig {
    /// Controller processes, ids 1..=voters: every one a voter in a static quorum; in a
    /// dynamic one, those the format names.
    pub voters: u32,
    /// Brokers (observers), ids 101..
    pub observers: u32,
    pub quorum: QuorumConfig,
    pub metadata: MetadataConfig,
    pub network: NetworkConfig,
    pub format: QuorumFormat,
    /// Combined nodes (`process.roles=broker,controller`): each controller formatted at the
    /// start, up to id [`MAX_COMBINED_ID`], also runs a broker with its id.
    pub combined: bool,
}

impl Default for ClusterConfig {
    fn default() -> Self {
        ClusterConfig {
            format: QuorumFormat::Static,
            voters: 3,
            observers: 0,
            quorum: QuorumConfig::default(),
            metadata: MetadataConfig::default(),
            network: NetworkConfig::default(),
            combined: false,
        }
    }
}

/// Something scheduled on the simulation's clock.
#[derive(Clone, Debug)]
pub enum Event {
    /// A message arrives, if its connection was not reset since it was sent (`arrival`: in
    /// order, before a message sent earlier, or as a duplicate copy).
    Deliver { sent_at: Micros, packet: Packet, generation: u64, arrival: Arrival },
    /// A server's timer, valid only if it is still the server's current deadline.
    Timer { node: NodeId },
}

#[derive(Clone)]
struct Slot {
    id: NodeId,
    server: Option<Server>,
    /// The disk of a stopped server, waiting for a restart.
    disk: Option<MetadataDisk>,
    /// The deadline a Timer event is queued for.
    timer: Option<Micros>,
    /// How many times its disk was formatted (each format makes a new directory id).
    formats: u32,
    /// The number of its process's next start (each start is a new incarnation).
    starts: u32,
    /// The broker epoch a clean shutdown (a finished controlled shutdown) wrote to the broker's
    /// log directories (`LogManager.shutdown`); read, and gone, at the next start. A crash
    /// writes none.
    clean_shutdown: Option<u64>,
    /// The power fails in the middle of the server's next write to its log (a torn write).
    tear_armed: bool,
}

/// A slot's log: its running server's, or the disk it left when it went down.
fn slot_log(slot: &Slot) -> Option<(NodeId, &MetadataLog)> {
    match &slot.server {
        Some(server) => Some((slot.id, server.node().log())),
        None => slot.disk.as_ref().map(|disk| (slot.id, &disk.log)),
    }
}

/// A deterministic simulation of one KRaft cluster. A clone carries on exactly as the original
/// would (the page's time-travel checkpoints).
#[derive(Clone)]
pub struct Simulation {
    now: Micros,
    rng: Rng,
    config: ClusterConfig,
    quorum_config: Arc<QuorumConfig>,
    setup: Arc<QuorumSetup>,
    /// The controller processes' ids, ascending.
    controllers: Vec<NodeId>,
    slots: Vec<Slot>,
    queue: EventQueue<Event>,
    network: Network,
    outbox: ServerOutbox,
    trace: Option<Vec<TraceLine>>,
    events: u64,
    /// Messages delivered after overtaking an earlier one, and duplicate copies delivered.
    chaos: ChaosCounts,
    next_write: u64,
}

/// What the chaos did: messages delivered before one sent earlier on their link, second copies
/// delivered, power losses and torn writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChaosCounts {
    pub overtaken: u64,
    pub duplicated: u64,
    /// Servers whose power failed (on its own or with others), and of those, the ones that
    /// failed in the middle of a write (a torn write).
    pub power_losses: u64,
    pub torn_writes: u64,
}

impl Simulation {
    /// A fresh cluster, every server starting with an empty disk at time 0.
    pub fn new(config: ClusterConfig, seed: u64) -> Simulation {
        Simulation::with_disk(config, seed, MetadataDisk::default())
    }

    /// A cluster whose every server starts from a copy of `disk` (for example one holding a
    /// snapshot of a large image).
    pub fn with_disk(config: ClusterConfig, seed: u64, disk: MetadataDisk) -> Simulation {
        Simulation::booted(config, seed, disk, BrokerStart::Register)
    }

    /// A cluster that was running when `disk` was taken: as [`with_disk`](Self::with_disk), but
    /// a broker that `disk`'s image holds as registered and unfenced keeps that registration
    /// rather than registering again (a new incarnation would first have every partition it
    /// leads moved away). Restarts later register as usual.
    pub fn resuming(config: ClusterConfig, seed: u64, disk: MetadataDisk) -> Simulation {
        Simulation::booted(config, seed, disk, BrokerStart::Resume)
    }

    fn booted(config: ClusterConfig, seed: u64, disk: MetadataDisk, start: BrokerStart) -> Simulation {
        let controllers: Vec<NodeId> = (1..=config.voters).collect();
        let observers = (0..config.observers).map(|i| FIRST_OBSERVER_ID + i);
        let ids: Vec<NodeId> = controllers.iter().copied().chain(observers).collect();
        let setup = match config.format {
            QuorumFormat::Static => QuorumSetup::fixed(&controllers),
            QuorumFormat::Standalone | QuorumFormat::InitialControllers => QuorumSetup {
                static_voters: VoterSet::new([]),
                bootstrap_servers: controllers.as_slice().into(),
            },
        };
        let key = |id: NodeId| ReplicaKey { id, dir: Some(directory_id(id, 0)) };
        let initial = match config.format {
            QuorumFormat::Static => None,
            QuorumFormat::Standalone => Some(VoterSet::new([key(1)])),
            QuorumFormat::InitialControllers => Some(VoterSet::new(controllers.iter().map(|&id| key(id)))),
        };
        let disk_of = |id: NodeId| {
            let mut disk = disk.clone();
            disk.directory_id = directory_id(id, 0);
            let formatted = config.format == QuorumFormat::InitialControllers
                || (config.format == QuorumFormat::Standalone && id == 1);
            if let Some(voters) = initial.clone().filter(|_| formatted && id < FIRST_OBSERVER_ID)
                && disk.log.end_offset() == 0
            {
                disk.log = MetadataLog::bootstrapped(voters);
            }
            disk
        };
        let slots = ids
            .iter()
            .map(|&id| Slot {
                id,
                server: None,
                disk: Some(disk_of(id)),
                timer: None,
                formats: 1,
                starts: 1,
                clean_shutdown: None,
                tear_armed: false,
            })
            .collect();
        let mut sim = Simulation {
            now: 0,
            rng: Rng::new(seed),
            quorum_config: Arc::new(config.quorum.clone()),
            network: Network::new(config.network.clone()),
            config,
            setup: Arc::new(setup),
            controllers,
            slots,
            queue: EventQueue::default(),
            outbox: ServerOutbox::default(),
            trace: None,
            events: 0,
            chaos: ChaosCounts::default(),
            next_write: 1,
        };
        for id in ids {
            sim.boot(id, start);
        }
        sim
    }

    /// Keep every trace line from now on.
    pub fn enable_trace(&mut self) {
        self.trace.get_or_insert_with(Vec::new);
    }

    /// Take the trace lines collected so far.
    pub fn take_trace(&mut self) -> Vec<TraceLine> {
        self.trace.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// The current virtual time.
    pub fn now(&self) -> Micros {
        self.now
    }

    /// Events processed so far (deliveries, losses and timers that fired).
    pub fn events_processed(&self) -> u64 {
        self.events
    }

    /// Messages delivered out of order and twice so far.
    pub fn chaos_counts(&self) -> ChaosCounts {
        self.chaos
    }

    /// The controller processes' ids (voters or not), ascending.
    pub fn controller_ids(&self) -> &[NodeId] {
        &self.controllers
    }

    /// The voter set of the active controller's log, else of the running controller with the
    /// highest epoch, else the static one: what the cluster's voters are as far as can be known.
    pub fn voter_set(&self) -> &VoterSet {
        self.best_informed().map_or(&self.setup.static_voters, |n| n.voter_set())
    }

    /// The committed voter set of the node [`voter_set`](Self::voter_set) reads.
    pub fn committed_voter_set(&self) -> &VoterSet {
        self.best_informed().map_or(&self.setup.static_voters, |n| n.committed_voter_set())
    }

    /// The active controller, else the running controller with the highest epoch, the longest
    /// log and, among those, the highest high watermark: a leader that resigned once its own
    /// removal committed knows the commit before the others fetch it, and what the page says is
    /// committed must not go back when the leader steps down.
    fn best_informed(&self) -> Option<&MetadataNode> {
        self.leader().or_else(|| {
            let controllers = self.running_nodes().filter(|n| n.id() < FIRST_OBSERVER_ID);
            controllers.max_by_key(|n| {
                (!n.voter_set().is_empty(), n.epoch(), n.log().end_offset(), n.high_watermark(), n.id())
            })
        })
    }

    /// Whether server `id` runs a broker: a dedicated broker, or a combined node (a controller
    /// formatted at the start of a cluster of combined nodes).
    pub fn runs_broker(&self, id: NodeId) -> bool {
        id >= FIRST_OBSERVER_ID || (self.config.combined && id <= self.config.voters.min(MAX_COMBINED_ID))
    }

    /// Every node id, voters first.
    pub fn node_ids(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.slots.iter().map(|s| s.id)
    }

    /// The running server with this id.
    pub fn server(&self, id: NodeId) -> Option<&Server> {
        self.slot(id).and_then(|s| s.server.as_ref())
    }

    /// The quorum node of the running server with this id.
    pub fn node(&self, id: NodeId) -> Option<&MetadataNode> {
        self.server(id).map(Server::node)
    }

    /// Every running server.
    pub fn running_servers(&self) -> impl Iterator<Item = &Server> {
        self.slots.iter().filter_map(|s| s.server.as_ref())
    }

    /// Every running quorum node.
    pub fn running_nodes(&self) -> impl Iterator<Item = &MetadataNode> {
        self.running_servers().map(Server::node)
    }

    /// Every running quorum node with its slot: a number below [`Simulation::slot_count`] that
    /// stays the node's for the simulation's life (checkers keep per-node history by it).
    pub(crate) fn running_nodes_in_slots(&self) -> impl Iterator<Item = (usize, &MetadataNode)> {
        self.slots.iter().enumerate().filter_map(|(i, s)| s.server.as_ref().map(|server| (i, server.node())))
    }

    /// How many nodes there are, running or down.
    pub(crate) fn slot_count(&self) -> usize {
        self.slots.len()
    }

    /// Every node's log, whether the node is running or down (a crashed node keeps its disk).
    pub fn logs(&self) -> impl Iterator<Item = (NodeId, &MetadataLog)> {
        self.slots.iter().filter_map(slot_log)
    }

    /// Every node's disk, running or down: its id, its `quorum-state`, its log and its
    /// directory id.
    pub(crate) fn disks(
        &self,
    ) -> impl Iterator<
        Item = (
            NodeId,
            crate::quorum::disk::QuorumStateFile,
            &MetadataLog,
            Option<crate::quorum::voters::DirectoryId>,
        ),
    > {
        self.slots.iter().filter_map(|slot| match (&slot.server, &slot.disk) {
            (Some(server), _) => {
                let node = server.node();
                Some((slot.id, node.quorum_state_file(), node.log(), node.key().dir))
            }
            (None, Some(disk)) => Some((slot.id, disk.quorum_state, &disk.log, Some(disk.directory_id))),
            (None, None) => None,
        })
    }

    /// Every controller's log, running or down, with the directory id of its disk.
    pub(crate) fn controller_logs(&self) -> impl Iterator<Item = (ReplicaKey, &MetadataLog)> {
        self.disks()
            .filter(|(id, ..)| *id < FIRST_OBSERVER_ID)
            .map(|(id, _, log, dir)| (ReplicaKey { id, dir }, log))
    }

    /// The disk of a server that is down.
    pub fn disk_of_down_node(&self, id: NodeId) -> Option<&MetadataDisk> {
        self.slot(id).and_then(|s| s.disk.as_ref())
    }

    /// The running leader of the highest epoch (the active controller), if any.
    pub fn leader(&self) -> Option<&MetadataNode> {
        self.running_nodes().filter(|n| n.role() == RoleKind::Leader).max_by_key(|n| n.epoch())
    }

    /// The network (latency, loss, cut links).
    pub(crate) fn network(&self) -> &Network {
        &self.network
    }

    /// Messages in flight: (sent at, arrives at, packet).
    pub(crate) fn in_flight(&self) -> impl Iterator<Item = (Micros, Micros, &Packet)> {
        self.queue.iter().filter_map(|(at, e)| match e {
            Event::Deliver { sent_at, packet, generation, .. } if self.live(packet, *generation) => {
                Some((*sent_at, at, packet))
            }
            _ => None,
        })
    }

    /// Whether a message's connection is still the one it was sent on.
    fn live(&self, packet: &Packet, generation: u64) -> bool {
        self.network.generation(packet.from, packet.to) == generation
    }

    /// The time of the next event that will do something, if any (timers a node no longer
    /// waits for are dropped first, so stepping never jumps past this time).
    pub fn next_event_time(&mut self) -> Option<Micros> {
        while let Some((at, event)) = self.queue.peek() {
            if self.will_act(at, event) {
                break;
            }
            self.queue.pop();
        }
        self.queue.peek_time()
    }

    /// Whether an event due at `at` will do something: a timer its node still waits for, or a
    /// delivery whose connection is still the one it was sent on.
    fn will_act(&self, at: Micros, event: &Event) -> bool {
        match event {
            Event::Timer { node } => self
                .slot_index(*node)
                .is_some_and(|i| self.slots[i].timer == Some(at) && self.slots[i].server.is_some()),
            Event::Deliver { packet, generation, .. } => self.live(packet, *generation),
        }
    }

    fn slot(&self, id: NodeId) -> Option<&Slot> {
        self.slots.get(self.slot_index(id)?)
    }

    /// Where node `id` sits: controllers formatted at the start first, then brokers, then
    /// controllers added later (searched, as there are few).
    fn slot_index(&self, id: NodeId) -> Option<usize> {
        let index = if id >= FIRST_OBSERVER_ID {
            self.config.voters as usize + (id - FIRST_OBSERVER_ID) as usize
        } else {
            (id as usize).checked_sub(1)?
        };
        match self.slots.get(index) {
            Some(slot) if slot.id == id => Some(index),
            _ => self.slots.iter().rposition(|s| s.id == id),
        }
    }

    fn record(&mut self, kind: TraceKind) {
        if let Some(trace) = &mut self.trace {
            trace.push(TraceLine { at: self.now, kind });
        }
    }

    /// Note a user or fault action in the trace.
    pub(crate) fn record_action(&mut self, text: String) {
        self.record(TraceKind::Action(text));
    }

    fn boot(&mut self, id: NodeId, start: BrokerStart) {
        let Some(index) = self.slot_index(id) else { return };
        let Some(mut disk) = self.slots[index].disk.take() else { return };
        if let Some(torn) = disk.recover() {
            self.record_action(format!(
                "n{id} recovers its log: the batch at offset {} ({} records) fails its CRC, half written; the log is truncated there (LogSegment.recover)",
                torn.base_offset, torn.records
            ));
        }
        let rng = self.rng.fork();
        let starts = self.slots[index].starts;
        self.slots[index].starts += 1;
        let roles = ProcessRoles {
            controller: id < FIRST_OBSERVER_ID,
            broker: self.runs_broker(id).then_some(start),
            incarnation: incarnation(id, starts),
            previous_broker_epoch: self.slots[index].clean_shutdown.take(),
        };
        let server = Server::start(
            id,
            roles,
            self.setup.clone(),
            self.quorum_config.clone(),
            &self.config.metadata,
            rng,
            disk,
            self.now,
        );
        self.slots[index].server = Some(server);
        self.reschedule(index);
    }

    /// Queue a timer event if the server's deadline moved.
    fn reschedule(&mut self, index: usize) {
        let slot = &mut self.slots[index];
        let Some(server) = &slot.server else { return };
        let deadline = server.next_deadline().max(self.now);
        if slot.timer != Some(deadline) {
            slot.timer = Some(deadline);
            self.queue.push(deadline, Event::Timer { node: slot.id });
        }
    }

    /// Send what a server produced and trace its notes.
    fn flush_outbox(&mut self, from: NodeId) {
        let mut outbox = std::mem::take(&mut self.outbox);
        for note in outbox.quorum.notes.drain(..) {
            self.record(TraceKind::Note(note));
        }
        for (node, state) in outbox.lifecycle.drain(..) {
            self.record(TraceKind::Lifecycle(node, state));
        }
        for envelope in outbox.quorum.sends.drain(..) {
            let packet = Packet {
                from: envelope.from,
                to: envelope.to,
                payload: Payload::Quorum(envelope.message),
                correlation: envelope.correlation,
            };
            self.transmit(packet);
        }
        for (to, rpc) in outbox.rpcs.drain(..) {
            self.transmit(Packet { from, to, payload: Payload::Controller(rpc), correlation: 0 });
        }
        self.outbox = outbox;
    }

    fn transmit(&mut self, packet: Packet) {
        match self.network.transmit(packet.from, packet.to, self.now, &mut self.rng) {
            Ok(transit) => {
                let (sent_at, generation) = (self.now, transit.generation);
                if let Some(again) = transit.duplicate {
                    let copy = Event::Deliver {
                        sent_at,
                        packet: packet.clone(),
                        generation,
                        arrival: Arrival::Duplicate,
                    };
                    self.queue.push(again, copy);
                }
                let arrival = if transit.overtakes { Arrival::Overtook } else { Arrival::InOrder };
                self.queue.push(transit.arrives, Event::Deliver { sent_at, packet, generation, arrival });
            }
            Err(loss) => {
                self.events += 1;
                self.record(TraceKind::Lost { packet, why: LostBecause::Network(loss) });
            }
        }
    }

    /// Run `f` on a running server, then send its output, stop it if it finished a controlled
    /// shutdown, and re-arm its timer.
    fn with_server<T>(
        &mut self,
        id: NodeId,
        f: impl FnOnce(&mut Server, Micros, &mut ServerOutbox) -> T,
    ) -> Option<T> {
        let index = self.slot_index(id)?;
        let now = self.now;
        let armed = self.slots[index].tear_armed;
        let server = self.slots[index].server.as_mut()?;
        // Only an armed torn write looks at the log's writes: not every event pays for it.
        let written = armed.then(|| server.node().log().batches_written());
        let result = f(server, now, &mut self.outbox);
        server.after(now, &mut self.outbox);
        let stopping = server.wants_to_stop().then(|| server.broker().and_then(|b| b.broker_epoch()));
        let torn = written.is_some_and(|before| server.node().log().batches_written() > before);
        if torn {
            // The power failed during the write, before its flush: nothing after it was sent.
            self.outbox.quorum.sends.clear();
            self.outbox.rpcs.clear();
        }
        self.flush_outbox(id);
        if torn {
            self.chaos.power_losses += 1;
            self.chaos.torn_writes += 1;
            self.stop(index, format!("power loss n{id} in the middle of a write to its log"));
            let disk = self.slots[index].disk.as_mut();
            let (lost, torn) = disk.map(|d| (d.tear_last_write(), d.torn)).unwrap_or_default();
            self.record_power_loss(id, lost, torn);
        } else if let Some(epoch) = stopping {
            self.stop(index, format!("n{id} finished its controlled shutdown and stopped"));
            // `KafkaRaftClient.close`: the log is flushed as the process stops.
            if let Some(disk) = &mut self.slots[index].disk {
                disk.log.flush();
            }
            self.slots[index].clean_shutdown = epoch;
        }
        self.reschedule(index);
        Some(result)
    }

    /// Process the next event. Returns false when nothing is left to do.
    pub fn step(&mut self) -> bool {
        loop {
            let Some((at, event)) = self.queue.pop() else { return false };
            self.now = self.now.max(at);
            match event {
                Event::Deliver { packet, generation, arrival, .. } => {
                    if !self.live(&packet, generation) {
                        continue;
                    }
                    self.events += 1;
                    self.deliver(packet, arrival);
                    return true;
                }
                Event::Timer { node } => {
                    let Some(index) = self.slot_index(node) else { continue };
                    if self.slots[index].timer != Some(at) || self.slots[index].server.is_none() {
                        continue;
                    }
                    self.slots[index].timer = None;
                    self.events += 1;
                    self.record(TraceKind::Timer(node));
                    self.with_server(node, |s, now, out| s.tick(now, out));
                    return true;
                }
            }
        }
    }

    fn deliver(&mut self, packet: Packet, arrival: Arrival) {
        if self.server(packet.to).is_none() {
            self.record(TraceKind::Lost { packet, why: LostBecause::ReceiverDown });
            return;
        }
        match arrival {
            Arrival::InOrder => {}
            Arrival::Overtook => self.chaos.overtaken += 1,
            Arrival::Duplicate => self.chaos.duplicated += 1,
        }
        if self.trace.is_some() {
            self.record(TraceKind::Deliver(packet.clone(), arrival));
        }
        let Packet { from, to, payload, correlation } = packet;
        self.with_server(to, |s, now, out| s.handle(now, from, payload, correlation, out));
    }

    /// Move the clock to `t` without processing anything (replaying a recorded action at the time
    /// it happened). No event that will act may be due before `t`; dead ones (a timer its node no
    /// longer waits for, a delivery on a reset connection) may, as they are dropped only when
    /// `next_event_time` reaches them.
    pub(crate) fn warp_to(&mut self, t: Micros) {
        debug_assert!(
            self.queue.iter().all(|(at, event)| at >= t || !self.will_act(at, event)),
            "events are due before {t}"
        );
        self.now = self.now.max(t);
    }

    /// Process every event up to and including time `t`, then move the clock to `t`.
    pub fn run_until(&mut self, t: Micros) {
        while self.next_event_time().is_some_and(|at| at <= t) {
            self.step();
        }
        self.now = self.now.max(t);
    }

    fn stop(&mut self, index: usize, why: String) {
        if let Some(server) = self.slots[index].server.take() {
            self.slots[index].disk = Some(server.into_disk());
            self.slots[index].timer = None;
            self.slots[index].tear_armed = false;
            self.record_action(why);
            let id = self.slots[index].id;
            let pairs: Vec<(NodeId, NodeId)> =
                self.node_ids().filter(|o| *o != id).map(|o| (id, o)).collect();
            self.reset_connections(&pairs);
        }
    }

    /// Reset these connections (both directions): what they carry is lost now, as TCP loses
    /// what a reset connection had not delivered. A slice, not an iterator: one compiled copy of
    /// the body (and of its sort) serves every caller.
    fn reset_connections(&mut self, pairs: &[(NodeId, NodeId)]) {
        let on_reset =
            |p: &Packet| pairs.iter().any(|&(a, b)| (p.from, p.to) == (a, b) || (p.from, p.to) == (b, a));
        let mut lost: Vec<(Micros, Packet)> =
            self.in_flight().filter(|(_, _, p)| on_reset(p)).map(|(_, at, p)| (at, p.clone())).collect();
        crate::util::sort::sort_by_key(&mut lost, |(at, p)| (*at, p.from, p.to));
        for &(a, b) in pairs {
            self.network.reset(a, b);
        }
        for (_, packet) in lost {
            self.record(TraceKind::Lost { packet, why: LostBecause::Network(Loss::Reset) });
        }
    }

    /// The slot of running server `id`.
    fn running_slot(&self, id: NodeId) -> Result<usize, ActionError> {
        let index = self.slot_index(id).ok_or(ActionError::NoSuchNode(id))?;
        match self.slots[index].server {
            Some(_) => Ok(index),
            None => Err(ActionError::AlreadyDown(id)),
        }
    }

    /// Crash a server: it loses everything but its disk.
    pub fn crash(&mut self, id: NodeId) -> Result<(), ActionError> {
        let index = self.running_slot(id)?;
        self.stop(index, format!("crash n{id}"));
        Ok(())
    }

    /// Cut a server's power: it stops as a crash stops it, and its disk keeps only what was
    /// flushed (the operating system's page cache is gone with the power).
    pub fn power_loss(&mut self, id: NodeId) -> Result<(), ActionError> {
        let index = self.running_slot(id)?;
        self.chaos.power_losses += 1;
        self.stop(index, format!("power loss n{id}"));
        let lost = self.slots[index].disk.as_mut().map(MetadataDisk::lose_power);
        self.record_power_loss(id, lost.unwrap_or_default(), None);
        Ok(())
    }

    /// Arm a torn write: the server loses power in the middle of its next write to its log.
    pub fn tear_next_write(&mut self, id: NodeId) -> Result<(), ActionError> {
        let index = self.running_slot(id)?;
        self.slots[index].tear_armed = true;
        self.record_action(format!("n{id} will lose power in the middle of its next write"));
        Ok(())
    }

    /// Say in the trace what a power loss took from `id`'s disk (`torn`: the batch it was
    /// writing as the power failed).
    fn record_power_loss(&mut self, id: NodeId, lost: PowerLoss, torn: Option<TornBatch>) {
        let log = match (torn, lost.log) {
            (Some(torn), _) => format!(
                "the batch it was writing at offset {} ({} records) is only partly on the disk, the batches before it were flushed",
                torn.base_offset, torn.records
            ),
            (None, LostWrites { records: 0, .. }) => "every record it had written was flushed".to_string(),
            (None, LostWrites { records, flushed_end, .. }) => {
                format!(
                    "{records} records written but not flushed are gone (flushed up to offset {flushed_end})"
                )
            }
        };
        let mut text = format!("n{id}'s disk after the power loss: {log}");
        if let Some(end) = lost.log.to_snapshot {
            text.push_str(&format!("; its log starts again at its snapshot ending at offset {end}"));
        }
        if let Some((written, synced)) = lost.quorum_state {
            text.push_str(&format!("; quorum-state {written} was never fsynced: back to {synced}"));
        }
        self.record_action(text);
    }

    /// Restart a stopped server from its disk.
    pub fn restart(&mut self, id: NodeId) -> Result<(), ActionError> {
        let index = self.slot_index(id).ok_or(ActionError::NoSuchNode(id))?;
        if self.slots[index].server.is_some() {
            return Err(ActionError::AlreadyRunning(id));
        }
        self.record_action(format!("restart n{id}"));
        self.boot(id, BrokerStart::Register);
        Ok(())
    }

    /// Provision a new controller process (the next free id), formatted with
    /// `--no-initial-controllers`: it starts as an observer of the quorum and fetches the log
    /// from a bootstrap server. Returns its id.
    pub(crate) fn provision_controller(&mut self) -> NodeId {
        let id = self.controllers.last().map_or(1, |last| last + 1);
        let disk = MetadataDisk { directory_id: directory_id(id, 0), ..MetadataDisk::default() };
        self.slots.push(Slot {
            id,
            server: None,
            disk: Some(disk),
            timer: None,
            formats: 1,
            starts: 1,
            clean_shutdown: None,
            tear_armed: false,
        });
        self.controllers.push(id);
        let mut servers = self.setup.bootstrap_servers.to_vec();
        servers.push(id);
        self.setup = Arc::new(QuorumSetup { bootstrap_servers: servers.into(), ..(*self.setup).clone() });
        self.record_action(format!(
            "provision controller n{id} (kafka-storage format --no-initial-controllers)"
        ));
        self.boot(id, BrokerStart::Register);
        id
    }

    /// Crash controller `id` and replace its disk by a new, empty one with a new directory id
    /// (`kafka-storage format --no-initial-controllers`), then start it: it comes back as an
    /// observer, not the voter it was.
    pub fn wipe_disk(&mut self, id: NodeId) -> Result<ReplicaKey, ActionError> {
        let index = self.slot_index(id).ok_or(ActionError::NoSuchNode(id))?;
        if id >= FIRST_OBSERVER_ID {
            return Err(ActionError::NotAController(id));
        }
        if self.slots[index].server.is_some() {
            self.stop(index, format!("crash n{id}"));
        }
        let slot = &mut self.slots[index];
        let dir = directory_id(id, slot.formats);
        slot.formats += 1;
        slot.clean_shutdown = None;
        slot.disk = Some(MetadataDisk { directory_id: dir, ..MetadataDisk::default() });
        let key = ReplicaKey { id, dir: Some(dir) };
        self.record_action(format!("wipe n{id}'s disk and format it again: now {key}"));
        self.boot(id, BrokerStart::Register);
        Ok(key)
    }

    /// `kafka-metadata-quorum add-controller` run on controller `id`: AddRaftVoter with its id
    /// and directory to the active controller. The answer comes later, in the trace.
    pub fn add_voter(&mut self, id: NodeId) -> Result<ReplicaKey, ActionError> {
        let key = self.node(id).map(|n| n.key()).ok_or(ActionError::NotRunning(id))?;
        if id >= FIRST_OBSERVER_ID {
            return Err(ActionError::NotAController(id));
        }
        self.reconfigure(format!("add-controller {key}"), |n, now, out| n.add_voter(now, key, out))?;
        Ok(key)
    }

    /// `kafka-metadata-quorum remove-controller --controller-id ID --controller-directory-id DIR`:
    /// RemoveRaftVoter of the voter entry with that id, to the active controller.
    ///
    /// The request names the voter entry's directory; a node the latest voter set no longer
    /// lists (its removal pending or done) by its disk's. Either way it reaches the active
    /// controller, which answers as `RemoveVoterHandler.handleRemoveVoterRequest` does: a change
    /// under way or an uncommitted VotersRecord is REQUEST_TIMED_OUT before an unknown voter is
    /// VOTER_NOT_FOUND.
    pub fn remove_voter(&mut self, id: NodeId) -> Result<ReplicaKey, ActionError> {
        let on_disk = |sim: &Simulation| {
            let slot = &sim.slots[sim.slot_index(id)?];
            Some(ReplicaKey { id, dir: slot.disk.as_ref().map(|disk| disk.directory_id) })
        };
        let key = self
            .voter_set()
            .key_of(id)
            .or_else(|| self.node(id).map(|n| n.key()))
            .or_else(|| on_disk(self))
            .ok_or(ActionError::NoSuchNode(id))?;
        self.reconfigure(format!("remove-controller {key}"), |n, now, out| n.remove_voter(now, key, out))?;
        Ok(key)
    }

    /// `kafka-features upgrade --feature kraft.version=1`: the active controller writes
    /// KRaftVersionRecord(1) and the first VotersRecord, after which the voter set lives in the
    /// log and may change. Refused (INVALID_UPDATE_VERSION) until every voter has sent that
    /// leader UpdateRaftVoter, about a fetch timeout after the election.
    pub(crate) fn upgrade_kraft_version(&mut self) -> Result<(), ActionError> {
        self.reconfigure("kafka-features upgrade --feature kraft.version=1".into(), |n, now, out| {
            n.upgrade_kraft_version(now, out)
        })
    }

    /// Whether the controllers are configured with `controller.quorum.voters` (a static quorum
    /// not yet moved to bootstrap servers).
    pub(crate) fn has_static_voters(&self) -> bool {
        !self.setup.static_voters.is_empty()
    }

    /// The operator's last step of the upgrade to kraft.version 1 (KIP-853): every controller's
    /// `controller.quorum.voters` replaced by `controller.quorum.bootstrap.servers`, so that a
    /// process started from now on, a wiped disk's included, finds the voters in the log only.
    pub(crate) fn drop_static_voters(&mut self) {
        if self.has_static_voters() {
            self.setup = Arc::new(QuorumSetup { static_voters: VoterSet::new([]), ..(*self.setup).clone() });
            self.record_action(
                "controller.quorum.voters replaced by controller.quorum.bootstrap.servers".into(),
            );
        }
    }

    fn reconfigure(
        &mut self,
        what: String,
        f: impl FnOnce(
            &mut MetadataNode,
            Micros,
            &mut crate::metadata::state::MetadataOutbox,
        ) -> Result<(), ReconfigError>,
    ) -> Result<(), ActionError> {
        let Some(leader) = self.leader().map(|n| n.id()) else {
            self.record_action(format!("{what} refused: no active controller"));
            return Err(ActionError::Reconfig(ReconfigError::NotLeaderOrFollower));
        };
        let result = self
            .with_server(leader, |s, now, out| s.with_node(|n| f(n, now, &mut out.quorum)))
            .unwrap_or(Err(ReconfigError::NotLeaderOrFollower));
        match result {
            Ok(()) => self.record_action(format!("{what} sent to n{leader}")),
            Err(error) => self.record_action(format!("{what} refused by n{leader}: {error}")),
        }
        result.map_err(ActionError::Reconfig)
    }

    /// Cut both directions between `a` and `b`.
    pub fn cut(&mut self, a: NodeId, b: NodeId) {
        self.network.cut(a, b);
        self.network.cut(b, a);
        self.record_action(format!("cut n{a} <-> n{b}"));
        self.reset_connections(&[(a, b)]);
    }

    /// Cut the link from `from` to `to` only: `to` still reaches `from`. The TCP connection
    /// between them is reset.
    pub fn cut_one_way(&mut self, from: NodeId, to: NodeId) {
        self.network.cut(from, to);
        self.record_action(format!("cut n{from} -> n{to}"));
        self.reset_connections(&[(from, to)]);
    }

    /// Delay every message to or from `id` by `extra` (0: normal again), as a busy or paused
    /// process would.
    pub(crate) fn slow_down(&mut self, id: NodeId, extra: Micros) {
        self.network.set_slow(id, extra);
        self.record_action(format!("n{id} slowed by {}us", extra));
    }

    /// Make every node normal speed again.
    pub(crate) fn clear_slow(&mut self) {
        self.network.clear_slow();
        self.record_action("every node at normal speed".to_string());
    }

    /// Cut every link of `id`.
    pub fn isolate(&mut self, id: NodeId) {
        let others: Vec<NodeId> = self.node_ids().filter(|o| *o != id).collect();
        for &other in &others {
            self.network.cut(id, other);
            self.network.cut(other, id);
        }
        self.record_action(format!("isolate n{id}"));
        let pairs: Vec<(NodeId, NodeId)> = others.into_iter().map(|o| (id, o)).collect();
        self.reset_connections(&pairs);
    }

    /// Restore every link.
    pub fn heal_all(&mut self) {
        self.network.heal_all();
        self.record_action("heal all links".to_string());
    }

    /// Change the network's latency and loss.
    pub(crate) fn set_network(&mut self, config: NetworkConfig) {
        self.record_action(format!(
            "network latency {}-{}us drop {:.3}",
            config.latency_min, config.latency_max, config.drop_rate
        ));
        self.network.config = config;
    }

    /// A client write of a fresh value to the current leader; returns the value written.
    pub fn write(&mut self) -> Result<u64, NotLeader> {
        let leader = self.leader().map(|n| n.id()).ok_or(NotLeader { leader: None })?;
        let value = self.next_write;
        let result = self
            .with_server(leader, |s, now, _| s.with_node(|n| n.propose(now, MetadataEntry::Write(value))));
        result.unwrap_or(Err(NotLeader { leader: None }))?;
        self.next_write += 1;
        Ok(value)
    }

    /// Ask the leader to step down gracefully (EndQuorumEpoch).
    pub(crate) fn resign_leader(&mut self) -> Result<NodeId, ActionError> {
        let leader = self.leader().map(|n| n.id()).ok_or(ActionError::NoLeader)?;
        self.record_action(format!("n{leader} resigns"));
        let result = self.with_server(leader, |s, now, out| s.with_node(|n| n.resign(now, &mut out.quorum)));
        result.ok_or(ActionError::LeaderDown)??;
        Ok(leader)
    }

    /// CreateTopics on the active controller.
    pub fn create_topic(
        &mut self,
        name: &str,
        partitions: u32,
        replication_factor: u32,
    ) -> Result<TopicId, ActionError> {
        let leader = self.leader().map(|n| n.id()).ok_or(ActionError::NoActiveController)?;
        let result = self
            .with_server(leader, |s, now, _| {
                s.with_controller(|c, n| c.create_topic(n, now, name, partitions, replication_factor))
            })
            .flatten()
            .map_or(Err(ActionError::ControllerDown), |r| r.map_err(ActionError::from));
        let text = match &result {
            Ok(id) => format!(
                "create topic {name} ({partitions} partitions, replication factor {replication_factor}) as id {id}"
            ),
            Err(e) => format!("create topic {name} refused: {e}"),
        };
        self.record_action(text);
        result
    }

    /// DeleteTopics as `principal` ([`SUPER_USER`] for the page's and the scripts' own), which
    /// a broker forwards to the active controller and its authorizer checks
    /// (`ControllerApis.deleteTopics`). The forwarding hop (`EnvelopeRequest`) is not modelled:
    /// the request reaches the active controller at once.
    pub fn delete_topic(&mut self, principal: &str, name: &str) -> Result<(), ActionError> {
        let leader = self.leader().map(|n| n.id()).ok_or(ActionError::NoActiveController)?;
        let by = if principal == SUPER_USER { String::new() } else { format!(" as {principal}") };
        self.record_action(format!("delete topic {name}{by}"));
        let result = self
            .with_server(leader, |s, now, _| {
                s.with_controller(|c, n| c.delete_topic(n, now, principal, name))
            })
            .flatten()
            .ok_or(ActionError::ControllerDown)?
            .map_err(ActionError::from);
        self.record_refusal(&result);
        result
    }

    /// CreateAcls as `principal`, forwarded to the active controller like DeleteTopics.
    pub fn create_acl(&mut self, principal: &str, acl: AclEntry) -> Result<(), ActionError> {
        let leader = self.leader().map(|n| n.id()).ok_or(ActionError::NoActiveController)?;
        self.record_action(format!("create ACL {acl} as {principal}"));
        let result = self
            .with_server(leader, |s, now, _| s.with_controller(|c, n| c.create_acl(n, now, principal, acl)))
            .flatten()
            .ok_or(ActionError::ControllerDown)?
            .map_err(ActionError::from);
        self.record_refusal(&result);
        result
    }

    /// A refused request's answer, as its own trace line.
    fn record_refusal(&mut self, result: &Result<(), ActionError>) {
        if let Err(e) = result {
            self.record_action(format!("refused: {e}"));
        }
    }

    /// IncrementalAlterConfigs on the active controller: one ConfigRecord. Returns the offset
    /// the record will have.
    pub fn alter_config(&mut self, resource: &str, name: &str, value: &str) -> Result<u64, ActionError> {
        let leader = self.leader().map(|n| n.id()).ok_or(ActionError::NoActiveController)?;
        self.with_server(leader, |s, now, _| {
            s.with_controller(|c, n| c.alter_config(n, now, resource, name, value))
        })
        .flatten()
        .ok_or(ActionError::ControllerDown)?
        .map_err(ActionError::from)
    }

    /// Begin a broker's controlled shutdown.
    pub fn shut_down_broker(&mut self, id: NodeId) -> Result<(), ActionError> {
        self.record_action(format!("controlled shutdown of n{id}"));
        self.with_server(id, |s, now, _| s.with_broker(|b| b.begin_controlled_shutdown(now)))
            .ok_or(ActionError::NotRunning(id))?
            .ok_or(ActionError::NotABroker(id))?
            .map_err(ActionError::from)
    }
}

#[cfg(test)]
mod tests {
    use super::{ActionError, ClusterConfig, Simulation};
    use crate::harness::{MS, Micros};
    use crate::metadata::controller::AdminError;

    /// The earliest event that will (or will not) act.
    fn first(sim: &Simulation, live: bool) -> Option<Micros> {
        sim.queue.iter().filter(|(at, e)| sim.will_act(*at, e) == live).map(|(at, _)| at).min()
    }

    /// A cluster two seconds in with n1 crashed (its timer is left in the queue, dead), stepped
    /// on until a dead event is the earliest in the queue.
    fn with_a_dead_event_first() -> Simulation {
        let mut sim =
            Simulation::new(ClusterConfig { voters: 3, observers: 1, ..ClusterConfig::default() }, 5);
        sim.run_until(2000 * MS);
        sim.crash(1).unwrap();
        for _ in 0..10_000 {
            if let (Some(dead), Some(live)) = (first(&sim, false), first(&sim, true))
                && dead < live
            {
                return sim;
            }
            sim.step();
        }
        panic!("no dead event came first in 10,000 steps")
    }

    #[test]
    fn warping_may_pass_events_that_will_not_act() {
        let mut sim = with_a_dead_event_first();
        let live = first(&sim, true).unwrap();
        sim.warp_to(live);
        assert_eq!(sim.now(), live);
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "events are due before")]
    fn warping_past_an_event_that_will_act_is_caught() {
        let mut sim = with_a_dead_event_first();
        let live = first(&sim, true).unwrap();
        sim.warp_to(live + 1);
    }

    #[test]
    fn refused_actions_say_why() {
        let mut sim =
            Simulation::new(ClusterConfig { voters: 3, observers: 1, ..ClusterConfig::default() }, 5);
        assert_eq!(sim.crash(77), Err(ActionError::NoSuchNode(77)));
        assert_eq!(sim.restart(1), Err(ActionError::AlreadyRunning(1)));
        assert_eq!(sim.resign_leader(), Err(ActionError::NoLeader));
        assert_eq!(sim.create_topic("t", 1, 1), Err(ActionError::NoActiveController));
        sim.run_until(2000 * MS);
        let refused = sim.create_topic("t", 1, 2);
        assert_eq!(
            refused,
            Err(ActionError::Refused(AdminError::ReplicationFactor { replication_factor: 2, available: 1 }))
        );
        assert_eq!(sim.shut_down_broker(1), Err(ActionError::NotABroker(1)));
        sim.crash(101).unwrap();
        assert_eq!(sim.crash(101), Err(ActionError::AlreadyDown(101)));
        assert_eq!(sim.shut_down_broker(101), Err(ActionError::NotRunning(101)));
    }
}

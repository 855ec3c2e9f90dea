//! A server process: a quorum node plus its role in the metadata layer, a controller (voter)
//! or a broker (observer). Routes each incoming message to the part it is for.

use std::sync::Arc;

use crate::metadata::broker::{Broker, BrokerLifecycle};
use crate::metadata::config::MetadataConfig;
use crate::metadata::controller::{Controller, RpcOutbox};
use crate::metadata::record::FIRST_BROKER_ID;
use crate::metadata::rpc::ControllerRpc;
use crate::metadata::state::{MetadataDisk, MetadataMessage, MetadataNode, MetadataOutbox};
use crate::quorum::message::{FetchResult, SnapshotChunk};
use crate::quorum::voters::QuorumSetup;
use crate::quorum::{Message, Micros, NodeId, QuorumConfig};
use crate::rng::Rng;

use super::packet::Payload;

/// The metadata-layer half of a server.
#[derive(Clone, Debug)]
pub enum ServerRole {
    Controller(Box<Controller>),
    Broker(Broker),
}

/// Bytes and records a broker pulled from the metadata log since it started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FetchStats {
    pub records: u64,
    pub bytes: u64,
}

/// One running server.
#[derive(Clone, Debug)]
pub struct Server {
    node: MetadataNode,
    role: ServerRole,
    fetched: FetchStats,
    /// The broker lifecycle state last reported in the trace.
    reported_lifecycle: Option<BrokerLifecycle>,
}

/// How a broker process begins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrokerStart {
    /// A process starting up: it registers (a new incarnation) and waits to be unfenced.
    Register,
    /// A process that was running when its metadata was taken, and keeps its registration.
    Resume,
}

/// Everything a server wants sent.
#[derive(Clone, Debug, Default)]
pub struct ServerOutbox {
    pub quorum: MetadataOutbox,
    pub rpcs: RpcOutbox,
    /// Brokers whose lifecycle state changed, with the new state.
    pub lifecycle: Vec<(NodeId, BrokerLifecycle)>,
}

impl Server {
    /// Start server `id` from its disk: a controller process (ids below
    /// [`FIRST_BROKER_ID`]), whether or not it is a voter yet, else a broker. With
    /// `start`'s [`BrokerStart::Resume`], a broker whose unfenced registration the disk's image
    /// holds keeps it ([`Broker::resume`]).
    // Eight inputs from eight owners at the one call (`Simulation::boot`): the process's id, how it
    // finds the quorum, two configurations, its random stream, disk, clock and way of starting;
    // a struct bundling them would exist for this call only.
    #[expect(clippy::too_many_arguments, reason = "distinct inputs of one call, see the comment")]
    pub fn start(
        id: NodeId,
        setup: Arc<QuorumSetup>,
        quorum: Arc<QuorumConfig>,
        metadata: &MetadataConfig,
        mut rng: Rng,
        disk: MetadataDisk,
        now: Micros,
        start: BrokerStart,
    ) -> Server {
        let node = MetadataNode::start(id, setup, quorum, rng.fork(), disk, now);
        let registered = || {
            let registration = node.applied().state.image.brokers().get(&id)?;
            (!registration.fenced).then_some(registration.epoch)
        };
        let role = if id < FIRST_BROKER_ID {
            ServerRole::Controller(Box::new(Controller::new(metadata.clone(), rng)))
        } else if let (BrokerStart::Resume, Some(epoch)) = (start, registered()) {
            ServerRole::Broker(Broker::resume(id, metadata.clone(), now, epoch))
        } else {
            ServerRole::Broker(Broker::start(id, metadata.clone(), now))
        };
        Server { node, role, fetched: FetchStats::default(), reported_lifecycle: None }
    }

    /// The quorum node.
    pub fn node(&self) -> &MetadataNode {
        &self.node
    }

    /// The metadata-layer role.
    pub fn role(&self) -> &ServerRole {
        &self.role
    }

    /// The broker's lifecycle manager, for brokers.
    pub fn broker(&self) -> Option<&Broker> {
        match &self.role {
            ServerRole::Broker(b) => Some(b),
            ServerRole::Controller(_) => None,
        }
    }

    /// The controller, for controllers.
    pub fn controller(&self) -> Option<&Controller> {
        match &self.role {
            ServerRole::Controller(c) => Some(c),
            ServerRole::Broker(_) => None,
        }
    }

    /// What this server fetched of the metadata log since it started.
    pub fn fetched(&self) -> FetchStats {
        self.fetched
    }

    /// A broker that finished its controlled shutdown stops.
    pub fn wants_to_stop(&self) -> bool {
        self.broker().is_some_and(|b| b.lifecycle() == BrokerLifecycle::ShuttingDown)
    }

    /// The disk, once the process is gone.
    pub fn into_disk(self) -> MetadataDisk {
        self.node.into_disk()
    }

    /// The earliest time any part of the server needs a tick.
    pub fn next_deadline(&self) -> Micros {
        let role = match &self.role {
            ServerRole::Controller(c) => c.next_deadline(),
            ServerRole::Broker(b) => b.next_deadline(),
        };
        self.node.next_deadline().min(role)
    }

    /// Handle a message from `from`.
    pub fn handle(&mut self, now: Micros, from: NodeId, payload: Payload, out: &mut ServerOutbox) {
        match payload {
            Payload::Quorum(message) => {
                self.count_fetched(&message);
                self.node.handle(now, from, message, &mut out.quorum);
            }
            Payload::Controller(rpc) => self.handle_rpc(now, from, rpc, &mut out.rpcs),
        }
    }

    fn handle_rpc(&mut self, now: Micros, from: NodeId, rpc: ControllerRpc, out: &mut RpcOutbox) {
        match &mut self.role {
            ServerRole::Controller(controller) => controller.handle(&mut self.node, now, from, rpc, out),
            ServerRole::Broker(broker) => broker.handle(now, rpc),
        }
    }

    /// Fire whatever timers are due.
    pub fn tick(&mut self, now: Micros, out: &mut ServerOutbox) {
        self.node.tick(now, &mut out.quorum);
        match &mut self.role {
            ServerRole::Controller(controller) => controller.tick(&mut self.node, now),
            ServerRole::Broker(broker) => broker.tick(&self.node, now, &mut out.rpcs),
        }
    }

    /// Run `f` on the controller and its node (admin operations such as CreateTopics).
    pub fn with_controller<T>(
        &mut self,
        f: impl FnOnce(&mut Controller, &mut MetadataNode) -> T,
    ) -> Option<T> {
        match &mut self.role {
            ServerRole::Controller(controller) => Some(f(controller, &mut self.node)),
            ServerRole::Broker(_) => None,
        }
    }

    /// Run `f` on the broker.
    pub fn with_broker<T>(&mut self, f: impl FnOnce(&mut Broker) -> T) -> Option<T> {
        match &mut self.role {
            ServerRole::Broker(broker) => Some(f(broker)),
            ServerRole::Controller(_) => None,
        }
    }

    /// Run `f` on the quorum node.
    pub fn with_node<T>(&mut self, f: impl FnOnce(&mut MetadataNode) -> T) -> T {
        f(&mut self.node)
    }

    /// Let the controller follow changes of leadership and release committed replies, and
    /// report a broker's lifecycle change. The simulation calls it once after anything it runs
    /// on a server (a message, a timer, an admin request).
    pub(crate) fn after(&mut self, now: Micros, out: &mut ServerOutbox) {
        match &mut self.role {
            ServerRole::Controller(controller) => controller.sync(&self.node, now, &mut out.rpcs),
            ServerRole::Broker(broker) => {
                let lifecycle = broker.lifecycle();
                if self.reported_lifecycle != Some(lifecycle) {
                    self.reported_lifecycle = Some(lifecycle);
                    out.lifecycle.push((self.node.id(), lifecycle));
                }
            }
        }
    }

    fn count_fetched(&mut self, message: &MetadataMessage) {
        match message {
            Message::FetchResponse { result: FetchResult::Records(entries), .. } => {
                self.fetched.records += entries.len() as u64;
                self.fetched.bytes += entries.iter().map(|e| e.record.size_bytes()).sum::<u64>();
            }
            Message::FetchSnapshotResponse { result: SnapshotChunk::Chunk { len, .. }, .. } => {
                self.fetched.bytes += len
            }
            _ => {}
        }
    }
}

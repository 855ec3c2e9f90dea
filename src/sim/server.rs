//! A server process: a quorum node plus its roles in the metadata layer (`process.roles`): a
//! controller (voter, or an observer that may become one), a broker (observer), or both in one
//! process, a combined node. Routes each incoming message to the part it is for.

use std::sync::Arc;

use crate::harness::Micros;
use crate::metadata::broker::{Broker, BrokerLifecycle};
use crate::metadata::config::MetadataConfig;
use crate::metadata::controller::{Controller, RpcOutbox};
use crate::metadata::rpc::ControllerRpc;
use crate::metadata::state::{MetadataDisk, MetadataMessage, MetadataNode, MetadataOutbox};
use crate::quorum::message::{FetchResult, SnapshotChunk};
use crate::quorum::voters::QuorumSetup;
use crate::quorum::{Message, NodeId, QuorumConfig};
use crate::util::rng::Rng;

use super::packet::Payload;

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
    controller: Option<Box<Controller>>,
    broker: Option<Broker>,
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

/// What a server process runs (`process.roles`): a controller, a broker, or both (a combined
/// node, its broker reading the metadata its controller's Raft client replicates, as
/// `KafkaRaftServer` shares one `RaftManager` between `ControllerServer` and `BrokerServer`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProcessRoles {
    pub controller: bool,
    /// The broker half, and how it begins.
    pub broker: Option<BrokerStart>,
    /// The process's incarnation id ([`crate::metadata::broker::incarnation`]).
    pub incarnation: u64,
    /// The broker epoch the last process wrote when it shut down cleanly, if it did.
    pub previous_broker_epoch: Option<u64>,
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
    /// Start server `id` from its disk with `roles`. A broker whose unfenced registration the
    /// disk's image holds keeps it when `roles` says [`BrokerStart::Resume`]
    /// ([`Broker::resume`]).
    // Seven inputs from seven owners at the one call (`Simulation::boot`): the process's id and
    // roles, how it finds the quorum, two configurations, its random stream, disk and clock;
    // a struct bundling them would exist for this call only.
    #[expect(clippy::too_many_arguments, reason = "distinct inputs of one call, see the comment")]
    pub(crate) fn start(
        id: NodeId,
        roles: ProcessRoles,
        setup: Arc<QuorumSetup>,
        quorum: Arc<QuorumConfig>,
        metadata: &MetadataConfig,
        mut rng: Rng,
        disk: MetadataDisk,
        now: Micros,
    ) -> Server {
        // `KafkaConfig` refuses controller.quorum.auto.join.enable on a broker-only process, and
        // `KafkaRaftManager` tells its raft client it cannot become a voter.
        let quorum = match roles.controller {
            true => quorum,
            false => {
                Arc::new(QuorumConfig { auto_join: false, can_become_voter: false, ..(*quorum).clone() })
            }
        };
        let node = MetadataNode::start(id, setup, quorum, rng.fork(), disk, now);
        let registered = || node.applied().state.image.brokers().get(&id).copied().filter(|r| !r.fenced);
        let broker = roles.broker.map(|start| match (start, registered()) {
            (BrokerStart::Resume, Some(registration)) => {
                Broker::resume(id, metadata.clone(), now, registration)
            }
            _ => Broker::start(id, metadata.clone(), now, roles.incarnation)
                .after_shutdown(roles.previous_broker_epoch),
        });
        let controller = roles.controller.then(|| Box::new(Controller::new(metadata.clone(), rng)));
        Server { node, controller, broker, fetched: FetchStats::default(), reported_lifecycle: None }
    }

    /// The quorum node.
    pub(crate) fn node(&self) -> &MetadataNode {
        &self.node
    }

    /// The broker's lifecycle manager, for brokers and combined nodes.
    pub fn broker(&self) -> Option<&Broker> {
        self.broker.as_ref()
    }

    /// What this server fetched of the metadata log since it started.
    pub fn fetched(&self) -> FetchStats {
        self.fetched
    }

    /// A broker that finished its controlled shutdown stops (a combined node's whole process:
    /// `BrokerServer` and `ControllerServer` share its fate).
    pub(crate) fn wants_to_stop(&self) -> bool {
        self.broker().is_some_and(|b| b.lifecycle() == BrokerLifecycle::ShuttingDown)
    }

    /// The disk, once the process is gone.
    pub(crate) fn into_disk(self) -> MetadataDisk {
        self.node.into_disk()
    }

    /// The earliest time any part of the server needs a tick.
    pub(crate) fn next_deadline(&self) -> Micros {
        let controller = self.controller.as_ref().map_or(Micros::MAX, |c| c.next_deadline());
        let broker = self.broker.as_ref().map_or(Micros::MAX, Broker::next_deadline);
        self.node.next_deadline().min(controller).min(broker)
    }

    /// Handle a message from `from` (with its quorum RPC's `correlation` id).
    pub(crate) fn handle(
        &mut self,
        now: Micros,
        from: NodeId,
        payload: Payload,
        correlation: u64,
        out: &mut ServerOutbox,
    ) {
        match payload {
            Payload::Quorum(message) => {
                self.count_fetched(&message);
                self.node.handle(now, from, message, correlation, &mut out.quorum);
            }
            Payload::Controller(rpc) => self.handle_rpc(now, from, rpc, &mut out.rpcs),
        }
    }

    /// A request goes to the controller half, a response to the broker half; one a server has
    /// no half for is dropped, as a process without that listener would.
    fn handle_rpc(&mut self, now: Micros, from: NodeId, rpc: ControllerRpc, out: &mut RpcOutbox) {
        if rpc.is_request() {
            if let Some(controller) = &mut self.controller {
                controller.handle(&mut self.node, now, from, rpc, out);
            }
        } else if let Some(broker) = &mut self.broker {
            broker.handle(now, rpc);
        }
    }

    /// Fire whatever timers are due.
    pub(crate) fn tick(&mut self, now: Micros, out: &mut ServerOutbox) {
        self.node.tick(now, &mut out.quorum);
        if let Some(controller) = &mut self.controller {
            controller.tick(&mut self.node, now);
        }
        if let Some(broker) = &mut self.broker {
            broker.tick(&self.node, now, &mut out.rpcs);
        }
    }

    /// Run `f` on the controller and its node (admin operations such as CreateTopics).
    pub(crate) fn with_controller<T>(
        &mut self,
        f: impl FnOnce(&mut Controller, &mut MetadataNode) -> T,
    ) -> Option<T> {
        let controller = self.controller.as_mut()?;
        Some(f(controller, &mut self.node))
    }

    /// Run `f` on the broker.
    pub(crate) fn with_broker<T>(&mut self, f: impl FnOnce(&mut Broker) -> T) -> Option<T> {
        self.broker.as_mut().map(f)
    }

    /// Run `f` on the quorum node.
    pub(crate) fn with_node<T>(&mut self, f: impl FnOnce(&mut MetadataNode) -> T) -> T {
        f(&mut self.node)
    }

    /// Let the controller follow changes of leadership and release committed replies, and
    /// report a broker's lifecycle change. The simulation calls it once after anything it runs
    /// on a server (a message, a timer, an admin request).
    pub(crate) fn after(&mut self, now: Micros, out: &mut ServerOutbox) {
        if let Some(controller) = &mut self.controller {
            controller.sync(&mut self.node, now, &mut out.rpcs);
        }
        if let Some(broker) = &self.broker {
            let lifecycle = broker.lifecycle();
            if self.reported_lifecycle != Some(lifecycle) {
                self.reported_lifecycle = Some(lifecycle);
                out.lifecycle.push((self.node.id(), lifecycle));
            }
        }
    }

    fn count_fetched(&mut self, message: &MetadataMessage) {
        match message {
            Message::FetchResponse { result: FetchResult::Records(entries), .. } => {
                self.fetched.records += entries.len() as u64;
                self.fetched.bytes += entries.bytes();
            }
            Message::FetchSnapshotResponse { result: SnapshotChunk::Chunk { len, .. }, .. } => {
                self.fetched.bytes += len
            }
            _ => {}
        }
    }
}

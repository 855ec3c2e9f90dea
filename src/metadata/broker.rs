//! A broker's lifecycle (KIP-631): register with the active controller, heartbeat, catch up on
//! the metadata log, get unfenced, and leave through a controlled shutdown. Its metadata image is
//! the quorum observer's applied state; this module only drives the RPCs.

use std::collections::BTreeMap;
use std::fmt;

use crate::harness::{MS, Micros};
use crate::util::broker_set::BrokerId;

use super::config::MetadataConfig;
use super::controller::RpcOutbox;
use super::image::BrokerRegistration;
use super::record::{TopicId, broker_bit, broker_set};
use super::rpc::{ControllerRpc, RpcError};
use super::state::MetadataNode;

/// Kafka's `BrokerState` as the lifecycle manager moves through it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum BrokerLifecycle {
    NotRunning,
    /// Registering and catching up on the metadata log.
    Starting,
    /// Caught up, still fenced.
    Recovery,
    /// Unfenced: may lead partitions.
    Running,
    /// Asked to shut down; the controller moves its leadership away.
    PendingControlledShutdown,
    /// Released by the controller; stopping.
    ShuttingDown,
}

impl BrokerLifecycle {
    /// Kafka's name of the state.
    pub(crate) fn name(self) -> &'static str {
        match self {
            BrokerLifecycle::NotRunning => "NOT_RUNNING",
            BrokerLifecycle::Starting => "STARTING",
            BrokerLifecycle::Recovery => "RECOVERY",
            BrokerLifecycle::Running => "RUNNING",
            BrokerLifecycle::PendingControlledShutdown => "PENDING_CONTROLLED_SHUTDOWN",
            BrokerLifecycle::ShuttingDown => "SHUTTING_DOWN",
        }
    }
}

impl fmt::Display for BrokerLifecycle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A controlled shutdown asked of a broker already shutting down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlreadyShuttingDown(pub BrokerId);

impl fmt::Display for AlreadyShuttingDown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "broker {} is already shutting down", self.0)
    }
}

impl std::error::Error for AlreadyShuttingDown {}

/// Retry delay while no controller is known.
const RETRY: Micros = 100 * MS;

/// The incarnation id of broker `id`'s `start`-th process: Kafka draws a random UUID at each
/// start (`BrokerLifecycleManager`'s `incarnationId`); a counter keeps the simulation's random
/// stream untouched. Start 0 is the process that ran before a simulation began from a snapshot of
/// a running cluster; a simulation's own starts count from 1.
pub(crate) fn incarnation(id: BrokerId, start: u32) -> u64 {
    (u64::from(id) << 32) | u64::from(start)
}
/// A STARTING broker heartbeats again this soon after each answer
/// (`BrokerLifecycleManager`: "so that ... we start up a bit quicker").
const STARTING_HEARTBEAT: Micros = 10 * MS;
/// The first heartbeat answer of a controlled shutdown is followed this soon by the next.
const SHUTDOWN_HEARTBEAT: Micros = 50 * MS;

/// One broker's lifecycle manager.
#[derive(Clone, Debug)]
pub struct Broker {
    id: BrokerId,
    config: MetadataConfig,
    lifecycle: BrokerLifecycle,
    broker_epoch: Option<u64>,
    /// This process's incarnation id, sent with every registration attempt.
    incarnation: u64,
    /// The broker epoch the last process wrote to its log directories when it shut down cleanly
    /// (`LogManager.readBrokerEpochFromCleanShutdownFiles`), sent as `PreviousBrokerEpoch`.
    previous_broker_epoch: Option<u64>,
    next_request: Micros,
    want_shut_down: bool,
    /// AlterPartition requests in flight, by partition, with the partition epoch they were for.
    isr_requests: BTreeMap<(TopicId, u32), u32>,
    /// Heartbeat answers received while waiting to shut down.
    shutdown_answers: u32,
    /// The correlation id of the request whose answer it waits for: one at a time, as
    /// `BrokerLifecycleManager` has one communication in flight; any other answer (to a
    /// request that timed out and was replaced) is ignored.
    awaiting: Option<u64>,
    next_correlation: u64,
    /// The image's change count and the broker epoch of the last ISR scan: scanning the same
    /// image again would find nothing new (a NoOpRecord every 500 ms changes nothing), and at
    /// millions of partitions a scan is costly.
    isr_scanned: Option<(u64, u64)>,
}

impl Broker {
    /// A broker process starting up, with its incarnation id.
    pub(crate) fn start(id: BrokerId, config: MetadataConfig, now: Micros, incarnation: u64) -> Broker {
        Broker {
            id,
            config,
            lifecycle: BrokerLifecycle::Starting,
            broker_epoch: None,
            incarnation,
            previous_broker_epoch: None,
            next_request: now,
            want_shut_down: false,
            isr_requests: BTreeMap::new(),
            shutdown_answers: 0,
            awaiting: None,
            next_correlation: 0,
            isr_scanned: None,
        }
    }

    /// A broker that was already running, registered under `broker_epoch` and unfenced, when
    /// the metadata it starts from was taken: it keeps its registration and goes on
    /// heartbeating, as brokers do while the controller quorum fails over (only a broker process
    /// that restarts registers again, `BrokerLifecycleManager.start`).
    pub(crate) fn resume(
        id: BrokerId,
        config: MetadataConfig,
        now: Micros,
        registration: BrokerRegistration,
    ) -> Broker {
        Broker {
            lifecycle: BrokerLifecycle::Running,
            broker_epoch: Some(registration.epoch),
            ..Broker::start(id, config, now, registration.incarnation)
        }
    }

    /// This start follows a clean shutdown of the process registered under `epoch` (`None`:
    /// a crash, or a first start).
    pub(crate) fn after_shutdown(self, epoch: Option<u64>) -> Broker {
        Broker { previous_broker_epoch: epoch, ..self }
    }

    /// Where the broker is in its lifecycle.
    pub(crate) fn lifecycle(&self) -> BrokerLifecycle {
        self.lifecycle
    }

    /// The broker epoch the controller gave at registration.
    pub fn broker_epoch(&self) -> Option<u64> {
        self.broker_epoch
    }

    /// When the broker next needs a tick.
    pub(crate) fn next_deadline(&self) -> Micros {
        if self.lifecycle == BrokerLifecycle::ShuttingDown { Micros::MAX } else { self.next_request }
    }

    /// Begin a controlled shutdown.
    pub(crate) fn begin_controlled_shutdown(&mut self, now: Micros) -> Result<(), AlreadyShuttingDown> {
        if self.lifecycle == BrokerLifecycle::ShuttingDown {
            return Err(AlreadyShuttingDown(self.id));
        }
        self.want_shut_down = true;
        self.lifecycle = BrokerLifecycle::PendingControlledShutdown;
        self.next_request = now;
        Ok(())
    }

    /// Send the registration or heartbeat that is due, and ask to expand ISRs it leads.
    pub(crate) fn tick(&mut self, node: &MetadataNode, now: Micros, out: &mut RpcOutbox) {
        if now < self.next_request || self.lifecycle == BrokerLifecycle::ShuttingDown {
            return;
        }
        let Some(controller) = node.leader() else {
            self.next_request = now + RETRY;
            return;
        };
        self.next_request = now + self.config.heartbeat_interval;
        let correlation = self.next_correlation;
        self.next_correlation += 1;
        self.awaiting = Some(correlation);
        let rpc = match self.broker_epoch {
            None => ControllerRpc::BrokerRegistration {
                broker_id: self.id,
                incarnation: self.incarnation,
                previous_broker_epoch: self.previous_broker_epoch,
                correlation,
            },
            Some(broker_epoch) => ControllerRpc::BrokerHeartbeat {
                correlation,
                broker_id: self.id,
                broker_epoch,
                current_metadata_offset: node.applied().applied_offset.saturating_sub(1),
                want_fence: self.lifecycle == BrokerLifecycle::Starting,
                want_shut_down: self.want_shut_down,
            },
        };
        out.push((controller, rpc));
        if self.lifecycle == BrokerLifecycle::Running {
            self.expand_isrs(node, controller, out);
        }
    }

    /// KIP-497: as leader of a partition, ask the controller to add unfenced replicas back to
    /// the ISR (the simulation has no data plane, so a live follower counts as caught up).
    fn expand_isrs(&mut self, node: &MetadataNode, controller: crate::quorum::NodeId, out: &mut RpcOutbox) {
        let Some(broker_epoch) = self.broker_epoch else { return };
        let scan = (node.applied().state.placement_changes, broker_epoch);
        if self.isr_scanned == Some(scan) {
            return;
        }
        self.isr_scanned = Some(scan);
        let image = &node.applied().state.image;
        let active = image.active_brokers();
        for (topic_id, partition, p) in image.partitions_led_by_lacking(self.id, active) {
            let missing = p.replicas.set().intersection(active).difference(p.isr);
            if self.isr_requests.get(&(topic_id, partition)) == Some(&p.partition_epoch) {
                continue;
            }
            let new_isr = broker_set(
                p.replicas
                    .iter()
                    .filter(|r| p.isr.contains(broker_bit(*r)) || missing.contains(broker_bit(*r))),
            );
            self.isr_requests.insert((topic_id, partition), p.partition_epoch);
            out.push((
                controller,
                ControllerRpc::AlterPartition {
                    broker_id: self.id,
                    broker_epoch,
                    topic_id,
                    partition,
                    leader_epoch: p.leader_epoch,
                    partition_epoch: p.partition_epoch,
                    new_isr,
                },
            ));
        }
    }

    /// Handle the controller's answer and schedule the next heartbeat as Kafka's
    /// `BrokerLifecycleManager` does: 10 ms after each answer while STARTING, at once when
    /// ready to be unfenced, 50 ms after the first answer of a controlled shutdown, otherwise
    /// every `broker.heartbeat.interval.ms`.
    pub(crate) fn handle(&mut self, now: Micros, rpc: ControllerRpc) {
        let answers = match &rpc {
            ControllerRpc::BrokerRegistrationResponse { correlation, .. }
            | ControllerRpc::BrokerHeartbeatResponse { correlation, .. } => Some(*correlation),
            _ => None,
        };
        if let Some(correlation) = answers {
            if self.awaiting != Some(correlation) {
                return;
            }
            self.awaiting = None;
        }
        match rpc {
            ControllerRpc::BrokerRegistrationResponse { result: Ok(epoch), .. } => {
                self.broker_epoch = Some(epoch);
                self.next_request = now;
            }
            ControllerRpc::BrokerHeartbeatResponse { result: Ok(reply), .. } => {
                use BrokerLifecycle::*;
                let before = self.lifecycle;
                self.lifecycle = match self.lifecycle {
                    _ if reply.should_shut_down => ShuttingDown,
                    Starting if reply.is_caught_up => Recovery,
                    Recovery if !reply.is_fenced => Running,
                    other => other,
                };
                let interval = self.config.heartbeat_interval;
                self.next_request = match (before, self.lifecycle) {
                    (Starting, Starting) => now + STARTING_HEARTBEAT,
                    (Starting, Recovery) => now,
                    (PendingControlledShutdown, PendingControlledShutdown) => {
                        self.shutdown_answers += 1;
                        now + if self.shutdown_answers == 1 { SHUTDOWN_HEARTBEAT } else { interval }
                    }
                    _ => now + interval,
                };
            }
            ControllerRpc::BrokerHeartbeatResponse { result: Err(RpcError::StaleBrokerEpoch), .. } => {
                self.broker_epoch = None;
                if self.lifecycle != BrokerLifecycle::PendingControlledShutdown {
                    self.lifecycle = BrokerLifecycle::Starting;
                }
                self.next_request = now;
            }
            ControllerRpc::BrokerRegistrationResponse { result: Err(_), .. }
            | ControllerRpc::BrokerHeartbeatResponse { result: Err(_), .. } => {
                self.next_request = now + self.config.heartbeat_interval;
            }
            ControllerRpc::AlterPartitionResponse { topic_id, partition, result: Err(_) } => {
                self.isr_requests.remove(&(topic_id, partition));
                self.isr_scanned = None;
            }
            _ => {}
        }
    }
}

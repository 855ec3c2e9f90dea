//! The requests brokers send the active controller (KIP-631 BrokerRegistration and
//! BrokerHeartbeat, KIP-497 AlterPartition) and their responses.

use std::fmt;

use crate::util::broker_set::{BrokerId, BrokerSet};

use super::record::{TopicId, broker_ids};

/// Why the controller refused a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RpcError {
    /// `NOT_CONTROLLER`: the receiver is not the active controller.
    NotController,
    /// `STALE_BROKER_EPOCH`: the broker must register again.
    StaleBrokerEpoch,
    /// `DUPLICATE_BROKER_REGISTRATION`: another incarnation of this broker id still has a valid
    /// session (`ClusterControlManager.registerBroker`).
    DuplicateBrokerRegistration,
    /// The partition changed since the request was made (`INVALID_UPDATE_VERSION`,
    /// `FENCED_LEADER_EPOCH`), or the new ISR is not allowed (`INELIGIBLE_REPLICA`).
    InvalidUpdate,
}

/// What BrokerHeartbeat answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeartbeatReply {
    pub is_caught_up: bool,
    pub is_fenced: bool,
    pub should_shut_down: bool,
}

/// A controller RPC.
#[derive(Clone, Debug, PartialEq)]
pub enum ControllerRpc {
    /// `correlation` is the request header's correlation id, echoed in the response, so a
    /// broker can tell the answer to its current request from a late one.
    /// `incarnation`: the process's incarnation id, the same for every retry of one start.
    BrokerRegistration {
        broker_id: BrokerId,
        incarnation: u64,
        /// `PreviousBrokerEpoch`: the epoch of the registration a clean shutdown ended (`None`
        /// is Kafka's -1, after a crash).
        previous_broker_epoch: Option<u64>,
        correlation: u64,
    },
    BrokerRegistrationResponse {
        correlation: u64,
        result: Result<u64, RpcError>,
    },
    BrokerHeartbeat {
        correlation: u64,
        broker_id: BrokerId,
        broker_epoch: u64,
        current_metadata_offset: u64,
        want_fence: bool,
        want_shut_down: bool,
    },
    BrokerHeartbeatResponse {
        correlation: u64,
        result: Result<HeartbeatReply, RpcError>,
    },
    AlterPartition {
        broker_id: BrokerId,
        broker_epoch: u64,
        topic_id: TopicId,
        partition: u32,
        leader_epoch: u32,
        partition_epoch: u32,
        new_isr: BrokerSet,
    },
    AlterPartitionResponse {
        topic_id: TopicId,
        partition: u32,
        result: Result<(), RpcError>,
    },
}

impl ControllerRpc {
    /// Whether this is a request to the controller (else a response to a broker): how a
    /// combined node routes what arrives to its two halves.
    pub(crate) fn is_request(&self) -> bool {
        matches!(
            self,
            ControllerRpc::BrokerRegistration { .. }
                | ControllerRpc::BrokerHeartbeat { .. }
                | ControllerRpc::AlterPartition { .. }
        )
    }

    /// The RPC's name as Kafka spells it.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            ControllerRpc::BrokerRegistration { .. } => "BrokerRegistration",
            ControllerRpc::BrokerRegistrationResponse { .. } => "BrokerRegistrationResponse",
            ControllerRpc::BrokerHeartbeat { .. } => "BrokerHeartbeat",
            ControllerRpc::BrokerHeartbeatResponse { .. } => "BrokerHeartbeatResponse",
            ControllerRpc::AlterPartition { .. } => "AlterPartition",
            ControllerRpc::AlterPartitionResponse { .. } => "AlterPartitionResponse",
        }
    }

    /// Whether this is a response carrying an error.
    pub(crate) fn is_error(&self) -> bool {
        match self {
            ControllerRpc::BrokerRegistrationResponse { result, .. } => result.is_err(),
            ControllerRpc::BrokerHeartbeatResponse { result, .. } => result.is_err(),
            ControllerRpc::AlterPartitionResponse { result, .. } => result.is_err(),
            _ => false,
        }
    }
}

impl fmt::Display for ControllerRpc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = self.kind();
        match self {
            ControllerRpc::BrokerRegistration { broker_id, .. } => write!(f, "{kind}(broker={broker_id})"),
            ControllerRpc::BrokerRegistrationResponse { result, .. } => write!(f, "{kind}({result:?})"),
            ControllerRpc::BrokerHeartbeat {
                broker_epoch,
                current_metadata_offset,
                want_fence,
                want_shut_down,
                ..
            } => write!(
                f,
                "{kind}(epoch={broker_epoch}, offset={current_metadata_offset}, want_fence={want_fence}, want_shut_down={want_shut_down})"
            ),
            ControllerRpc::BrokerHeartbeatResponse { result: Ok(r), .. } => write!(
                f,
                "{kind}(caught_up={}, fenced={}, shut_down={})",
                r.is_caught_up, r.is_fenced, r.should_shut_down
            ),
            ControllerRpc::BrokerHeartbeatResponse { result: Err(e), .. } => write!(f, "{kind}({e:?})"),
            ControllerRpc::AlterPartition { topic_id, partition, new_isr, .. } => {
                let isr: Vec<String> = broker_ids(*new_isr).map(|b| b.to_string()).collect();
                write!(f, "{kind}({topic_id}-{partition}, isr=[{}])", isr.join(","))
            }
            ControllerRpc::AlterPartitionResponse { topic_id, partition, result } => {
                write!(f, "{kind}({topic_id}-{partition}, {result:?})")
            }
        }
    }
}

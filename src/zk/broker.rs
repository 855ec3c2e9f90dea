//! A ZooKeeper-mode broker: its ZooKeeper session, its own metadata cache (the third copy of the
//! truth, fed only by the controller's UpdateMetadata/LeaderAndIsr) and its notions of liveness.

use super::column::SharedColumn;
use super::partition::{BrokerId, PartitionState};
use super::store::SessionId;
use crate::harness::Micros;

/// One broker's process, connections and metadata cache.
pub(super) struct Broker {
    pub id: BrokerId,
    pub session: SessionId,
    /// The process is running.
    pub alive: bool,
    /// Requests from the controller reach it (false when cut off from the controller).
    pub reachable_from_controller: bool,
    /// The next controller request to it is lost (an injected drop).
    pub drop_next_request: bool,
    /// Leader/ISR per partition as this broker believes it, indexed by global partition index.
    pub cache: SharedColumn<PartitionState>,
    /// Epoch of the controller it last accepted a request from; older epochs are rejected.
    pub controller_epoch: u32,
    /// When it finishes applying the requests already queued to it.
    pub busy_until: Micros,
}

impl Broker {
    pub fn new(id: BrokerId, session: SessionId, cache: SharedColumn<PartitionState>, epoch: u32) -> Self {
        Broker {
            id,
            session,
            alive: true,
            reachable_from_controller: true,
            drop_next_request: false,
            cache,
            controller_epoch: epoch,
            busy_until: 0,
        }
    }
}

/// The two notions of liveness in ZooKeeper mode, side by side, for one broker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BrokerLiveness {
    pub broker: BrokerId,
    /// The broker process is running.
    pub process_alive: bool,
    /// Its ephemeral `/brokers/ids/<id>` exists: ZooKeeper (and so the controller) calls it alive.
    pub registered_in_zookeeper: bool,
    /// The active controller counts it among the live brokers it sends requests to.
    pub in_controller_live_set: bool,
    /// Requests from the controller actually reach it.
    pub reachable_from_controller: bool,
}

//! A ZooKeeper-mode broker: its ZooKeeper session, its own metadata cache (the third copy of the
//! truth, fed only by the controller's UpdateMetadata/LeaderAndIsr) and its notions of liveness.

use super::acl::AclCache;
use super::cluster::BrokerRequest;
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
    /// The controller's requests waiting for it, oldest first: the controller's
    /// `RequestSendThread` for this broker retries the oldest until it is sent.
    pub queued: Vec<BrokerRequest>,
    /// When the controller first tried to send the oldest queued request.
    pub retrying_since: Micros,
    /// Its replica fetchers are running (false once they stall).
    pub fetching: bool,
    /// Partitions whose ISR it changed as their leader, not yet propagated to the controller
    /// (`ReplicaManager.isrChangeSet`), and when the last one changed.
    pub isr_changes: Vec<u32>,
    pub last_isr_change: Micros,
    /// When it last propagated ISR changes (its start, before the first).
    pub last_isr_propagation: Micros,
    /// Leader/ISR per partition as this broker believes it, indexed by global partition index.
    pub cache: SharedColumn<PartitionState>,
    /// Epoch of the controller it last accepted a request from; older epochs are rejected.
    pub controller_epoch: u32,
    /// When it finishes applying the requests already queued to it.
    pub busy_until: Micros,
    /// Its `AclAuthorizer`'s cache (empty without an authorizer).
    pub acls: AclCache,
}

impl Broker {
    pub(crate) fn new(
        id: BrokerId,
        session: SessionId,
        cache: SharedColumn<PartitionState>,
        epoch: u32,
    ) -> Self {
        Broker {
            id,
            session,
            alive: true,
            reachable_from_controller: true,
            queued: Vec::new(),
            retrying_since: 0,
            fetching: true,
            isr_changes: Vec::new(),
            last_isr_change: 0,
            last_isr_propagation: 0,
            cache,
            controller_epoch: epoch,
            busy_until: 0,
            acls: AclCache::default(),
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

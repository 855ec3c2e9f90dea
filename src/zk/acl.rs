//! ZooKeeper mode's second door (Kafka 2.4): ACLs live in znodes, and every broker's
//! `AclAuthorizer` loads them when a change notification appears under `/kafka-acl-changes`
//! (`ZkNodeChangeNotificationListener`, `AclChangedNotificationHandler.processNotification`).
//! Nothing on that path asks Kafka's authorizer: with `zookeeper.set.acl=false` (the default)
//! Kafka creates its znodes world-writable, so a client that can reach ZooKeeper's port writes an
//! ACL as `kafka-acls.sh --authorizer-properties zookeeper.connect=...` does (`AclCommand`'s
//! `AuthorizerService`), and the brokers obey it.

use std::fmt;

use super::cluster::{Event, Fault, ZkCluster};
use super::pains::FAULT_AT;
use super::partition::BrokerId;
use super::path::ZnodePath;
use super::store::{WatchEvent, ZkError, ZkRequestKind, ZnodeData};
use super::trace::{Reaction, TraceKind};
use crate::harness::{MS, Micros};
use crate::metadata::acl::{AclEntry, AclOperation, AclPermission, AclResource, Decision, authorize};

/// The question the pain asks each broker's authorizer.
pub const ASKED_OPERATION: AclOperation = AclOperation::Delete;

/// One ACL as `/kafka-acl/Topic/<t>` holds it (host `*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZkAcl {
    pub principal: &'static str,
    pub operation: AclOperation,
    pub permission: AclPermission,
}

impl ZkAcl {
    /// As the authorizer's rules take it, on topic `topic`.
    fn entry(self, topic: u32) -> AclEntry {
        AclEntry {
            principal: self.principal.into(),
            resource: AclResource::Topic(format!("topic-{topic}").into()),
            operation: self.operation,
            permission: self.permission,
        }
    }
}

impl ZkAcl {
    /// Principal, permission and operation, as `kafka-acls` lists them.
    pub fn summary(&self) -> String {
        format!("{} {} {}", self.principal, self.permission.name(), self.operation.name())
    }
}

impl fmt::Display for ZkAcl {
    /// As `AclAuthorizer` writes it (`Acl.toJsonCompatibleMap`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let permission = match self.permission {
            AclPermission::Allow => "Allow",
            AclPermission::Deny => "Deny",
        };
        let name = self.operation.name();
        let operation = format!("{}{}", &name[..1], name[1..].to_lowercase());
        write!(
            f,
            r#"{{"version":1,"acls":[{{"host":"*","permissionType":"{permission}","operation":"{operation}","principal":"{}"}}]}}"#,
            self.principal
        )
    }
}

/// A broker's `AclAuthorizer` cache: each topic's ACL as it last loaded it, and the last
/// change notification it processed (`lastExecutedChange`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AclCache {
    pub acls: Vec<(u32, ZkAcl)>,
    pub last_change: Option<u32>,
}

impl AclCache {
    fn set(&mut self, topic: u32, acl: Option<ZkAcl>) {
        self.acls.retain(|(t, _)| *t != topic);
        self.acls.extend(acl.map(|acl| (topic, acl)));
    }
}

impl ZkCluster {
    /// Configures every broker with `authorizer.class.name=kafka.security.authorizer.AclAuthorizer`
    /// at start: the ACL paths exist (`KafkaZkClient.createAclPaths`) and each broker's listener
    /// watches `/kafka-acl-changes` (`ZkNodeChangeNotificationListener.init`).
    pub fn enable_acl_authorizer(&mut self) -> Result<(), ZkError> {
        for path in [ZnodePath::TopicAcls, ZnodePath::AclChanges] {
            if self.store.inspect(path).is_none() {
                self.store.create(path, ZnodeData::Empty, None)?;
            }
        }
        for broker in &self.brokers {
            self.store.get_children(ZnodePath::AclChanges, Some(broker.session))?;
        }
        Ok(())
    }

    /// At `at`, a client with network access to ZooKeeper and no Kafka credentials writes `acl`
    /// on `topic` and its change notification, as `kafka-acls.sh --authorizer-properties
    /// zookeeper.connect=...` does.
    pub fn rogue_acl_write(&mut self, topic: u32, acl: ZkAcl, at: Micros) {
        self.rogue_client = true;
        self.schedule(at, Event::Fault(Fault::RogueAclWrite { topic, acl }));
    }

    /// At `at`, broker `broker`'s authorizer is asked whether `principal` may perform
    /// `operation` on `topic`, from the ACLs it has loaded.
    pub fn ask_authorizer(
        &mut self,
        broker: BrokerId,
        principal: &'static str,
        operation: AclOperation,
        topic: u32,
        at: Micros,
    ) {
        self.schedule(at, Event::Fault(Fault::Authorize { broker, principal, operation, topic }));
    }

    /// The ACLs broker `broker`'s authorizer has loaded.
    pub fn acl_cache(&self, broker: BrokerId) -> Option<&AclCache> {
        self.brokers.get(broker as usize).map(|b| &b.acls)
    }

    /// The two writes (`ZkAclStore` then `ZkAclChangeStore`): nothing checks who asks.
    pub(super) fn on_rogue_acl_write(&mut self, topic: u32, acl: ZkAcl) -> TraceKind {
        let path = ZnodePath::TopicAcl(topic);
        let written = if self.store.inspect(path).is_some() {
            self.store.set_data(path, ZnodeData::Acls(acl), None).map(|(_, fired)| fired)
        } else {
            self.store.create(path, ZnodeData::Acls(acl), None)
        }
        .and_then(|mut fired| {
            let (change, more) = self.store.create_acl_change(topic)?;
            fired.extend(more);
            Ok((change, fired))
        });
        match written {
            Ok((change, fired)) => {
                let watches_fired = fired.len();
                self.deliver_watches(fired);
                TraceKind::RogueAclWrite { topic, acl, change, watches_fired }
            }
            Err(error) => TraceKind::RogueWriteFailed { error },
        }
    }

    /// `processNotifications`: `getChildren` of `/kafka-acl-changes` (watching it again), then
    /// for each notification newer than the last one processed its data and the ACLs of the
    /// resource it names (`getVersionedAclsForResource`), one read after another.
    pub(super) fn on_acl_changes(&mut self, id: BrokerId) -> TraceKind {
        let broker = &self.brokers[id as usize];
        let (session, last) = (broker.session, broker.acls.last_change);
        let path = ZnodePath::AclChanges;
        let children = match self.store.get_children(path, Some(session)) {
            Ok(children) => children,
            Err(error) => return TraceKind::AclReadFailed { broker: id, error },
        };
        let mut loaded = Vec::new();
        for child in children {
            let ZnodePath::AclChange(n) = child else { continue };
            if last.is_some_and(|last| n <= last) {
                continue;
            }
            let topic = match self.store.get_data(child, None).map(|node| node.data) {
                Ok(ZnodeData::AclChange { topic }) => topic,
                Ok(_) => return TraceKind::AclReadFailed { broker: id, error: ZkError::BadData(child) },
                Err(error) => return TraceKind::AclReadFailed { broker: id, error },
            };
            let acl = match self.store.get_data(ZnodePath::TopicAcl(topic), None).map(|node| node.data) {
                Ok(ZnodeData::Acls(acl)) => Some(acl),
                _ => None,
            };
            loaded.push((n, topic, acl));
        }
        let reads = 1 + 2 * loaded.len() as u64;
        let done = self.store.submit(self.now, ZkRequestKind::Read, reads, 1);
        let changes = loaded.len();
        self.schedule(done, Event::AclsLoaded { broker: id, loaded });
        TraceKind::WatchFired {
            broker: id,
            event: WatchEvent::NodeChildrenChanged,
            path,
            reaction: Reaction::ReadsAclChanges { changes },
        }
    }

    /// The reads are answered: the broker's cache holds what they returned
    /// (`AclAuthorizer.updateCache`).
    pub(super) fn on_acls_loaded(
        &mut self,
        id: BrokerId,
        loaded: Vec<(u32, u32, Option<ZkAcl>)>,
    ) -> TraceKind {
        let broker = &mut self.brokers[id as usize];
        if !broker.alive {
            return TraceKind::Down { broker: id, missed: super::trace::Missed::Task };
        }
        for &(n, topic, acl) in &loaded {
            broker.acls.set(topic, acl);
            broker.acls.last_change = Some(n);
        }
        let loaded = loaded.into_iter().map(|(_, topic, acl)| (topic, acl)).collect();
        TraceKind::AclsLoaded { broker: id, loaded }
    }

    /// Broker `id`'s authorizer decides from its cache (`AclAuthorizer.authorize`: the same
    /// rules as 4.3.1's `StandardAuthorizer` for literal ACLs,
    /// `allow.everyone.if.no.acl.found=false`); `None` for no such broker.
    pub fn decide(
        &self,
        id: BrokerId,
        principal: &str,
        operation: AclOperation,
        topic: u32,
    ) -> Option<Decision> {
        let broker = self.brokers.get(id as usize)?;
        let entries: Vec<AclEntry> = broker.acls.acls.iter().map(|(t, acl)| acl.entry(*t)).collect();
        let resource = AclResource::Topic(format!("topic-{topic}").into());
        Some(authorize(entries.iter(), principal, operation, &resource))
    }

    pub(super) fn on_authorize(
        &mut self,
        id: BrokerId,
        principal: &'static str,
        operation: AclOperation,
        topic: u32,
    ) -> TraceKind {
        match self.decide(id, principal, operation, topic) {
            Some(decision) => TraceKind::Authorized { broker: id, principal, operation, topic, decision },
            None => TraceKind::AclReadFailed { broker: id, error: ZkError::NoNode(ZnodePath::BrokerId(id)) },
        }
    }
}

/// The principal with no Kafka ACLs that writes its own.
pub const ROGUE: &str = "User:mallory";
/// The topic it grants itself.
pub const ROGUE_TOPIC: u32 = 3;
/// When a broker's authorizer is asked about the rogue principal, before and after its write.
pub const ASKED_BEFORE: Micros = FAULT_AT - 500 * MS;
pub const ASKED_AFTER: Micros = FAULT_AT + 1_000 * MS;
/// The seed of the scripted cluster (the one `tests/zk_traces/second_door.txt` expects).
pub(super) const SECOND_DOOR_SEED: u64 = 5;

/// ZooKeeper mode's second door, scripted on `zk` (a pain's cluster) with the `AclAuthorizer`
/// configured: broker `asked` (not the controller) is asked whether `User:mallory` may delete
/// `topic-3` (denied: no ACL), the client writes an ALLOW ALL for itself into ZooKeeper at
/// [`FAULT_AT`], and the same question is asked once every broker has loaded it (allowed).
pub(super) fn second_door(zk: &mut ZkCluster, asked: BrokerId) {
    zk.enable_acl_authorizer().expect("a fresh cluster takes the ACL paths");
    let acl = ZkAcl { principal: ROGUE, operation: AclOperation::All, permission: AclPermission::Allow };
    zk.ask_authorizer(asked, ROGUE, ASKED_OPERATION, ROGUE_TOPIC, ASKED_BEFORE);
    zk.rogue_acl_write(ROGUE_TOPIC, acl, FAULT_AT);
    zk.ask_authorizer(asked, ROGUE, ASKED_OPERATION, ROGUE_TOPIC, ASKED_AFTER);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::zk::pains::BROKERS;

    /// No Kafka request carries the change: the controller sends nothing, and every broker's
    /// cache holds the ACL once its reads are answered.
    #[test]
    fn every_broker_obeys_a_znode_no_kafka_request_wrote() {
        let mut zk = crate::zk::pains::Pain::Security.cluster();
        zk.run_until(FAULT_AT - 1);
        let sent = zk.requests().sent;
        zk.run_until(ASKED_AFTER);
        assert_eq!(zk.requests().sent, sent, "no controller request");
        for broker in 0..BROKERS {
            let cache = zk.acl_cache(broker).expect("a broker");
            assert_eq!(
                cache.acls.iter().map(|(t, a)| (*t, a.principal)).collect::<Vec<_>>(),
                [(ROGUE_TOPIC, ROGUE)]
            );
            assert_eq!(cache.last_change, Some(0));
        }
    }
}

//! Kafka's ACLs as KRaft keeps them (Kafka 4.3.1): records of the metadata log
//! (`AccessControlEntryRecord`, `RemoveAccessControlEntryRecord`), replayed into every image and
//! checked by the `StandardAuthorizer` of the node a request reaches. A broker forwards DeleteTopics
//! and CreateAcls to the active controller (`KafkaApis.handle`: `forwardToController`) with the
//! client's principal, and the controller authorizes them (`ControllerApis.deleteTopics`,
//! `AclApis.handleCreateAcls`) before it writes a record. Only literal resource names and the
//! host `*` are modelled.

use std::fmt;
use std::sync::Arc;

/// `super.users` of the simulated cluster: the page's and the scripts' own admin requests are
/// this principal's.
pub const SUPER_USER: &str = "User:admin";

/// What an ACL is about (`ResourceType`): a topic by its literal name, or the cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AclResource {
    Topic(Arc<str>),
    Cluster,
}

impl AclResource {
    /// Kafka's `ResourceType` code.
    pub fn code(&self) -> i8 {
        match self {
            AclResource::Topic(_) => 2,
            AclResource::Cluster => 4,
        }
    }

    /// The resource's name as the record holds it (`kafka-cluster` for the cluster).
    pub fn name(&self) -> &str {
        match self {
            AclResource::Topic(name) => name,
            AclResource::Cluster => "kafka-cluster",
        }
    }

    /// From a record's `ResourceType` and `ResourceName`.
    pub fn of(code: i8, name: &str) -> Option<AclResource> {
        match code {
            2 => Some(AclResource::Topic(name.into())),
            4 => Some(AclResource::Cluster),
            _ => None,
        }
    }
}

impl fmt::Display for AclResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AclResource::Topic(name) => write!(f, "Topic:LITERAL:{name}"),
            AclResource::Cluster => write!(f, "Cluster:LITERAL:kafka-cluster"),
        }
    }
}

/// The operations modelled (`AclOperation`, with Kafka's codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AclOperation {
    All,
    Create,
    Delete,
    Alter,
    Describe,
}

impl AclOperation {
    pub const ALL: [AclOperation; 5] = [
        AclOperation::All,
        AclOperation::Create,
        AclOperation::Delete,
        AclOperation::Alter,
        AclOperation::Describe,
    ];

    pub fn code(self) -> i8 {
        match self {
            AclOperation::All => 2,
            AclOperation::Create => 5,
            AclOperation::Delete => 6,
            AclOperation::Alter => 7,
            AclOperation::Describe => 8,
        }
    }

    pub fn of(code: i8) -> Option<AclOperation> {
        AclOperation::ALL.into_iter().find(|op| op.code() == code)
    }

    /// As `kafka-acls --operation` names it.
    pub fn name(self) -> &'static str {
        match self {
            AclOperation::All => "ALL",
            AclOperation::Create => "CREATE",
            AclOperation::Delete => "DELETE",
            AclOperation::Alter => "ALTER",
            AclOperation::Describe => "DESCRIBE",
        }
    }

    pub fn from_name(name: &str) -> Option<AclOperation> {
        AclOperation::ALL.into_iter().find(|op| op.name().eq_ignore_ascii_case(name))
    }
}

/// `AclPermissionType`: DENY (2) or ALLOW (3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AclPermission {
    Deny,
    Allow,
}

impl AclPermission {
    pub fn code(self) -> i8 {
        match self {
            AclPermission::Deny => 2,
            AclPermission::Allow => 3,
        }
    }

    pub fn of(code: i8) -> Option<AclPermission> {
        [AclPermission::Deny, AclPermission::Allow].into_iter().find(|p| p.code() == code)
    }

    /// As `kafka-acls` lists it.
    pub fn name(self) -> &'static str {
        match self {
            AclPermission::Allow => "ALLOW",
            AclPermission::Deny => "DENY",
        }
    }
}

/// One ACL: `principal` may (or may not) perform `operation` on `resource`, from any host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AclEntry {
    pub principal: Arc<str>,
    pub resource: AclResource,
    pub operation: AclOperation,
    pub permission: AclPermission,
}

impl fmt::Display for AclEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (permission, operation) = (self.permission.name(), self.operation.name());
        write!(f, "{} {permission} {operation} on {}", self.principal, self.resource)
    }
}

/// Why the authorizer decided as it did (`StandardAuthorizerData`'s matching rules).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The principal is in `super.users` (`SuperUserRule`).
    SuperUser,
    /// An ACL matched; a DENY wins over any ALLOW.
    Acl(AclEntry),
    /// No ACL matched: denied (`allow.everyone.if.no.acl.found` is false by default).
    NoAclFound,
}

impl Decision {
    /// The verdict in a word.
    pub fn verdict(&self) -> &'static str {
        if self.allowed() { "ALLOWED" } else { "DENIED" }
    }

    pub fn allowed(&self) -> bool {
        match self {
            Decision::SuperUser => true,
            Decision::Acl(acl) => acl.permission == AclPermission::Allow,
            Decision::NoAclFound => false,
        }
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Decision::SuperUser => write!(f, "a super user"),
            Decision::Acl(acl) => write!(f, "by the ACL {acl}"),
            Decision::NoAclFound => write!(f, "no ACL matches"),
        }
    }
}

/// A request the authorizer refused: Kafka answers TOPIC_AUTHORIZATION_FAILED for a topic,
/// CLUSTER_AUTHORIZATION_FAILED for the cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Denied {
    pub principal: String,
    pub operation: AclOperation,
    pub resource: AclResource,
    pub decision: Decision,
}

impl fmt::Display for Denied {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (error, what) = match &self.resource {
            AclResource::Topic(name) => ("TOPIC_AUTHORIZATION_FAILED", format!("topic {name}")),
            AclResource::Cluster => ("CLUSTER_AUTHORIZATION_FAILED", "the cluster".to_string()),
        };
        write!(f, "{error}: {} may not {} {what} ({})", self.principal, self.operation.name(), self.decision)
    }
}

/// `StandardAuthorizerData.authorize`: a super user may do anything; otherwise the ACLs on the
/// resource for the principal (or `User:*`) decide, a DENY over any ALLOW (`findAclRule`), and an
/// ALLOW of DELETE, ALTER, READ or WRITE implies DESCRIBE (`findResult`, `IMPLIES_DESCRIBE`).
pub fn authorize<'a>(
    acls: impl Iterator<Item = &'a AclEntry>,
    principal: &str,
    operation: AclOperation,
    resource: &AclResource,
) -> Decision {
    if principal == SUPER_USER {
        return Decision::SuperUser;
    }
    let mut allowed = None;
    for acl in
        acls.filter(|a| &a.resource == resource && (&*a.principal == principal || &*a.principal == "User:*"))
    {
        let matches = acl.operation == AclOperation::All
            || acl.operation == operation
            || (acl.permission == AclPermission::Allow
                && operation == AclOperation::Describe
                && matches!(acl.operation, AclOperation::Delete | AclOperation::Alter));
        match (matches, acl.permission) {
            (true, AclPermission::Deny) => return Decision::Acl(acl.clone()),
            (true, AclPermission::Allow) => allowed = allowed.or_else(|| Some(acl.clone())),
            (false, _) => {}
        }
    }
    allowed.map_or(Decision::NoAclFound, Decision::Acl)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acl(principal: &str, operation: AclOperation, permission: AclPermission, topic: &str) -> AclEntry {
        AclEntry {
            principal: principal.into(),
            resource: AclResource::Topic(topic.into()),
            operation,
            permission,
        }
    }

    #[test]
    fn the_standard_authorizers_rules() {
        let orders = AclResource::Topic("orders".into());
        let acls = [
            acl("User:alice", AclOperation::Delete, AclPermission::Allow, "orders"),
            acl("User:bob", AclOperation::All, AclPermission::Allow, "orders"),
            acl("User:bob", AclOperation::Delete, AclPermission::Deny, "orders"),
            acl("User:*", AclOperation::Describe, AclPermission::Allow, "payments"),
        ];
        let decide = |who: &str, op, on: &AclResource| authorize(acls.iter(), who, op, on);
        assert_eq!(decide(SUPER_USER, AclOperation::Delete, &orders), Decision::SuperUser);
        assert!(decide("User:alice", AclOperation::Delete, &orders).allowed());
        assert!(decide("User:alice", AclOperation::Describe, &orders).allowed(), "DELETE implies DESCRIBE");
        assert!(!decide("User:alice", AclOperation::Alter, &orders).allowed());
        assert_eq!(
            decide("User:bob", AclOperation::Delete, &orders),
            Decision::Acl(acls[2].clone()),
            "DENY wins"
        );
        assert!(decide("User:bob", AclOperation::Alter, &orders).allowed(), "ALL allows");
        assert_eq!(decide("User:mallory", AclOperation::Delete, &orders), Decision::NoAclFound);
        let payments = AclResource::Topic("payments".into());
        assert!(decide("User:mallory", AclOperation::Describe, &payments).allowed(), "User:* matches anyone");
        assert!(!decide("User:alice", AclOperation::Delete, &AclResource::Cluster).allowed());
    }
}

//! ZooKeeper mode's two doors beside KRaft's one, as a table: for each aspect, what Kafka 2.4
//! in ZooKeeper mode and Kafka 4.3.1 in KRaft mode do, each with the documentation section or
//! the class it was read from.

/// One row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SurfaceRow {
    pub aspect: &'static str,
    pub zookeeper_mode: &'static str,
    pub zookeeper_source: &'static str,
    pub kraft: &'static str,
    pub kraft_source: &'static str,
}

/// The rows, from where metadata can be changed to what must be secured on its own.
pub const SURFACE: [SurfaceRow; 6] = [
    SurfaceRow {
        aspect: "Where metadata can be changed from",
        zookeeper_mode: "Kafka's listeners, and any client that reaches ZooKeeper: it writes the znodes the controller and the brokers obey, and no Kafka authorizer sees the write",
        zookeeper_source: "Kafka 2.4 docs 7.4 (kafka-acls.sh --authorizer-properties zookeeper.connect=...); AclCommand.AuthorizerService",
        kraft: "Only requests to the active controller, sent to it or forwarded by a broker, each authorized for the client's principal",
        kraft_source: "Kafka 4.3.1 docs, Authorization and ACLs (Envelope forwarding); KafkaApis.forwardToController, ControllerApis",
    },
    SurfaceRow {
        aspect: "Where ACLs live",
        zookeeper_mode: "Znodes under /kafka-acl, with change notifications under /kafka-acl-changes that each broker's authorizer loads",
        zookeeper_source: "ZkData.scala (ZkAclStore, LiteralAclChangeStore); AclAuthorizer.AclChangedNotificationHandler",
        kraft: "AccessControlEntryRecords in the __cluster_metadata log, replayed by every node",
        kraft_source: "AclControlManager, StandardAuthorizer; AccessControlEntryRecord.json",
    },
    SurfaceRow {
        aspect: "Where SCRAM credentials live",
        zookeeper_mode: "Znodes under /config/users, written by kafka-configs.sh --zookeeper",
        zookeeper_source: "Kafka 2.4 docs 7.3, Authentication using SASL/SCRAM (credentials stored in ZooKeeper)",
        kraft: "UserScramCredentialRecords in the metadata log",
        kraft_source: "Kafka 4.3.1 docs, Authentication using SASL (credentials in the metadata log); ScramControlManager",
    },
    SurfaceRow {
        aspect: "Where delegation tokens live",
        zookeeper_mode: "Znodes under /delegation_token/tokens",
        zookeeper_source: "ZkData.scala (DelegationTokensZNode); DelegationTokenManager",
        kraft: "DelegationTokenRecords in the metadata log",
        kraft_source: "DelegationTokenControlManager; DelegationTokenRecord.json",
    },
    SurfaceRow {
        aspect: "Ports to protect",
        zookeeper_mode: "Kafka's listeners, and ZooKeeper's client port (2181) and its quorum and election ports (2888, 3888)",
        zookeeper_source: "Kafka 2.4 docs 7.6 ZooKeeper Authentication; ZooKeeper Administrator's Guide (clientPort, server.N=host:2888:3888)",
        kraft: "Kafka's listeners, the controllers' on a listener of their own",
        kraft_source: "Kafka 4.3.1 docs, Listener configuration (controller.listener.names)",
    },
    SurfaceRow {
        aspect: "Secured on its own",
        zookeeper_mode: "ZooKeeper: its own SASL authentication (the JAAS Client section), zookeeper.set.acl=true (default false: znodes world-writable) and zookeeper-security-migration.sh for znodes already made",
        zookeeper_source: "Kafka 2.4 docs 7.6 ZooKeeper Authentication; KafkaConfig (zookeeper.set.acl)",
        kraft: "Nothing outside Kafka: the controller listener uses Kafka's own security protocols, and its requests Kafka's authorizer",
        kraft_source: "Kafka 4.3.1 docs, Listener configuration and Authorization and ACLs",
    },
];

#[cfg(test)]
mod tests {
    use super::SURFACE;

    /// Every row names a source on each side: a documentation section or a class (a name in
    /// CamelCase), and each aspect appears once.
    #[test]
    fn every_row_names_its_sources() {
        let names_a_source = |source: &str| {
            source.contains("docs")
                || source.split(|c: char| !c.is_alphanumeric()).any(|word| {
                    word.len() > 3
                        && word.chars().next().is_some_and(char::is_uppercase)
                        && word.chars().skip(1).any(char::is_uppercase)
                })
        };
        for row in SURFACE {
            assert!(names_a_source(row.zookeeper_source), "{}: {}", row.aspect, row.zookeeper_source);
            assert!(names_a_source(row.kraft_source), "{}: {}", row.aspect, row.kraft_source);
            assert!(!row.zookeeper_mode.is_empty() && !row.kraft.is_empty(), "{}", row.aspect);
        }
        let mut aspects: Vec<&str> = SURFACE.iter().map(|r| r.aspect).collect();
        aspects.dedup();
        assert_eq!(aspects.len(), SURFACE.len());
    }
}

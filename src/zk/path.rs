//! The znode paths ZooKeeper-mode Kafka uses, and how a cluster's topic partitions map onto the
//! `/brokers/topics/<t>/partitions/<p>/state` znodes by a compact global partition index.

use std::fmt;

use super::partition::BrokerId;

/// Topics named `topic-<n>`, each with the same partition count but the last, which holds
/// what is left; partition `p` of topic `t` has global index `t * partitions_per_topic + p`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TopicLayout {
    topics: u32,
    partitions_per_topic: u32,
    partitions: u32,
}

impl TopicLayout {
    /// `topics` topics of `partitions_per_topic` partitions each, or `None` when it is
    /// empty-per-topic or exceeds `u32` partition indexes.
    pub(crate) fn new(topics: u32, partitions_per_topic: u32) -> Option<TopicLayout> {
        let total = u64::from(topics) * u64::from(partitions_per_topic);
        TopicLayout::up_to(u32::try_from(total).ok()?, partitions_per_topic)
            .filter(|layout| layout.topics == topics)
    }

    /// `partitions` partitions in topics of `partitions_per_topic` (the last one holding the
    /// rest), or `None` when a topic would have none.
    pub(crate) fn up_to(partitions: u32, partitions_per_topic: u32) -> Option<TopicLayout> {
        (partitions_per_topic > 0).then(|| TopicLayout {
            topics: partitions.div_ceil(partitions_per_topic),
            partitions_per_topic,
            partitions,
        })
    }

    /// Number of topics.
    pub(crate) fn topics(&self) -> u32 {
        self.topics
    }

    /// Partitions in every topic but the last (which may hold fewer).
    pub(crate) fn partitions_per_topic(&self) -> u32 {
        self.partitions_per_topic
    }

    /// Partitions in `topic` (none past the last).
    pub(crate) fn partitions_in(&self, topic: u32) -> u32 {
        let before = u64::from(topic) * u64::from(self.partitions_per_topic);
        (u64::from(self.partitions).saturating_sub(before)).min(u64::from(self.partitions_per_topic)) as u32
    }

    /// Total number of partitions.
    pub(crate) fn partitions(&self) -> u32 {
        self.partitions
    }

    /// Global index of a partition, if it exists.
    pub(crate) fn index(&self, topic: u32, partition: u32) -> Option<usize> {
        (partition < self.partitions_in(topic))
            .then(|| topic as usize * self.partitions_per_topic as usize + partition as usize)
    }

    /// The `(topic, partition)` of a global index.
    pub(crate) fn locate(&self, index: u32) -> (u32, u32) {
        (index / self.partitions_per_topic, index % self.partitions_per_topic)
    }

    /// The state znode of a global index.
    pub fn state_path(&self, index: u32) -> ZnodePath {
        let (topic, partition) = self.locate(index);
        ZnodePath::PartitionState { topic, partition }
    }
}

/// A znode ZooKeeper-mode Kafka reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ZnodePath {
    /// `/controller`: ephemeral, holds the active controller's broker id.
    Controller,
    /// `/controller_epoch`: bumped by every new controller.
    ControllerEpoch,
    /// `/brokers/ids`: parent of the broker registrations.
    BrokerIds,
    /// `/brokers/ids/<id>`: ephemeral registration of a live broker.
    BrokerId(BrokerId),
    /// `/brokers/topics`: parent of the topics.
    Topics,
    /// `/brokers/topics/topic-<n>`: the topic's replica assignment.
    Topic(u32),
    /// `/brokers/topics/topic-<n>/partitions/<p>/state`: leader, ISR and epochs.
    PartitionState { topic: u32, partition: u32 },
    /// `/isr_change_notification`: parent of the leaders' ISR change notifications.
    IsrChangeNotifications,
    /// `/isr_change_notification/isr_change_<n>`: a persistent sequential znode naming the
    /// partitions whose ISR one leader changed.
    IsrChangeNotification(u32),
    /// `/migration`: where a migration to KRaft stands (Kafka 3.4 to 3.9).
    Migration,
    /// `/kafka-acl/Topic`: parent of the topics' literal ACLs (the `/kafka-acl` level above it is
    /// not modelled).
    TopicAcls,
    /// `/kafka-acl/Topic/topic-<n>`: one topic's ACLs (`ZkAclStore`, 2.4).
    TopicAcl(u32),
    /// `/kafka-acl-changes`: parent of the ACL change notifications (`LiteralAclChangeStore`).
    AclChanges,
    /// `/kafka-acl-changes/acl_changes_<n>`: a persistent sequential znode naming the resource
    /// whose ACLs changed.
    AclChange(u32),
}

impl ZnodePath {
    /// The parent znode whose children watch sees this one come and go (`None` under the root).
    /// A partition's parent is given as its topic; the `partitions/<p>` levels are not modelled.
    pub(crate) fn parent(&self) -> Option<ZnodePath> {
        match self {
            ZnodePath::Controller | ZnodePath::ControllerEpoch | ZnodePath::Migration => None,
            ZnodePath::BrokerIds | ZnodePath::Topics | ZnodePath::IsrChangeNotifications => None,
            ZnodePath::TopicAcls | ZnodePath::AclChanges => None,
            ZnodePath::TopicAcl(_) => Some(ZnodePath::TopicAcls),
            ZnodePath::AclChange(_) => Some(ZnodePath::AclChanges),
            ZnodePath::BrokerId(_) => Some(ZnodePath::BrokerIds),
            ZnodePath::Topic(_) => Some(ZnodePath::Topics),
            ZnodePath::PartitionState { topic, .. } => Some(ZnodePath::Topic(*topic)),
            ZnodePath::IsrChangeNotification(_) => Some(ZnodePath::IsrChangeNotifications),
        }
    }
}

impl fmt::Display for ZnodePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ZnodePath::Controller => write!(f, "/controller"),
            ZnodePath::ControllerEpoch => write!(f, "/controller_epoch"),
            ZnodePath::BrokerIds => write!(f, "/brokers/ids"),
            ZnodePath::BrokerId(id) => write!(f, "/brokers/ids/{id}"),
            ZnodePath::Topics => write!(f, "/brokers/topics"),
            ZnodePath::Topic(t) => write!(f, "/brokers/topics/topic-{t}"),
            ZnodePath::PartitionState { topic, partition } => {
                write!(f, "/brokers/topics/topic-{topic}/partitions/{partition}/state")
            }
            ZnodePath::IsrChangeNotifications => write!(f, "/isr_change_notification"),
            ZnodePath::IsrChangeNotification(n) => write!(f, "/isr_change_notification/isr_change_{n:010}"),
            ZnodePath::Migration => write!(f, "/migration"),
            ZnodePath::TopicAcls => write!(f, "/kafka-acl/Topic"),
            ZnodePath::TopicAcl(t) => write!(f, "/kafka-acl/Topic/topic-{t}"),
            ZnodePath::AclChanges => write!(f, "/kafka-acl-changes"),
            ZnodePath::AclChange(n) => write!(f, "/kafka-acl-changes/acl_changes_{n:010}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn global_index_round_trips_through_topic_and_partition() {
        let layout = TopicLayout::new(10, 4).expect("valid layout");
        assert_eq!(layout.index(3, 2), Some(14));
        assert_eq!(layout.locate(14), (3, 2));
        assert_eq!(layout.index(10, 0), None);
        assert_eq!(layout.state_path(14).to_string(), "/brokers/topics/topic-3/partitions/2/state");
    }

    #[test]
    fn rejects_topics_without_partitions_and_index_overflow() {
        assert!(TopicLayout::new(5, 0).is_none());
        let ragged = TopicLayout::up_to(2_500, 1_000).expect("valid layout");
        assert_eq!((ragged.topics(), ragged.partitions(), ragged.partitions_in(2)), (3, 2_500, 500));
        assert_eq!(
            (ragged.index(2, 499), ragged.index(2, 500), ragged.index(3, 0)),
            (Some(2_499), None, None)
        );
        assert!(TopicLayout::new(u32::MAX, 2).is_none());
    }
}

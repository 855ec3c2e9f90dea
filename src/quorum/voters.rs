//! The voter set of a dynamic quorum (KIP-853, Kafka 4.3.1's `VoterSet` and `ReplicaKey`):
//! voters named by node id and metadata-log directory id, changed one voter at a time by a
//! VotersRecord in the log, and the `kraft.version` that says whether it may change at all.

use std::fmt;
use std::sync::Arc;

use super::NodeId;
use crate::util::hash::mix;

/// A metadata log directory's `directory.id` (a random UUID in Kafka's `meta.properties`; 64
/// bits here, derived from the node id and how many times its disk was formatted).
pub type DirectoryId = u64;

/// `kraft.version` (Kafka's `KRaftVersion`): 0 is a static voter set from
/// `controller.quorum.voters`, 1 a reconfigurable one kept in the log.
pub type KRaftVersion = u8;

/// The highest `kraft.version` (`KRaftVersion.LATEST_PRODUCTION`).
pub const LATEST_KRAFT_VERSION: KRaftVersion = 1;

/// The directory id a node's `kafka-storage format` writes on its `format`-th format (0 for the
/// first). Deterministic, so formatting draws nothing from the simulation's random stream.
pub(crate) fn directory_id(node: NodeId, format: u32) -> DirectoryId {
    mix(0xD1_5C00_0000_0000 ^ (u64::from(node) << 20) ^ u64::from(format))
}

/// Kafka's `ReplicaKey`: a replica's id and, where known, its directory id. A voter entry
/// without a directory id (a static `controller.quorum.voters` set) matches any directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ReplicaKey {
    pub id: NodeId,
    pub dir: Option<DirectoryId>,
}

impl ReplicaKey {
    /// `VoterNode.isVoter`: the ids match, and the directories too when this entry names one.
    pub(crate) fn matches(&self, replica: ReplicaKey) -> bool {
        self.id == replica.id && (self.dir.is_none() || self.dir == replica.dir)
    }
}

impl fmt::Display for ReplicaKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.dir {
            Some(dir) => write!(f, "n{} (dir {})", self.id, short_dir(dir)),
            None => write!(f, "n{}", self.id),
        }
    }
}

/// The first four hex digits of a directory id: enough to tell two formats of one node apart.
pub(crate) fn short_dir(dir: DirectoryId) -> String {
    format!("{:04x}", dir >> 48)
}

/// A set of voters, ordered by id, at most one entry per id (Kafka's `VoterSet`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VoterSet {
    voters: Arc<[ReplicaKey]>,
}

impl VoterSet {
    /// A set from keys; later duplicates of an id are dropped.
    pub fn new(keys: impl IntoIterator<Item = ReplicaKey>) -> VoterSet {
        let mut voters: Vec<ReplicaKey> = keys.into_iter().collect();
        crate::util::sort::sort_by_key(&mut voters, |k| k.id);
        voters.dedup_by_key(|k| k.id);
        VoterSet { voters: voters.into() }
    }

    /// `controller.quorum.voters`: ids without directories (`VoterSet.fromInetSocketAddresses`).
    pub(crate) fn from_static(ids: &[NodeId]) -> VoterSet {
        VoterSet::new(ids.iter().map(|&id| ReplicaKey { id, dir: None }))
    }

    /// The voters, by id.
    pub(crate) fn keys(&self) -> &[ReplicaKey] {
        &self.voters
    }

    /// The voters' ids, ascending.
    pub fn ids(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.voters.iter().map(|k| k.id)
    }

    pub fn len(&self) -> usize {
        self.voters.len()
    }

    pub fn is_empty(&self) -> bool {
        self.voters.is_empty()
    }

    /// Voters needed for a majority.
    pub(crate) fn majority(&self) -> usize {
        self.voters.len() / 2 + 1
    }

    /// `VoterSet.isVoter`: whether this replica (id and directory) is one of the voters.
    pub(crate) fn is_voter(&self, replica: ReplicaKey) -> bool {
        self.voters.iter().any(|k| k.matches(replica))
    }

    /// Whether a voter has this id, whatever its directory.
    pub(crate) fn has_id(&self, id: NodeId) -> bool {
        self.voters.iter().any(|k| k.id == id)
    }

    /// The voter entry with this id.
    pub fn key_of(&self, id: NodeId) -> Option<ReplicaKey> {
        self.voters.iter().copied().find(|k| k.id == id)
    }

    /// `VoterSet.addVoter`: the set with `key` added, unless a voter already has its id.
    pub(crate) fn with_voter(&self, key: ReplicaKey) -> Option<VoterSet> {
        (!self.has_id(key.id)).then(|| VoterSet::new(self.voters.iter().copied().chain([key])))
    }

    /// `VoterSet.removeVoter`: the set without `key`, which must match an entry exactly, and
    /// never the last voter.
    pub(crate) fn without_voter(&self, key: ReplicaKey) -> Option<VoterSet> {
        let present = self.voters.contains(&key);
        (present && self.voters.len() > 1)
            .then(|| VoterSet::new(self.voters.iter().copied().filter(|k| *k != key)))
    }

    /// `VoterSet.updateVoter` (`ignoring_dir`: `updateVoterIgnoringDirectoryId`, at
    /// kraft.version 0): the set with the entry for `key` replaced by `key`, if there is one.
    pub(crate) fn with_updated_voter(&self, key: ReplicaKey, ignoring_dir: bool) -> Option<VoterSet> {
        let found = self.voters.iter().any(|k| k.id == key.id && (ignoring_dir || k.matches(key)));
        found.then(|| VoterSet::new(self.voters.iter().map(|k| if k.id == key.id { key } else { *k })))
    }

    /// Whether every voter's directory id is known: at kraft.version 0, every voter has sent
    /// this leader UpdateRaftVoter (a static entry has neither a directory nor a supported
    /// kraft.version range above 0, `LeaderState.maybeAppendUpgradedKRaftVersion`).
    pub(crate) fn all_directories_known(&self) -> bool {
        self.voters.iter().all(|k| k.dir.is_some())
    }

    /// `VoterSet.hasOverlappingMajority`: at most one voter added and at most one removed, so
    /// any majority of one set meets any majority of the other.
    pub(crate) fn has_overlapping_majority(&self, other: &VoterSet) -> bool {
        let only_in = |a: &VoterSet, b: &VoterSet| a.voters.iter().filter(|k| !b.voters.contains(k)).count();
        only_in(self, other) <= 1 && only_in(other, self) <= 1
    }

    /// Serialized size of a VotersRecord holding this set (id, directory id, one endpoint and
    /// the supported kraft.version range per voter).
    pub(crate) fn size_bytes(&self) -> u64 {
        8 + 40 * self.voters.len() as u64
    }

    /// A stable fingerprint of the set.
    pub(crate) fn fingerprint(&self) -> u64 {
        self.voters
            .iter()
            .fold(0x564F_5445_5253_0000, |h, k| mix(h ^ u64::from(k.id) ^ k.dir.unwrap_or(0).rotate_left(17)))
    }
}

impl fmt::Display for VoterSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, key) in self.voters.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{key}")?;
        }
        f.write_str("}")
    }
}

/// How a node finds the quorum: the static `controller.quorum.voters` (empty for a dynamic
/// quorum, whose voters come from the log) and `controller.quorum.bootstrap.servers`, the
/// controllers an observer or a new controller asks who leads (`KafkaRaftClient.initialize`).
#[derive(Clone, Debug, PartialEq)]
pub struct QuorumSetup {
    pub static_voters: VoterSet,
    pub bootstrap_servers: Arc<[NodeId]>,
}

impl QuorumSetup {
    /// A static quorum: `controller.quorum.voters` names every voter, which are also the
    /// servers to ask.
    pub fn fixed(ids: &[NodeId]) -> QuorumSetup {
        QuorumSetup { static_voters: VoterSet::from_static(ids), bootstrap_servers: ids.into() }
    }
}

#[cfg(test)]
mod tests {
    use super::{ReplicaKey, VoterSet};

    fn key(id: u32, dir: u64) -> ReplicaKey {
        ReplicaKey { id, dir: Some(dir) }
    }

    #[test]
    fn a_static_entry_matches_any_directory_a_dynamic_one_only_its_own() {
        let set = VoterSet::new([ReplicaKey { id: 1, dir: None }, key(2, 20)]);
        assert!(set.is_voter(key(1, 99)));
        assert!(set.is_voter(key(2, 20)));
        assert!(!set.is_voter(key(2, 21)), "a re-formatted disk is not the voter");
        assert!(!set.is_voter(key(3, 30)));
    }

    #[test]
    fn adding_and_removing_follow_kafka_preconditions() {
        let set = VoterSet::new([key(1, 10), key(2, 20)]);
        assert_eq!(set.with_voter(key(2, 21)), None, "DUPLICATE_VOTER is by id");
        assert_eq!(set.with_voter(key(3, 30)).map(|s| s.len()), Some(3));
        assert_eq!(set.without_voter(key(2, 21)), None, "removal needs the exact key");
        let one = set.without_voter(key(2, 20)).unwrap();
        assert_eq!(one.with_updated_voter(key(1, 11), false), None, "updateVoter needs the same directory");
        assert_eq!(
            one.with_updated_voter(key(1, 11), true).map(|s| s.keys().to_vec()),
            Some(vec![key(1, 11)])
        );
        assert_eq!(one.with_updated_voter(key(3, 30), true), None, "VOTER_NOT_FOUND");
        assert_eq!(one.without_voter(key(1, 10)), None, "the last voter stays");
    }

    #[test]
    fn majorities_overlap_only_for_single_changes() {
        let three = VoterSet::new([key(1, 10), key(2, 20), key(3, 30)]);
        let four = three.with_voter(key(4, 40)).unwrap();
        let five = four.with_voter(key(5, 50)).unwrap();
        assert!(three.has_overlapping_majority(&four));
        assert!(!three.has_overlapping_majority(&five));
        let replaced = three.without_voter(key(3, 30)).unwrap().with_voter(key(3, 31)).unwrap();
        assert!(three.has_overlapping_majority(&replaced), "one out, one in");
        assert_eq!(three.majority(), 2);
        assert_eq!(four.majority(), 3, "four voters need three: no more failures tolerated than three");
    }
}

//! Sets of brokers as one bitmask: what ISRs and replica sets are made of, compact enough for
//! millions of partitions. Shared by the KRaft metadata image and the ZooKeeper-mode model.

use std::fmt;

/// A Kafka broker id (`broker.id`).
pub type BrokerId = u32;

/// Brokers are numbered `0..MAX_BROKERS`; sets of them fit in one `u32`.
pub const MAX_BROKERS: u32 = 32;

/// A set of broker ids, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct BrokerSet(u32);

impl BrokerSet {
    /// No brokers.
    pub const EMPTY: BrokerSet = BrokerSet(0);

    /// Whether `broker` is in the set.
    pub fn contains(self, broker: BrokerId) -> bool {
        broker < MAX_BROKERS && self.0 & (1 << broker) != 0
    }

    /// The set plus `broker` (ids at or above [`MAX_BROKERS`] are ignored).
    pub(crate) fn with(self, broker: BrokerId) -> BrokerSet {
        if broker < MAX_BROKERS { BrokerSet(self.0 | 1 << broker) } else { self }
    }

    /// The set minus `broker`.
    pub(crate) fn without(self, broker: BrokerId) -> BrokerSet {
        if broker < MAX_BROKERS { BrokerSet(self.0 & !(1 << broker)) } else { self }
    }

    /// The raw bitmask.
    pub(crate) fn bits(self) -> u64 {
        u64::from(self.0)
    }

    /// Brokers in both sets.
    pub(crate) fn intersection(self, other: BrokerSet) -> BrokerSet {
        BrokerSet(self.0 & other.0)
    }

    /// The brokers in either set.
    pub(crate) fn union(self, other: BrokerSet) -> BrokerSet {
        BrokerSet(self.0 | other.0)
    }

    /// Brokers in `self` but not in `other`.
    pub(crate) fn difference(self, other: BrokerSet) -> BrokerSet {
        BrokerSet(self.0 & !other.0)
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of brokers in the set.
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The brokers in ascending id order.
    pub(crate) fn iter(self) -> impl Iterator<Item = BrokerId> {
        (0..MAX_BROKERS).filter(move |b| self.contains(*b))
    }
}

impl FromIterator<BrokerId> for BrokerSet {
    fn from_iter<I: IntoIterator<Item = BrokerId>>(iter: I) -> Self {
        iter.into_iter().fold(BrokerSet::EMPTY, BrokerSet::with)
    }
}

impl fmt::Display for BrokerSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ids: Vec<String> = self.iter().map(|b| b.to_string()).collect();
        write!(f, "[{}]", ids.join(","))
    }
}

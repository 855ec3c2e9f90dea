//! A topic's partitions as a struct of arrays, in chunks shared between image versions: 21
//! bytes a partition in the columns (about 22 with the chunks' overhead), and copying an image copies only chunk handles (a changed partition
//! copies its chunk), as Kafka's images share structure between versions. So millions of
//! partitions fit in a browser tab, and every node of a simulated cluster can hold them. The
//! eligible leader replicas (KIP-966), which only a partition whose ISR fell below
//! `min.insync.replicas` has, are kept aside by index.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::util::broker_set::BrokerSet;

use super::record::Replicas;

/// Partitions per chunk.
const CHUNK: usize = 1024;

/// One partition's state, read out of the columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Partition {
    pub replicas: Replicas,
    pub isr: BrokerSet,
    pub leader: i32,
    pub leader_epoch: u32,
    pub partition_epoch: u32,
    /// `EligibleLeaderReplicas` (KIP-966): replicas that left an ISR smaller than
    /// `min.insync.replicas` and may still lead once the ISR is empty.
    pub elr: BrokerSet,
    /// `LastKnownElr`: here (Kafka 4.3.1 elects the last known leader in a balanced recovery)
    /// the leader the partition had when it last became leaderless.
    pub last_known_elr: BrokerSet,
}

/// Up to [`CHUNK`] partitions, one column per field.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Chunk {
    leader: Vec<i32>,
    leader_epoch: Vec<u32>,
    partition_epoch: Vec<u32>,
    replicas: Vec<Replicas>,
    isr: Vec<BrokerSet>,
}

impl Chunk {
    fn get(&self, i: usize) -> Option<Partition> {
        Some(Partition {
            replicas: *self.replicas.get(i)?,
            isr: self.isr[i],
            leader: self.leader[i],
            leader_epoch: self.leader_epoch[i],
            partition_epoch: self.partition_epoch[i],
            elr: BrokerSet::EMPTY,
            last_known_elr: BrokerSet::EMPTY,
        })
    }

    fn push(&mut self, p: Partition) {
        self.leader.push(p.leader);
        self.leader_epoch.push(p.leader_epoch);
        self.partition_epoch.push(p.partition_epoch);
        self.replicas.push(p.replicas);
        self.isr.push(p.isr);
    }

    fn set(&mut self, i: usize, p: Partition) {
        self.leader[i] = p.leader;
        self.leader_epoch[i] = p.leader_epoch;
        self.partition_epoch[i] = p.partition_epoch;
        self.replicas[i] = p.replicas;
        self.isr[i] = p.isr;
    }
}

/// The partitions of one topic, indexed from 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartitionColumns {
    chunks: Vec<Arc<Chunk>>,
    len: usize,
    /// The ELR and last known ELR of the partitions that have either, by index.
    eligible: Arc<BTreeMap<usize, (BrokerSet, BrokerSet)>>,
}

impl PartitionColumns {
    /// Partitions held.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Partition `index`.
    pub(crate) fn get(&self, index: usize) -> Option<Partition> {
        let p = self.chunks.get(index / CHUNK)?.get(index % CHUNK)?;
        Some(self.with_eligible(index, p))
    }

    /// `p`, partition `index`, with its ELR fields.
    fn with_eligible(&self, index: usize, p: Partition) -> Partition {
        match self.eligible.get(&index) {
            Some(&(elr, last_known_elr)) => Partition { elr, last_known_elr, ..p },
            None => p,
        }
    }

    /// Keep partition `index`'s ELR fields (copying the map if another image version shares it).
    fn set_eligible(&mut self, index: usize, p: &Partition) {
        if !p.elr.is_empty() || !p.last_known_elr.is_empty() {
            Arc::make_mut(&mut self.eligible).insert(index, (p.elr, p.last_known_elr));
        } else if self.eligible.contains_key(&index) {
            Arc::make_mut(&mut self.eligible).remove(&index);
        }
    }

    /// Append partition `self.len()`.
    pub(crate) fn push(&mut self, p: Partition) {
        if self.len.is_multiple_of(CHUNK) {
            self.chunks.push(Arc::default());
        }
        if let Some(last) = self.chunks.last_mut() {
            Arc::make_mut(last).push(p);
            self.set_eligible(self.len, &p);
            self.len += 1;
        }
    }

    /// Overwrite partition `index` (copying its chunk if another image version shares it).
    pub(crate) fn set(&mut self, index: usize, p: Partition) {
        if let Some(chunk) = self.chunks.get_mut(index / CHUNK) {
            Arc::make_mut(chunk).set(index % CHUNK, p);
            self.set_eligible(index, &p);
        }
    }

    /// Every partition's leader, in index order.
    pub fn leaders(&self) -> impl Iterator<Item = i32> + '_ {
        self.chunks.iter().flat_map(|c| c.leader.iter().copied())
    }

    /// The partitions `leader` leads whose ISR lacks a replica in `active`, with their index:
    /// a broker's ISR scan at millions of partitions, so it reads the columns in place and
    /// builds a [`Partition`] only for those it yields.
    pub(crate) fn led_by_lacking(
        &self,
        leader: i32,
        active: BrokerSet,
    ) -> impl Iterator<Item = (usize, Partition)> + '_ {
        self.chunks.iter().enumerate().flat_map(move |(c, chunk)| {
            let columns = chunk.leader.iter().zip(&chunk.replicas).zip(&chunk.isr).enumerate();
            let lacking = columns.filter(move |(_, ((l, replicas), isr))| {
                **l == leader && !replicas.set().intersection(active).difference(**isr).is_empty()
            });
            lacking.filter_map(move |(i, _)| {
                let index = c * CHUNK + i;
                Some((index, self.with_eligible(index, chunk.get(i)?)))
            })
        })
    }

    /// Every partition in index order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = Partition> + '_ {
        self.chunks.iter().enumerate().flat_map(move |(c, chunk)| {
            (0..chunk.leader.len())
                .filter_map(move |i| Some(self.with_eligible(c * CHUNK + i, chunk.get(i)?)))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{CHUNK, Partition, PartitionColumns};
    use crate::metadata::record::Replicas;
    use crate::util::broker_set::BrokerSet;

    fn partition(leader: i32) -> Partition {
        Partition {
            replicas: Replicas::new(&[101]),
            isr: BrokerSet::EMPTY,
            leader,
            leader_epoch: 0,
            partition_epoch: 0,
            elr: BrokerSet::EMPTY,
            last_known_elr: BrokerSet::EMPTY,
        }
    }

    #[test]
    fn the_isr_scan_finds_only_led_partitions_lacking_an_active_replica() {
        use crate::metadata::record::broker_set;
        let (a, ab) = (broker_set([101]), broker_set([101, 102]));
        let mut columns = PartitionColumns::default();
        for i in 0..(2 * CHUNK + 5) {
            let isr = if i % 3 == 0 { a } else { ab };
            let leader = if i % 2 == 0 { 101 } else { 102 };
            columns.push(Partition { replicas: Replicas::new(&[101, 102]), isr, ..partition(leader) });
        }
        let found: Vec<usize> = columns.led_by_lacking(101, ab).map(|(i, _)| i).collect();
        let expected: Vec<usize> = (0..2 * CHUNK + 5).filter(|i| i % 6 == 0).collect();
        assert_eq!(found, expected, "led by 101 (even) and missing 102 from the ISR (multiples of 3)");
        assert_eq!(columns.led_by_lacking(101, a).count(), 0, "102 inactive: nothing is missing");
        assert_eq!(columns.led_by_lacking(101, ab).next().unwrap().1.isr, a);
    }

    #[test]
    fn a_copy_shares_chunks_until_one_changes() {
        let mut a = PartitionColumns::default();
        for i in 0..(CHUNK as i32 + 10) {
            a.push(partition(i));
        }
        let mut b = a.clone();
        b.set(3, partition(-1));
        assert_eq!(a.get(3).unwrap().leader, 3);
        assert_eq!(b.get(3).unwrap().leader, -1);
        assert!(std::sync::Arc::ptr_eq(&a.chunks[1], &b.chunks[1]), "the untouched chunk is shared");
        assert!(!std::sync::Arc::ptr_eq(&a.chunks[0], &b.chunks[0]), "the changed chunk was copied");
        assert_eq!(b.leaders().count(), CHUNK + 10);
    }

    #[test]
    fn the_eligible_leader_replicas_are_kept_by_index_and_shared_until_one_changes() {
        use crate::metadata::record::broker_set;
        let mut a = PartitionColumns::default();
        for i in 0..(CHUNK as i32 + 10) {
            a.push(partition(i));
        }
        let offline = Partition {
            leader: -1,
            isr: BrokerSet::EMPTY,
            elr: broker_set([101]),
            last_known_elr: broker_set([101]),
            ..partition(0)
        };
        let mut b = a.clone();
        b.set(CHUNK + 3, offline);
        assert_eq!(b.get(CHUNK + 3), Some(offline));
        assert_eq!(b.iter().nth(CHUNK + 3), Some(offline), "the iterator reads them too");
        assert_eq!(a.get(CHUNK + 3).unwrap().elr, BrokerSet::EMPTY, "the older version keeps none");
        b.set(CHUNK + 3, partition(7));
        assert_eq!(
            b.get(CHUNK + 3).unwrap().elr,
            BrokerSet::EMPTY,
            "cleared when the partition is led again"
        );
        assert!(b.eligible.is_empty());
    }
}

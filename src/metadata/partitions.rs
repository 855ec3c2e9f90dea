//! The partitions of a metadata image as a struct of arrays: about 21 bytes a partition, so
//! millions of partitions fit in a browser tab.

use crate::broker_set::BrokerSet;

use super::record::Replicas;

/// One partition's state, read out of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Partition {
    pub replicas: Replicas,
    pub isr: BrokerSet,
    pub leader: i32,
    pub leader_epoch: u32,
    pub partition_epoch: u32,
}

/// Every partition of every topic, one column per field; topics own contiguous slot ranges.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartitionTable {
    leader: Vec<i32>,
    leader_epoch: Vec<u32>,
    partition_epoch: Vec<u32>,
    replicas: Vec<Replicas>,
    isr: Vec<BrokerSet>,
}

impl PartitionTable {
    /// Partitions held.
    pub fn len(&self) -> usize {
        self.leader.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.leader.is_empty()
    }

    /// Make room for `additional` more partitions.
    pub fn reserve(&mut self, additional: usize) {
        self.leader.reserve(additional);
        self.leader_epoch.reserve(additional);
        self.partition_epoch.reserve(additional);
        self.replicas.reserve(additional);
        self.isr.reserve(additional);
    }

    /// The partition in `slot`.
    pub fn get(&self, slot: usize) -> Option<Partition> {
        Some(Partition {
            replicas: *self.replicas.get(slot)?,
            isr: self.isr[slot],
            leader: self.leader[slot],
            leader_epoch: self.leader_epoch[slot],
            partition_epoch: self.partition_epoch[slot],
        })
    }

    /// Insert a partition at `slot` (at the end in the common case), shifting later ones.
    pub fn insert(&mut self, slot: usize, p: Partition) {
        self.leader.insert(slot, p.leader);
        self.leader_epoch.insert(slot, p.leader_epoch);
        self.partition_epoch.insert(slot, p.partition_epoch);
        self.replicas.insert(slot, p.replicas);
        self.isr.insert(slot, p.isr);
    }

    /// Overwrite the partition in `slot`.
    pub fn set(&mut self, slot: usize, p: Partition) {
        self.leader[slot] = p.leader;
        self.leader_epoch[slot] = p.leader_epoch;
        self.partition_epoch[slot] = p.partition_epoch;
        self.replicas[slot] = p.replicas;
        self.isr[slot] = p.isr;
    }

    /// Remove the partitions in `slots`.
    pub fn remove(&mut self, slots: std::ops::Range<usize>) {
        self.leader.drain(slots.clone());
        self.leader_epoch.drain(slots.clone());
        self.partition_epoch.drain(slots.clone());
        self.replicas.drain(slots.clone());
        self.isr.drain(slots);
    }

    /// The leaders column (for scans such as "which partitions does broker b lead").
    pub fn leaders(&self) -> &[i32] {
        &self.leader
    }

    /// The ISR column.
    pub fn isrs(&self) -> &[BrokerSet] {
        &self.isr
    }

    /// Heap bytes used by the columns' capacity.
    pub fn heap_bytes(&self) -> usize {
        self.leader.capacity() * 4
            + self.leader_epoch.capacity() * 4
            + self.partition_epoch.capacity() * 4
            + self.replicas.capacity() * std::mem::size_of::<Replicas>()
            + self.isr.capacity() * std::mem::size_of::<BrokerSet>()
    }
}

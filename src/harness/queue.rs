//! The discrete-event queue both simulations use: events ordered by virtual time, ties broken
//! by insertion order so every run of a seed processes the same events in the same order.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::harness::Micros;

/// The heap holds only (time, sequence, slot); events themselves sit still in a slab, so the
/// heap's sifting moves 24 bytes instead of whole messages.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    at: Reverse<Micros>,
    seq: Reverse<u64>,
    slot: u32,
}

/// A min-queue of events by (time, insertion order).
#[derive(Clone, Debug)]
pub struct EventQueue<E> {
    heap: BinaryHeap<Key>,
    slab: Vec<Option<E>>,
    free: Vec<u32>,
    next_seq: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue { heap: BinaryHeap::new(), slab: Vec::new(), free: Vec::new(), next_seq: 0 }
    }
}

impl<E> EventQueue<E> {
    /// Schedule `event` at time `at`.
    pub(crate) fn push(&mut self, at: Micros, event: E) {
        let slot = match self.free.pop() {
            Some(slot) => {
                self.slab[slot as usize] = Some(event);
                slot
            }
            None => {
                self.slab.push(Some(event));
                (self.slab.len() - 1) as u32
            }
        };
        self.heap.push(Key { at: Reverse(at), seq: Reverse(self.next_seq), slot });
        self.next_seq += 1;
    }

    /// The time of the earliest event.
    pub(crate) fn peek_time(&self) -> Option<Micros> {
        self.heap.peek().map(|k| k.at.0)
    }

    /// The earliest event and its time.
    pub(crate) fn peek(&self) -> Option<(Micros, &E)> {
        let key = self.heap.peek()?;
        Some((key.at.0, self.slab[key.slot as usize].as_ref()?))
    }

    /// Remove and return the earliest event.
    pub(crate) fn pop(&mut self) -> Option<(Micros, E)> {
        let key = self.heap.pop()?;
        self.free.push(key.slot);
        let event = self.slab[key.slot as usize].take()?;
        Some((key.at.0, event))
    }

    /// The waiting events with their times, in no particular order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (Micros, &E)> {
        self.heap.iter().filter_map(|k| self.entry(k))
    }

    /// The waiting events with their times, in the order [`pop`](Self::pop) would return them.
    pub(crate) fn iter_in_order(&self) -> impl Iterator<Item = (Micros, &E)> {
        let mut keys: Vec<&Key> = self.heap.iter().collect();
        // A greater key is an earlier event (the heap pops its greatest).
        crate::util::sort::sort_by(&mut keys, |a, b| b.cmp(a));
        keys.into_iter().filter_map(|k| self.entry(k))
    }

    fn entry(&self, key: &Key) -> Option<(Micros, &E)> {
        Some((key.at.0, self.slab[key.slot as usize].as_ref()?))
    }
}

#[cfg(test)]
mod tests {
    use super::EventQueue;

    #[test]
    fn pops_by_time_then_insertion_order() {
        let mut q = EventQueue::default();
        q.push(5, "b");
        q.push(3, "a");
        q.push(5, "c");
        let order: Vec<&str> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, ["a", "b", "c"]);
    }

    #[test]
    fn iterates_in_the_order_it_pops() {
        let mut q = EventQueue::default();
        for (at, e) in [(7, "d"), (5, "b"), (3, "a"), (5, "c"), (9, "e")] {
            q.push(at, e);
        }
        q.pop();
        q.push(5, "c2");
        let listed: Vec<(u64, &str)> = q.iter_in_order().map(|(at, e)| (at, *e)).collect();
        assert_eq!(listed, [(5, "b"), (5, "c"), (5, "c2"), (7, "d"), (9, "e")]);
        let popped: Vec<(u64, &str)> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(listed, popped);
    }
}

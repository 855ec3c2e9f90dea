//! The discrete-event queue: events ordered by virtual time, ties broken by insertion order so
//! every run of a seed processes the same events in the same order.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::quorum::Micros;

struct Scheduled<E> {
    at: Micros,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Scheduled<E> {
    fn eq(&self, other: &Self) -> bool {
        (self.at, self.seq) == (other.at, other.seq)
    }
}
impl<E> Eq for Scheduled<E> {}
impl<E> PartialOrd for Scheduled<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Scheduled<E> {
    fn cmp(&self, other: &Self) -> Ordering {
        (other.at, other.seq).cmp(&(self.at, self.seq))
    }
}

/// A min-queue of events by (time, insertion order).
pub struct EventQueue<E> {
    heap: BinaryHeap<Scheduled<E>>,
    next_seq: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue { heap: BinaryHeap::new(), next_seq: 0 }
    }
}

impl<E> EventQueue<E> {
    /// Schedule `event` at time `at`.
    pub fn push(&mut self, at: Micros, event: E) {
        self.heap.push(Scheduled { at, seq: self.next_seq, event });
        self.next_seq += 1;
    }

    /// The time of the earliest event.
    pub fn peek_time(&self) -> Option<Micros> {
        self.heap.peek().map(|s| s.at)
    }

    /// Remove and return the earliest event.
    pub fn pop(&mut self) -> Option<(Micros, E)> {
        self.heap.pop().map(|s| (s.at, s.event))
    }

    /// Drop every event for which `keep` returns false.
    pub fn retain(&mut self, mut keep: impl FnMut(&E) -> bool) {
        self.heap.retain(|s| keep(&s.event));
    }

    /// Events waiting.
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// Whether no event waits.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// The waiting events, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (Micros, &E)> {
        self.heap.iter().map(|s| (s.at, &s.event))
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
}

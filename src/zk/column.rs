//! Per-partition columns whose copies share storage until they diverge: ZooKeeper, the
//! controller and every broker cache start with the same millions of partition states, so each
//! copy is a list of reference-counted chunks and a write copies only the chunk it lands in.

use std::ops::Index;
use std::sync::Arc;

/// Entries per chunk: the unit a write unshares (64 KiB of 16-byte partition states).
const CHUNK: usize = 4096;

/// A fixed-length column of small values; clones share every chunk until one of them writes.
#[derive(Clone, Debug)]
pub struct SharedColumn<T> {
    len: usize,
    chunks: Vec<Arc<[T]>>,
}

impl<T: Copy + PartialEq> SharedColumn<T> {
    /// `len` copies of `value`, every chunk sharing one allocation.
    pub(crate) fn filled(len: usize, value: T) -> Self {
        let chunk = |entries| Arc::<[T]>::from(vec![value; entries]);
        let mut chunks = vec![chunk(CHUNK.min(len)); len / CHUNK];
        let rest = len % CHUNK;
        if rest > 0 {
            chunks.push(chunk(rest));
        }
        SharedColumn { len, chunks }
    }

    /// Number of entries.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Whether the column has no entries.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The entry at `index`, if it exists.
    pub(crate) fn get(&self, index: usize) -> Option<&T> {
        self.chunks.get(index / CHUNK)?.get(index % CHUNK)
    }

    /// The entry at `index` for writing; its chunk stops being shared with other copies.
    pub(crate) fn get_mut(&mut self, index: usize) -> Option<&mut T> {
        let chunk = self.chunks.get_mut(index / CHUNK)?;
        Arc::make_mut(chunk).get_mut(index % CHUNK)
    }

    /// Stores `value` at `index` (ignored out of range); writing the value already there keeps
    /// the chunk shared.
    pub(crate) fn set(&mut self, index: usize, value: T) {
        if self.get(index).is_some_and(|old| *old != value)
            && let Some(slot) = self.get_mut(index)
        {
            *slot = value;
        }
    }

    /// The entries in index order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &T> {
        self.chunks.iter().flat_map(|chunk| chunk.iter())
    }
}

impl<T: Copy + PartialEq> Index<usize> for SharedColumn<T> {
    type Output = T;

    fn index(&self, index: usize) -> &T {
        match self.get(index) {
            Some(value) => value,
            None => panic!("index {index} out of range for a column of {}", self.len),
        }
    }
}

/// Builds a [`SharedColumn`] entry by entry, so a large one can be built over several calls.
#[derive(Clone, Debug)]
pub struct ColumnBuilder<T> {
    sealed: Vec<Arc<[T]>>,
    open: Vec<T>,
}

impl<T: Copy + PartialEq> ColumnBuilder<T> {
    /// A builder holding no entries.
    pub(crate) fn new() -> Self {
        ColumnBuilder { sealed: Vec::new(), open: Vec::with_capacity(CHUNK) }
    }

    /// Entries pushed so far.
    pub(crate) fn len(&self) -> usize {
        self.sealed.len() * CHUNK + self.open.len()
    }

    /// Appends one entry.
    pub(crate) fn push(&mut self, value: T) {
        self.open.push(value);
        if self.open.len() == CHUNK {
            self.seal();
        }
    }

    fn seal(&mut self) {
        let open = std::mem::replace(&mut self.open, Vec::with_capacity(CHUNK));
        self.sealed.push(Arc::from(open));
    }

    /// The column of every entry pushed.
    pub(crate) fn finish(mut self) -> SharedColumn<T> {
        let len = self.len();
        if !self.open.is_empty() {
            self.seal();
        }
        SharedColumn { len, chunks: self.sealed }
    }
}

impl<T: Copy + PartialEq> Default for ColumnBuilder<T> {
    fn default() -> Self {
        ColumnBuilder::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn built(len: usize) -> SharedColumn<u32> {
        let mut builder = ColumnBuilder::new();
        (0..len as u32).for_each(|v| builder.push(v));
        builder.finish()
    }

    #[test]
    fn builder_keeps_every_entry_in_order_across_chunks() {
        let column = built(2 * CHUNK + 3);
        assert_eq!(column.len(), 2 * CHUNK + 3);
        assert!(column.iter().copied().eq(0..(2 * CHUNK + 3) as u32));
        assert_eq!(column[CHUNK + 1], CHUNK as u32 + 1);
        assert_eq!(column.get(2 * CHUNK + 3), None);
        assert!(built(0).is_empty());
    }

    #[test]
    fn a_write_unshares_only_its_chunk() {
        let original = built(3 * CHUNK);
        let mut copy = original.clone();
        copy.set(CHUNK + 5, 7);
        assert_eq!(copy[CHUNK + 5], 7);
        assert_eq!(original[CHUNK + 5], CHUNK as u32 + 5);
        let shared = |i: usize| Arc::ptr_eq(&original.chunks[i], &copy.chunks[i]);
        assert_eq!([shared(0), shared(1), shared(2)], [true, false, true]);
    }

    #[test]
    fn rewriting_the_same_value_keeps_the_chunk_shared() {
        let original = SharedColumn::filled(CHUNK + 1, 9u32);
        let mut copy = original.clone();
        copy.set(0, 9);
        copy.set(CHUNK, 9);
        assert!(copy.chunks.iter().zip(&original.chunks).all(|(a, b)| Arc::ptr_eq(a, b)));
        assert_eq!(copy.len(), CHUNK + 1);
        assert!(copy.iter().all(|v| *v == 9));
    }
}

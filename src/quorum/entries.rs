//! A log's records held in shared chunks, and what a read of them hands out ([`Records`]). A
//! FetchResponse carries the chunks it covers, not copies of their records: Kafka sends a
//! slice of the segment file (`FileRecords.slice`) without reading it, and a leader answering
//! a late second copy of a Fetch with up to `controller.quorum.fetch.max.bytes` of records
//! should cost the simulation little more than answering the first.

use std::sync::Arc;

use super::log::Entry;

/// Records per chunk once it is full and shared.
const CHUNK: usize = 256;

/// A log's records in order: full chunks of [`CHUNK`] records that never change once frozen
/// (a read shares them), then the last records, fewer than [`CHUNK`], that appends still grow;
/// and where each record ends in the bytes written to the log (its file position), so that a
/// read finds its end by bisection without sizing every record (`LogSegment.read` takes its
/// bytes from a position the offset index finds).
#[derive(Clone, Debug)]
pub(crate) struct Entries<P> {
    frozen: Vec<Arc<[Entry<P>]>>,
    /// Records at the front of `frozen[0]` that are no longer held (the cleaner moved the log
    /// start past them); always fewer than [`CHUNK`].
    skip: usize,
    tail: Vec<Entry<P>>,
    /// Where each record held ends.
    byte_ends: Vec<u64>,
    /// Where the first record held starts (the bytes the cleaner removed below it).
    byte_start: u64,
}

impl<P> Default for Entries<P> {
    fn default() -> Self {
        Entries { frozen: Vec::new(), skip: 0, tail: Vec::new(), byte_ends: Vec::new(), byte_start: 0 }
    }
}

impl<P: Clone> Entries<P> {
    pub(crate) fn len(&self) -> usize {
        self.frozen.len() * CHUNK - self.skip + self.tail.len()
    }

    /// Where `index` (0 = the first record held) lives: a frozen chunk and the position in
    /// it, or (`None`) a position in the tail.
    fn locate(&self, index: usize) -> (Option<usize>, usize) {
        let at = index + self.skip;
        match at / CHUNK {
            chunk if chunk < self.frozen.len() => (Some(chunk), at % CHUNK),
            _ => (None, at - self.frozen.len() * CHUNK),
        }
    }

    pub(crate) fn get(&self, index: usize) -> Option<&Entry<P>> {
        match self.locate(index) {
            (Some(chunk), at) => self.frozen[chunk].get(at),
            (None, at) => self.tail.get(at),
        }
    }

    pub(crate) fn last(&self) -> Option<&Entry<P>> {
        self.len().checked_sub(1).and_then(|last| self.get(last))
    }

    /// The bytes the records held take.
    pub(crate) fn bytes(&self) -> u64 {
        self.byte_position(self.len()) - self.byte_start
    }

    /// Where the record at `index` starts (`len()`: where the next one goes).
    fn byte_position(&self, index: usize) -> u64 {
        index.checked_sub(1).map_or(self.byte_start, |before| self.byte_ends[before])
    }

    /// The end of the records from `from` on that take at most `max_bytes` together.
    pub(crate) fn fitting(&self, from: usize, max_bytes: u64) -> usize {
        let start = self.byte_position(from);
        from + self.byte_ends[from..].partition_point(|end| end - start <= max_bytes)
    }

    /// Append a record of `bytes` bytes.
    pub(crate) fn push(&mut self, entry: Entry<P>, bytes: u64) {
        self.byte_ends.push(self.byte_position(self.len()) + bytes);
        self.tail.push(entry);
        if self.tail.len() == CHUNK {
            self.frozen.push(Arc::from(std::mem::take(&mut self.tail)));
        }
    }

    /// Keep the first `keep` records.
    pub(crate) fn truncate(&mut self, keep: usize) {
        if keep >= self.len() {
            return;
        }
        self.byte_ends.truncate(keep);
        match self.locate(keep) {
            (Some(chunk), at) => {
                let from = if chunk == 0 { std::mem::take(&mut self.skip) } else { 0 };
                self.tail = self.frozen[chunk][from..at].to_vec();
                self.frozen.truncate(chunk);
            }
            (None, at) => self.tail.truncate(at),
        }
    }

    /// Drop the first `count` records.
    pub(crate) fn drop_front(&mut self, count: usize) {
        let count = count.min(self.len());
        self.byte_start = self.byte_position(count);
        self.byte_ends.drain(..count);
        self.skip += count;
        let whole = (self.skip / CHUNK).min(self.frozen.len());
        self.frozen.drain(..whole);
        self.skip -= whole * CHUNK;
        if self.frozen.is_empty() {
            self.tail.drain(..std::mem::take(&mut self.skip));
        }
    }

    pub(crate) fn clear(&mut self) {
        *self = Entries::default();
    }

    /// Records `[from, to)`, sharing the frozen chunks they lie in (the tail's are copied).
    pub(crate) fn slice(&self, from: usize, to: usize) -> Records<P> {
        let bytes = self.byte_position(to) - self.byte_position(from);
        let mut parts = Vec::new();
        let mut at = from;
        while at < to {
            let part = match self.locate(at) {
                (Some(chunk), start) => {
                    let end = (start + (to - at)).min(CHUNK);
                    Part { chunk: self.frozen[chunk].clone(), start, end }
                }
                (None, start) => {
                    let copied: Arc<[Entry<P>]> = Arc::from(&self.tail[start..start + (to - at)]);
                    Part { end: copied.len(), chunk: copied, start: 0 }
                }
            };
            at += part.end - part.start;
            parts.push(part);
        }
        Records { parts, len: to - from, bytes }
    }
}

/// Part of a shared chunk: its records `[start, end)`.
#[derive(Clone, Debug)]
struct Part<P> {
    chunk: Arc<[Entry<P>]>,
    start: usize,
    end: usize,
}

/// Records read from a log, in offset order, with their size in bytes: what a FetchResponse
/// carries. Cloning it shares the records.
#[derive(Clone, Debug)]
pub struct Records<P> {
    parts: Vec<Part<P>>,
    len: usize,
    bytes: u64,
}

impl<P> Default for Records<P> {
    fn default() -> Self {
        Records { parts: Vec::new(), len: 0, bytes: 0 }
    }
}

impl<P> Records<P> {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Their serialized size (the bytes the leader's log holds them in).
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    pub fn iter(&self) -> impl Iterator<Item = &Entry<P>> {
        self.parts.iter().flat_map(|part| &part.chunk[part.start..part.end])
    }

    pub fn first(&self) -> Option<&Entry<P>> {
        self.iter().next()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quorum::record::Record;

    fn entry(value: u64) -> Entry<u64> {
        Entry { epoch: 1, record: Record::Data(value), appended_at: 0, last_in_batch: true }
    }

    fn values(entries: &Entries<u64>) -> Vec<u64> {
        (0..entries.len()).map(|i| value(entries.get(i).expect("held"))).collect()
    }

    fn value(entry: &Entry<u64>) -> u64 {
        match entry.record {
            Record::Data(value) => value,
            _ => unreachable!("only data records here"),
        }
    }

    /// The same operations on the chunks and on a plain vector keep the same records, across
    /// chunk boundaries, a cleaner's drops and truncations into frozen chunks.
    #[test]
    fn chunks_hold_what_a_plain_vector_holds_through_appends_drops_and_truncations() {
        let (mut entries, mut plain) = (Entries::default(), Vec::new());
        let mut next = 0;
        let mut append = |entries: &mut Entries<u64>, plain: &mut Vec<u64>, count: u64| {
            for _ in 0..count {
                entries.push(entry(next), 1);
                plain.push(next);
                next += 1;
            }
        };
        append(&mut entries, &mut plain, 700);
        assert_eq!(values(&entries), plain);
        entries.drop_front(300);
        plain.drain(..300);
        assert_eq!(values(&entries), plain, "a drop inside the second chunk");
        entries.truncate(100);
        plain.truncate(100);
        assert_eq!(values(&entries), plain, "a truncation into the first chunk held");
        append(&mut entries, &mut plain, 600);
        entries.drop_front(5);
        plain.drain(..5);
        entries.truncate(400);
        plain.truncate(400);
        assert_eq!(values(&entries), plain);
        assert_eq!(entries.last().map(value), plain.last().copied());
        let read = entries.slice(10, 390);
        assert_eq!(read.iter().map(value).collect::<Vec<_>>(), plain[10..390]);
        assert_eq!((read.len(), read.bytes(), read.first().map(value)), (380, 380, Some(plain[10])));
        assert_eq!((entries.bytes(), entries.fitting(10, 100)), (400, 110), "a byte a record here");
        entries.drop_front(1000);
        assert_eq!((entries.len(), entries.last()), (0, None));
    }

    #[test]
    fn a_read_shares_full_chunks_and_copies_only_the_last_records() {
        let mut entries = Entries::default();
        for value in 0..600 {
            entries.push(entry(value), 1);
        }
        let read = entries.slice(0, 600);
        assert!(Arc::ptr_eq(&read.parts[0].chunk, &entries.frozen[0]));
        assert!(Arc::ptr_eq(&read.parts[1].chunk, &entries.frozen[1]));
        assert_eq!(read.parts.len(), 3);
        assert_eq!(read.parts[2].chunk.len(), 600 - 2 * CHUNK, "the tail, copied");
    }
}

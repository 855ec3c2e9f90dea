//! Reading a whole file, batch by batch, without trusting any length: a `.log` segment or a
//! `.checkpoint` snapshot (which must open with a SnapshotHeader and close with a
//! SnapshotFooter, `RecordsSnapshotReader`). A structural error (truncation, a wrong magic, an
//! impossible length) ends the file; a CRC failure or a bad record skips its batch and reading
//! goes on with the next one.

use super::batch::{ATTRIBUTES_OFFSET, BatchHeader, LOG_OVERHEAD, MAGIC, RECORD_BATCH_OVERHEAD};
use super::crc32c::crc32c;
use super::cursor::{Cursor, ParseError};
use super::error::DecodeError;
use super::payload::{ControlType, Payload};
use super::record::RawRecord;

/// Which kind of file: they differ in their names and in the snapshot's framing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// `<20-digit base offset>.log` (`LogFileUtils.LOG_FILE_SUFFIX`).
    Segment,
    /// `<20-digit end offset>-<10-digit epoch>.checkpoint` (`Snapshots.SUFFIX`), or
    /// `bootstrap.checkpoint`.
    Snapshot,
}

impl FileKind {
    /// The kind a file name says (`.checkpoint` is a snapshot, anything else a segment).
    pub(crate) fn of(name: &str) -> FileKind {
        if name.ends_with(".checkpoint") { FileKind::Snapshot } else { FileKind::Segment }
    }
}

/// One record with its place in the log.
#[derive(Clone, Debug, PartialEq)]
pub struct LogEntry {
    pub offset: i64,
    /// The leader epoch of its batch (`partitionLeaderEpoch`).
    pub epoch: i32,
    pub timestamp: i64,
    /// File position of the record.
    pub position: usize,
    pub payload: Payload,
}

/// A batch as found in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchInfo {
    pub header: BatchHeader,
    /// File position of its first byte.
    pub position: usize,
    /// Whether the stored CRC matches the bytes.
    pub crc_ok: bool,
}

/// What reading a file reports, in file order.
pub trait Sink {
    /// A batch whose header could be read (its records follow, unless the CRC failed).
    fn batch(&mut self, batch: &BatchInfo);
    /// A record of a batch whose CRC matched.
    fn entry(&mut self, entry: LogEntry);
    /// A problem; `crc` marks a CRC failure.
    fn problem(&mut self, error: DecodeError, crc: bool);
}

/// Read the file `name` of `kind` from `bytes`, reporting to `sink`.
pub fn read(name: &str, kind: FileKind, bytes: &[u8], sink: &mut impl Sink) {
    let mut framing = SnapshotFraming::default();
    let mut pos = 0;
    let mut last_base = None;
    while pos < bytes.len() {
        let batch = match next_batch(bytes, pos) {
            Ok(batch) => batch,
            Err((error, base_offset)) => {
                sink.problem(locate(name, error, base_offset.or(last_base)), false);
                return;
            }
        };
        let size = batch.header.length as usize + LOG_OVERHEAD;
        let base = batch.header.base_offset;
        last_base = Some(base);
        sink.batch(&batch);
        if !batch.crc_ok {
            let message = format!(
                "CRC mismatch: stored {:#010x}, computed {:#010x}; the batch is skipped",
                batch.header.crc,
                crc32c(&bytes[pos + ATTRIBUTES_OFFSET..pos + size])
            );
            sink.problem(
                DecodeError { file: name.into(), position: pos, base_offset: Some(base), message },
                true,
            );
        } else {
            match read_records(&batch, &bytes[pos + RECORD_BATCH_OVERHEAD..pos + size], pos) {
                Ok(entries) => {
                    for entry in entries {
                        framing.see(&entry);
                        sink.entry(entry);
                    }
                }
                Err(error) => sink.problem(locate(name, error, Some(base)), false),
            }
        }
        pos += size;
    }
    if kind == FileKind::Snapshot
        && let Some(message) = framing.problem()
    {
        sink.problem(
            DecodeError { file: name.into(), position: bytes.len(), base_offset: last_base, message },
            false,
        );
    }
}

fn locate(file: &str, error: ParseError, base_offset: Option<i64>) -> DecodeError {
    DecodeError { file: file.into(), position: error.at, base_offset, message: error.what }
}

/// The batch at `pos`, its CRC checked (`DefaultRecordBatch.ensureValid`,
/// `FileLogInputStream.nextBatch`).
fn next_batch(bytes: &[u8], pos: usize) -> Result<BatchInfo, (ParseError, Option<i64>)> {
    let left = bytes.len() - pos;
    let mut c = Cursor::new(&bytes[pos..], pos);
    if left < RECORD_BATCH_OVERHEAD {
        let base = (left >= 8).then(|| c.clone().i64("baseOffset").ok()).flatten();
        let what = format!("truncated: {left} bytes left, a batch header needs {RECORD_BATCH_OVERHEAD}");
        return Err((c.error(what), base));
    }
    let header = BatchHeader::read(&mut c).map_err(|e| (e, None))?;
    let base = Some(header.base_offset);
    let at = |offset: usize, what: String| (ParseError { at: pos + offset, what }, base);
    let min = (RECORD_BATCH_OVERHEAD - LOG_OVERHEAD) as i32;
    if header.length < min {
        // DefaultRecordBatch.ensureValid: "Record batch is corrupt (the size N is smaller than the minimum allowed overhead ...)"
        return Err(at(8, format!("batch length {} is below the {min}-byte minimum", header.length)));
    }
    let size = header.length as usize + LOG_OVERHEAD;
    if size > left {
        return Err(at(8, format!("truncated: the batch is {size} bytes, only {left} are left")));
    }
    if header.magic != MAGIC {
        return Err(at(16, format!("magic {} (KRaft writes only v2 record batches, magic 2)", header.magic)));
    }
    let crc_ok = crc32c(&bytes[pos + ATTRIBUTES_OFFSET..pos + size]) == header.crc;
    Ok(BatchInfo { header, position: pos, crc_ok })
}

/// The records of the batch at `pos` of `bytes` (one that read well before: the timeline
/// decodes a batch again to replay it).
pub fn batch_entries(bytes: &[u8], pos: usize) -> Result<Vec<LogEntry>, ParseError> {
    let batch = next_batch(bytes, pos).map_err(|(error, _)| error)?;
    let size = batch.header.length as usize + LOG_OVERHEAD;
    read_records(&batch, &bytes[pos + RECORD_BATCH_OVERHEAD..pos + size], pos)
}

/// The smallest record: length, attributes, two deltas, key, value and header count.
const MIN_RECORD_BYTES: usize = 7;

/// Read the records of `batch` from `body` (the bytes after its header, at file position
/// `pos + 61`); a bad record rejects the whole batch.
fn read_records(batch: &BatchInfo, body: &[u8], pos: usize) -> Result<Vec<LogEntry>, ParseError> {
    let header = &batch.header;
    let mut c = Cursor::new(body, pos + RECORD_BATCH_OVERHEAD);
    if header.compression() != 0 {
        return Err(ParseError {
            at: pos + ATTRIBUTES_OFFSET,
            what: format!(
                "compressed batch (codec {}); the metadata log is written uncompressed",
                header.compression()
            ),
        });
    }
    if header.records_count < 0 {
        return Err(ParseError {
            at: pos + 57,
            what: format!("record count {} is negative", header.records_count),
        });
    }
    let mut entries = Vec::with_capacity((header.records_count as usize).min(body.len() / MIN_RECORD_BYTES));
    for _ in 0..header.records_count {
        let record = RawRecord::read(&mut c)?;
        let payload = if header.is_control() {
            Payload::control(record.key, record.value, record.position, record.position)?
        } else {
            Payload::metadata(record.value, record.position)?
        };
        entries.push(LogEntry {
            offset: header.base_offset.wrapping_add(i64::from(record.offset_delta)),
            epoch: header.partition_leader_epoch,
            timestamp: header.base_timestamp.wrapping_add(record.timestamp_delta),
            position: record.position,
            payload,
        });
    }
    if c.remaining() > 0 {
        // DefaultRecordBatch's iterator: "Incorrect declared batch size, records still remaining in file"
        return Err(c.error(format!(
            "{} bytes after the batch's {} records",
            c.remaining(),
            header.records_count
        )));
    }
    Ok(entries)
}

/// Whether a snapshot opens with its header and closes with its footer.
#[derive(Default)]
struct SnapshotFraming {
    first: Option<bool>,
    last_is_footer: bool,
}

impl SnapshotFraming {
    fn see(&mut self, entry: &LogEntry) {
        let is = |kind| matches!(entry.payload, Payload::Control { kind: k, .. } if k == kind);
        self.first.get_or_insert(is(ControlType::SnapshotHeader));
        self.last_is_footer = is(ControlType::SnapshotFooter);
    }

    fn problem(&self) -> Option<String> {
        match self.first {
            None => Some(
                "the snapshot has no records (a SnapshotHeader and a SnapshotFooter are required)".into(),
            ),
            Some(false) => Some("the snapshot does not start with a SnapshotHeader".into()),
            Some(true) if !self.last_is_footer => {
                Some("the snapshot does not end with a SnapshotFooter".into())
            }
            Some(true) => None,
        }
    }
}

/// Everything a file holds, collected (for tests, the writer's round trip and small files).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Collected {
    pub batches: Vec<BatchInfo>,
    pub entries: Vec<LogEntry>,
    /// Problems, with `true` for CRC failures.
    pub problems: Vec<(DecodeError, bool)>,
}

impl Sink for Collected {
    fn batch(&mut self, batch: &BatchInfo) {
        self.batches.push(*batch);
    }

    fn entry(&mut self, entry: LogEntry) {
        self.entries.push(entry);
    }

    fn problem(&mut self, error: DecodeError, crc: bool) {
        self.problems.push((error, crc));
    }
}

/// Read the file `name` (its kind from its name) and collect what it holds.
pub fn read_all(name: &str, bytes: &[u8]) -> Collected {
    let mut collected = Collected::default();
    read(name, FileKind::of(name), bytes, &mut collected);
    collected
}

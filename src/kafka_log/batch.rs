//! The record batch v2 header (Kafka's `DefaultRecordBatch`): 61 bytes in front of the records,
//! with the CRC-32C over everything from the attributes to the batch's end.

use super::cursor::{Cursor, ParseError};

/// `Records.LOG_OVERHEAD`: the base offset and the length, the part of a batch outside its
/// length.
pub const LOG_OVERHEAD: usize = 12;
/// `DefaultRecordBatch.RECORD_BATCH_OVERHEAD`: the whole header.
pub const RECORD_BATCH_OVERHEAD: usize = 61;
/// `DefaultRecordBatch.ATTRIBUTES_OFFSET`: where the CRC'd bytes start.
pub const ATTRIBUTES_OFFSET: usize = 21;
/// `RecordBatch.CURRENT_MAGIC_VALUE`: KRaft writes only v2 batches.
pub const MAGIC: i8 = 2;
/// `DefaultRecordBatch.COMPRESSION_CODEC_MASK`.
const COMPRESSION_MASK: i16 = 0x07;
/// `DefaultRecordBatch.CONTROL_FLAG_MASK`.
pub const CONTROL_FLAG: i16 = 0x20;
/// `RecordBatch.NO_PRODUCER_ID`, `NO_PRODUCER_EPOCH`, `NO_SEQUENCE`.
pub const NO_PRODUCER_ID: i64 = -1;

/// A batch header, field by field in file order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchHeader {
    pub base_offset: i64,
    /// Bytes after the length field (the batch is `length + LOG_OVERHEAD` bytes).
    pub length: i32,
    pub partition_leader_epoch: i32,
    pub magic: i8,
    pub crc: u32,
    pub attributes: i16,
    pub last_offset_delta: i32,
    pub base_timestamp: i64,
    pub max_timestamp: i64,
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub base_sequence: i32,
    pub records_count: i32,
}

impl BatchHeader {
    /// Read a header; the cursor must be at the batch's first byte.
    pub(crate) fn read(c: &mut Cursor<'_>) -> Result<BatchHeader, ParseError> {
        Ok(BatchHeader {
            base_offset: c.i64("baseOffset")?,
            length: c.i32("batchLength")?,
            partition_leader_epoch: c.i32("partitionLeaderEpoch")?,
            magic: c.i8("magic")?,
            crc: c.u32("crc")?,
            attributes: c.i16("attributes")?,
            last_offset_delta: c.i32("lastOffsetDelta")?,
            base_timestamp: c.i64("baseTimestamp")?,
            max_timestamp: c.i64("maxTimestamp")?,
            producer_id: c.i64("producerId")?,
            producer_epoch: c.i16("producerEpoch")?,
            base_sequence: c.i32("baseSequence")?,
            records_count: c.i32("recordsCount")?,
        })
    }

    /// Append the header's bytes.
    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.base_offset.to_be_bytes());
        out.extend_from_slice(&self.length.to_be_bytes());
        out.extend_from_slice(&self.partition_leader_epoch.to_be_bytes());
        out.extend_from_slice(&self.magic.to_be_bytes());
        out.extend_from_slice(&self.crc.to_be_bytes());
        out.extend_from_slice(&self.attributes.to_be_bytes());
        out.extend_from_slice(&self.last_offset_delta.to_be_bytes());
        out.extend_from_slice(&self.base_timestamp.to_be_bytes());
        out.extend_from_slice(&self.max_timestamp.to_be_bytes());
        out.extend_from_slice(&self.producer_id.to_be_bytes());
        out.extend_from_slice(&self.producer_epoch.to_be_bytes());
        out.extend_from_slice(&self.base_sequence.to_be_bytes());
        out.extend_from_slice(&self.records_count.to_be_bytes());
    }

    /// The compression codec (0 none, 1 gzip, 2 snappy, 3 lz4, 4 zstd: `CompressionType`).
    pub(crate) fn compression(&self) -> i16 {
        self.attributes & COMPRESSION_MASK
    }

    /// Whether the batch holds control records (`DefaultRecordBatch.isControlBatch`).
    pub(crate) fn is_control(&self) -> bool {
        self.attributes & CONTROL_FLAG != 0
    }
}

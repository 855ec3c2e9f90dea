//! A metadata log as a timeline to travel through: one compact entry per record that goes into
//! the image (offset, epoch, type), the epochs and LeaderChange records to mark, and the image
//! after any number of records, replayed on demand from the file's bytes (forward from where it
//! is, or from the start when going back), so memory stays near the files' own size.

use super::image::LogImage;
use super::inspect::Inspection;
use super::payload::{ControlType, Payload};
use super::reader::{LogEntry, batch_entries};

/// One record on the timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimelineEntry {
    pub offset: i64,
    pub epoch: i32,
    /// Index into [`LogTimeline::type_names`].
    pub kind: u16,
}

/// A batch holding timeline records: which file, where, and the index of its first record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BatchRef {
    file: usize,
    position: usize,
    first: usize,
}

/// The opened files, their report, and the image at the current position.
pub struct LogTimeline {
    files: Vec<(String, Vec<u8>)>,
    pub inspection: Inspection,
    pub entries: Vec<TimelineEntry>,
    pub type_names: Vec<String>,
    batches: Vec<BatchRef>,
    /// The first offset replayed from each file (the latest snapshot's end for segments).
    replay_from: Vec<i64>,
    image: LogImage,
    position: usize,
}

impl LogTimeline {
    /// Decode `files` and place the timeline after the last record.
    pub fn open(files: Vec<(String, Vec<u8>)>) -> LogTimeline {
        let mut entries = Vec::new();
        let mut type_names: Vec<String> = Vec::new();
        let mut batches: Vec<BatchRef> = Vec::new();
        let mut replay_from = vec![i64::MAX; files.len()];
        let inspection = Inspection::replaying(&files, |file, position, entry| {
            let name = entry.payload.type_name();
            let kind = match type_names.iter().position(|n| *n == name) {
                Some(i) => i,
                None => {
                    type_names.push(name.into_owned());
                    type_names.len() - 1
                }
            };
            if batches.last().is_none_or(|b| (b.file, b.position) != (file, position)) {
                batches.push(BatchRef { file, position, first: entries.len() });
            }
            replay_from[file] = replay_from[file].min(entry.offset);
            entries.push(TimelineEntry { offset: entry.offset, epoch: entry.epoch, kind: kind as u16 });
        });
        let image = inspection.image.clone();
        let position = entries.len();
        LogTimeline { files, inspection, entries, type_names, batches, replay_from, image, position }
    }

    /// The files the timeline reads (name and bytes).
    pub fn files(&self) -> &[(String, Vec<u8>)] {
        &self.files
    }

    /// Number of records on the timeline.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no record builds the image.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// How many records the current image holds.
    pub fn position(&self) -> usize {
        self.position
    }

    /// The image at the current position.
    pub fn image(&self) -> &LogImage {
        &self.image
    }

    /// The image after the first `count` records (clamped to the timeline).
    pub fn seek(&mut self, count: usize) -> &LogImage {
        let count = count.min(self.len());
        if count < self.position {
            self.image = LogImage::default();
            self.position = 0;
        }
        while self.position < count {
            let before = self.position;
            let batch = self.batches[self.batches.partition_point(|b| b.first <= self.position) - 1];
            let from = self.replay_from[batch.file];
            let entries = batch_entries(&self.files[batch.file].1, batch.position).unwrap_or_default();
            for (index, entry) in (batch.first..).zip(entries.into_iter().filter(|e| e.offset >= from)) {
                if index >= self.position && index < count {
                    if let Payload::Metadata { api_key, value, .. } = &entry.payload {
                        // Records that do not fit were reported by the inspection already.
                        let _ = self.image.apply(*api_key, value);
                    }
                    self.position = index + 1;
                }
            }
            if self.position == before {
                // A batch that no longer reads (it read at open): stop rather than spin.
                break;
            }
        }
        &self.image
    }

    /// The record at `index`, decoded again from its batch.
    pub fn record(&self, index: usize) -> Option<LogEntry> {
        let batch = *self.batches.get(self.batches.partition_point(|b| b.first <= index).checked_sub(1)?)?;
        let from = self.replay_from[batch.file];
        let entries = batch_entries(&self.files[batch.file].1, batch.position).ok()?;
        entries.into_iter().filter(|e| e.offset >= from).nth(index - batch.first)
    }

    /// Timeline indexes where a new leader epoch starts.
    pub fn epoch_starts(&self) -> Vec<usize> {
        (1..self.len()).filter(|&i| self.entries[i].epoch != self.entries[i - 1].epoch).collect()
    }

    /// Timeline indexes of the control records of type `kind` (LeaderChange, KRaftVoters, ...).
    pub fn indexes_of(&self, kind: ControlType) -> Vec<usize> {
        let kind = self.type_names.iter().position(|n| n == kind.schema().name);
        (0..self.len()).filter(|&i| Some(self.entries[i].kind as usize) == kind).collect()
    }

    /// The partitions the whole log ends with: the size of its failover race.
    pub fn partitions(&self) -> u64 {
        self.inspection.image.partition_count() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::LogTimeline;
    use crate::kafka_log::payload::Payload;
    use crate::kafka_log::simulation::to_payload;
    use crate::kafka_log::writer::put_batch;
    use crate::metadata::record::MetadataRecord;

    fn topic(id: u32) -> Payload {
        to_payload(&MetadataRecord::Topic { name: format!("t{id}").into(), topic_id: id })
    }

    #[test]
    fn seeking_back_and_forth_rebuilds_the_image_at_each_record() {
        let mut bytes = Vec::new();
        put_batch(&mut bytes, 0, 1, 0, &[topic(1), topic(2)]);
        put_batch(&mut bytes, 2, 2, 0, &[topic(3)]);
        put_batch(&mut bytes, 3, 2, 0, &[to_payload(&MetadataRecord::RemoveTopic { topic_id: 1 }), topic(4)]);
        let mut timeline = LogTimeline::open(vec![("00000000000000000000.log".into(), bytes)]);
        assert_eq!(timeline.len(), 5);
        let topics = |t: &mut LogTimeline, n| {
            let mut names: Vec<String> = t.seek(n).topics.values().map(|t| t.name.clone()).collect();
            crate::util::sort::sort(&mut names);
            names.join(",")
        };
        assert_eq!(topics(&mut timeline, 5), "t2,t3,t4");
        assert_eq!(topics(&mut timeline, 1), "t1");
        assert_eq!(topics(&mut timeline, 3), "t1,t2,t3");
        assert_eq!(topics(&mut timeline, 4), "t2,t3");
        assert_eq!(topics(&mut timeline, 0), "");
        assert_eq!(timeline.epoch_starts(), [2], "epoch 2 starts at the third record");
        assert_eq!(timeline.record(3).unwrap().offset, 3);
        assert_eq!(timeline.seek(99).topics.len(), 3);
    }
}

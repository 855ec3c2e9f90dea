//! Kafka file figures: decode-only and decode+replay throughput (records per second) over a
//! written 100 MB `__cluster_metadata` segment, and the time to open it natively (read from
//! disk, decode, replay the image) as `kraftscope inspect` does.
//! Run: `cargo bench --bench kafka_log`. Prints medians over several runs. With
//! `KRAFTSCOPE_BENCH_LOG=PATH` it also leaves the segment at PATH, for the page's figure:
//! `node tests/e2e/open_log_bench.mjs PATH` against a served dist/.

use std::time::Instant;

use kraftscope::kafka_log::directory::read_tree;
use kraftscope::kafka_log::error::DecodeError;
use kraftscope::kafka_log::inspect::Inspection;
use kraftscope::kafka_log::reader::{BatchInfo, FileKind, LogEntry, Sink, read};
use kraftscope::kafka_log::simulation::to_payload;
use kraftscope::kafka_log::writer::put_batch;
use kraftscope::metadata::record::{
    MetadataRecord, PartitionChangeRecord, PartitionRecord, Replicas, broker_set,
};

const RUNS: usize = 5;
const TARGET_BYTES: usize = 100 * 1024 * 1024;
const RECORDS_PER_BATCH: usize = 200;

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    values[values.len() / 2]
}

/// A segment of about 100 MB: brokers, then topics of 100 partitions (3 replicas), each
/// followed by leader and ISR changes, as a busy cluster's log holds.
fn hundred_megabytes() -> (Vec<u8>, u64) {
    let mut bytes = Vec::with_capacity(TARGET_BYTES + (1 << 20));
    let mut batch = Vec::new();
    let mut offset = 0i64;
    let mut records = 0u64;
    let flush = |bytes: &mut Vec<u8>, batch: &mut Vec<_>, offset: &mut i64| {
        put_batch(bytes, *offset, 1, 0, batch);
        *offset += batch.len() as i64;
        batch.clear();
    };
    for id in 101..=132u32 {
        batch.push(to_payload(&MetadataRecord::RegisterBroker {
            broker_id: id,
            broker_epoch: u64::from(id),
            incarnation: u64::from(id),
            fenced: true,
            in_controlled_shutdown: false,
        }));
        batch.push(to_payload(&MetadataRecord::UnfenceBroker { broker_id: id, broker_epoch: u64::from(id) }));
    }
    let mut topic = 0u32;
    while bytes.len() < TARGET_BYTES {
        topic += 1;
        batch.push(to_payload(&MetadataRecord::Topic {
            name: format!("topic-{topic}").into(),
            topic_id: topic,
        }));
        for partition in 0..100u32 {
            let r = |k: u32| 101 + (topic + partition + k) % 32;
            let replicas = [r(0), r(1), r(2)];
            let record = PartitionRecord {
                topic_id: topic,
                partition,
                replicas: Replicas::new(&replicas),
                isr: broker_set(replicas),
                leader: replicas[0] as i32,
                leader_epoch: 0,
                partition_epoch: 0,
            };
            batch.push(to_payload(&MetadataRecord::Partition(record)));
            let change = PartitionChangeRecord {
                topic_id: topic,
                partition,
                leader: replicas[1] as i32,
                isr: Some(broker_set([replicas[1], replicas[2]])),
                elr: None,
                last_known_elr: None,
            };
            batch.push(to_payload(&MetadataRecord::PartitionChange(change)));
            if batch.len() >= RECORDS_PER_BATCH {
                records += batch.len() as u64;
                flush(&mut bytes, &mut batch, &mut offset);
            }
        }
    }
    records += batch.len() as u64;
    flush(&mut bytes, &mut batch, &mut offset);
    (bytes, records)
}

/// Counts what it is given and keeps nothing: decoding alone.
#[derive(Default)]
struct Count(u64);

impl Sink for Count {
    fn batch(&mut self, _: &BatchInfo) {}
    fn entry(&mut self, _: LogEntry) {
        self.0 += 1;
    }
    fn problem(&mut self, error: DecodeError, _: bool) {
        panic!("{error}");
    }
}

fn main() {
    let (bytes, records) = hundred_megabytes();
    let mb = bytes.len() as f64 / (1024.0 * 1024.0);
    println!("segment: {mb:.1} MiB, {records} records");

    let decode = median(
        (0..RUNS)
            .map(|_| {
                let started = Instant::now();
                let mut count = Count::default();
                read("00000000000000000000.log", FileKind::Segment, &bytes, &mut count);
                assert_eq!(count.0, records);
                started.elapsed().as_secs_f64()
            })
            .collect(),
    );
    println!(
        "decode only:          {:>12.0} records/s ({decode:.2} s, {:.0} MiB/s)",
        records as f64 / decode,
        mb / decode
    );

    if let Ok(path) = std::env::var("KRAFTSCOPE_BENCH_LOG") {
        std::fs::write(&path, &bytes).unwrap_or_else(|e| panic!("cannot write {path}: {e}"));
        println!("wrote the segment to {path}");
    }
    let files = [("00000000000000000000.log".to_string(), bytes)];
    let replay = median(
        (0..RUNS)
            .map(|_| {
                let started = Instant::now();
                let inspection = Inspection::of(&files);
                assert_eq!(inspection.records, records);
                assert_eq!(inspection.replay_problem_count, 0);
                started.elapsed().as_secs_f64()
            })
            .collect(),
    );
    println!("decode + replay:      {:>12.0} records/s ({replay:.2} s)", records as f64 / replay);

    let dir = std::env::temp_dir().join(format!("kraftscope-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("00000000000000000000.log");
    std::fs::write(&path, &files[0].1).unwrap();
    let open = median(
        (0..RUNS)
            .map(|_| {
                let started = Instant::now();
                let files = read_tree(&[path.as_path()]).unwrap();
                let inspection = Inspection::of(&files);
                assert!(inspection.image.partition_count() > 0);
                started.elapsed().as_secs_f64()
            })
            .collect(),
    );
    std::fs::remove_dir_all(&dir).unwrap();
    println!("open a {mb:.0} MiB log natively (read, decode, replay): {open:.2} s");
}

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
use kraftscope::kafka_log::payload::Payload;
use kraftscope::kafka_log::reader::{BatchInfo, FileKind, LogEntry, Sink, read};
use kraftscope::kafka_log::simulation::to_payload;
use kraftscope::kafka_log::writer::{log_payload, put_batch};
use kraftscope::metadata::record::{
    MetadataRecord, PartitionChangeRecord, PartitionRecord, Replicas, broker_set,
};
use kraftscope::quorum::record::{LeaderChange, Record};

const RUNS: usize = 5;
const TARGET_BYTES: usize = 100 * 1024 * 1024;
const RECORDS_PER_BATCH: usize = 200;

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    values[values.len() / 2]
}

/// A segment being written: records gather in a batch, each batch appended at the next offset.
#[derive(Default)]
struct Segment {
    bytes: Vec<u8>,
    batch: Vec<Payload>,
    offset: i64,
    records: u64,
    /// The Unix time (ms) of time 0 in `flush`.
    start: i64,
}

impl Segment {
    fn push(&mut self, record: &MetadataRecord) {
        self.batch.push(to_payload(record));
    }

    /// Pushes `record`, appending the batch once it holds [`RECORDS_PER_BATCH`] records.
    fn push_batched(&mut self, record: &MetadataRecord, epoch: i32, time: i64) {
        self.push(record);
        if self.batch.len() >= RECORDS_PER_BATCH {
            self.flush(epoch, time);
        }
    }

    /// Broker `id` registers (fenced, as a new registration is) and is unfenced, in broker epoch
    /// `incarnation`.
    fn register(&mut self, id: u32, incarnation: u64) {
        self.push(&MetadataRecord::RegisterBroker {
            broker_id: id,
            broker_epoch: incarnation,
            incarnation,
            fenced: true,
            in_controlled_shutdown: false,
        });
        self.push(&MetadataRecord::UnfenceBroker { broker_id: id, broker_epoch: incarnation });
    }

    /// Appends the batch gathered (if any) in leader epoch `epoch`, stamped `time` ms after `start`.
    fn flush(&mut self, epoch: i32, time: i64) {
        if self.batch.is_empty() {
            return;
        }
        put_batch(&mut self.bytes, self.offset, epoch, self.start + time, &self.batch);
        self.offset += self.batch.len() as i64;
        self.records += self.batch.len() as u64;
        self.batch.clear();
    }

    /// A batch of its own holding `leader`'s LeaderChange, as a new leader appends it.
    fn leader_change(&mut self, epoch: i32, time: i64, leader: u32, granting: &[u32]) {
        let change = LeaderChange { leader, voters: CONTROLLERS.into(), granting: granting.into() };
        self.batch.push(log_payload(&Record::LeaderChange(change.into())));
        self.flush(epoch, time);
    }

    /// The active controller's NoOpRecord every 500 ms (`metadata.max.idle.interval.ms`) from
    /// `from` to before `to`.
    fn idle(&mut self, epoch: i32, from: i64, to: i64) {
        for time in (from..to).step_by(500) {
            self.push(&MetadataRecord::NoOp);
            self.flush(epoch, time);
        }
    }
}

/// The replicas of partition `partition` of topic `topic`, over brokers 101 to 132.
fn replicas_of(topic: u32, partition: u32) -> [u32; 3] {
    let r = |k: u32| 101 + (topic + partition + k) % 32;
    [r(0), r(1), r(2)]
}

/// The PartitionRecord of a new partition: all three replicas in the ISR, the first leads.
fn new_partition(topic: u32, partition: u32) -> MetadataRecord {
    let replicas = replicas_of(topic, partition);
    MetadataRecord::Partition(PartitionRecord {
        topic_id: topic,
        partition,
        replicas: Replicas::new(&replicas),
        isr: broker_set(replicas),
        leader: replicas[0] as i32,
        leader_epoch: 0,
        partition_epoch: 0,
    })
}

/// The PartitionChangeRecord that moves a partition's leadership from its first replica to the
/// second and drops the first from the ISR.
fn leader_moved(topic: u32, partition: u32) -> MetadataRecord {
    let replicas = replicas_of(topic, partition);
    MetadataRecord::PartitionChange(PartitionChangeRecord {
        topic_id: topic,
        partition,
        leader: replicas[1] as i32,
        isr: Some(broker_set([replicas[1], replicas[2]])),
        elr: None,
        last_known_elr: None,
    })
}

/// A segment of about 100 MB: brokers, then topics of 100 partitions (3 replicas), each
/// followed by leader and ISR changes, as a busy cluster's log holds.
fn hundred_megabytes() -> (Vec<u8>, u64) {
    let mut log = Segment { bytes: Vec::with_capacity(TARGET_BYTES + (1 << 20)), ..Segment::default() };
    for id in 101..=132u32 {
        log.register(id, u64::from(id));
    }
    let mut topic = 0u32;
    while log.bytes.len() < TARGET_BYTES {
        topic += 1;
        log.push(&MetadataRecord::Topic { name: format!("topic-{topic}").into(), topic_id: topic });
        for partition in 0..100u32 {
            log.push(&new_partition(topic, partition));
            log.push_batched(&leader_moved(topic, partition), 1, 0);
        }
    }
    log.flush(1, 0);
    (log.bytes, log.records)
}

/// The three controllers of the written cluster.
const CONTROLLERS: [u32; 3] = [3000, 3001, 3002];
/// The written cluster's first record: 2026-06-01 00:00:00 UTC.
const CLUSTER_START: i64 = 1_780_272_000_000;
/// Partitions per topic in the written cluster.
const PARTITIONS_PER_TOPIC: u32 = 1000;

/// The metadata log of a cluster of three controllers and 32 brokers holding `partitions`
/// partitions (topics of 1,000, three replicas each), with a known history on its own clock:
/// controller 3000 elected at 0 s, the brokers registered and the topics created by 60 s (a
/// NoOp every 500 ms while idle); broker 105 fenced at 120 s (every partition it led moves to
/// the next replica in its ISR) and registered again, restarted, at 130 s; controller 3000 dies
/// after 180 s and 3001 is elected at 183 s; at 240 s 3001 steps down and 3002 is elected at
/// 241.5 s in epoch 4 (epoch 3's election left no record); idle to 300 s.
fn cluster_log(partitions: u32) -> (Vec<u8>, u64) {
    let mut log = Segment { start: CLUSTER_START, ..Segment::default() };
    log.leader_change(1, 0, 3000, &CONTROLLERS[..2]);
    for id in 101..=132u32 {
        log.register(id, u64::from(id));
    }
    log.flush(1, 200);
    let topics = partitions.div_ceil(PARTITIONS_PER_TOPIC);
    let each = |topic: u32| 0..PARTITIONS_PER_TOPIC.min(partitions - (topic - 1) * PARTITIONS_PER_TOPIC);
    for topic in 1..=topics {
        let time = 1_000 + i64::from(topic) * 50_000 / i64::from(topics);
        log.push(&MetadataRecord::Topic { name: format!("topic-{topic}").into(), topic_id: topic });
        for partition in each(topic) {
            log.push_batched(&new_partition(topic, partition), 1, time);
        }
        log.flush(1, time);
    }
    log.idle(1, 60_000, 120_000);
    log.push(&MetadataRecord::FenceBroker { broker_id: 105, broker_epoch: 105 });
    log.flush(1, 120_000);
    for topic in 1..=topics {
        for partition in each(topic).filter(|p| replicas_of(topic, *p)[0] == 105) {
            log.push_batched(&leader_moved(topic, partition), 1, 120_010);
        }
    }
    log.flush(1, 120_010);
    log.idle(1, 120_500, 130_000);
    log.register(105, 1_105);
    log.flush(1, 130_000);
    log.idle(1, 130_500, 180_500);
    log.leader_change(2, 183_000, 3001, &CONTROLLERS[1..]);
    log.idle(2, 183_500, 240_000);
    log.leader_change(4, 241_500, 3002, &[3000, 3002]);
    log.idle(4, 242_000, 300_000);
    (log.bytes, log.records)
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
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--write-cluster") {
        let (Some(path), Some(Ok(partitions))) =
            (args.get(at + 1), args.get(at + 2).map(|n| n.parse::<u32>()))
        else {
            panic!("usage: cargo bench --bench kafka_log -- --write-cluster PATH PARTITIONS");
        };
        let (bytes, records) = cluster_log(partitions.max(1));
        std::fs::write(path, &bytes).unwrap_or_else(|e| panic!("cannot write {path}: {e}"));
        println!("{path}: a {partitions}-partition cluster's log, {} bytes, {records} records", bytes.len());
        return;
    }
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

//! Metadata image figures: records applied per second into a broker's image; time and heap bytes
//! to build a 2,000,000-partition image from a snapshot; wall time of the failover experiment.
//! Run: `cargo bench --bench metadata_image`. Prints medians over several runs.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use kraftscope::experiments::failover::{measure_kraft_failover, measure_zk_failover};
use kraftscope::metadata::image::MetadataImage;
use kraftscope::metadata::record::{MetadataRecord, NO_LEADER, PartitionChangeRecord};
use kraftscope::metadata::synthetic::{PARTITIONS_PER_TOPIC, dedicated_brokers, snapshot_records};
use kraftscope::zk::ZkCosts;

/// Counts the bytes currently allocated, to measure the image's memory.
struct Counting;

static ALLOCATED: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATED.fetch_add(layout.size(), Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        ALLOCATED.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATED.fetch_add(new_size, Ordering::Relaxed);
        ALLOCATED.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const RUNS: usize = 5;
const SNAPSHOT_PARTITIONS: u64 = 2_000_000;

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    values[values.len() / 2]
}

/// Build an image from decoded snapshot records; returns (seconds, heap bytes the image holds).
fn build_from_snapshot(records: &[MetadataRecord]) -> (f64, usize, MetadataImage) {
    let before = ALLOCATED.load(Ordering::Relaxed);
    let started = Instant::now();
    let mut image = MetadataImage::default();
    for record in records {
        image.apply(record).expect("snapshot records apply");
    }
    let seconds = started.elapsed().as_secs_f64();
    (seconds, ALLOCATED.load(Ordering::Relaxed) - before, image)
}

/// PartitionChangeRecords (leader moves) applied per second to a 100,000-partition image.
fn records_per_second() -> f64 {
    let snapshot: Vec<MetadataRecord> = snapshot_records(100_000, &dedicated_brokers(5)).collect();
    let mut image = MetadataImage::default();
    for record in &snapshot {
        image.apply(record).expect("snapshot records apply");
    }
    let changes: Vec<MetadataRecord> = (0..1_000_000u64)
        .map(|i| {
            let partition = (i % 100_000) as u32;
            let topic_id = (partition / PARTITIONS_PER_TOPIC as u32) + 1;
            let leader = if i % 2 == 0 { NO_LEADER } else { 101 + (i % 5) as i32 };
            let change = PartitionChangeRecord {
                topic_id,
                partition: partition % PARTITIONS_PER_TOPIC as u32,
                leader,
                isr: None,
                elr: None,
                last_known_elr: None,
            };
            MetadataRecord::PartitionChange(change)
        })
        .collect();
    let started = Instant::now();
    for record in &changes {
        image.apply(record).expect("change applies");
    }
    changes.len() as f64 / started.elapsed().as_secs_f64()
}

fn main() {
    let rates: Vec<f64> = (0..RUNS).map(|_| records_per_second()).collect();
    println!(
        "records applied into a broker image: median {:.0} records/s ({RUNS} runs of 1,000,000 PartitionChangeRecords)",
        median(rates)
    );

    let records: Vec<MetadataRecord> = snapshot_records(SNAPSHOT_PARTITIONS, &dedicated_brokers(5)).collect();
    let mut times = Vec::new();
    let mut bytes = 0;
    for _ in 0..RUNS {
        let (seconds, held, image) = build_from_snapshot(&records);
        assert_eq!(image.partition_count() as u64, SNAPSHOT_PARTITIONS);
        times.push(seconds);
        bytes = held;
    }
    println!(
        "2,000,000-partition image from a snapshot: median {:.3} s to build ({RUNS} runs), {} bytes of heap = {:.1} bytes per partition (target: < 1 s, <= 32 B)",
        median(times),
        bytes,
        bytes as f64 / SNAPSHOT_PARTITIONS as f64
    );

    let sizes = [1_000u64, 10_000, 100_000, 1_000_000, 2_000_000];
    let started = Instant::now();
    for partitions in sizes {
        measure_kraft_failover(partitions, 1).expect("KRaft failover completes");
        measure_zk_failover(partitions, &ZkCosts::async_reads(), 1).expect("ZooKeeper failover completes");
    }
    println!(
        "failover experiment (both modes, 1k to 2M partitions): {:.2} s of wall time",
        started.elapsed().as_secs_f64()
    );
}

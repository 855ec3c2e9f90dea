//! The sentences that describe a decoded log, shared by `kraftscope inspect` and the page.

use crate::util::format::counted;
use crate::util::small_map::SmallMap;

use super::image::{Broker, LogImage, Topic};
use super::inspect::Inspection;
use super::payload::Payload;
use super::reader::LogEntry;

/// "offsets A to B", or "no records".
pub fn offsets(first: Option<i64>, last: Option<i64>) -> String {
    match (first, last) {
        (Some(first), Some(last)) => format!("offsets {first} to {last}"),
        _ => "no records".into(),
    }
}

/// Batches, records and the log's offset range.
pub fn totals(inspection: &Inspection) -> String {
    if inspection.first_offset.is_none() {
        return format!(
            "{} in {} (snapshots only, no log segment)",
            counted(inspection.records, "record"),
            counted(inspection.batches, "batch")
        );
    }
    format!(
        "{} in {}, log {}",
        counted(inspection.records, "record"),
        counted(inspection.batches, "batch"),
        offsets(inspection.first_offset, inspection.last_offset)
    )
}

/// The leader epochs, at most `max` of them named.
pub fn epochs(inspection: &Inspection, max: usize) -> String {
    let spans = &inspection.epochs;
    if spans.is_empty() {
        return "leader epochs: none (no log segment)".into();
    }
    let mut named: Vec<String> = spans
        .iter()
        .take(max)
        .map(|e| format!("{} from offset {} ({})", e.epoch, e.first_offset, counted(e.batches, "batch")))
        .collect();
    if spans.len() > max {
        named.push(format!("and {} more", spans.len() - max));
    }
    format!("leader epochs: {}", named.join(", "))
}

/// A broker's state in words.
pub fn broker_state(broker: &Broker) -> &'static str {
    match (broker.fenced, broker.in_controlled_shutdown) {
        (_, true) => "in controlled shutdown",
        (true, false) => "fenced",
        (false, false) => "active",
    }
}

/// What a broker's registration says of ZooKeeper: that it is a ZooKeeper-mode broker in
/// migration mode (`IsMigratingZkBroker`), else nothing.
pub fn zk_mode(broker: &Broker) -> &'static str {
    if broker.migrating_zk_broker { ", a ZooKeeper-mode broker in migration mode" } else { "" }
}

/// A topic: its partitions, how many are offline and who leads the rest.
pub fn topic(uuid: &str, topic: &Topic) -> String {
    let mut led: SmallMap<i32, usize> = SmallMap::new();
    for p in topic.partitions.values() {
        *led.get_or_insert_with(p.leader, || 0) += 1;
    }
    let offline = led.remove(&-1).unwrap_or(0);
    let leaders: Vec<String> = led.iter().map(|(b, n)| format!("{n} on broker {b}")).collect();
    format!(
        "{} ({uuid}): {}, {offline} offline, leaders: {}",
        topic.name,
        counted(topic.partitions.len() as u64, "partition"),
        if leaders.is_empty() { "none".into() } else { leaders.join(", ") }
    )
}

/// metadata.version and the other finalized features.
pub fn features(image: &LogImage) -> String {
    let version = image.metadata_version().map_or("not set".to_string(), |v| format!("feature level {v}"));
    let others: Vec<String> = image
        .features
        .iter()
        .filter(|(n, _)| *n != "metadata.version")
        .map(|(n, l)| format!("{n}={l}"))
        .collect();
    let migration = image.zk_migration.map_or(String::new(), |state| {
        format!("; ZooKeeper migration {} ({})", state.name(), state.meaning())
    });
    if others.is_empty() {
        format!("metadata.version {version}{migration}")
    } else {
        format!("metadata.version {version}; {}{migration}", others.join(", "))
    }
}

/// Brokers, topics, partitions and offline partitions in one line.
pub fn image_totals(image: &LogImage) -> String {
    let offline: usize =
        image.topics.values().map(|t| t.partitions.values().filter(|p| p.leader < 0).count()).sum();
    format!(
        "{}, {}, {} ({offline} offline)",
        counted(image.brokers.len() as u64, "broker"),
        counted(image.topics.len() as u64, "topic"),
        counted(image.partition_count() as u64, "partition")
    )
}

/// A record: offset, epoch, type and fields (cut at `max` characters).
pub fn record(entry: &LogEntry, max: usize) -> String {
    let text = match &entry.payload {
        Payload::Control { value, .. } | Payload::Metadata { value, .. } => value.to_string(),
        _ => String::new(),
    };
    let mut fields: String = text.chars().take(max).collect();
    if fields.len() < text.len() {
        fields.push('…');
    }
    format!("offset {} (epoch {}): {} {fields}", entry.offset, entry.epoch, entry.payload.type_name())
}

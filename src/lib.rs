//! kraftscope: a deterministic simulation of Apache Kafka's KRaft metadata quorum, the same
//! core natively (tests, CLI, benchmarks) and in the browser.

pub mod broker_set;
pub mod check;
pub mod elections;
pub mod failover;
pub mod faults;
pub mod float;
pub mod format;
pub mod harness;
pub mod invariants;
pub mod kafka_log;
pub mod metadata;
pub mod page;
pub mod playback;
pub mod quorum;
pub mod race;
pub mod rng;
pub mod sabotage;
pub mod scenario;
pub mod session;
pub mod sim;
pub mod sizing;
pub mod small_map;
pub mod sort;
pub mod zk;

#[cfg(target_arch = "wasm32")]
mod web;

//! kraftscope: a deterministic simulation of Apache Kafka's KRaft metadata quorum, the same
//! core natively (tests, CLI, benchmarks) and in the browser.
//!
//! The modules in layers, bottom up: shared utilities; the harness both simulations run on; the
//! protocol models; the simulations and their checks; the experiments the command line and the
//! page run; the page; the front ends. A module uses its own layer and those below it, never one
//! above (each block of `mod` lines here is a layer: `cargo xtask lint` checks it).

// Shared utilities.
// Randomness, sorting, number parsing and printing, small maps, broker sets: no crate imports.
pub mod util;

// The harness.
// What the KRaft and ZooKeeper-mode simulations share: virtual time, the event queue, the trace.
pub mod harness;

// The protocol models.
// One KRaft node (Kafka 4.3.1) as a pure state machine: elections, replication, snapshots.
pub mod quorum;
// The metadata layer (KIP-631): records, the image, the active controller, the brokers.
pub mod metadata;
// Kafka's on-disk format of `__cluster_metadata`: batches, records, every metadata record type.
pub mod kafka_log;
// ZooKeeper mode, the baseline: znodes, sessions, watches and the controller that cold-loads.
pub mod zk;
// The bridge release's migration from ZooKeeper mode to KRaft (KIP-866, Kafka 3.9): the driver,
// the 3.9 controller's rules, and the two worlds run on one clock.
pub mod migration;

// The simulations and their checks.
// The discrete-event simulator running quorum nodes on virtual time over a lossy network.
pub mod sim;
// Safety properties of KRaft checked after every simulated event, one file per property.
pub mod invariants;
// The seed sweep behind `kraftscope check`: faults, checks after every event, sabotages.
pub mod sweep;
// Readable scenario scripts: directives in, expected trace out.
pub mod scenario;

// The experiments.
// Elections, failover (KRaft against ZooKeeper mode) and quorum sizing, measured.
pub mod experiments;
// The side-by-side failover the page animates, both clusters on one clock.
pub mod race;

// The session and the log reader.
// The page's live, replayable session: the cluster, the user's actions, the picture to draw.
pub mod session;
// The metadata-log reader: Kafka files and nodes' directories opened, summed up and replayed
// (the page's later views, and its Web Worker).
#[cfg(any(feature = "full", feature = "log-worker"))]
pub mod log_reader;

// The teaching content.
// The guided tour's stories, the predictions it asks, the chapters' self-checks and the key
// moments it waits for: what the page teaches, over the session and the models.
pub mod teaching;

// The drawing.
// Every SVG tree the page and the stills draw: the KRaft cluster, ZooKeeper mode, the grid, the
// migration, the still sheet, with their layouts and text fitting. It knows the session's
// pictures and nothing of the page.
pub mod drawing;

// The page.
// The page without the DOM: a reducer from actions to state and effects, tested natively.
pub mod page;

// The front ends (the command line, `src/cli/`, is declared in `src/main.rs`, above them all).
// The browser front end (wasm32 only): a Yew app over the same core.
#[cfg(all(target_arch = "wasm32", not(feature = "log-worker")))]
mod web;
// The metadata-log reader's Web Worker, a wasm of its own (wasm32, feature `log-worker`).
#[cfg(all(target_arch = "wasm32", feature = "log-worker"))]
mod log_worker;

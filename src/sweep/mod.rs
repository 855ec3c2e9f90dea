//! The seed sweep behind `kraftscope check`: random faults on random clusters, every invariant
//! checked after every event, and the deliberate bugs that show each check can fail.

// Deliberate bugs, switched on by name, that show each checker can fail.
pub mod sabotage;
// The kinds of fault the seed sweep injects, a random subset per seed (swarm testing).
pub mod faults;
// The sweep itself: one seed's cluster, faults and checks.
pub mod check;
// The migration from ZooKeeper mode (Kafka 3.9) under the swarm's faults.
pub mod migration;

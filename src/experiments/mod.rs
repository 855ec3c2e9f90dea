//! The experiments the command line and the page run on the simulations, each measured.

// The quorum events benchmark's workload, timed natively and in wasm by the caller.
pub mod events;
// How long a cluster is without a leader after the leader dies (the Raft paper's Fig. 16).
pub mod elections;
// The KIP-500 experiment: controller failover in KRaft and in ZooKeeper mode, measured over
// seeds and partition counts (`zk::failover` is ZooKeeper mode's failover itself).
pub mod failover;
// What each number of controllers buys and costs, measured.
pub mod sizing;

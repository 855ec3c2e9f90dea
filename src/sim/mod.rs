//! The discrete-event simulator that runs quorum nodes on virtual time over a lossy network.

pub mod error;
pub mod export;
pub mod network;
pub mod packet;
pub mod server;
pub mod simulation;
pub mod trace;

pub use error::ActionError;
pub use network::NetworkConfig;
pub use simulation::{ChaosCounts, ClusterConfig, FIRST_OBSERVER_ID, Simulation};
pub use trace::{TraceKind, TraceLine};

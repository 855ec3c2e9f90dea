//! The metadata layer (KIP-631): records in the quorum's log, the image every node builds by
//! replaying them, the active controller that writes them and the brokers that follow them.

pub mod acl;
pub mod bootstrap;
pub mod broker;
pub mod config;
pub mod controller;
pub mod image;
pub mod partitions;
pub mod placement;
pub mod record;
pub mod rpc;
pub mod state;
pub mod synthetic;
pub mod zk_migration;

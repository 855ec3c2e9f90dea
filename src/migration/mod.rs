//! The bridge release's migration from ZooKeeper mode to KRaft (KIP-866), as Kafka 3.9 implements
//! it: the states it passes through ([`state`]), the driver on the active KRaft controller that
//! walks them ([`driver`]), what it does to ZooKeeper ([`zk_client`]), the one-time copy's
//! reading ([`copy`]) and the 3.9 controller's own rules for it ([`controller`]). The
//! simulation that runs it against ZooKeeper, the quorum and the brokers on one clock builds on
//! these.

pub mod controller;
pub mod copy;
pub mod driver;
pub mod log;
pub mod phases;
pub mod picture;
pub mod scenarios;
pub mod sim;
pub mod state;
pub mod timeline;
pub mod zk_client;

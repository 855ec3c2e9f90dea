//! What travels on the simulated network: quorum RPCs between nodes, and controller RPCs
//! between brokers and the active controller.

use std::fmt;

use crate::metadata::rpc::ControllerRpc;
use crate::metadata::state::MetadataMessage;
use crate::quorum::NodeId;

/// A message's content.
#[derive(Clone, Debug)]
pub enum Payload {
    Quorum(MetadataMessage),
    Controller(ControllerRpc),
}

impl Payload {
    /// The RPC's name.
    pub fn kind(&self) -> &'static str {
        match self {
            Payload::Quorum(m) => m.kind(),
            Payload::Controller(rpc) => rpc.kind(),
        }
    }
}

impl fmt::Display for Payload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Payload::Quorum(m) => m.fmt(f),
            Payload::Controller(rpc) => rpc.fmt(f),
        }
    }
}

/// A message on the wire, with the correlation id of a quorum RPC's header (0 for the
/// controller RPCs, which do not model theirs).
#[derive(Clone, Debug)]
pub struct Packet {
    pub from: NodeId,
    pub to: NodeId,
    pub payload: Payload,
    pub correlation: u64,
}

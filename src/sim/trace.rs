//! The one-line-per-event trace that tests, the CLI and the UI's event log all read.

use std::fmt;

use crate::harness::format_time;
use crate::metadata::broker::BrokerLifecycle;
use crate::quorum::{NodeId, Note};

use super::network::Loss;
use super::packet::Packet;

/// One line of the trace.
pub type TraceLine = crate::harness::TraceLine<TraceKind>;

/// What happened.
#[derive(Clone, Debug)]
pub enum TraceKind {
    /// A message arrived (in order, before one sent earlier, or as a second copy).
    Deliver(Packet, Arrival),
    /// A message was lost on the way, or its receiver was down.
    Lost { packet: Packet, why: LostBecause },
    /// A node's timer fired.
    Timer(NodeId),
    /// A node changed in a notable way.
    Note(Note),
    /// A broker's lifecycle state changed (Kafka's `BrokerState`).
    Lifecycle(NodeId, BrokerLifecycle),
    /// A user or fault-injector action.
    Action(String),
}

/// How a message arrived: in the order sent, as TCP delivers, or through a chaos switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    InOrder,
    /// Before a message sent earlier on its link (reordering).
    Overtook,
    /// A second copy, after the first (duplication).
    Duplicate,
}

/// Why a message did not arrive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LostBecause {
    Network(Loss),
    ReceiverDown,
}

impl TraceLine {
    /// Whether this line is a state change or an action rather than message traffic.
    pub(crate) fn is_notable(&self) -> bool {
        matches!(self.kind, TraceKind::Note(_) | TraceKind::Lifecycle(..) | TraceKind::Action(_))
    }

    /// The nodes this line is about (sender and receiver for messages).
    pub(crate) fn nodes(&self) -> (Option<NodeId>, Option<NodeId>) {
        match &self.kind {
            TraceKind::Deliver(e, _) | TraceKind::Lost { packet: e, .. } => (Some(e.from), Some(e.to)),
            TraceKind::Timer(n) | TraceKind::Lifecycle(n, _) => (Some(*n), None),
            TraceKind::Note(note) => (Some(note.node), None),
            TraceKind::Action(_) => (None, None),
        }
    }
}

impl fmt::Display for TraceLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:>13} {}", format_time(self.at), self.kind)
    }
}

/// What happened, without when.
impl fmt::Display for TraceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceKind::Deliver(e, arrival) => {
                write!(f, "n{} -> n{} {}", e.from, e.to, e.payload)?;
                match arrival {
                    Arrival::InOrder => Ok(()),
                    Arrival::Overtook => write!(f, " (overtook a message sent before it)"),
                    Arrival::Duplicate => write!(f, " (a duplicate: its second copy)"),
                }
            }
            TraceKind::Lost { packet: e, why } => {
                let why = match why {
                    LostBecause::Network(Loss::Cut) => "link cut",
                    LostBecause::Network(Loss::Dropped) => "dropped",
                    LostBecause::Network(Loss::Reset) => "connection reset",
                    LostBecause::ReceiverDown => "receiver down",
                };
                write!(f, "n{} -x n{} {} lost ({why})", e.from, e.to, e.payload.kind())
            }
            TraceKind::Timer(n) => write!(f, "n{n} timer"),
            TraceKind::Note(note) => write!(f, "{note}"),
            TraceKind::Lifecycle(n, state) => write!(f, "n{n} is now {state}"),
            TraceKind::Action(text) => write!(f, "** {text}"),
        }
    }
}

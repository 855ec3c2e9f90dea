//! Why the simulation refused an operator's action or an admin request.

use std::fmt;

use crate::metadata::broker::AlreadyShuttingDown;
use crate::metadata::controller::AdminError;
use crate::quorum::NodeId;
use crate::quorum::node::NotLeading;
use crate::quorum::reconfig::ReconfigError;

/// An action the cluster could not carry out; it changed nothing but, for an admin request,
/// the trace line saying it was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum ActionError {
    /// No server has this id.
    NoSuchNode(NodeId),
    /// A crash of a server that is down.
    AlreadyDown(NodeId),
    /// A restart of a server that runs.
    AlreadyRunning(NodeId),
    /// A resignation with no leader to resign.
    NoLeader,
    /// The leader's server stopped before it could resign.
    LeaderDown,
    /// The node asked to resign does not lead.
    NotLeading(NotLeading),
    /// An admin request with no active controller to take it.
    NoActiveController,
    /// The active controller's server stopped before it could take the request.
    ControllerDown,
    /// The active controller refused the request.
    Refused(AdminError),
    /// A controlled shutdown of a server that is down (or does not exist).
    NotRunning(NodeId),
    /// A controlled shutdown of a controller.
    NotABroker(NodeId),
    /// A controlled shutdown of a broker already shutting down.
    ShuttingDown(AlreadyShuttingDown),
    /// A quorum action (add or remove a voter, wipe a disk) on a broker.
    NotAController(NodeId),
    /// The active controller refused a change of the voter set.
    Reconfig(ReconfigError),
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActionError::NoSuchNode(id) => write!(f, "no node n{id}"),
            ActionError::AlreadyDown(id) => write!(f, "n{id} is already down"),
            ActionError::AlreadyRunning(id) => write!(f, "n{id} is already running"),
            ActionError::NoLeader => write!(f, "there is no leader"),
            ActionError::LeaderDown => write!(f, "leader is down"),
            ActionError::NotLeading(error) => fmt::Display::fmt(error, f),
            ActionError::NoActiveController => write!(f, "no active controller"),
            ActionError::ControllerDown => write!(f, "the active controller is down"),
            ActionError::Refused(error) => fmt::Display::fmt(error, f),
            ActionError::NotRunning(id) => write!(f, "n{id} is not running"),
            ActionError::NotABroker(id) => write!(f, "n{id} is not a broker"),
            ActionError::ShuttingDown(error) => fmt::Display::fmt(error, f),
            ActionError::NotAController(id) => write!(f, "n{id} is a broker, not a controller"),
            ActionError::Reconfig(error) => fmt::Display::fmt(error, f),
        }
    }
}

impl std::error::Error for ActionError {}

impl From<NotLeading> for ActionError {
    fn from(error: NotLeading) -> Self {
        ActionError::NotLeading(error)
    }
}

impl From<AdminError> for ActionError {
    fn from(error: AdminError) -> Self {
        ActionError::Refused(error)
    }
}

impl From<AlreadyShuttingDown> for ActionError {
    fn from(error: AlreadyShuttingDown) -> Self {
        ActionError::ShuttingDown(error)
    }
}

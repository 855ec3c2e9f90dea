//! The boundary between the quorum and what it replicates: entries the quorum treats as opaque
//! and the state machine it hands committed entries to, in offset order (Kafka's
//! `RaftClient.Listener.handleCommit`; a fetched snapshot replaces the state, `handleLoadSnapshot`).

use std::fmt;

/// An entry the quorum replicates without looking inside: it only needs a fingerprint to
/// compare logs, a size for snapshots and fetch limits, and a name for traces.
pub trait Payload: Clone + fmt::Debug + fmt::Display + PartialEq {
    /// A stable 64-bit fingerprint of the content, folded into the applied state's digest.
    fn fingerprint(&self) -> u64;
    /// Approximate serialized size in bytes.
    fn size_bytes(&self) -> u64;
    /// A short name for traces and the UI.
    fn kind(&self) -> &'static str;
}

/// What a node builds by applying committed entries in order.
pub trait StateMachine: Clone + fmt::Debug + Default + PartialEq {
    /// The entries this state machine is built from.
    type Entry: Payload;
    /// Why an entry could not be applied (Kafka treats it as fatal).
    type Error: Clone + fmt::Debug + fmt::Display + PartialEq;
    /// Apply one committed entry.
    fn apply(&mut self, entry: &Self::Entry) -> Result<(), Self::Error>;
    /// Serialized size of the state inside a snapshot.
    fn size_bytes(&self) -> u64;
}

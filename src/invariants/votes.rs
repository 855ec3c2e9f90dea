//! One vote per voter and epoch, across restarts (Raft §5.2, and the reason Kafka writes the
//! quorum-state file before answering a Vote): a voter that voted for one candidate in an
//! epoch never votes for another in that epoch, even after a crash.

use super::names;
use super::{Violation, violation};
use crate::quorum::{Epoch, NodeId};
use crate::sim::Simulation;
use crate::util::small_map::SmallMap;

/// The vote each voter was first seen holding in each epoch.
#[derive(Clone, Default)]
pub struct VotesPerEpoch {
    votes: SmallMap<(NodeId, Epoch), NodeId>,
}

impl VotesPerEpoch {
    pub(crate) fn check(&mut self, sim: &Simulation) -> Result<(), Violation> {
        for node in sim.running_nodes().filter(|n| n.is_voter()) {
            let Some(vote) = node.voted_for() else { continue };
            let first = *self.votes.get_or_insert_with((node.id(), node.epoch()), || vote);
            if first != vote {
                return violation(
                    names::ONE_VOTE_PER_EPOCH,
                    format!(
                        "n{} voted for n{first} and then for n{vote} in epoch {}",
                        node.id(),
                        node.epoch()
                    ),
                );
            }
        }
        Ok(())
    }
}

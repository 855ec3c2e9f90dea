//! What screen readers are told as the cluster changes: a new leader, a broker fenced or
//! unfenced.

use crate::quorum::NodeId;
use crate::sim::Simulation;

/// The last state announced, and the latest announcement.
#[derive(Clone, Debug, Default)]
pub struct Announcer {
    leader: Option<(NodeId, u32)>,
    fenced: Vec<NodeId>,
    pub text: String,
}

impl Announcer {
    /// Compare `sim` with what was last announced; a change becomes the new announcement.
    pub fn observe(&mut self, sim: &Simulation) {
        let leader = sim.leader().map(|l| (l.id(), l.epoch()));
        let fenced: Vec<NodeId> = sim
            .leader()
            .map(|l| {
                l.applied()
                    .state
                    .image
                    .brokers()
                    .iter()
                    .filter(|(_, b)| b.fenced)
                    .map(|(id, _)| *id)
                    .collect()
            })
            .unwrap_or_default();
        let mut news = Vec::new();
        if leader != self.leader {
            if let Some((id, epoch)) = leader {
                news.push(format!("New leader n{id}, epoch {epoch}."));
            }
            self.leader = leader;
        }
        news.extend(
            fenced.iter().filter(|b| !self.fenced.contains(b)).map(|b| format!("Broker n{b} fenced.")),
        );
        news.extend(
            self.fenced
                .iter()
                .filter(|b| !fenced.contains(b) && sim.node(**b).is_some())
                .map(|b| format!("Broker n{b} unfenced.")),
        );
        self.fenced = fenced;
        if !news.is_empty() {
            self.text = news.join(" ");
        }
    }
}

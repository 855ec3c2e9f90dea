//! What an operator's tools say of the simulated cluster, beside what the drawing shows: the
//! active controller's `DescribeQuorum` answer as `kafka-metadata-quorum describe
//! --replication` prints it, and the "controller" a broker names when an admin tool asks it
//! `DescribeCluster` (Kafka 4.3.1), which under KRaft is not the active controller.

use crate::harness::{MS, Micros};
use crate::kafka_log::quorum::QuorumDescription;
use crate::quorum::{Epoch, NodeId};
use crate::sim::Simulation;
use crate::util::hash::mix;

/// A broker's answer to `DescribeCluster`: which broker was asked and the controller id it
/// gave, `None` for Kafka's `-1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BrokerAnswer {
    pub asked: NodeId,
    pub controller: Option<NodeId>,
}

/// The admin tools' view of the cluster at one moment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AdminTools {
    /// The active controller and its epoch.
    pub active: Option<(NodeId, Epoch)>,
    /// The active controller's `DescribeQuorum` answer (`LeaderState.describeQuorum`).
    pub described: Option<QuorumDescription>,
    /// `DescribeCluster` asked of a broker; `None` while no broker runs.
    pub broker_answer: Option<BrokerAnswer>,
}

impl AdminTools {
    pub fn of(sim: &Simulation) -> AdminTools {
        let leader = sim.leader();
        AdminTools {
            active: leader.map(|l| (l.id(), l.epoch())),
            described: leader.and_then(|l| QuorumDescription::of_leader(l, sim.now())),
            broker_answer: broker_answer(sim),
        }
    }

    /// The active controller, and what an admin tool asking a broker is told instead.
    pub fn controller_text(&self) -> String {
        let mut text = match self.active {
            Some((id, epoch)) => format!("Active controller: n{id}, epoch {epoch}."),
            None => "No active controller now.".to_string(),
        };
        let Some(BrokerAnswer { asked, controller }) = self.broker_answer else {
            text.push_str(" No broker runs, so no admin tool can ask one DescribeCluster.");
            return text;
        };
        let named = match controller {
            Some(id) if self.active.is_some_and(|(active, _)| active == id) => {
                format!("n{id} (by chance the combined node that runs the active controller)")
            }
            Some(id) => format!("n{id}"),
            None => "-1 (no unfenced broker in its image)".to_string(),
        };
        text.push_str(&format!(
            " Admin tools asking broker n{asked} (DescribeCluster) are told the controller is {named}: a broker answers with a random unfenced broker, new for each request (KafkaApis.handleDescribeCluster); only a controller (--bootstrap-controller) names the active one."
        ));
        text
    }
}

/// How often the page's simulated admin tool asks again.
const ASKED_EVERY: Micros = 1_000 * MS;

/// Kafka 4.3.1: a broker answers `DescribeCluster` (`KafkaApis.handleDescribeCluster`) and
/// `Metadata` with `KRaftMetadataCache.getRandomAliveBrokerId`: a broker drawn at random from the
/// unfenced brokers of its own image, -1 with none; never the active controller as such
/// (`ControllerApis.handleDescribeCluster` names it, asked of a controller). The page asks the
/// first running broker (a tool's bootstrap server) once a simulated second; the draw is a hash
/// of that second, not of a random stream, so a replay gives the same answers.
fn broker_answer(sim: &Simulation) -> Option<BrokerAnswer> {
    let asked = sim.running_nodes().find(|n| sim.runs_broker(n.id()))?;
    let image = &asked.applied().state.image;
    let alive: Vec<NodeId> = image.brokers().iter().filter(|(_, b)| !b.fenced).map(|(id, _)| *id).collect();
    let draw = mix((sim.now() / ASKED_EVERY) ^ (u64::from(asked.id()) << 32));
    let controller = (!alive.is_empty()).then(|| alive[(draw % alive.len() as u64) as usize]);
    Some(BrokerAnswer { asked: asked.id(), controller })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Settings;

    fn sim(settings: Settings, until_ms: u64) -> Simulation {
        let mut sim = Simulation::new(settings.cluster_config(), 4);
        sim.run_until(until_ms * MS);
        sim
    }

    /// The broker's answer is one of its image's unfenced brokers, never a dedicated
    /// controller; over a minute of asking it names more than one broker.
    #[test]
    fn a_broker_names_a_random_unfenced_broker_not_the_controller() {
        let mut sim = sim(Settings { brokers: 3, ..Settings::default() }, 20_000);
        let mut named = Vec::new();
        for second in 20..80 {
            sim.run_until(second * 1_000 * MS);
            let tools = AdminTools::of(&sim);
            let answer = tools.broker_answer.expect("a broker runs");
            let controller = answer.controller.expect("unfenced brokers after 20 s");
            assert!(sim.runs_broker(controller), "n{controller} is a broker");
            assert_ne!(Some(controller), tools.active.map(|(id, _)| id));
            named.push(controller);
        }
        named.sort_unstable();
        named.dedup();
        assert!(named.len() > 1, "a random draw, not one broker: {named:?}");
    }

    /// With no broker running there is no one to ask; before any broker is unfenced the answer
    /// is Kafka's -1.
    #[test]
    fn no_broker_or_none_unfenced_is_said() {
        let none = AdminTools::of(&sim(Settings { brokers: 0, ..Settings::default() }, 5_000));
        assert_eq!(none.broker_answer, None);
        assert!(none.controller_text().contains("No broker runs"), "{}", none.controller_text());
        let early = AdminTools::of(&sim(Settings { brokers: 2, ..Settings::default() }, 1));
        let answer = early.broker_answer.expect("a broker process runs from the start");
        assert_eq!(answer.controller, None);
        assert!(early.controller_text().contains("-1 (no unfenced broker"), "{}", early.controller_text());
    }
}

//! The events the page posts to its host, one JSON object each, named by its `event` field:
//! `{"event": "leader-elected", "leader": 2, "epoch": 3, "at_ms": 4021}`. Cluster events come
//! from comparing two successive observations of the simulation. (Screen readers hear the
//! drawing's own summary, `session::summary`, when the situation changes.)

use serde::Serialize;

use crate::harness::{MS, Micros};
use crate::quorum::NodeId;
use crate::race::FailoverRace;
use crate::session::SeenViolation;
use crate::sim::Simulation;
use crate::util::small_map::SmallSet;

/// The version of the message schema, sent in the `ready` event.
pub const API_VERSION: u32 = 1;

/// Something the host page may want to react to.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum HostEvent {
    /// The page is listening for commands.
    Ready {
        api: u32,
    },
    /// A controller became the active controller (the quorum's leader).
    LeaderElected {
        leader: NodeId,
        epoch: u32,
        at_ms: u64,
    },
    /// The highest epoch among the running controllers went up (an election began).
    EpochBumped {
        epoch: u32,
        at_ms: u64,
    },
    /// The leader's high watermark moved up: records below `offset` are committed.
    HighWatermarkAdvanced {
        leader: NodeId,
        offset: u64,
        at_ms: u64,
    },
    /// The voter set of the active controller's log changed (`pending`: its VotersRecord is not
    /// committed yet), or its latest change committed.
    VotersChanged {
        voters: Vec<NodeId>,
        pending: bool,
        at_ms: u64,
    },
    BrokerFenced {
        broker: NodeId,
        at_ms: u64,
    },
    BrokerUnfenced {
        broker: NodeId,
        at_ms: u64,
    },
    /// The failover race is over: both stopwatches, in simulated milliseconds.
    FailoverFinished {
        partitions: u64,
        kraft_ms: u64,
        zookeeper_ms: u64,
    },
    /// A checked invariant broke (the page pauses on it).
    InvariantBroken {
        invariant: String,
        detail: String,
        at_ms: u64,
    },
    /// A message was refused (malformed, out of range, or not possible now); the page goes on.
    Error {
        error: String,
    },
}

/// What the events are computed from: one moment of the live cluster.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Observation {
    at: Micros,
    leader: Option<(NodeId, u32)>,
    /// The highest epoch among the running controllers.
    epoch: u32,
    high_watermark: Option<u64>,
    /// The voters of the active controller's latest voter set, and whether it is uncommitted
    /// (unknown without a leader).
    voters: Option<(Vec<NodeId>, bool)>,
    /// The brokers fenced in the leader's metadata image (unknown without a leader).
    fenced: Option<SmallSet<NodeId>>,
    running: SmallSet<NodeId>,
    violation: Option<(String, String)>,
}

impl Observation {
    /// The cluster as it is now, with the first broken invariant if any.
    pub(crate) fn of(sim: &Simulation, violation: Option<&SeenViolation>) -> Observation {
        let leader = sim.leader();
        Observation {
            at: sim.now(),
            leader: leader.map(|l| (l.id(), l.epoch())),
            epoch: sim.running_nodes().filter(|n| n.is_voter()).map(|n| n.epoch()).max().unwrap_or(0),
            high_watermark: leader.and_then(|l| l.high_watermark()),
            voters: leader.map(|l| (l.voter_set().ids().collect(), l.voter_set() != l.committed_voter_set())),
            fenced: leader.map(|l| {
                l.applied()
                    .state
                    .image
                    .brokers()
                    .iter()
                    .filter(|(_, b)| b.fenced)
                    .map(|(id, _)| *id)
                    .collect()
            }),
            running: sim.running_nodes().map(|n| n.id()).collect(),
            violation: violation.map(|v| (v.violation.invariant.to_string(), v.violation.detail.clone())),
        }
    }

    /// The events between an earlier observation and this one, in a fixed order.
    pub(crate) fn events_since(&self, before: &Observation) -> Vec<HostEvent> {
        let at_ms = self.at / MS;
        let mut events = Vec::new();
        if self.epoch > before.epoch {
            events.push(HostEvent::EpochBumped { epoch: self.epoch, at_ms });
        }
        if let Some((leader, epoch)) = self.leader.filter(|l| Some(*l) != before.leader) {
            events.push(HostEvent::LeaderElected { leader, epoch, at_ms });
        }
        if let (Some((leader, _)), Some(offset)) = (self.leader, self.high_watermark)
            && self.high_watermark > before.high_watermark
        {
            events.push(HostEvent::HighWatermarkAdvanced { leader, offset, at_ms });
        }
        if let (Some((voters, pending)), Some(was)) = (&self.voters, &before.voters)
            && (voters, pending) != (&was.0, &was.1)
        {
            events.push(HostEvent::VotersChanged { voters: voters.clone(), pending: *pending, at_ms });
        }
        if let (Some(now), Some(was)) = (&self.fenced, &before.fenced) {
            let fenced = now
                .iter()
                .filter(|b| !was.contains(b))
                .map(|&broker| HostEvent::BrokerFenced { broker, at_ms });
            events.extend(fenced);
            let unfenced = was.iter().filter(|b| !now.contains(b) && self.running.contains(b));
            events.extend(unfenced.map(|&broker| HostEvent::BrokerUnfenced { broker, at_ms }));
        }
        if let Some((invariant, detail)) = self.violation.clone().filter(|_| before.violation.is_none()) {
            events.push(HostEvent::InvariantBroken { invariant, detail, at_ms });
        }
        events
    }
}

impl HostEvent {
    /// The race's result, once both sides are back.
    pub fn failover_finished(race: &FailoverRace) -> Option<HostEvent> {
        Some(HostEvent::FailoverFinished {
            partitions: race.partitions(),
            kraft_ms: race.kraft_recovered_after()? / MS,
            zookeeper_ms: race.zk_report()?.brokers_updated_after / MS,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{HostEvent, Observation};
    use crate::harness::MS;
    use crate::session::{Action, Session, Settings};

    /// Every event seen while `session` runs to `until_ms`, observing after every event.
    fn run(session: &mut Session, until_ms: u64, seen: &mut Observation) -> Vec<HostEvent> {
        let mut events = Vec::new();
        while session.now() < until_ms * MS && session.step() {
            let now = Observation::of(session.sim(), session.violation());
            events.extend(now.events_since(seen));
            *seen = now;
        }
        events
    }

    fn kinds(events: &[HostEvent]) -> Vec<&'static str> {
        events
            .iter()
            .map(|e| match e {
                HostEvent::EpochBumped { .. } => "epoch",
                HostEvent::LeaderElected { .. } => "leader",
                HostEvent::HighWatermarkAdvanced { .. } => "hw",
                HostEvent::BrokerFenced { .. } => "fenced",
                HostEvent::BrokerUnfenced { .. } => "unfenced",
                HostEvent::InvariantBroken { .. } => "invariant",
                _ => "other",
            })
            .collect()
    }

    #[test]
    fn an_election_bumps_the_epoch_then_elects_then_commits() {
        let mut session = Session::new(Settings { seed: 7, ..Settings::default() });
        let mut seen = Observation::default();
        let events = run(&mut session, 3_000, &mut seen);
        let kinds = kinds(&events);
        let first =
            |k: &str| kinds.iter().position(|x| *x == k).unwrap_or_else(|| panic!("no {k}: {kinds:?}"));
        assert!(first("epoch") < first("leader") && first("leader") < first("hw"), "{kinds:?}");
        let leader = session.sim().leader().map(|l| (l.id(), l.epoch()));
        let elected = events.iter().find_map(|e| match e {
            HostEvent::LeaderElected { leader, epoch, .. } => Some((*leader, *epoch)),
            _ => None,
        });
        assert_eq!(elected, leader, "the event names the leader the cluster has");
        // Brokers register fenced and are unfenced once caught up; only those are announced.
        assert!(kinds.contains(&"unfenced"), "{kinds:?}");
        assert!(!kinds.contains(&"invariant"));

        // Nothing changes between an observation and itself.
        assert!(seen.events_since(&seen).is_empty());
    }

    #[test]
    fn killing_the_leader_elects_another_at_a_higher_epoch() {
        let mut session = Session::new(Settings { seed: 7, ..Settings::default() });
        let mut seen = Observation::default();
        run(&mut session, 3_000, &mut seen);
        let (old, epoch) = seen.leader.expect("a leader");
        session.act(Action::KillLeader).expect("kill");
        let events = run(&mut session, 9_000, &mut seen);
        let elected = events.iter().find_map(|e| match e {
            HostEvent::LeaderElected { leader, epoch, .. } => Some((*leader, *epoch)),
            _ => None,
        });
        let (new, new_epoch) = elected.expect("a new leader");
        assert!(new != old && new_epoch > epoch, "{events:?}");
    }

    #[test]
    fn an_isolated_broker_is_fenced() {
        let mut session = Session::new(Settings { seed: 3, ..Settings::default() });
        let mut seen = Observation::default();
        run(&mut session, 4_000, &mut seen);
        session.act(Action::Isolate(101)).expect("isolate");
        let events = run(&mut session, 16_000, &mut seen);
        assert!(
            events.iter().any(|e| matches!(e, HostEvent::BrokerFenced { broker: 101, .. })),
            "{events:?}"
        );
    }

    #[test]
    fn a_broken_invariant_is_reported_once() {
        let mut sabotage = crate::sweep::sabotage::Sabotage::default();
        sabotage.enable("hw-on-minority").expect("known");
        let mut session = Session::new(Settings { seed: 1, sabotage, ..Settings::default() });
        let mut seen = Observation::default();
        let events = run(&mut session, 30_000, &mut seen);
        let broken: Vec<_> =
            events.iter().filter(|e| matches!(e, HostEvent::InvariantBroken { .. })).collect();
        assert_eq!(broken.len(), 1, "{events:?}");
    }

    #[test]
    fn events_serialise_with_their_kebab_case_name() {
        let json = serde_json::to_string(&HostEvent::FailoverFinished {
            partitions: 1000,
            kraft_ms: 2900,
            zookeeper_ms: 9100,
        })
        .expect("serialises");
        assert_eq!(
            json,
            r#"{"event":"failover-finished","partitions":1000,"kraft_ms":2900,"zookeeper_ms":9100}"#
        );
        let json = serde_json::to_string(&HostEvent::Error { error: "x".into() }).expect("serialises");
        assert_eq!(json, r#"{"event":"error","error":"x"}"#);
    }

    #[test]
    fn a_finished_race_reports_both_stopwatches() {
        let mut race = crate::race::FailoverRace::with_roles(
            1_000,
            1,
            crate::experiments::failover::KraftRoles::DEDICATED,
        )
        .expect("race");
        while race.prepare(100_000).is_ok() && !matches!(race.stage(), crate::race::RaceStage::Ready) {}
        assert_eq!(HostEvent::failover_finished(&race), None);
        race.kill().expect("kill");
        while !race.finished() {
            race.advance(100 * MS);
        }
        let Some(HostEvent::FailoverFinished { partitions, kraft_ms, zookeeper_ms }) =
            HostEvent::failover_finished(&race)
        else {
            panic!("finished");
        };
        assert_eq!(partitions, 1_000);
        assert_eq!(kraft_ms, race.kraft_recovered_after().expect("kraft") / MS);
        assert!(zookeeper_ms > kraft_ms, "{kraft_ms} vs {zookeeper_ms}");
    }
}

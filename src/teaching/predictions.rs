//! Predict, then watch: a tour step can pause just before its key moment and ask what will
//! happen. The expected answer is read from the step's own trace as the page plays it (opening,
//! then on to its end), never typed in, so a change to the model cannot leave a wrong "correct"
//! answer behind. The failover race's question ([`RACE_PREDICTION`]) is answered on a slider and
//! read from the race itself as it finishes.

use std::collections::BTreeMap;

use crate::harness::{MS, Micros};
use crate::quorum::outbox::NoteKind;
use crate::quorum::{Message, NodeId, RoleKind};
use crate::race::FailoverRace;
use crate::sim::TraceKind;
use crate::sim::packet::Payload;

use super::stories::{self, Story};
use crate::session::Session;

/// What a question asks for, and so how it is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// The controller that will lead next (answered by clicking it, or its button).
    NextLeader,
    /// The epoch the next leader will lead.
    NextEpoch,
    /// Whether this node, when its links heal, makes the leader of the asking moment step down.
    Disrupts { node: NodeId },
    /// Up to which offset the deposed leader keeps its log (the offset it truncates to).
    KeepsUpTo,
    /// The offset this node's first Fetch asks for after its restart.
    FetchesFrom { node: NodeId },
    /// Whether the voters still running elect a leader again.
    LeaderAgain,
}

/// An answer: a node, a number (an epoch or an offset), or yes or no.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Node(NodeId),
    Number(u64),
    Yes(bool),
}

/// One question of the tour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prediction {
    /// The tour step (story id) it belongs to.
    pub story: &'static str,
    /// The simulated millisecond the step pauses at to ask: after its set-up, before its key
    /// moment.
    pub asks_at_ms: u64,
    pub question: &'static str,
    pub ask: Ask,
    /// Why it goes the way it goes: said with the verdict.
    pub why: &'static str,
}

/// What the step played: the answer, when it could be seen, and how many split votes (two
/// candidates or more in one epoch) came before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub answer: Answer,
    pub at: Micros,
    pub split_votes: usize,
    /// The first and last epoch whose vote split.
    pub split_epochs: Option<(u32, u32)>,
}

/// A question whose options are words (the migration's, the pains'), as a run plays it: when it
/// asks, the options, the answer (one of the option labels where the run played one of them)
/// and when the trace showed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WordedOutcome {
    pub asks_at: Micros,
    pub options: Vec<String>,
    pub answer: String,
    pub at: Micros,
}

/// The tour's questions, in tour order.
pub const PREDICTIONS: [Prediction; 8] = [
    Prediction {
        story: "first-election",
        asks_at_ms: 0,
        question: "Three controllers have just started, none of them leads. Which one will become the leader?",
        ask: Ask::NextLeader,
        why: "Each controller waits a random election timeout; the first to run out asks for pre-votes, then votes, and wins with a majority. The arc around each node shows its timeout running down.",
    },
    Prediction {
        story: "leader-crash",
        asks_at_ms: 4_050,
        question: "The active controller has just been killed. Which epoch will the next leader lead?",
        ask: Ask::NextEpoch,
        why: "A candidate bumps the epoch by one when it asks for votes (after its pre-vote, which keeps the epoch), and with a majority it leads that epoch.",
    },
    Prediction {
        story: "pre-vote",
        asks_at_ms: 3_050,
        question: "n3 has just been cut off, with pre-vote on. When its links heal at 13 s, will it make the healthy leader step down?",
        ask: Ask::Disrupts { node: 3 },
        why: "With pre-vote (KIP-996) n3 only asks whether the others would vote for it, without bumping its epoch; nobody could answer, so when it returns its epoch is the leader's and it follows again.",
    },
    Prediction {
        story: "no-pre-vote",
        asks_at_ms: 3_050,
        question: "The same cut, with pre-vote off. When n3's links heal at 13 s, will it make the healthy leader step down?",
        ask: Ask::Disrupts { node: 3 },
        why: "Without pre-vote n3 becomes a candidate each time its timeout runs out, bumping its epoch; its higher epoch reaches the leader when the links heal, and the leader has to step down.",
    },
    Prediction {
        story: "divergence",
        asks_at_ms: 8_500,
        question: "The deposed leader appended records no one else has. When the links heal, how much of its log will it keep?",
        ask: Ask::KeepsUpTo,
        why: "Its Fetch names its last epoch; the new leader answers DivergingEpoch with where that epoch ends in its own log, and the old leader truncates there: what it appended alone was never committed.",
    },
    Prediction {
        story: "broker-restart",
        asks_at_ms: 5_400,
        question: "Broker n101 is down and another topic is about to be created. When n101 restarts, from which offset will it fetch?",
        ask: Ask::FetchesFrom { node: 101 },
        why: "A broker keeps its copy of the metadata log on disk: it rebuilds its image from it and fetches from where its log ends, only what it missed.",
    },
    Prediction {
        story: "broker-power-loss",
        asks_at_ms: 4_950,
        question: "Broker n101's power is about to fail, and another topic will be created while it is down. When n101 restarts, from which offset will it fetch?",
        ask: Ask::FetchesFrom { node: 101 },
        why: "A power loss keeps only what was flushed. Kafka flushes a controller's log before a record counts (KafkaRaftClient.flushLeaderLog, appendAsFollower), but a broker's copy only when it shuts down cleanly: n101's log was gone, so it fetched everything again from offset 0.",
    },
    Prediction {
        story: "odd-quorum",
        asks_at_ms: 8_050,
        question: "Four voters: the first leader died and three elected a new one, which has just died too. Will the two left elect a leader?",
        ask: Ask::LeaderAgain,
        why: "A leader needs votes from a majority of the voter set: 3 of 4. Two voters are no majority, so a fourth voter tolerates no more failures than three do.",
    },
];

/// The question of this tour step, if it has one.
pub fn for_story(id: &str) -> Option<&'static Prediction> {
    PREDICTIONS.iter().find(|p| p.story == id)
}

/// The failover race's question: which side has its controller back first, and how many times
/// sooner. The viewer answers on a slider of the ratio; the answer is what the race then plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RacePrediction {
    /// The tour step (story id) it belongs to.
    pub story: &'static str,
    pub question: &'static str,
    /// Why it goes the way it goes: said with the verdict, after the race's own figures.
    pub why: &'static str,
}

pub const RACE_PREDICTION: RacePrediction = RacePrediction {
    story: "failover",
    question: "Both active controllers are about to be killed. Which side will have its controller back first, and how many times sooner?",
    why: "KRaft's standby controllers already hold the whole image, replayed from the log, so a new leader only has to win an election, whatever the partition count. The ZooKeeper-mode controller has to wait for the dead one's session to expire, read every partition's state from ZooKeeper and push it to every broker: that grows with the partition count (try the slider).",
};

/// The race question of this tour step, if it has one.
pub fn race_for_story(id: &str) -> Option<&'static RacePrediction> {
    (RACE_PREDICTION.story == id).then_some(&RACE_PREDICTION)
}

/// What the race played: how long each side's controller was unavailable, as the race's
/// headline measures it (KRaft until a new active controller commits; ZooKeeper mode until
/// every broker has the new controller's state).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RaceOutcome {
    pub kraft: Micros,
    pub zk: Micros,
}

impl RaceOutcome {
    /// The race's outcome, once both sides are back.
    pub fn of(race: &FailoverRace) -> Option<RaceOutcome> {
        Some(RaceOutcome {
            kraft: race.kraft_recovered_after()?,
            zk: race.zk_report()?.brokers_updated_after,
        })
    }

    /// How many times sooner KRaft was back than ZooKeeper mode (below 1: later).
    pub fn ratio(&self) -> f64 {
        self.zk as f64 / self.kraft.max(1) as f64
    }
}

impl Answer {
    /// The answer in a few words, as the question's options say it.
    pub fn label(self, ask: Ask) -> String {
        match (ask, self) {
            (_, Answer::Node(n)) => format!("n{n}"),
            (Ask::NextEpoch, Answer::Number(e)) => format!("epoch {e}"),
            (Ask::KeepsUpTo, Answer::Number(0)) => "none of it".into(),
            (Ask::KeepsUpTo, Answer::Number(o)) => format!("offsets 0 to {}", o - 1),
            (_, Answer::Number(o)) => format!("offset {o}"),
            (_, Answer::Yes(true)) => "yes".into(),
            (_, Answer::Yes(false)) => "no".into(),
        }
    }
}

impl Prediction {
    /// The tour step it belongs to.
    pub fn story(&self) -> &'static Story {
        stories::find(self.story).expect("every prediction names a tour step")
    }

    /// The moment the step pauses to ask.
    pub fn asks_at(&self) -> Micros {
        self.asks_at_ms * MS
    }

    /// The step's session at the moment it asks, as the page reaches it: opened, then played.
    pub fn asking(&self, seed: u64) -> Session {
        let mut session = self.story().opening(seed);
        session.advance_to(self.asks_at(), usize::MAX);
        session
    }

    /// The answers offered, read from the session at the asking moment: every answer that
    /// could happen, the right one among them.
    pub fn options(&self, session: &Session) -> Vec<Answer> {
        let sim = session.sim();
        let mut options = match self.ask {
            Ask::NextLeader => sim
                .node_ids()
                .filter(|&id| sim.node(id).is_some_and(|n| n.is_voter() && n.role() != RoleKind::Leader))
                .map(Answer::Node)
                .collect(),
            Ask::NextEpoch => {
                let epoch =
                    sim.node_ids().filter_map(|id| sim.node(id)).map(|n| n.epoch()).max().unwrap_or(0);
                (epoch..epoch + 3).map(|e| Answer::Number(e.into())).collect()
            }
            Ask::Disrupts { .. } | Ask::LeaderAgain => vec![Answer::Yes(true), Answer::Yes(false)],
            Ask::KeepsUpTo => match deposed(session) {
                Some((end, parts)) => vec![Answer::Number(0), Answer::Number(parts), Answer::Number(end)],
                None => Vec::new(),
            },
            Ask::FetchesFrom { node } => {
                // Its log now: on its disk when it is down, else as it runs.
                let running = sim.node(node).map(|n| n.log().end_offset());
                let on_disk = running.or_else(|| sim.disk_of_down_node(node).map(|d| d.log.end_offset()));
                let on_disk = on_disk.unwrap_or(0);
                let leader_end = sim.leader().map_or(0, |l| l.log().end_offset());
                vec![Answer::Number(0), Answer::Number(on_disk), Answer::Number(leader_end)]
            }
        };
        options.dedup();
        options
    }

    /// What the step plays after it asks, read from its trace: played from the asking moment
    /// to the step's end, the first event that answers the question (or, for "no", the end).
    pub fn outcome(&self, seed: u64) -> Option<Outcome> {
        let mut session = self.asking(seed);
        let asked = self.asks_at();
        let leader_then = session.sim().leader().map(|l| l.id());
        let end = self.story().ends_at_ms * MS;
        session.advance_to(end, usize::MAX);
        let log = session.log();
        // The trace kept must reach back to the question, or the first answer could be lost.
        if log.front().is_none_or(|first| first.at > asked) {
            return None;
        }
        let found = log.iter().filter(|line| line.at >= asked).find_map(|line| {
            let answer = match (&line.kind, self.ask) {
                (TraceKind::Note(note), ask) => match (&note.what, ask) {
                    (NoteKind::Became { role: RoleKind::Leader, .. }, Ask::NextLeader) => {
                        Answer::Node(note.node)
                    }
                    (NoteKind::Became { role: RoleKind::Leader, epoch, .. }, Ask::NextEpoch) => {
                        Answer::Number((*epoch).into())
                    }
                    (NoteKind::Became { role: RoleKind::Leader, .. }, Ask::LeaderAgain) => Answer::Yes(true),
                    (NoteKind::Became { role, .. }, Ask::Disrupts { .. })
                        if leader_then == Some(note.node) && *role != RoleKind::Leader =>
                    {
                        Answer::Yes(true)
                    }
                    (NoteKind::Truncated { to, .. }, Ask::KeepsUpTo) => Answer::Number(*to),
                    _ => return None,
                },
                (TraceKind::Deliver(packet, _), Ask::FetchesFrom { node }) if packet.from == node => {
                    match &packet.payload {
                        Payload::Quorum(Message::Fetch { fetch_offset, .. }) => Answer::Number(*fetch_offset),
                        _ => return None,
                    }
                }
                _ => return None,
            };
            Some((answer, line.at))
        });
        let (answer, at) = match (found, self.ask) {
            (None, Ask::Disrupts { .. } | Ask::LeaderAgain) => (Answer::Yes(false), end),
            (found, _) => found?,
        };
        // Epochs two or more candidates ran for at once: split votes.
        let mut candidates = BTreeMap::<u32, usize>::new();
        for line in log.iter().filter(|l| (asked..=at).contains(&l.at)) {
            if let TraceKind::Note(note) = &line.kind
                && let NoteKind::Became { role: RoleKind::Candidate, epoch, .. } = note.what
            {
                *candidates.entry(epoch).or_default() += 1;
            }
        }
        let split: Vec<u32> = candidates.iter().filter(|(_, n)| **n > 1).map(|(epoch, _)| *epoch).collect();
        let split_epochs = split.first().zip(split.last()).map(|(a, b)| (*a, *b));
        let split_votes = split.len();
        Some(Outcome { answer, at, split_votes, split_epochs })
    }

    /// Why it went the way it went: the question's reason, and the split votes that came first.
    pub fn explain(&self, outcome: &Outcome) -> String {
        let Some((first, last)) = outcome.split_epochs else { return self.why.to_string() };
        let epochs = match outcome.split_votes {
            1 => format!("a split vote at epoch {first}"),
            n => format!("{n} split votes, at epochs {first} to {last}"),
        };
        format!(
            "{} Here {epochs} came first: two candidates ran for the same epoch at once, each voting for itself, and neither had a majority; after another random timeout one ran again, for epoch {}.",
            self.why,
            last + 1
        )
    }
}

/// The deposed leader at the asking moment (a voter whose last epoch is older than the active
/// controller's, with records past its high watermark): its log end, and the offset where its
/// log and the active controller's part (`Log::diverging_end` of the leader's end of that epoch).
fn deposed(session: &Session) -> Option<(u64, u64)> {
    let sim = session.sim();
    let leader = sim.leader()?;
    sim.node_ids().filter_map(|id| sim.node(id)).find_map(|n| {
        let log = n.log();
        let stale = n.is_voter() && log.last_epoch() < leader.log().last_epoch();
        let (epoch, end) = leader.log().end_offset_for_epoch(log.last_epoch());
        (stale && log.end_offset() > n.high_watermark().unwrap_or(0))
            .then(|| (log.end_offset(), log.diverging_end(epoch, end)))
    })
}

#[cfg(test)]
mod tests {
    use super::PREDICTIONS;
    use crate::harness::MS;

    #[test]
    fn the_questions_ask_before_their_key_moment() {
        for prediction in &PREDICTIONS {
            let story = prediction.story();
            let key = story.key.expect("a cluster step with a key moment");
            let session = story.ending(1);
            let opened = story.opens_at_ms * MS;
            let seen = session.log().iter().find(|l| l.at >= opened && key.matches(l)).map(|l| l.at);
            assert!(seen.is_some_and(|at| at > prediction.asks_at()), "{}: key moment at {seen:?}", story.id);
        }
    }
}

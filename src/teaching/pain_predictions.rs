//! The pains chapter's question: the second door's step holds just after a broker's authorizer
//! has denied the principal with no ACL, and asks what the same broker answers once a client
//! has written to ZooKeeper. The options are the authorizer's two verdicts; the answer is read
//! from the pain's own trace (the broker's next decision), never typed in, as the migration
//! chapter's are ([`super::migration_predictions`]).

use crate::zk::{Pain, TraceKind, TraceLine};

use super::predictions::WordedOutcome;

/// One question of the chapter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PainPrediction {
    /// The tour step (story id) it belongs to.
    pub story: &'static str,
    pub pain: Pain,
    pub question: &'static str,
    /// Why it goes the way it goes: said with the verdict.
    pub why: &'static str,
}

const ALLOWED: &str = "ALLOWED: the broker obeys the ACL it loaded from ZooKeeper";
const DENIED: &str = "DENIED: no Kafka request ever granted it";

/// The chapter's questions, in tour order.
pub const PAIN_PREDICTIONS: [PainPrediction; 1] = [PainPrediction {
    story: "zk-security",
    pain: Pain::Security,
    question: "User:mallory has no Kafka ACL, and broker 0 has just denied her. Next, a client that can reach ZooKeeper's port, with no Kafka credentials, writes an ALLOW ALL ACL for her under /kafka-acl. Asked again a second later, what does broker 0 answer?",
    why: "The brokers' AclAuthorizer trusts whatever ZooKeeper holds: the change notification under /kafka-acl-changes fires a watch on every broker, each reads the new ACL into its cache (AclAuthorizer.updateCache), and authorize decides from that cache. The write itself never met Kafka's authorizer: ZooKeeper checks only its own znode ACLs, open to anyone while zookeeper.set.acl=false.",
}];

/// The question the tour step showing `pain` asks, if it asks one.
pub fn for_pain(pain: Pain) -> Option<&'static PainPrediction> {
    PAIN_PREDICTIONS.iter().find(|p| p.pain == pain)
}

impl PainPrediction {
    /// The question as the pain's run plays it (`trace`, the whole run's): asked at the first
    /// authorizer decision, answered by the same broker's next one. `None` where the run has
    /// no two decisions.
    pub fn outcome(&self, trace: &[TraceLine]) -> Option<WordedOutcome> {
        let mut decisions = trace.iter().filter_map(|line| match &line.kind {
            TraceKind::Authorized { broker, decision, .. } => Some((line.at, *broker, decision.allowed())),
            _ => None,
        });
        let (asks_at, asked, _) = decisions.next()?;
        let (at, _, allowed) = decisions.find(|(_, broker, _)| *broker == asked)?;
        Some(WordedOutcome {
            asks_at,
            options: [ALLOWED, DENIED].map(String::from).to_vec(),
            answer: if allowed { ALLOWED } else { DENIED }.to_string(),
            at,
        })
    }

    /// The question as the pain's own cluster plays it, from its start to its end.
    pub fn played(&self) -> Option<WordedOutcome> {
        let mut zk = self.pain.cluster();
        let trace = zk.run_until(self.pain.moments().1);
        self.outcome(&trace)
    }
}

/// The guided-tour step (1-based) that shows KRaft doing what `pain` shows ZooKeeper mode
/// failing at, live: brokers fetching the log, and a silent broker fenced by one record (none
/// shows KRaft's authorizer: its side shows the scenario's trace instead).
pub fn kraft_step(pain: Pain) -> Option<usize> {
    let story = match pain {
        Pain::StaleCache => "brokers-fetch",
        Pain::SplitLiveness | Pain::WatchStorm => "fencing",
        Pain::Security => return None,
    };
    super::stories::TOUR.iter().position(|s| s.id == story).map(|i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::{ALLOWED, DENIED, PAIN_PREDICTIONS, for_pain, kraft_step};
    use crate::harness::MS;
    use crate::teaching::stories;
    use crate::zk::Pain;
    use crate::zk::acl::{ASKED_AFTER, ASKED_BEFORE};

    #[test]
    fn each_pain_links_the_tour_step_that_shows_kraft_doing_it() {
        let title = |pain: Pain| kraft_step(pain).map(|step| stories::TOUR[step - 1].title);
        assert_eq!(title(Pain::StaleCache), Some("Brokers follow the log by offset"));
        assert_eq!(title(Pain::SplitLiveness), Some("A silent broker is fenced"));
        assert_eq!(title(Pain::WatchStorm), Some("A silent broker is fenced"));
        assert_eq!(title(Pain::Security), None);
    }

    #[test]
    fn every_pain_question_belongs_to_a_tour_step_showing_its_pain() {
        for prediction in &PAIN_PREDICTIONS {
            let story = stories::find(prediction.story).expect("a tour step");
            assert_eq!(story.view, stories::View::Pain(prediction.pain), "{}", prediction.story);
            assert!(!story.outcome.is_empty(), "{}: the narration keeps what happens for after", story.id);
        }
    }

    /// Asked at the first decision (denied, no ACL) and answered by broker 0's decision after the
    /// write: allowed, read from the trace. Were the brokers to ignore the znode, the answer
    /// would read DENIED (the expected trace `second_door.txt` guards that model).
    #[test]
    fn the_second_door_question_is_answered_by_the_brokers_next_decision() {
        let prediction = for_pain(Pain::Security).expect("the step asks");
        assert_eq!(for_pain(Pain::WatchStorm), None);
        let outcome = prediction.played().expect("the pain plays both decisions");
        assert_eq!((outcome.asks_at, outcome.at), (ASKED_BEFORE, ASKED_AFTER));
        assert_eq!(outcome.options, [ALLOWED, DENIED]);
        assert_eq!(outcome.answer, ALLOWED);
        assert_eq!(prediction.outcome(&[]), None, "no decisions, no question");
        assert!(outcome.asks_at < 1_000 * MS);
    }
}

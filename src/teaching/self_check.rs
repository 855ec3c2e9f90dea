//! The tour's self-checks: at the end of each chapter, three questions with the common
//! misreadings among their options (KIP-500 as a renaming of ZooKeeper, KRaft as an external Raft
//! service, a goal of faster message throughput, ZooKeeper removed as insecure), each answer
//! pointing back to the tour step that shows it. Answers are kept by the page in the browser.

use std::collections::BTreeMap;

use super::stories::{self, TOUR, later_words};

/// One question of a chapter's self-check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckQuestion {
    /// A stable name, under which the browser keeps the answer.
    pub id: &'static str,
    pub chapter: &'static str,
    pub question: &'static str,
    pub options: &'static [&'static str],
    pub correct: usize,
    pub explanation: &'static str,
    /// The tour step (story id) whose moment shows the answer.
    pub shows: &'static str,
}

/// Every chapter's questions, in tour order.
pub const CHECKS: [CheckQuestion; 27] = [
    CheckQuestion {
        id: "kip500-what",
        chapter: stories::ZK_ERA,
        question: "What did KIP-500 change?",
        options: &[
            "It renamed ZooKeeper to KRaft",
            "It moved the metadata into Kafka: a log the controllers replicate with Raft",
            "It made brokers send messages faster",
        ],
        correct: 1,
        explanation: "KRaft is not ZooKeeper under a new name: the metadata becomes Kafka's own __cluster_metadata log, kept by a quorum of Kafka controllers.",
        shows: "first-election",
    },
    CheckQuestion {
        id: "zk-why-removed",
        chapter: stories::ZK_ERA,
        question: "Why did Kafka remove ZooKeeper?",
        options: &[
            "ZooKeeper was insecure",
            "Metadata in a second system: a failover cold-loads it all, full state is pushed to every broker, and copies of it disagree",
            "ZooKeeper could not store topics",
        ],
        correct: 1,
        explanation: "The cost grows with the partitions: a new controller reads every partition's state from ZooKeeper before it can act, then pushes it to every broker.",
        shows: "zk-cold-load",
    },
    CheckQuestion {
        id: "zk-controller-failover",
        chapter: stories::ZK_ERA,
        question: "In ZooKeeper mode, what must a new controller do before it can act?",
        options: &[
            "Nothing: it already holds the state",
            "Read every topic's and partition's state from ZooKeeper",
            "Ask each broker for its log",
        ],
        correct: 1,
        explanation: "It wins the race for /controller, then loads the whole cluster's state from ZooKeeper, then pushes it to every broker.",
        shows: "zk-push",
    },
    CheckQuestion {
        id: "kraft-where",
        chapter: stories::QUORUM,
        question: "Where does KRaft's Raft quorum run?",
        options: &[
            "In an external Raft service, like etcd",
            "In Kafka's own controller processes",
            "In every broker",
        ],
        correct: 1,
        explanation: "The controllers are Kafka processes (or roles of combined nodes) that run the quorum themselves; brokers only follow the log as observers.",
        shows: "first-election",
    },
    CheckQuestion {
        id: "stale-leader",
        chapter: stories::QUORUM,
        question: "What keeps a leader that was cut off from being obeyed again?",
        options: &[
            "A timestamp on every record",
            "The epoch: every message carries it, and a higher one wins",
            "ZooKeeper's session",
        ],
        correct: 1,
        explanation: "A new leader leads a higher epoch; a node that hears of it never again accepts the old one.",
        shows: "leader-crash",
    },
    CheckQuestion {
        id: "uncommitted",
        chapter: stories::QUORUM,
        question: "A deposed leader holds records no majority ever had. What becomes of them?",
        options: &[
            "They are copied to the new leader",
            "It truncates them when the new leader answers DivergingEpoch",
            "They stay, marked as old",
        ],
        correct: 1,
        explanation: "Uncommitted records were never acknowledged; the old leader's log is cut back to where it and the new leader's log agree.",
        shows: "divergence",
    },
    CheckQuestion {
        id: "brokers-learn",
        chapter: stories::STREAM,
        question: "How does a KRaft broker learn of a new topic?",
        options: &[
            "The controller pushes the full metadata to it",
            "It fetches the new records from the metadata log by offset and applies them to its image",
            "It watches a znode",
        ],
        correct: 1,
        explanation: "Brokers are observers of __cluster_metadata: they pull it like followers and apply each record as a delta.",
        shows: "brokers-fetch",
    },
    CheckQuestion {
        id: "broker-restart",
        chapter: stories::STREAM,
        question: "A broker restarts after missing a topic. What does it fetch?",
        options: &[
            "The whole metadata log from offset 0",
            "Only the records after the end of the log on its disk",
            "Nothing until the controller pushes",
        ],
        correct: 1,
        explanation: "It rebuilds its image from its own disk and fetches only the delta it missed.",
        shows: "broker-restart",
    },
    CheckQuestion {
        id: "image-offset",
        chapter: stories::STREAM,
        question: "What tells how current a broker's metadata image is?",
        options: &["The offset of the log it reflects", "The time of its last heartbeat", "Its broker id"],
        correct: 0,
        explanation: "An image is the log applied up to an offset; every broker's card shows it.",
        shows: "brokers-fetch",
    },
    CheckQuestion {
        id: "kip500-goal",
        chapter: stories::SIDE_BY_SIDE,
        question: "What was KIP-500's goal?",
        options: &[
            "Faster message throughput",
            "Metadata that scales to millions of partitions, and failover without a cold load",
            "Removing the need for replication",
        ],
        correct: 1,
        explanation: "Produce and fetch of messages are untouched; what changes is how metadata is kept and how fast a new controller can act.",
        shows: "failover",
    },
    CheckQuestion {
        id: "kraft-standby",
        chapter: stories::SIDE_BY_SIDE,
        question: "Why is a KRaft standby controller ready at once?",
        options: &[
            "It has replayed the metadata log all along: its image is current",
            "It loads the state from the brokers",
            "It skips the election",
        ],
        correct: 0,
        explanation: "Standbys are followers of the log; the new leader only needs to win an election.",
        shows: "failover",
    },
    CheckQuestion {
        id: "failover-grows",
        chapter: stories::SIDE_BY_SIDE,
        question: "Which failover grows with the partition count?",
        options: &["KRaft's", "ZooKeeper mode's", "Neither"],
        correct: 1,
        explanation: "ZooKeeper mode's cold load and push are proportional to the partitions; KRaft's election is not.",
        shows: "failover",
    },
    CheckQuestion {
        id: "snapshot-why",
        chapter: stories::SNAPSHOTS,
        question: "Why does KRaft take snapshots of the metadata?",
        options: &[
            "So the log can be cleaned and a far-behind node can catch up from a snapshot",
            "To back the cluster up to ZooKeeper",
            "To speed up produce requests",
        ],
        correct: 0,
        explanation: "Once the log start moves past a node's offset, the leader answers SnapshotId and the node loads the snapshot first.",
        shows: "snapshot",
    },
    CheckQuestion {
        id: "snapshot-who",
        chapter: stories::SNAPSHOTS,
        question: "Who takes metadata snapshots?",
        options: &["Only the active controller", "Every node, from its own image", "An external tool"],
        correct: 1,
        explanation: "Every controller and broker snapshots the image it has built.",
        shows: "snapshot",
    },
    CheckQuestion {
        id: "snapshot-id",
        chapter: stories::SNAPSHOTS,
        question: "A node fetches from an offset below the leader's log start. What is it told?",
        options: &["DivergingEpoch", "SnapshotId: fetch this snapshot", "NOT_LEADER"],
        correct: 1,
        explanation: "It then fetches the snapshot with FetchSnapshot, and the log after it.",
        shows: "snapshot",
    },
    CheckQuestion {
        id: "fenced-when",
        chapter: stories::LIFECYCLE,
        question: "When does the controller fence a broker?",
        options: &[
            "When its ZooKeeper session expires",
            "When no heartbeat arrived within broker.session.timeout.ms",
            "Never: only an operator can",
        ],
        correct: 1,
        explanation: "In KRaft liveness is one thing: heartbeats to the active controller.",
        shows: "fencing",
    },
    CheckQuestion {
        id: "fenced-leadership",
        chapter: stories::LIFECYCLE,
        question: "What happens to the partitions a fenced broker led?",
        options: &[
            "They stay offline until it returns",
            "Leadership moves to another in-sync replica",
            "They are deleted",
        ],
        correct: 1,
        explanation: "The controller writes PartitionChangeRecords naming new leaders from the ISR.",
        shows: "fencing",
    },
    CheckQuestion {
        id: "shutdown-order",
        chapter: stories::LIFECYCLE,
        question: "In a controlled shutdown, when may the broker stop?",
        options: &[
            "At once",
            "Once it leads nothing and the active brokers have replayed that change",
            "After its session times out",
        ],
        correct: 1,
        explanation: "Its leadership moves first, so no partition goes offline when it stops.",
        shows: "controlled-shutdown",
    },
    CheckQuestion {
        id: "three-copies",
        chapter: stories::PAINS,
        question: "In ZooKeeper mode, where does a partition's ISR live?",
        options: &[
            "Only in ZooKeeper",
            "In ZooKeeper, the controller's memory and every broker's cache, updated by different paths",
            "Only in the leader",
        ],
        correct: 1,
        explanation: "Three copies of the truth that can disagree for seconds; in KRaft there is one log.",
        shows: "zk-stale-cache",
    },
    CheckQuestion {
        id: "two-liveness",
        chapter: stories::PAINS,
        question: "A ZooKeeper-mode broker is cut off from the controller but not from ZooKeeper. Is it alive?",
        options: &[
            "No: the controller sees it is gone",
            "To the controller, yes: its znode still exists",
            "It is fenced at once",
        ],
        correct: 1,
        explanation: "Two notions of liveness: ZooKeeper's session and the controller's channel. The controller only asks ZooKeeper.",
        shows: "zk-liveness",
    },
    CheckQuestion {
        id: "watch-storm",
        chapter: stories::PAINS,
        question: "A ZooKeeper-mode broker dies. What does the controller write?",
        options: &[
            "One record",
            "The state znode of every partition the broker was a replica of, one by one",
            "Nothing",
        ],
        correct: 1,
        explanation: "The work grows with the broker's partitions; in KRaft it is records appended to one log in batches.",
        shows: "zk-watch-storm",
    },
    CheckQuestion {
        id: "four-voters",
        chapter: stories::SIZING,
        question: "How many failures do four voters survive?",
        options: &["One, like three voters", "Two", "Three"],
        correct: 0,
        explanation: "A majority of four is three: losing two leaves no majority. Five voters survive two.",
        shows: "odd-quorum",
    },
    CheckQuestion {
        id: "add-controller",
        chapter: stories::SIZING,
        question: "How does a new controller join a dynamic quorum?",
        options: &[
            "It votes as soon as it starts",
            "As an observer first; add-controller then appends a VotersRecord with it",
            "By editing every node's configuration",
        ],
        correct: 1,
        explanation: "It catches up as an observer, then AddRaftVoter makes it a voter once the leader sees it caught up.",
        shows: "add-controller",
    },
    CheckQuestion {
        id: "wiped-disk",
        chapter: stories::SIZING,
        question: "A controller's disk died and was formatted again. Is it the same voter?",
        options: &[
            "Yes: it has the same id",
            "No: voters are named by id and directory id; the old entry must be removed and the new one added",
            "Yes, once it restarts",
        ],
        correct: 1,
        explanation: "The old entry still counts toward the majority and can never answer, so it is removed first.",
        shows: "replace-disk",
    },
    CheckQuestion {
        id: "bridge-dual-write",
        chapter: stories::BRIDGE,
        question: later_words!("In dual-write, where is a metadata change written?"),
        options: &[
            later_words!("To ZooKeeper, then copied into the log"),
            later_words!("To the log first; the KRaft controller then writes it to ZooKeeper too"),
            later_words!("To the log only: ZooKeeper is read-only from the claim on"),
        ],
        correct: 1,
        explanation: later_words!(
            "The log is the truth once the copy is committed; ZooKeeper is kept up to date behind it, so that a rollback finds the whole state there."
        ),
        shows: "bridge-dual-write",
    },
    CheckQuestion {
        id: "bridge-stranded",
        chapter: stories::BRIDGE,
        question: later_words!("What tells a new KRaft controller that the copy of ZooKeeper is done?"),
        options: &[
            later_words!("The log's ZkMigrationStateRecord alone"),
            later_words!(
                "The log's ZkMigrationStateRecord and the copy's offset in /migration, which must agree"
            ),
            later_words!("Counting the topics on both sides"),
        ],
        correct: 1,
        explanation: later_words!(
            "With MIGRATION in the log but no offset in /migration, Kafka 3.9's driver finds nothing it can do and stays INACTIVE."
        ),
        shows: "bridge-stranded",
    },
    CheckQuestion {
        id: "bridge-rollback",
        chapter: stories::BRIDGE,
        question: later_words!("When can a migration be rolled back to ZooKeeper mode?"),
        options: &[
            later_words!("At any time, even after finalizing"),
            later_words!("Until it is finalized: until then dual-write keeps ZooKeeper whole"),
            later_words!("Only before the copy"),
        ],
        correct: 1,
        explanation: later_words!(
            "Finalizing stops the writes to ZooKeeper, so it falls behind for good; before that, a rollback finds the whole state there."
        ),
        shows: "bridge-rollback",
    },
];

/// The chapter tour step `step` (0-based) ends, if it is a chapter's last step.
pub fn chapter_ended_by(step: usize) -> Option<&'static str> {
    let chapter = TOUR.get(step)?.chapter;
    TOUR.get(step + 1).is_none_or(|next| next.chapter != chapter).then_some(chapter)
}

/// A chapter's questions.
pub fn of_chapter(chapter: &str) -> impl Iterator<Item = &'static CheckQuestion> + '_ {
    CHECKS.iter().filter(move |q| q.chapter == chapter)
}

/// The answers given, by question id: the option chosen.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckAnswers(BTreeMap<&'static str, usize>);

impl CheckAnswers {
    /// Read answers as the browser keeps them (`id=option` joined by `,`); anything that names
    /// no question or no option of it is left out, so a damaged store loses only itself.
    pub fn parse(text: &str) -> CheckAnswers {
        let answers = text.split(',').filter_map(|pair| {
            let (id, option) = pair.split_once('=')?;
            let question = CHECKS.iter().find(|q| q.id == id)?;
            let option: usize = option.parse().ok()?;
            (option < question.options.len()).then_some((question.id, option))
        });
        CheckAnswers(answers.collect())
    }

    /// The answers as the browser keeps them.
    pub fn to_text(&self) -> String {
        self.0.iter().map(|(id, option)| format!("{id}={option}")).collect::<Vec<_>>().join(",")
    }

    /// Answer question `id` with `option`; false if there is no such question or option.
    pub fn answer(&mut self, id: &str, option: usize) -> bool {
        match CHECKS.iter().find(|q| q.id == id) {
            Some(q) if option < q.options.len() => {
                self.0.insert(q.id, option);
                true
            }
            _ => false,
        }
    }

    pub fn get(&self, id: &str) -> Option<usize> {
        self.0.get(id).copied()
    }

    pub fn clear(&mut self) {
        self.0.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::CHECKS;
    use crate::harness::MS;
    use crate::migration::scenarios;
    use crate::teaching::stories::{self, View};

    /// Each answer links a step whose moment happens: a cluster step's key moment is in its
    /// trace; a race or pain step plays its own (tests/tour_steps.rs plays each to its moment).
    #[test]
    fn each_answer_links_a_moment_that_happens() {
        for q in &CHECKS {
            let story = stories::find(q.shows).expect("a tour step");
            match story.view {
                View::Cluster => {
                    let key = story.key.expect("a cluster step has a key moment");
                    let opened = story.opens_at_ms * MS;
                    let session = story.ending(1);
                    assert!(
                        session.log().iter().any(|l| l.at >= opened && key.matches(l)),
                        "{}: {} plays its moment",
                        q.id,
                        story.id
                    );
                }
                View::Failover => assert!(story.race.is_some(), "{}", q.id),
                View::Pain(_) => {}
                View::Migration => {
                    let script = story.migration.expect("a migration step names its scenario");
                    let run = scenarios::find(script.scenario).expect("a scenario").run(1).expect("it runs");
                    assert!(
                        script.opens_at(run.trace()).is_some(),
                        "{}: {} reaches its moment",
                        q.id,
                        story.id
                    );
                }
            }
        }
    }
}

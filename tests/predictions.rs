//! The tour's predictions: each expected answer, read from the step's trace, is what the step
//! then plays, seen in the cluster's state rather than in the trace; the answer is among the
//! options offered; and a change of seed moves the expected answer and the play together. The
//! bridge release chapter's questions are checked the same way against the migration's state.

use std::collections::BTreeSet;

use kraftscope::harness::{MS, Micros};
use kraftscope::migration;
use kraftscope::migration::picture::{ControllerZnode, MigrationPicture};
use kraftscope::migration::sim::{BrokerMode, MigrationSim};
use kraftscope::quorum::RoleKind;
use kraftscope::session::Session;
use kraftscope::teaching::migration_predictions::{MIGRATION_PREDICTIONS, MigrationAsk, MigrationPrediction};
use kraftscope::teaching::predictions::{Answer, Ask, PREDICTIONS, Prediction};
use kraftscope::teaching::stories;

/// What the step plays after the question, read from the cluster's state event by event: the
/// answer and the moment it shows.
fn played(prediction: &Prediction, seed: u64) -> (Answer, Micros) {
    let mut session = prediction.asking(seed);
    let end = prediction.story().ends_at_ms * MS;
    let leader_then = session.sim().leader().map(|l| l.id());
    let ends = |s: &Session| {
        s.sim()
            .node_ids()
            .filter_map(|id| s.sim().node(id).map(|n| (id, n.log().end_offset())))
            .collect::<Vec<_>>()
    };
    let mut before = ends(&session);
    while session.now() < end && session.step() {
        let sim = session.sim();
        let now = session.now();
        match prediction.ask {
            Ask::NextLeader => {
                if let Some(l) = sim.leader() {
                    return (Answer::Node(l.id()), now);
                }
            }
            Ask::NextEpoch => {
                if let Some(l) = sim.leader() {
                    return (Answer::Number(l.epoch().into()), now);
                }
            }
            Ask::LeaderAgain => {
                if sim.leader().is_some() {
                    return (Answer::Yes(true), now);
                }
            }
            Ask::Disrupts { .. } => {
                if leader_then.is_some_and(|id| sim.node(id).is_none_or(|n| n.role() != RoleKind::Leader)) {
                    return (Answer::Yes(true), now);
                }
            }
            Ask::KeepsUpTo => {
                let after = ends(&session);
                for ((id, was), (_, is)) in before.iter().zip(&after) {
                    if is < was {
                        assert!(session.sim().node(*id).unwrap().is_voter());
                        return (Answer::Number(*is), now);
                    }
                }
                before = after;
            }
            Ask::FetchesFrom { node } => {
                // Back from its disk, before any answer to its first Fetch: where its log ends.
                if sim.node(node).is_some() {
                    return (Answer::Number(sim.node(node).unwrap().log().end_offset()), now);
                }
            }
        }
    }
    assert!(
        matches!(prediction.ask, Ask::Disrupts { .. } | Ask::LeaderAgain),
        "{}: the step ended and nothing answered the question",
        prediction.story
    );
    (Answer::Yes(false), end)
}

/// Check the prediction with `seed`; its answer, or None where the step (written for seed 1)
/// does not play its answer before it ends with this seed: the page then asks nothing.
fn check(prediction: &Prediction, seed: u64) -> Option<Answer> {
    let story = prediction.story();
    let Some(outcome) = prediction.outcome(seed) else {
        assert_ne!(seed, 1, "{}: the page's seed plays the answer", story.id);
        return None;
    };
    let (answer, at) = played(prediction, seed);
    assert_eq!(outcome.answer, answer, "{} seed {seed}: expected from the trace, and played", story.id);
    assert!(outcome.at >= prediction.asks_at(), "{}: answered after it asks", story.id);
    match prediction.ask {
        // Its log end is known when it comes back; the trace tells when its Fetch arrives.
        Ask::FetchesFrom { .. } => {
            assert!(at <= outcome.at, "{} seed {seed}: back before it fetches", story.id)
        }
        _ => {
            assert!(at >= outcome.at, "{} seed {seed}: the state shows it no sooner than the trace", story.id)
        }
    }
    assert!(
        prediction.options(&prediction.asking(seed)).contains(&outcome.answer),
        "{} seed {seed}: {:?} among the options",
        story.id,
        outcome.answer
    );
    Some(answer)
}

#[test]
fn each_expected_answer_is_what_the_step_plays_and_among_the_options() {
    for prediction in &PREDICTIONS {
        let story = stories::find(prediction.story).expect("a tour step");
        assert!(
            (story.opens_at_ms..story.ends_at_ms).contains(&prediction.asks_at_ms),
            "{}: asks while the step plays",
            story.id
        );
        let answered = [1, 2, 7].into_iter().filter_map(|seed| check(prediction, seed)).count();
        assert!(answered >= 2, "{}: answered with most seeds", story.id);
    }
}

#[test]
fn another_seed_moves_the_expected_answer_and_the_play_together() {
    let prediction = PREDICTIONS.iter().find(|p| p.ask == Ask::NextLeader).unwrap();
    let leaders: BTreeSet<String> =
        (1..=12).filter_map(|seed| check(prediction, seed)).map(|a| a.label(prediction.ask)).collect();
    assert!(leaders.len() > 1, "the first leader depends on the seed: {leaders:?}");
}

#[test]
fn the_answers_that_confront_a_misreading_hold() {
    let said = |id: &str| {
        let p = PREDICTIONS.iter().find(|p| p.story == id).unwrap();
        p.outcome(1).unwrap().answer
    };
    assert_eq!(said("pre-vote"), Answer::Yes(false), "pre-vote keeps a returning node from disrupting");
    assert_eq!(said("no-pre-vote"), Answer::Yes(true), "without it, the same node deposes the leader");
    assert_eq!(said("odd-quorum"), Answer::Yes(false), "two of four voters are no majority");
}

#[test]
fn a_split_vote_before_the_answer_is_explained() {
    let crash = PREDICTIONS.iter().find(|p| p.story == "leader-crash").unwrap();
    let outcome = crash.outcome(1).unwrap();
    // With the page's seed both followers time out together and split epoch 2's vote.
    assert_eq!((outcome.answer, outcome.split_votes), (Answer::Number(3), 1));
    let explained = crash.explain(&outcome);
    assert!(explained.contains("Here a split vote at epoch 2 came first"), "{explained}");
    assert!(
        explained.ends_with("one ran again, for epoch 3."),
        "the verdict links the split to its answer: {explained}"
    );
    let first = PREDICTIONS.iter().find(|p| p.story == "first-election").unwrap();
    let outcome = first.outcome(1).unwrap();
    assert_eq!((outcome.split_votes, first.explain(&outcome)), (0, first.why.to_string()));
}

/// #61 item 4: what the tour shows while a question is open (the title and the narration told
/// so far) does not answer it; and the watch line, ticked before the verdict, names no epoch the
/// verdict could contradict.
#[test]
fn the_narration_above_a_question_does_not_answer_it() {
    for prediction in &PREDICTIONS {
        let story = prediction.story();
        let shown = format!("{} {}", story.title, story.told(true)).to_lowercase();
        let giveaways: &[&str] = match prediction.ask {
            Ask::Disrupts { .. } => &["step down", "steps down", "follows the leader", "disrupt", "depose"],
            Ask::KeepsUpTo => &["truncat", "never committed", "diverging"],
            Ask::FetchesFrom { .. } => &["only what", "missed", "fetches only", "rebuilds"],
            Ask::LeaderAgain => &["no majority", "survive", "nobody leads", "no leader"],
            Ask::NextEpoch => &["epoch 2", "epoch 3", "epoch 4"],
            Ask::NextLeader => &["n1 ", "n2 ", "n3 "],
        };
        for phrase in giveaways {
            assert!(!shown.contains(phrase), "{}: '{phrase}' is shown above its question: {shown}", story.id);
        }
        if prediction.ask == Ask::NextEpoch {
            assert!(!story.watch.contains("epoch 2") && !story.watch.contains("epoch 3"), "{}", story.watch);
        }
        assert!(story.told(false).len() >= story.told(true).len(), "after the verdict the narration goes on");
    }
}

/// The migration at simulated time `t` of `prediction`'s scenario run with `seed`: the run's
/// inputs replayed on a fresh simulation.
fn migration_at(prediction: &MigrationPrediction, seed: u64, t: Micros) -> MigrationSim {
    let scenario = migration::scenarios::find(prediction.script().scenario).unwrap();
    let run = scenario.run(seed).unwrap();
    let mut sim = MigrationSim::new(scenario.config(), seed).unwrap();
    sim.replay(run.inputs(), t);
    sim
}

/// The bridge release chapter: each answer, read from the scenario's trace, is among the options
/// offered and is what the migration's state then shows; the chapter's lessons hold with
/// several seeds.
#[test]
fn each_migration_answer_is_among_its_options_and_what_the_state_shows() {
    for prediction in &MIGRATION_PREDICTIONS {
        for seed in [1, 2, 3] {
            let scenario = migration::scenarios::find(prediction.script().scenario).unwrap();
            let run = scenario.run(seed).unwrap();
            let asks_at = prediction.script().opens_at(run.trace()).expect("the moment comes");
            let asking = migration_at(prediction, seed, asks_at);
            let outcome = prediction.outcome(run.trace(), &asking).expect("the trace answers it");
            let id = format!("{} seed {seed}", prediction.story);
            assert!(
                outcome.options.contains(&outcome.answer),
                "{id}: {} among {:?}",
                outcome.answer,
                outcome.options
            );
            assert!(outcome.at > asks_at, "{id}: answered after it asks");
            let then = MigrationPicture::of(&migration_at(prediction, seed, outcome.at));
            let before = MigrationPicture::of(&asking);
            match prediction.ask {
                MigrationAsk::MetadataFrom { broker } => {
                    assert!(
                        outcome.answer.ends_with("from the KRaft controller"),
                        "{id}: {}",
                        outcome.answer
                    );
                    let b = then.brokers.iter().find(|b| b.id == broker).unwrap();
                    assert!(
                        b.alive && b.mode == BrokerMode::Migrating,
                        "{id}: still a ZooKeeper-mode broker"
                    );
                    assert!(
                        matches!(then.zk.controller, ControllerZnode::Kraft { .. }),
                        "{id}: KRaft holds /controller"
                    );
                }
                MigrationAsk::NextDriver => {
                    assert!(outcome.answer.starts_with("nothing"), "{id}: {}", outcome.answer);
                    let end = MigrationPicture::of(&run);
                    assert!(
                        end.stranded && end.copy.is_none_or(|c| c.batches > 0),
                        "{id}: stranded at the end"
                    );
                }
                MigrationAsk::NextZkEpoch => {
                    let epoch = before.zk.controller_epoch + 1;
                    assert!(
                        outcome.answer.starts_with(&format!("epoch {epoch}, one above")),
                        "{id}: {}",
                        outcome.answer
                    );
                    assert_eq!(then.zk.controller_epoch, epoch, "{id}: ZooKeeper holds it");
                }
                MigrationAsk::StatesAboveItsEpoch => {
                    assert_eq!(outcome.answer, "yes", "{id}");
                    assert!(
                        i64::from(before.kraft_epoch) > i64::from(then.zk.controller_epoch),
                        "{id}: the KRaft epoch is higher"
                    );
                }
            }
        }
    }
}

/// The plain rollback's new controller finds no state above its epoch: the hazard step's "yes"
/// comes from its quorum's many elections, not from every rollback.
#[test]
fn a_rollback_without_many_elections_finds_no_state_above_its_epoch() {
    let hazard = MIGRATION_PREDICTIONS.iter().find(|p| p.ask == MigrationAsk::StatesAboveItsEpoch).unwrap();
    let plain = MigrationPrediction { story: "bridge-rollback", ..*hazard };
    let run = migration::scenarios::find("migration-rollback").unwrap().run(1).unwrap();
    let asks_at = plain.script().opens_at(run.trace()).unwrap();
    let outcome = plain.outcome(run.trace(), &migration_at(&plain, 1, asks_at)).unwrap();
    assert_eq!(outcome.answer, "no");
}

//! The failover race's question without a browser: the tour's race step holds before the kill
//! until the viewer predicts on the slider (or just watches), then plays; once both sides are
//! back, the verdict names what the race played. The answer is checked against a race of the
//! same size played on its own, and moves with the race's size.

use kraftscope::experiments::failover::KraftRoles;
use kraftscope::harness::{MS, Micros};
use kraftscope::page::race::question::GUESS_MAX;
use kraftscope::page::{Action, PageState, RaceAction, Stage, Tab};
use kraftscope::race::{FailoverRace, RaceStage};
use kraftscope::teaching::stories::TOUR;
use kraftscope::util::format;

const FRAME_MS: f64 = 1_000.0 / 60.0;

/// The tour's race step with a question (1-based, as in `?tour=`).
fn race_step() -> usize {
    TOUR.iter().position(|s| s.id == "failover").expect("the failover step") + 1
}

fn open(query: &str) -> PageState {
    let page = PageState::new(query, "http://localhost/", false);
    assert_eq!(page.tab, Tab::Failover);
    page
}

fn stage(page: &PageState) -> Option<RaceStage> {
    page.race.race().map(FailoverRace::stage)
}

fn question(page: &PageState) -> Stage {
    page.race.question().expect("the race step asks").stage
}

/// Frames while the race has work to do (at most `limit`).
fn frames_while_busy(page: &mut PageState, limit: usize) -> usize {
    let mut n = 0;
    while page.race.busy() && n < limit {
        page.reduce(Action::Frame { elapsed: FRAME_MS });
        n += 1;
    }
    n
}

/// A race of `partitions` partitions played on its own, start to end: how long each side's
/// controller was unavailable.
fn played_alone(partitions: u64) -> (Micros, Micros) {
    let mut race = FailoverRace::with_roles(partitions, 1, KraftRoles::DEDICATED).expect("a race");
    while matches!(race.stage(), RaceStage::Preparing { .. }) {
        race.prepare(usize::MAX).expect("prepared");
    }
    race.kill().expect("killed");
    while !race.finished() {
        race.advance(1_000 * MS);
    }
    (race.kraft_recovered_after().unwrap(), race.zk_report().unwrap().brokers_updated_after)
}

/// Predict `guess` on the step's race (after moving it to `exp` on the partition slider, if
/// given), play it to the end, and return the verdict.
fn verdict_after(guess: Option<i32>, exp: Option<f64>) -> (PageState, Option<bool>, String) {
    let mut page = open(&format!("?tour={}", race_step()));
    if let Some(exp) = exp {
        page.reduce(Action::Race(RaceAction::Partitions(exp)));
    }
    frames_while_busy(&mut page, 200);
    match guess {
        Some(tenths) => {
            page.reduce(Action::Race(RaceAction::Guess(tenths)));
            page.reduce(Action::Race(RaceAction::Predict(true)));
        }
        None => {
            page.reduce(Action::Key("w".into()));
        }
    }
    assert_eq!(question(&page), Stage::Watching);
    page.reduce(Action::Frame { elapsed: FRAME_MS });
    assert!(matches!(stage(&page), Some(RaceStage::Running { .. })), "predicting plays the race");
    page.reduce(Action::Race(RaceAction::SkipToEnd));
    frames_while_busy(&mut page, 10_000);
    match question(&page) {
        Stage::Verdict { held, text } => (page, held, text),
        other => panic!("no verdict at the race's end: {other:?}"),
    }
}

#[test]
fn the_race_step_holds_before_the_kill_until_the_viewer_predicts() {
    let mut page = open(&format!("?tour={}", race_step()));
    assert_eq!(question(&page), Stage::Asking, "the question is open while the clusters are built");
    frames_while_busy(&mut page, 200);
    assert_eq!(stage(&page), Some(RaceStage::Ready));
    assert!(page.race.asking() && !page.race.busy(), "ready, the race holds at its question");
    for _ in 0..120 {
        page.reduce(Action::Frame { elapsed: FRAME_MS });
    }
    assert_eq!(stage(&page), Some(RaceStage::Ready), "two seconds later it still holds");

    page.reduce(Action::Race(RaceAction::Guess(19)));
    let view = page.race.question().unwrap();
    assert_eq!((view.guess, view.guess_label.as_str()), (19, "KRaft, 79× sooner"));
    page.reduce(Action::Race(RaceAction::Guess(GUESS_MAX + 50)));
    assert_eq!(page.race.question().unwrap().guess, GUESS_MAX, "the slider stops at its end");
    page.reduce(Action::Race(RaceAction::Guess(19)));

    page.reduce(Action::Race(RaceAction::Predict(true)));
    assert!(!page.race.asking() && page.race.busy());
    for _ in 0..2 {
        page.reduce(Action::Frame { elapsed: FRAME_MS });
    }
    assert!(page.race.playing(), "the step kills and plays on from its opening");
    assert_eq!(page.race.question().unwrap().given.as_deref(), Some("KRaft, 79× sooner"));
    page.reduce(Action::Race(RaceAction::Guess(-5)));
    assert_eq!(page.race.question().unwrap().guess, 19, "a prediction given stays as given");
}

#[test]
fn the_verdict_names_what_the_race_played_and_moves_with_its_size() {
    // At the step's 1,000,000 partitions and at 1,000 (the slider moved before predicting).
    for (exp, partitions) in [(None, 1_000_000u64), (Some(3.0), 1_000)] {
        let (page, _, text) = verdict_after(Some(10), exp);
        assert_eq!(page.race.partitions(), partitions);
        let (kraft, zk) = played_alone(partitions);
        let race = page.race.race().unwrap();
        assert_eq!(
            (race.kraft_recovered_after(), race.zk_report().map(|r| r.brokers_updated_after)),
            (Some(kraft), Some(zk)),
            "the page's race plays as a race of its size alone"
        );
        assert!(
            text.contains(&format!("new active controller after {}", format::seconds(kraft)))
                && text.contains(&format!("the new controller's state after {}", format::seconds(zk)))
                && text.contains(&kraftscope::race::headline(kraft, zk)),
            "{partitions} partitions: {text}"
        );
    }
    // The same guess holds at one size and misses at the other: the answer comes from the race.
    let (_, held_big, big) = verdict_after(Some(19), None);
    let (_, held_small, small) = verdict_after(Some(19), Some(3.0));
    assert_eq!((held_big, held_small), (Some(true), Some(false)), "{big}\n{small}");
    assert!(
        big.starts_with("✓ Right: KRaft's controller was back") && big.contains("you said KRaft, 79× sooner"),
        "{big}"
    );
    assert!(small.starts_with("✗ You said KRaft, 79× sooner."), "{small}");
    let (_, held, wrong_side) = verdict_after(Some(-5), None);
    assert_eq!(held, Some(false));
    assert!(
        wrong_side.starts_with("✗ You said ZooKeeper mode, 3.2× sooner. KRaft's controller was back"),
        "{wrong_side}"
    );
}

#[test]
fn just_watching_plays_on_and_the_verdict_tells_the_answer() {
    let (_, held, text) = verdict_after(None, None);
    assert_eq!(held, None);
    assert!(text.starts_with("The answer: KRaft's controller was back"), "{text}");
    assert!(text.contains("whatever the partition count"), "the verdict says why: {text}");
}

#[test]
fn the_race_controls_leaving_the_tour_and_kiosk_mode_play_on_without_a_prediction() {
    let ready = || {
        let mut page = open(&format!("?tour={}", race_step()));
        frames_while_busy(&mut page, 200);
        assert!(page.race.asking());
        page
    };
    for (what, action) in [
        ("Space", Action::Key(" ".into())),
        ("Kill", Action::Race(RaceAction::Kill)),
        ("the race's play button", Action::Race(RaceAction::TogglePlay)),
        ("leaving the tour", Action::Tour(None)),
    ] {
        let mut page = ready();
        page.reduce(action);
        assert!(!page.race.asking(), "{what} leaves the question");
        assert_eq!(question(&page), Stage::Watching, "{what}");
        assert!(page.race.question().unwrap().given.is_none(), "{what}: nothing was predicted");
        for _ in 0..3 {
            page.reduce(Action::Frame { elapsed: FRAME_MS });
        }
        assert!(matches!(stage(&page), Some(RaceStage::Running { .. })), "{what} plays the race");
    }
    // The partition slider builds a new race: the question stays open, and predicting kills it.
    let mut page = ready();
    page.reduce(Action::Race(RaceAction::Partitions(3.0)));
    frames_while_busy(&mut page, 200);
    assert!(page.race.asking() && stage(&page) == Some(RaceStage::Ready));
    page.reduce(Action::Race(RaceAction::Predict(true)));
    page.reduce(Action::Frame { elapsed: FRAME_MS });
    assert!(page.race.playing(), "predicting on a rebuilt race kills it and plays");

    let mut kiosk = open(&format!("?tour={}&kiosk=1", race_step()));
    assert!(kiosk.race.question().is_none(), "kiosk mode asks nothing");
    frames_while_busy(&mut kiosk, 200);
    assert!(kiosk.race.playing(), "kiosk mode plays the race on from the step's opening");
}

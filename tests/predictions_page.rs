//! The tour's predictions on the page, through its reducer: a step plays up to its question and
//! holds; an option, a click on a node or a key answers it and plays on; "Just watch" (or Play)
//! plays on without an answer; once the moment has played the verdict says whether it held.

use kraftscope::harness::Micros;
use kraftscope::page::{Action, PageState, Stage, Tab};
use kraftscope::teaching::predictions;
use kraftscope::teaching::stories::TOUR;

const FRAME_MS: f64 = 1_000.0 / 60.0;

fn step_of(id: &str) -> usize {
    TOUR.iter().position(|s| s.id == id).unwrap() + 1
}

fn stage(page: &PageState) -> Stage {
    page.question.as_ref().expect("the step asks").stage(page.session.now())
}

/// Play frames until `done`, at most a simulated minute of real time.
fn frames_until(page: &mut PageState, done: impl Fn(&PageState) -> bool) {
    for _ in 0..3_600 {
        if done(page) {
            return;
        }
        page.reduce(Action::Frame { elapsed: FRAME_MS });
    }
    panic!(
        "not reached at {} us: {:?}",
        page.session.now(),
        page.question.as_ref().map(|q| q.view(page.session.now()))
    );
}

/// Open step `id`, play to its question and check it holds there.
fn held_at_question(id: &str, query: &str) -> PageState {
    let mut page = PageState::new(&format!("?tour={}{query}", step_of(id)), "http://localhost/", false);
    let asks: Micros = predictions::for_story(id).unwrap().asks_at();
    frames_until(&mut page, |p| stage(p) == Stage::Asking);
    for _ in 0..120 {
        page.reduce(Action::Frame { elapsed: FRAME_MS });
    }
    assert_eq!((page.session.now(), page.live.playing), (asks, false), "{id}: holds at its question");
    page
}

fn option(page: &PageState, label: &str) -> usize {
    let view = page.question.as_ref().unwrap().view(page.session.now());
    view.options
        .iter()
        .position(|(l, _)| l == label)
        .unwrap_or_else(|| panic!("{label} in {:?}", view.options))
}

fn verdict(page: &mut PageState) -> (Option<bool>, String) {
    frames_until(page, |p| matches!(stage(p), Stage::Verdict { .. }));
    match stage(page) {
        Stage::Verdict { held, text } => (held, text),
        _ => unreachable!(),
    }
}

#[test]
fn a_right_answer_plays_on_and_the_verdict_explains_the_split_vote() {
    let mut page = held_at_question("leader-crash", "");
    page.reduce(Action::Predict(Some(option(&page, "epoch 3"))));
    assert!(page.live.playing);
    assert_eq!(stage(&page), Stage::Watching);
    let (held, text) = verdict(&mut page);
    assert_eq!(held, Some(true));
    assert!(
        text.starts_with("✓ Right: epoch 3.") && text.contains("a split vote at epoch 2 came first"),
        "{text}"
    );
    assert_eq!(page.session.sim().leader().map(|l| l.epoch()), Some(3), "the cluster shows what it says");
}

#[test]
fn a_wrong_answer_is_told_what_happened_instead() {
    let mut page = held_at_question("leader-crash", "");
    page.reduce(Action::Key("2".into()));
    let (held, text) = verdict(&mut page);
    assert_eq!(held, Some(false));
    assert!(text.starts_with("✗ You said epoch 2; it was epoch 3."), "{text}");
}

#[test]
fn a_click_on_a_node_answers_who_leads() {
    let mut page = held_at_question("first-election", "");
    let leader = predictions::for_story("first-election").unwrap().outcome(1).unwrap().answer;
    let predictions::Answer::Node(id) = leader else { panic!("a node") };
    page.reduce(Action::Select(id));
    assert_eq!(page.live.selected, None, "the click answered, it did not select");
    let (held, text) = verdict(&mut page);
    assert_eq!(held, Some(true));
    assert!(text.starts_with(&format!("✓ Right: n{id}.")), "{text}");
    assert_eq!(page.session.sim().leader().map(|l| l.id()), Some(id));
}

#[test]
fn just_watching_plays_on_and_tells_the_answer() {
    for how in [Action::Predict(None), Action::Key(" ".into()), Action::TogglePlay, Action::Key("w".into())] {
        let mut page = held_at_question("pre-vote", "");
        page.reduce(how.clone());
        assert!(page.live.playing, "{how:?} plays on");
        let (held, text) = verdict(&mut page);
        assert_eq!(held, None, "{how:?}");
        assert!(text.starts_with("The answer: no. With pre-vote"), "{text}");
    }
}

#[test]
fn kiosk_mode_never_holds_at_a_question() {
    let step = step_of("first-election");
    let mut page = PageState::new(&format!("?kiosk=1&tour={step}"), "http://localhost/", false);
    let asks = predictions::for_story("first-election").unwrap().asks_at();
    for _ in 0..60 {
        page.reduce(Action::Frame { elapsed: FRAME_MS });
    }
    assert!(page.live.playing && page.session.now() > asks, "kiosk mode plays past the question");
}

#[test]
fn every_question_holds_and_its_verdict_comes_once_it_played() {
    for p in &predictions::PREDICTIONS {
        let mut page = held_at_question(p.story, "");
        page.reduce(Action::Predict(Some(0)));
        let at = p.outcome(1).unwrap().at;
        frames_until(&mut page, |page| {
            page.session.now() >= at || matches!(stage(page), Stage::Verdict { .. })
        });
        assert!(page.session.now() >= at, "{}: no verdict before the moment played", p.story);
        assert!(matches!(stage(&page), Stage::Verdict { .. }), "{}", p.story);
    }
}

#[test]
fn leaving_the_tour_at_an_open_question_leaves_the_question() {
    let mut page = held_at_question("first-election", "");
    page.reduce(Action::Tour(None));
    assert_eq!(page.question, None);
    assert!(page.live.playing, "the cluster plays on, no longer held");
    page.reduce(Action::Select(1));
    assert_eq!(page.live.selected, Some(1), "a click selects again");
}

/// #61 item 4: a step's narration tells what happened only with the verdict, neither while it
/// plays toward its question nor while it asks.
#[test]
fn the_outcome_is_told_only_with_the_verdict() {
    let mut page = PageState::new(&format!("?tour={}", step_of("pre-vote")), "http://localhost/", false);
    assert_eq!(stage(&page), Stage::Ahead);
    assert!(!stage(&page).tells_outcome(), "playing toward the question");
    frames_until(&mut page, |p| stage(p) == Stage::Asking);
    assert!(!stage(&page).tells_outcome(), "asking");
    page.reduce(Action::Predict(Some(0)));
    assert!(!stage(&page).tells_outcome(), "watching");
    frames_until(&mut page, |p| matches!(stage(p), Stage::Verdict { .. }));
    assert!(stage(&page).tells_outcome(), "with the verdict");
}

/// #61 item 11: a step that holds at its question stops the clock, and the label "skipping
/// quiet stretches" goes with it (the page draws no further frame to clear it).
#[test]
fn a_step_held_at_its_question_is_not_labelled_skipping() {
    for prediction in predictions::PREDICTIONS.iter().filter(|p| p.asks_at_ms > p.story().opens_at_ms) {
        let mut page =
            PageState::new(&format!("?tour={}", step_of(prediction.story)), "http://localhost/", false);
        frames_until(&mut page, |p| stage(p) == Stage::Asking);
        assert!(!page.live.playing, "{}: held", prediction.story);
        assert!(
            !page.live.skipping(),
            "{}: held, yet labelled as skipping quiet stretches",
            prediction.story
        );
    }
}

/// The bridge release chapter on the page: a step opens its migration held at the question; a
/// key answers it and the migration plays on to the verdict, which ticks the step's moment off.
#[test]
fn a_migration_step_holds_at_its_question_and_a_key_answers_it() {
    for (id, key, held) in [("bridge-dual-write", "1", true), ("bridge-stranded", "2", false)] {
        let mut page = PageState::new(&format!("?tour={}", step_of(id)), "http://localhost/", false);
        assert_eq!(page.tab, Tab::Migration, "{id}");
        let migration = page.migration.as_ref().expect("the step's migration");
        let view = migration.question().expect("a question");
        assert_eq!((view.stage, view.options.len(), migration.playing()), (Stage::Asking, 3, false), "{id}");
        let asked_at = migration.view().picture.now;
        for _ in 0..60 {
            page.reduce(Action::Frame { elapsed: FRAME_MS });
        }
        assert_eq!(
            page.migration.as_ref().unwrap().view().picture.now,
            asked_at,
            "{id}: holds at the question"
        );
        page.reduce(Action::Key(key.into()));
        let migration = page.migration.as_ref().unwrap();
        assert!(migration.playing(), "{id}: an answer plays on");
        assert_eq!(migration.question().unwrap().stage, Stage::Watching);
        let mut frames = 0;
        while page.key_seen.is_none() {
            assert!(frames < 60 * 60, "{id}: no verdict after a minute of frames");
            page.reduce(Action::Frame { elapsed: FRAME_MS });
            frames += 1;
        }
        let Stage::Verdict { held: said, text } = page.migration.as_ref().unwrap().question().unwrap().stage
        else {
            panic!("{id}: the verdict shows once the answer has played");
        };
        assert_eq!(said, Some(held), "{id}: {text}");
        assert!(text.starts_with(if held { "✓ Right" } else { "✗ You said" }), "{id}: {text}");
    }
}

#[test]
fn space_on_a_migration_question_just_watches_and_kiosk_mode_never_holds() {
    let step = step_of("bridge-rollback");
    let mut page = PageState::new(&format!("?tour={step}"), "http://localhost/", false);
    assert!(page.migration.as_ref().unwrap().asking());
    page.reduce(Action::Key(" ".into()));
    let migration = page.migration.as_ref().unwrap();
    assert!(migration.playing() && !migration.asking(), "Space plays on without an answer");
    let kiosk = PageState::new(&format!("?tour={step}&kiosk=1"), "http://localhost/", false);
    let migration = kiosk.migration.as_ref().unwrap();
    assert!(migration.playing() && !migration.asking(), "kiosk mode plays on from the question");
}

/// The pains chapter on the page: the second door's step plays its pain to the broker's first
/// decision and holds there; the key 1 answers (ALLOWED) and the pain plays on to the broker's
/// next decision, where the verdict says it held. The option buttons' action answers the same way.
#[test]
fn the_second_door_step_holds_at_its_question_and_a_key_answers_it() {
    let step = step_of("zk-security");
    for answer in [Action::Key("1".into()), Action::Predict(Some(0))] {
        let mut page = PageState::new(&format!("?tour={step}"), "http://localhost/", false);
        assert_eq!(page.tab, Tab::Pains);
        let mut frames = 0;
        while !page.pains.asking() {
            assert!(frames < 60 * 60, "the question never came");
            page.reduce(Action::Frame { elapsed: FRAME_MS });
            frames += 1;
        }
        let held_at = page.pains.view().now;
        for _ in 0..60 {
            page.reduce(Action::Frame { elapsed: FRAME_MS });
        }
        assert_eq!((page.pains.view().now, page.pains.playing()), (held_at, false), "holds at the question");
        page.reduce(answer.clone());
        assert!(page.pains.playing() && !page.pains.asking(), "{answer:?} plays on");
        let verdict = |page: &PageState| page.pains.question().map(|q| q.stage);
        let mut frames = 0;
        while !matches!(verdict(&page), Some(Stage::Verdict { .. })) {
            assert!(frames < 60 * 60, "no verdict after a minute of frames");
            page.reduce(Action::Frame { elapsed: FRAME_MS });
            frames += 1;
        }
        let Some(Stage::Verdict { held, text }) = verdict(&page) else { unreachable!() };
        assert_eq!(held, Some(true), "{text}");
        assert!(page.key_seen.is_some(), "the step's moment (the write) has played");
    }
    let kiosk = PageState::new(&format!("?tour={step}&kiosk=1"), "http://localhost/", false);
    assert!(kiosk.pains.question().is_some_and(|q| q.stage == Stage::Ahead) && kiosk.pains.playing());
}

//! The chapters' self-checks: three or four questions at the end of each chapter, the common
//! misreadings among the wrong options, each answer linking a tour step; the page keeps the
//! answers (the browser stores them) and forgets them on "Reset my answers".

use std::collections::BTreeSet;

use kraftscope::page::{Action, Effect, PageState};
use kraftscope::teaching::self_check::{CHECKS, CheckAnswers, chapter_ended_by};
use kraftscope::teaching::stories::{self, TOUR};

#[test]
fn every_chapter_ends_with_three_or_four_questions() {
    let chapters: BTreeSet<&str> = TOUR.iter().map(|s| s.chapter).collect();
    let ends: Vec<&str> = (0..TOUR.len()).filter_map(chapter_ended_by).collect();
    assert_eq!(ends.iter().copied().collect::<BTreeSet<_>>(), chapters, "each chapter ends once");
    assert_eq!(ends.len(), chapters.len());
    for chapter in chapters {
        let n = CHECKS.iter().filter(|q| q.chapter == chapter).count();
        assert!((3..=4).contains(&n), "{chapter}: {n} questions");
    }
    let ids: BTreeSet<&str> = CHECKS.iter().map(|q| q.id).collect();
    assert_eq!(ids.len(), CHECKS.len(), "ids are unique: the browser keeps answers under them");
    for q in &CHECKS {
        assert!(q.options.len() >= 2 && q.correct < q.options.len(), "{}", q.id);
        assert!(stories::find(q.shows).is_some(), "{}: links the tour step {}", q.id, q.shows);
    }
}

#[test]
fn the_common_misreadings_are_offered_and_answered() {
    for misreading in
        ["renamed zookeeper", "external raft service", "faster message throughput", "was insecure"]
    {
        let (q, i) = CHECKS
            .iter()
            .find_map(|q| {
                q.options.iter().position(|o| o.to_lowercase().contains(misreading)).map(|i| (q, i))
            })
            .unwrap_or_else(|| panic!("no question offers \"{misreading}\""));
        assert_ne!(i, q.correct, "{}: \"{misreading}\" is a wrong answer", q.id);
    }
}

#[test]
fn stored_answers_read_back_and_damage_loses_only_itself() {
    let mut answers = CheckAnswers::default();
    assert!(answers.answer("four-voters", 0) && answers.answer("kip500-goal", 1));
    assert!(!answers.answer("four-voters", 9) && !answers.answer("no-such", 0));
    let text = answers.to_text();
    assert_eq!(CheckAnswers::parse(&text), answers);
    let damaged = CheckAnswers::parse(&format!("{text},four-voters=x,nope=1,=,kip500-what=99,,"));
    assert_eq!(damaged, answers);
    assert_eq!(CheckAnswers::parse("garbage"), CheckAnswers::default());
}

fn stored(effects: &[Effect]) -> Option<&str> {
    effects.iter().find_map(|e| match e {
        Effect::StoreChecks(text) => Some(text.as_str()),
        _ => None,
    })
}

#[test]
fn the_page_shows_a_chapters_check_on_its_last_step_and_keeps_the_answers() {
    let step = TOUR.iter().position(|s| s.id == "snapshot").unwrap();
    let mut page = PageState::new(&format!("?tour={}", step + 1), "http://localhost/", false);
    let view = page.self_check().expect("the snapshot step ends its chapter");
    assert_eq!((view.chapter, view.answered, view.questions.len()), (TOUR[step].chapter, 0, 3));
    let q = &view.questions[0];
    let wrong = (0..q.options.len()).find(|&i| i != CHECKS[q.index].correct).unwrap();
    let effects = page.reduce(Action::Check { question: q.index, option: wrong }).effects;
    let view = page.self_check().unwrap();
    assert_eq!(view.answered, 1);
    let (right, why) = view.questions[0].verdict.expect("answered");
    assert!(!right && why == CHECKS[q.index].explanation);
    assert!(TOUR[view.questions[0].step - 1].id == CHECKS[q.index].shows);
    let text = stored(&effects).expect("the answer is stored").to_string();

    // A fresh page restores the stored answers; Reset forgets them, stored empty.
    let mut again = PageState::new(&format!("?tour={}", step + 1), "http://localhost/", false);
    again.reduce(Action::RestoreChecks(text));
    assert_eq!(again.self_check().unwrap().questions[0].chosen, Some(wrong));
    let effects = again.reduce(Action::ResetChecks).effects;
    assert_eq!(stored(&effects), Some(""));
    assert_eq!(again.self_check().unwrap().answered, 0);

    // A step inside a chapter has none.
    let inside = TOUR.iter().position(|s| s.id == "leader-crash").unwrap();
    let page = PageState::new(&format!("?tour={}", inside + 1), "http://localhost/", false);
    assert!(page.self_check().is_none());
}

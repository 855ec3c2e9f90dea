//! Class mode: a tour step's question full screen with a QR code that reads back as the link a
//! phone opens the same question with; the phone's view picks an answer and shows the answer
//! when asked, computed from the same step and seed.

use std::collections::BTreeSet;

use kraftscope::page::qr::{QUIET_ZONE, Qr};
use kraftscope::page::{Action, PageState, Stage};
use kraftscope::teaching::predictions::{self, Answer};

const BASE: &str = "http://localhost:8000/kraftscope/";

/// Read a QR code back as a camera would, from the path the page draws (`M x y h1v1h-1z` a
/// dark module, quiet zone included), 4 pixels a module.
fn read_back(code: &Qr) -> String {
    let px = 4;
    let side = code.side() * px;
    let modules: BTreeSet<(usize, usize)> = code
        .path
        .split('M')
        .filter(|m| !m.is_empty())
        .map(|m| {
            let (x, rest) = m.split_once(' ').expect("x y");
            let y = rest.strip_suffix("h1v1h-1z").expect("a module");
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect();
    assert!(modules.iter().all(|&(x, y)| (QUIET_ZONE..code.side() - QUIET_ZONE).contains(&x.max(y))));
    let dark = |x: usize, y: usize| modules.contains(&(x / px, y / px));
    let mut image =
        rqrr::PreparedImage::prepare_from_greyscale(side, side, |x, y| if dark(x, y) { 0 } else { 255 });
    let grids = image.detect_grids();
    assert_eq!(grids.len(), 1, "one code found");
    grids[0].decode().expect("the code decodes").1
}

#[test]
fn the_class_code_reads_back_as_the_phone_link_of_the_same_question() {
    let mut page = PageState::new("?class=1&tour=4&seed=1", BASE, false);
    assert!(page.present, "class mode is presenter mode's large type");
    for _ in 0..600 {
        page.reduce(Action::Frame { elapsed: 1_000.0 / 60.0 });
    }
    let question = page.question.as_ref().expect("step 4 asks");
    assert_eq!(question.stage(page.session.now()), Stage::Asking);
    let (link, code) = page.class_code().cloned().expect("class mode draws a code");
    assert_eq!(link, format!("{BASE}?ask=leader-crash&seed=1"));
    assert_eq!(read_back(&code), link);
    // The teacher plays the moment (Space: just watch).
    page.reduce(Action::Key(" ".into()));
    assert!(page.live.playing);
    let other = PageState::new("?tour=4", BASE, false);
    assert_eq!(other.class_code(), None, "outside class mode, no code");
}

#[test]
fn the_phone_shows_the_question_alone_and_the_answer_when_asked() {
    let mut phone = PageState::new("?ask=leader-crash&seed=1", BASE, false);
    assert!(phone.notices.is_empty(), "{:?}", phone.notices);
    assert!(!phone.live.playing, "nothing plays behind the question");
    let expected = predictions::for_story("leader-crash").unwrap().outcome(1).unwrap().answer;
    let view = |p: &PageState| p.phone.as_ref().expect("a phone question").view(p.session.now());
    let picked = view(&phone).options.iter().position(|(label, _)| label == "epoch 2").unwrap();
    phone.reduce(Action::Predict(Some(picked)));
    assert!(view(&phone).options[picked].1, "the pick is marked");
    assert!(!matches!(view(&phone).stage, Stage::Verdict { .. }), "no answer before it is asked for");
    phone.reduce(Action::Reveal);
    let Stage::Verdict { held, text } = view(&phone).stage else { panic!("the answer shows") };
    assert_eq!(held, Some(expected == Answer::Number(2)));
    assert!(text.contains(&expected.label(predictions::Ask::NextEpoch)), "{text}");
    phone.reduce(Action::Predict(Some(0)));
    assert!(view(&phone).options[picked].1, "after the answer, the pick stays");
}

#[test]
fn a_phone_link_to_a_step_without_a_question_opens_with_a_notice() {
    let page = PageState::new("?ask=snapshot", BASE, false);
    assert!(page.phone.is_none());
    assert!(
        page.notices
            .iter()
            .any(|n| n.starts_with("ask: 'snapshot' is not a tour step with a question a phone can show")),
        "{:?}",
        page.notices
    );
}

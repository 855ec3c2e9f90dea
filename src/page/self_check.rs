//! A chapter's self-check as the tour panel shows it on the chapter's last step: each question,
//! the option chosen, and once answered whether it was right, why, and the step that shows it.

use crate::teaching::self_check::{self, CHECKS, CheckAnswers};
use crate::teaching::stories::TOUR;

/// The self-check of the chapter a tour step ends.
#[derive(Clone, Debug, PartialEq)]
pub struct SelfCheckView {
    pub chapter: &'static str,
    pub answered: usize,
    pub questions: Vec<CheckView>,
}

/// One question of it.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckView {
    /// Its place in [`CHECKS`], which answers it ([`crate::page::Action::Check`]).
    pub index: usize,
    pub question: &'static str,
    pub options: &'static [&'static str],
    pub chosen: Option<usize>,
    /// Once answered: whether right, and why.
    pub verdict: Option<(bool, &'static str)>,
    /// The tour step that shows the answer: its number (1-based) and title.
    pub step: usize,
    pub step_title: &'static str,
}

/// The self-check shown on tour step `step` (0-based), if it ends a chapter.
pub fn view(step: usize, answers: &CheckAnswers) -> Option<SelfCheckView> {
    let chapter = self_check::chapter_ended_by(step)?;
    let questions: Vec<CheckView> = CHECKS
        .iter()
        .enumerate()
        .filter(|(_, q)| q.chapter == chapter)
        .map(|(index, q)| {
            let chosen = answers.get(q.id);
            let shows = TOUR.iter().position(|s| s.id == q.shows).expect("a self-check links a tour step");
            CheckView {
                index,
                question: q.question,
                options: q.options,
                chosen,
                verdict: chosen.map(|c| (c == q.correct, q.explanation)),
                step: shows + 1,
                step_title: TOUR[shows].title,
            }
        })
        .collect();
    let answered = questions.iter().filter(|q| q.chosen.is_some()).count();
    (!questions.is_empty()).then_some(SelfCheckView { chapter, answered, questions })
}

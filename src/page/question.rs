//! The tour step's prediction on the page: the step plays up to its question and holds there;
//! an answer (an option, or a click on the node) or "Just watch" plays it on; once the moment
//! has played, the verdict says whether the prediction held, and why.

use crate::harness::Micros;
use crate::quorum::NodeId;
use crate::session::predictions::{self, Answer, Ask, Outcome, Prediction};
use crate::session::stories::Story;

/// A tour step's question and what the viewer did with it.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    prediction: &'static Prediction,
    options: Vec<Answer>,
    outcome: Outcome,
    given: Option<Answer>,
    skipped: bool,
    /// A phone shows the answer when its reader asks, not when a moment plays.
    revealed: bool,
}

/// Where the question stands at a moment of the step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The step plays toward it.
    Ahead,
    /// The step holds; the options wait.
    Asking,
    /// Answered (or skipped); the moment plays.
    Watching,
    /// The moment has played: whether the answer held (None: none given), and the verdict.
    Verdict { held: Option<bool>, text: String },
}

impl Stage {
    /// Whether the step's narration may tell what happened: only once the verdict is in (before
    /// the question is asked, it would answer it).
    pub fn tells_outcome(&self) -> bool {
        matches!(self, Stage::Verdict { .. })
    }
}

/// What the tour panel shows of the question.
#[derive(Clone, Debug, PartialEq)]
pub struct QuestionView {
    pub text: &'static str,
    /// Each option's label, and whether it is the answer given.
    pub options: Vec<(String, bool)>,
    /// A click on a node in the drawing answers it.
    pub by_node: bool,
    pub stage: Stage,
}

impl Question {
    /// The question of `story` played with `seed`, if it has one; it is skipped at once where
    /// the viewer cannot answer (kiosk mode walks the tour on its own).
    pub(super) fn of(story: &Story, seed: u64, skipped: bool) -> Option<Question> {
        let prediction = predictions::for_story(story.id)?;
        let outcome = prediction.outcome(seed)?;
        let options = prediction.options(&prediction.asking(seed));
        Some(Question { prediction, options, outcome, given: None, skipped, revealed: false })
    }

    /// Where playback holds: the asking moment, until the question is answered or skipped.
    pub(super) fn hold_at(&self) -> Option<Micros> {
        (self.given.is_none() && !self.skipped).then(|| self.prediction.asks_at())
    }

    /// Answer with option `index`; false if there is none (or the question is not open).
    pub(super) fn answer(&mut self, index: usize, now: Micros) -> bool {
        let open = self.is_asking(now);
        match self.options.get(index) {
            Some(answer) if open => {
                self.given = Some(*answer);
                true
            }
            _ => false,
        }
    }

    /// A click on node `id` answers a question about a node while it is open.
    pub(super) fn answer_node(&mut self, id: NodeId, now: Micros) -> bool {
        let index = self.options.iter().position(|a| *a == Answer::Node(id));
        index.is_some_and(|i| self.answer(i, now))
    }

    pub(super) fn skip(&mut self) {
        self.skipped = true;
    }

    /// A phone's reader picks option `index` (again and again, until the answer is shown).
    pub(super) fn choose(&mut self, index: usize) {
        if !self.revealed {
            self.given = self.options.get(index).copied().or(self.given);
        }
    }

    /// A phone's reader asks for the answer (the teacher has revealed it on the big screen).
    pub(super) fn reveal(&mut self) {
        self.revealed = true;
    }

    /// The link a phone opens the question with: the same step and seed, so the same answer.
    pub fn phone_link(&self, base_url: &str, seed: u64) -> String {
        format!("{base_url}?ask={}&seed={seed}", self.prediction.story)
    }

    /// Whether the question is open at `now` (the step holds there): what the page asks every
    /// frame, without wording a verdict.
    pub fn is_asking(&self, now: Micros) -> bool {
        !self.verdict_due(now) && self.given.is_none() && !self.skipped && now >= self.prediction.asks_at()
    }

    /// Whether the verdict shows at `now`: revealed (a phone), or the answer has played and the
    /// question is answered, skipped or passed.
    fn verdict_due(&self, now: Micros) -> bool {
        let open = self.given.is_none() && !self.skipped;
        self.revealed || (now >= self.outcome.at && (!open || now > self.prediction.asks_at()))
    }

    /// Where the question stands at `now`.
    pub fn stage(&self, now: Micros) -> Stage {
        let ask = self.prediction.ask;
        let open = self.given.is_none() && !self.skipped;
        if self.verdict_due(now) {
            let actual = self.outcome.answer.label(ask);
            let (held, said) = match self.given {
                Some(given) if given == self.outcome.answer => (Some(true), format!("✓ Right: {actual}.")),
                Some(given) => (Some(false), format!("✗ You said {}; it was {actual}.", given.label(ask))),
                None => (None, format!("The answer: {actual}.")),
            };
            return Stage::Verdict {
                held,
                text: format!("{said} {}", self.prediction.explain(&self.outcome)),
            };
        }
        match now >= self.prediction.asks_at() {
            false => Stage::Ahead,
            true if open => Stage::Asking,
            true => Stage::Watching,
        }
    }

    /// What the tour panel shows at `now`.
    pub fn view(&self, now: Micros) -> QuestionView {
        let ask = self.prediction.ask;
        QuestionView {
            text: self.prediction.question,
            options: self.options.iter().map(|a| (a.label(ask), Some(*a) == self.given)).collect(),
            by_node: ask == Ask::NextLeader,
            stage: self.stage(now),
        }
    }
}

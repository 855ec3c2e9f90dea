//! The tour step's prediction on the page: the step plays up to its question and holds there;
//! an answer (an option, or a click on the node) or "Just watch" plays it on; once the moment
//! has played, the verdict says whether the prediction held, and why.

use crate::harness::Micros;
use crate::quorum::NodeId;
#[cfg(feature = "full")]
use crate::teaching::predictions::WordedOutcome;
use crate::teaching::predictions::{self, Answer, Ask};
use crate::teaching::stories::Story;

/// A tour step's question and what the viewer did with it. It holds what it asks and what the
/// step then played in words, so a question about the live cluster and one about the migration
/// (`crate::teaching::migration_predictions`) are held, answered and judged alike.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    /// The tour step (story id) it belongs to.
    story: &'static str,
    text: &'static str,
    asks_at: Micros,
    /// Each option's label.
    options: Vec<String>,
    /// The node each option names, where a click on the node answers it.
    nodes: Vec<NodeId>,
    /// What the step played: its label, whether it is among the options, and when it was seen.
    answer: String,
    answered_at: Micros,
    /// Why it went that way: said with the verdict.
    why: String,
    /// The option given, by index.
    given: Option<usize>,
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
        let nodes = match prediction.ask {
            Ask::NextLeader => options
                .iter()
                .filter_map(|a| match a {
                    Answer::Node(id) => Some(*id),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        let mut question = Question::asked(
            prediction.story,
            prediction.question,
            prediction.asks_at(),
            options.iter().map(|a| a.label(prediction.ask)).collect(),
            (outcome.answer.label(prediction.ask), outcome.at),
            prediction.explain(&outcome),
        );
        question.nodes = nodes;
        question.skipped = skipped;
        Some(question)
    }

    /// A question asked at `asks_at` with these options; `answer`, the label of what the step
    /// then played and when; `why`, said with the verdict.
    fn asked(
        story: &'static str,
        text: &'static str,
        asks_at: Micros,
        options: Vec<String>,
        answer: (String, Micros),
        why: String,
    ) -> Question {
        let (answer, answered_at) = answer;
        Question {
            story,
            text,
            asks_at,
            options,
            nodes: Vec::new(),
            answer,
            answered_at,
            why,
            given: None,
            skipped: false,
            revealed: false,
        }
    }

    /// A worded question (the migration's, a pain's) as `outcome` played it, asked by tour step
    /// `story`; `skipped` (kiosk mode), never held at. The full page's (those views are its).
    #[cfg(feature = "full")]
    pub(crate) fn worded(
        story: &'static str,
        text: &'static str,
        outcome: WordedOutcome,
        why: &str,
        skipped: bool,
    ) -> Question {
        let WordedOutcome { asks_at, options, answer, at } = outcome;
        let mut question = Question::asked(story, text, asks_at, options, (answer, at), why.to_string());
        question.skipped = skipped;
        question
    }

    /// Where playback holds: the asking moment, until the question is answered or skipped.
    pub(crate) fn hold_at(&self) -> Option<Micros> {
        self.open().then_some(self.asks_at)
    }

    /// Neither answered nor skipped.
    fn open(&self) -> bool {
        self.given.is_none() && !self.skipped
    }

    /// Answer with option `index`; false if there is none (or the question is not open).
    pub(crate) fn answer(&mut self, index: usize, now: Micros) -> bool {
        let open = self.is_asking(now);
        if open && index < self.options.len() {
            self.given = Some(index);
        }
        open && index < self.options.len()
    }

    /// A click on node `id` answers a question about a node while it is open.
    pub(super) fn answer_node(&mut self, id: NodeId, now: Micros) -> bool {
        let index = self.nodes.iter().position(|n| *n == id);
        index.is_some_and(|i| self.answer(i, now))
    }

    fn skip(&mut self) {
        self.skipped = true;
    }

    /// The viewer's response at `now`: option `answer`, or (`None`) just watch. Returns whether
    /// the step plays on (an answer the question cannot take leaves it held).
    pub(crate) fn respond(&mut self, answer: Option<usize>, now: Micros) -> bool {
        match answer {
            Some(index) => self.answer(index, now),
            None => {
                self.skip();
                true
            }
        }
    }

    /// A phone's reader picks option `index` (again and again, until the answer is shown).
    pub(super) fn choose(&mut self, index: usize) {
        if !self.revealed && index < self.options.len() {
            self.given = Some(index);
        }
    }

    /// A phone's reader asks for the answer (the teacher has revealed it on the big screen).
    pub(super) fn reveal(&mut self) {
        self.revealed = true;
    }

    /// The link a phone opens the question with: the same step and seed, so the same answer.
    pub fn phone_link(&self, base_url: &str, seed: u64) -> String {
        format!("{base_url}?ask={}&seed={seed}", self.story)
    }

    /// Whether the question is open at `now` (the step holds there): what the page asks every
    /// frame, without wording a verdict.
    pub fn is_asking(&self, now: Micros) -> bool {
        !self.verdict_due(now) && self.open() && now >= self.asks_at
    }

    /// Whether the verdict shows at `now`: revealed (a phone), or the answer has played and the
    /// question is answered, skipped or passed.
    fn verdict_due(&self, now: Micros) -> bool {
        self.revealed || (self.answer_seen(now).is_some() && (!self.open() || now > self.asks_at))
    }

    /// When the answer played, if it has by `now`.
    pub(crate) fn answer_seen(&self, now: Micros) -> Option<Micros> {
        (now >= self.answered_at).then_some(self.answered_at)
    }

    /// Where the question stands at `now`.
    pub fn stage(&self, now: Micros) -> Stage {
        if self.verdict_due(now) {
            let actual = &self.answer;
            let given = self.given.map(|i| &self.options[i]);
            let (held, said) = match given {
                Some(given) if given == actual => (Some(true), format!("✓ Right: {actual}.")),
                Some(given) => (Some(false), format!("✗ You said {given}; it was {actual}.")),
                None => (None, format!("The answer: {actual}.")),
            };
            return Stage::Verdict { held, text: format!("{said} {}", self.why) };
        }
        match now >= self.asks_at {
            false => Stage::Ahead,
            true if self.open() => Stage::Asking,
            true => Stage::Watching,
        }
    }

    /// What the tour panel shows at `now`.
    pub fn view(&self, now: Micros) -> QuestionView {
        QuestionView {
            text: self.text,
            options: self
                .options
                .iter()
                .enumerate()
                .map(|(i, label)| (label.clone(), Some(i) == self.given))
                .collect(),
            by_node: !self.nodes.is_empty(),
            stage: self.stage(now),
        }
    }
}

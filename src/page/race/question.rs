//! The failover race's question on the page: the race holds before the kill while the viewer
//! sets a slider (which side is back first, and how many times sooner) and predicts, or just
//! watches; once both sides are back, the verdict compares the guess with what the race played.

use crate::race::{self, FailoverRace, RaceStage};
use crate::teaching::predictions::{RaceOutcome, RacePrediction};
use crate::util::format;

use super::super::question::Stage;

/// The slider's ends, in tenths of a decade of the ratio: ZooKeeper mode back 10x sooner, to
/// KRaft back 1000x sooner.
pub const GUESS_MIN: i32 = -10;
pub const GUESS_MAX: i32 = 30;

/// A guess counts as right on the right side and within this factor of the race's ratio.
const CLOSE_ENOUGH: f64 = 2.0;

/// Ratios nearer 1 than this are "about the same time" (as the race's headline says them).
const SAME_WITHIN: f64 = 1.05;

/// Which side was (or will be) back first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Kraft,
    Same,
    Zk,
}

fn side(ratio: f64) -> Side {
    if ratio >= SAME_WITHIN {
        Side::Kraft
    } else if ratio <= 1.0 / SAME_WITHIN {
        Side::Zk
    } else {
        Side::Same
    }
}

/// The ratio a slider position stands for: 10^(tenths / 10).
fn ratio_of(tenths: i32) -> f64 {
    10f64.powf(f64::from(tenths) / 10.0)
}

/// A ratio in two significant figures: 1.3, 6.3, 79, 130, 1000.
fn times(ratio: f64) -> String {
    if ratio >= 100.0 {
        format!("{:.0}", (ratio / 10.0).round() * 10.0)
    } else if ratio >= 9.95 {
        format!("{ratio:.0}")
    } else {
        format!("{ratio:.1}").trim_end_matches(".0").to_string()
    }
}

/// A slider position in words: "KRaft, 63× sooner".
fn guess_label(tenths: i32) -> String {
    let ratio = ratio_of(tenths);
    match side(ratio) {
        _ if tenths == 0 => "both at about the same time".to_string(),
        Side::Zk => format!("ZooKeeper mode, {}\u{d7} sooner", times(1.0 / ratio)),
        _ => format!("KRaft, {}\u{d7} sooner", times(ratio)),
    }
}

/// The race's question and what the viewer did with it.
#[derive(Clone, Debug, PartialEq)]
pub struct RaceQuestion {
    prediction: &'static RacePrediction,
    /// Where the slider stands.
    guess: i32,
    given: Option<i32>,
    skipped: bool,
}

/// What the tour panel shows of the race's question.
#[derive(Clone, Debug, PartialEq)]
pub struct RaceQuestionView {
    pub text: &'static str,
    /// The slider's position, and in words.
    pub guess: i32,
    pub guess_label: String,
    /// The guess given, in words, once predicted.
    pub given: Option<String>,
    pub stage: Stage,
}

impl RaceQuestion {
    /// The question, open, its slider at "about the same time".
    pub(super) fn new(prediction: &'static RacePrediction) -> RaceQuestion {
        RaceQuestion { prediction, guess: 0, given: None, skipped: false }
    }

    /// Whether the viewer has neither predicted nor chosen to just watch.
    pub(super) fn is_open(&self) -> bool {
        self.given.is_none() && !self.skipped
    }

    /// Whether the question is open before the kill: the race holds there.
    pub(super) fn is_asking(&self, race: Option<&FailoverRace>) -> bool {
        self.is_open() && race.is_none_or(|r| !matches!(r.stage(), RaceStage::Running { .. }))
    }

    /// Move the slider (while the question is open).
    pub(super) fn set_guess(&mut self, tenths: i32) {
        if self.is_open() {
            self.guess = tenths.clamp(GUESS_MIN, GUESS_MAX);
        }
    }

    /// Predict what the slider says, or (`false`) just watch.
    pub(super) fn predict(&mut self, guess: bool) {
        if self.is_open() {
            match guess {
                true => self.given = Some(self.guess),
                false => self.skipped = true,
            }
        }
    }

    /// Where the question stands with `race` as it is now.
    pub fn stage(&self, race: Option<&FailoverRace>) -> Stage {
        if let Some(outcome) = race.and_then(RaceOutcome::of) {
            return self.verdict(&outcome);
        }
        match self.is_asking(race) {
            true => Stage::Asking,
            false => Stage::Watching,
        }
    }

    /// Whether the guess held, and why it went as it went, with the race's own figures.
    fn verdict(&self, outcome: &RaceOutcome) -> Stage {
        let ratio = outcome.ratio();
        let answer = race::headline(outcome.kraft, outcome.zk);
        let (held, said) = match self.given {
            None => (None, format!("The answer: {answer}.")),
            Some(guess) => {
                let guessed = ratio_of(guess);
                let close = (guessed.log10() - ratio.log10()).abs() <= CLOSE_ENOUGH.log10();
                match side(guessed) == side(ratio) && close {
                    true => (Some(true), format!("✓ Right: {answer}; you said {}.", guess_label(guess))),
                    false => (
                        Some(false),
                        format!(
                            "✗ You said {}. {answer} (within a factor of two counts as right).",
                            guess_label(guess)
                        ),
                    ),
                }
            }
        };
        let text = format!(
            "{said} KRaft: a new active controller after {}. ZooKeeper mode: every broker had the new controller's state after {}. {}",
            format::seconds(outcome.kraft),
            format::seconds(outcome.zk),
            self.prediction.why
        );
        Stage::Verdict { held, text }
    }

    /// What the tour panel shows with `race` as it is now.
    pub fn view(&self, race: Option<&FailoverRace>) -> RaceQuestionView {
        RaceQuestionView {
            text: self.prediction.question,
            guess: self.guess,
            guess_label: guess_label(self.guess),
            given: self.given.map(guess_label),
            stage: self.stage(race),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{GUESS_MAX, GUESS_MIN, guess_label};

    #[test]
    fn the_slider_reads_as_a_side_and_a_ratio() {
        assert_eq!(guess_label(0), "both at about the same time");
        assert_eq!(guess_label(3), "KRaft, 2× sooner");
        assert_eq!(guess_label(19), "KRaft, 79× sooner");
        assert_eq!(guess_label(21), "KRaft, 130× sooner");
        assert_eq!(guess_label(GUESS_MAX), "KRaft, 1000× sooner");
        assert_eq!(guess_label(GUESS_MIN), "ZooKeeper mode, 10× sooner");
        assert_eq!(guess_label(-1), "ZooKeeper mode, 1.3× sooner");
    }
}

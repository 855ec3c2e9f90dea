//! The failover race's question in the tour panel: a slider from "ZooKeeper mode, 10× sooner"
//! to "KRaft, 1000× sooner", Predict and Just watch; then what was said, and the verdict once
//! both sides are back. The full page's only.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::prediction::{frame, verdict, watching};
use crate::page::race::question::{GUESS_MAX, GUESS_MIN};
use crate::page::{Action, RaceAction, RaceQuestionView, Stage};

#[derive(Properties, PartialEq)]
pub struct RaceQuestionProps {
    pub view: RaceQuestionView,
    pub on: Callback<Action>,
}

#[function_component(RaceQuestion)]
pub fn race_question(props: &RaceQuestionProps) -> Html {
    let view = &props.view;
    let body = match &view.stage {
        Stage::Ahead => return Html::default(),
        Stage::Asking => {
            let on_guess = props.on.reform(|e: InputEvent| {
                let input: HtmlInputElement = e.target_unchecked_into();
                Action::Race(RaceAction::Guess(input.value().parse().unwrap_or(0)))
            });
            html! {
                <>
                    <label class="guess">{ "Back first:" }
                        <span class="end" aria-hidden="true">{ "ZooKeeper mode" }</span>
                        <input id="race-guess" type="range" aria-label="Which side is back first, and how many times sooner" min={GUESS_MIN.to_string()} max={GUESS_MAX.to_string()} step="1"
                               value={view.guess.to_string()} oninput={on_guess} aria-valuetext={view.guess_label.clone()} />
                        <span class="end" aria-hidden="true">{ "KRaft" }</span>
                        <output id="race-guess-label">{ &view.guess_label }</output>
                    </label>
                    <div class="options" role="group" aria-labelledby="prediction-question">
                        <button id="prediction-lock" class="option" onclick={props.on.reform(|_| Action::Race(RaceAction::Predict(true)))}>{ "Predict this" }</button>
                        <button id="prediction-skip" class="secondary" title="W or Space" onclick={props.on.reform(|_| Action::Race(RaceAction::Predict(false)))}>{ "Just watch" }</button>
                    </div>
                </>
            }
        }
        Stage::Watching => watching(view.given.as_deref()),
        Stage::Verdict { held, text } => verdict(*held, text),
    };
    frame(view.text, body)
}

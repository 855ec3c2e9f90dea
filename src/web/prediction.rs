//! The tour step's question: the options as buttons (digits 1 to 9 too), "Just watch", what the
//! viewer said while the moment plays, and the verdict once it has played. The tour panel is a
//! live region, so the question and the verdict are announced. The failover race's question
//! (`race_question.rs`) shows its slider in the same frame.

use yew::prelude::*;

use crate::page::{Action, QuestionView, Stage};

#[derive(Properties, PartialEq)]
pub struct PredictionProps {
    pub view: QuestionView,
    pub on: Callback<Action>,
}

#[function_component(PredictionPanel)]
pub fn prediction_panel(props: &PredictionProps) -> Html {
    let view = &props.view;
    let body = match &view.stage {
        Stage::Ahead => return Html::default(),
        Stage::Asking => {
            let option = |(i, (label, _)): (usize, &(String, bool))| {
                html! {
                    <button class="option" title={format!("Key {}", i + 1)} onclick={props.on.reform(move |_| Action::Predict(Some(i)))}>{ label }</button>
                }
            };
            html! {
                <>
                    <div class="options" role="group" aria-labelledby="prediction-question">
                        { for view.options.iter().enumerate().map(option) }
                        <button id="prediction-skip" class="secondary" title="W or Space" onclick={props.on.reform(|_| Action::Predict(None))}>{ "Just watch" }</button>
                    </div>
                    if view.by_node {
                        <p class="hint">{ "Or click the node in the drawing." }</p>
                    }
                </>
            }
        }
        Stage::Watching => {
            watching(view.options.iter().find(|(_, given)| *given).map(|(label, _)| label.as_str()))
        }
        Stage::Verdict { held, text } => verdict(*held, text),
    };
    frame(view.text, body)
}

/// The question, and below it `body`: its options, what was said, or the verdict.
pub(super) fn frame(text: &str, body: Html) -> Html {
    html! {
        <div id="prediction" class="prediction">
            <p id="prediction-question" class="question"><strong>{ "Predict: " }</strong>{ text }</p>
            { body }
        </div>
    }
}

/// While the moment plays: what the viewer said, if anything.
pub(super) fn watching(said: Option<&str>) -> Html {
    html! { <p class="hint">{ said.map_or("Watch.".to_string(), |s| format!("You said {s}. Watch.")) }</p> }
}

/// The verdict: held, missed, or (no answer given) told.
pub(super) fn verdict(held: Option<bool>, text: &str) -> Html {
    let class = match held {
        Some(true) => "held",
        Some(false) => "missed",
        None => "told",
    };
    html! { <p id="prediction-verdict" class={classes!("verdict", class)}>{ text }</p> }
}

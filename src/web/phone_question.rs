//! A phone's view of a tour step's question (`?ask=`, the link of class mode's QR code): the
//! reader picks an answer and shows the answer once the teacher has revealed it on the big
//! screen. The page is static: no server tells the phones, so the reader asks for it.

use yew::prelude::*;

use crate::page::{Action, QuestionView, Stage};

#[derive(Properties, PartialEq)]
pub struct PhoneProps {
    pub view: QuestionView,
    pub on: Callback<Action>,
}

#[function_component(PhoneQuestion)]
pub fn phone_question(props: &PhoneProps) -> Html {
    let view = &props.view;
    let verdict = match &view.stage {
        Stage::Verdict { held, text } => Some((*held, text.clone())),
        _ => None,
    };
    let option = |(i, (label, chosen)): (usize, &(String, bool))| {
        html! {
            <button class={classes!("option", chosen.then_some("chosen"))} aria-pressed={chosen.to_string()} disabled={verdict.is_some()}
                    onclick={props.on.reform(move |_| Action::Predict(Some(i)))}>{ label }</button>
        }
    };
    html! {
        <main id="phone-question" class="phone-question">
            <h2>{ "Predict" }</h2>
            <p class="question">{ view.text }</p>
            <div class="options" role="group" aria-label="Your prediction">{ for view.options.iter().enumerate().map(option) }</div>
            <div aria-live="polite">
                if let Some((held, text)) = verdict {
                    <p id="phone-verdict" class={classes!("verdict", match held { Some(true) => "held", Some(false) => "missed", None => "told" })}>{ text }</p>
                } else {
                    <button id="phone-reveal" class="secondary" onclick={props.on.reform(|_| Action::Reveal)}>{ "Show the answer" }</button>
                    <p class="hint">{ "When your teacher has revealed it on the big screen." }</p>
                }
            </div>
        </main>
    }
}

//! Class mode: the tour step's question full screen for a room, with a QR code of a link that
//! opens the same question on a phone (`web/phone_question.rs`). The full page's only.

use yew::prelude::*;

use crate::page::qr::Qr;
use crate::page::{Action, QuestionView};

#[derive(Properties, PartialEq)]
pub struct ClassProps {
    pub view: QuestionView,
    pub link: String,
    pub code: Qr,
    pub on: Callback<Action>,
}

#[function_component(ClassQuestion)]
pub fn class_question(props: &ClassProps) -> Html {
    let side = props.code.side().to_string();
    html! {
        <section id="class-question" class="class-question" aria-labelledby="class-question-text">
            <h2 id="class-question-text"><span class="predict">{ "Predict: " }</span>{ props.view.text }</h2>
            <div class="class-body">
                <ol class="class-options">
                    { for props.view.options.iter().map(|(label, _)| html! { <li>{ label }</li> }) }
                </ol>
                <figure class="class-code">
                    <svg viewBox={format!("0 0 {side} {side}")} role="img" aria-label="QR code of the phone link below" shape-rendering="crispEdges">
                        <rect width={side.clone()} height={side} fill="#fff" />
                        <path d={props.code.path.clone()} fill="#000" />
                    </svg>
                    <figcaption>{ "Answer on your phone: " }<a href={props.link.clone()}>{ props.link.clone() }</a></figcaption>
                </figure>
            </div>
            <p class="hint">{ "Space (or the button) plays the moment; the answer follows once it has played." }</p>
            <button id="class-reveal" onclick={props.on.reform(|_| Action::Predict(None))}>{ "Play the moment" }</button>
        </section>
    }
}

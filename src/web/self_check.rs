//! A chapter's self-check on its last tour step: each question's options as buttons, the
//! verdict with a link to the step whose moment shows the answer, and "Reset my answers".

use yew::prelude::*;

use crate::page::{Action, CheckView, SelfCheckView};

#[derive(Properties, PartialEq)]
pub struct SelfCheckProps {
    pub view: SelfCheckView,
    pub on: Callback<Action>,
}

#[function_component(SelfCheck)]
pub fn self_check(props: &SelfCheckProps) -> Html {
    let view = &props.view;
    let on = &props.on;
    let question = |q: &CheckView| {
        let (index, step) = (q.index, q.step);
        let label = format!("check-{index}");
        let option = |(i, text): (usize, &&'static str)| {
            let chosen = q.chosen == Some(i);
            html! {
                <button class={classes!("option", chosen.then_some("chosen"))} aria-pressed={chosen.to_string()}
                        onclick={on.reform(move |_| Action::Check { question: index, option: i })}>{ *text }</button>
            }
        };
        let see_it = on.reform(move |event: MouseEvent| {
            event.prevent_default();
            Action::Tour(Some(step - 1))
        });
        html! {
            <div class="check" role="group" aria-labelledby={label.clone()}>
                <p id={label} class="question">{ q.question }</p>
                <div class="options">{ for q.options.iter().enumerate().map(option) }</div>
                if let Some((right, why)) = q.verdict {
                    <p class={classes!("verdict", if right { "held" } else { "missed" })}>
                        { if right { "✓ Right. " } else { "✗ Not quite. " } }{ why }{ " " }
                        <a href={format!("?tour={step}")} onclick={see_it}>{ format!("See it in step {step}: {}", q.step_title) }</a>
                    </p>
                }
            </div>
        }
    };
    html! {
        <details id="self-check" class="self-check">
            <summary>{ format!("Check yourself: {} ({} of {} answered)", view.chapter, view.answered, view.questions.len()) }</summary>
            { for view.questions.iter().map(question) }
            <p class="hint">
                { "Your answers stay in this browser. " }
                <button class="secondary" onclick={on.reform(|_| Action::ResetChecks)}>{ "Reset my answers" }</button>
            </p>
        </details>
    }
}

//! The guided tour panel: the chapter and step, a progress bar, the narration, Back and Next.

use yew::prelude::*;

use super::focus::{focus_id, focus_id_soon};
use crate::session::stories::TOUR;

#[derive(Properties, PartialEq)]
pub struct TourProps {
    /// The step shown, 0-based.
    pub step: usize,
    pub on_go: Callback<usize>,
    pub on_exit: Callback<()>,
}

#[function_component(TourPanel)]
pub fn tour_panel(props: &TourProps) -> Html {
    let step = props.step.min(TOUR.len() - 1);
    let story = &TOUR[step];
    let back = (step > 0).then(|| props.on_go.reform(move |_: MouseEvent| step - 1));
    let next = (step + 1 < TOUR.len()).then(|| props.on_go.reform(move |_: MouseEvent| step + 1));
    // Opening the tour puts the keyboard on Next; leaving it, on the button that starts it again.
    use_effect_with((), |_| focus_id("tour-next"));
    let exit = props.on_exit.reform(|_: MouseEvent| {
        focus_id_soon("start-tour");
    });
    html! {
        <section class="panel tour" aria-label="Guided tour" aria-live="polite">
            <div class="tour-head">
                <span class="chapter">{ story.chapter }</span>
                <span id="tour-progress" class="progress-text">{ format!("Step {} of {}", step + 1, TOUR.len()) }</span>
                <progress max={TOUR.len().to_string()} value={(step + 1).to_string()} aria-label="Tour progress"></progress>
            </div>
            <h2 id="tour-title">{ story.title }</h2>
            <p class="narration">{ story.narration }</p>
            <div class="tour-buttons">
                <button id="tour-back" disabled={back.is_none()} onclick={back.unwrap_or_default()} title="Left arrow / Page Up">{ "Back" }</button>
                <button id="tour-next" disabled={next.is_none()} onclick={next.unwrap_or_default()} title="Right arrow / Page Down">{ "Next" }</button>
                <a href={format!("?tour={}", step + 1)} class="deep-link">{ "Link to this step" }</a>
                <button class="secondary" onclick={exit}>{ "Leave the tour" }</button>
            </div>
        </section>
    }
}

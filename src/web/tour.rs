//! The guided tour panel: the chapter and step, a progress bar, the narration, what to watch
//! for (ticked once it happened), the step's question, Replay step, Back and Next.

use yew::prelude::*;

use super::focus::{focus_id_in_place, focus_id_soon};
use super::prediction::PredictionPanel;
use super::self_check::SelfCheck;
use crate::harness::Micros;
use crate::page::{Action, QuestionView, SelfCheckView, Stage};
use crate::teaching::stories::{TOUR, View};
use crate::util::format;

#[derive(Properties, PartialEq)]
pub struct TourProps {
    /// The step shown, 0-based.
    pub step: usize,
    /// When the step's key moment happened, once it has.
    pub key_seen: Option<Micros>,
    /// The step's question, where it asks one.
    #[prop_or_default]
    pub question: Option<QuestionView>,
    /// The chapter's self-check, on its last step.
    pub self_check: Option<SelfCheckView>,
    /// A question the view shown asks in a frame of its own (the failover race's), and whether
    /// it is open.
    #[prop_or_default]
    pub children: Html,
    #[prop_or_default]
    pub asking: bool,
    pub on: Callback<Action>,
}

#[function_component(TourPanel)]
pub fn tour_panel(props: &TourProps) -> Html {
    let step = props.step.min(TOUR.len() - 1);
    let story = &TOUR[step];
    let go = |to: usize| props.on.reform(move |_: MouseEvent| Action::Tour(Some(to)));
    let back = (step > 0).then(|| go(step - 1));
    let next = (step + 1 < TOUR.len()).then(|| go(step + 1));
    // While the question is open, what to watch for would answer it.
    let asking = props.asking || props.question.as_ref().is_some_and(|q| q.stage == Stage::Asking);
    let watch = (!story.watch.is_empty() && !asking).then(|| match props.key_seen {
        Some(at) => {
            let when = match story.view {
                View::Cluster => format!("at {}", format::seconds(at)),
                View::Failover => format!("{} after the kill", format::seconds(at)),
                View::Pain(_) | View::Migration => format!("at {}", format::seconds(at)),
            };
            html! { <p id="tour-watch" class="watch seen">{ format!("✓ Seen {when}: {}", story.watch) }</p> }
        }
        None => html! { <p id="tour-watch" class="watch">{ format!("Watch: {}", story.watch) }</p> },
    });
    // Opening the tour puts the keyboard on Next (the page stays at the step's top); leaving it,
    // on the button that starts it again.
    use_effect_with((), |_| focus_id_in_place("tour-next"));
    let exit = props.on.reform(|_: MouseEvent| {
        focus_id_soon("start-tour");
        Action::Tour(None)
    });
    html! {
        <section class="panel tour" aria-label="Guided tour" aria-live="polite">
            <div class="tour-head">
                <span class="chapter">{ story.chapter }</span>
                <span id="tour-progress" class="progress-text">{ format!("Step {} of {}", step + 1, TOUR.len()) }</span>
                <progress max={TOUR.len().to_string()} value={(step + 1).to_string()} aria-label="Tour progress"></progress>
                // Back and Next in the head: a verdict or a long narration below never pushes
                // them off the screen.
                <span class="tour-nav">
                    <button id="tour-back" disabled={back.is_none()} onclick={back.unwrap_or_default()} title="Left arrow / Page Up">{ "Back" }</button>
                    <button id="tour-next" disabled={next.is_none()} onclick={next.unwrap_or_default()} title="Right arrow / Page Down">{ "Next" }</button>
                </span>
            </div>
            <h2 id="tour-title">{ story.title }</h2>
            <p class="narration">{ story.told(props.question.as_ref().is_some_and(|q| !q.stage.tells_outcome())) }</p>
            { watch.unwrap_or_default() }
            if let Some(view) = props.question.clone() {
                <PredictionPanel view={view} on={props.on.clone()} />
            }
            { props.children.clone() }
            <div class="tour-buttons">
                <button id="tour-replay" class="secondary" onclick={props.on.reform(|_| Action::ReplayStep)}>{ "Replay step" }</button>
                <a href={format!("?tour={}", step + 1)} class="deep-link">{ "Link to this step" }</a>
                <button class="secondary" onclick={exit}>{ "Leave the tour" }</button>
            </div>
            if let Some(view) = props.self_check.clone() {
                <SelfCheck view={view} on={props.on.clone()} />
            }
        </section>
    }
}

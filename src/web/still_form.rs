//! The "Save picture" form under the transport bar: SVG or PNG at a slide's size, light or dark,
//! a caption; saving hands the picture to the exporter (`www/still.js`, loaded only then).

use yew::prelude::*;

use super::focus::focus_id;
use crate::drawing::cluster::CAPTION_MAX;
use crate::page::{Action, StillAction, StillForm, StillFormat};

#[derive(Properties, PartialEq)]
pub struct StillFormProps {
    pub form: StillForm,
    /// What is saved: "cluster", "race", "pain" or "log".
    #[prop_or("cluster")]
    pub of: &'static str,
    pub on: Callback<Action>,
}

#[function_component(StillFormView)]
pub fn still_form(props: &StillFormProps) -> Html {
    // Opening the form puts the keyboard on its first choice, scrolled into view.
    use_effect_with((), |_| focus_id("still-format-0"));
    let on = &props.on;
    let choose = |format: StillFormat| on.reform(move |_: Event| Action::Still(StillAction::Format(format)));
    let on_caption = on.reform(|e: InputEvent| {
        Action::Still(StillAction::Caption(e.target_unchecked_into::<web_sys::HtmlInputElement>().value()))
    });
    let on_dark = on.reform(|e: Event| {
        Action::Still(StillAction::Dark(e.target_unchecked_into::<web_sys::HtmlInputElement>().checked()))
    });
    // Escape closes the form from any of its fields; Enter in the caption saves.
    let close_on_escape = {
        let on = on.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                e.stop_propagation();
                on.emit(Action::Still(StillAction::Close));
            }
        })
    };
    let save_on_enter = {
        let on = on.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" {
                on.emit(Action::Still(StillAction::Save));
            }
        })
    };
    let form = &props.form;
    html! {
        <section id="still-form" class="still-form" aria-labelledby="still-heading" onkeydown={close_on_escape}>
            <h2 id="still-heading">{ format!("Save a picture of the {}", props.of) }</h2>
            <p class="hint">{ "The drawing as it is now, without the controls, for a slide or a document: the same file the command line's kraftscope render writes for this moment." }</p>
            <fieldset>
                <legend>{ "Format" }</legend>
                { for StillFormat::ALL.iter().enumerate().map(|(i, format)| html! {
                    <label>
                        <input type="radio" name="still-format" id={format!("still-format-{i}")} checked={form.format == *format}
                               onchange={choose(*format)} />
                        { format!(" {}", format.label()) }
                    </label>
                }) }
            </fieldset>
            <label><input id="still-dark" type="checkbox" checked={form.style.dark} onchange={on_dark} />{ " Dark, for a dark slide" }</label>
            <label class="caption">{ "Caption " }
                <input id="still-caption" type="text" maxlength={CAPTION_MAX.to_string()} value={form.style.caption.clone()}
                       oninput={on_caption} onkeydown={save_on_enter} placeholder="a line under the drawing (optional)" />
            </label>
            <div class="row">
                <button id="still-save" onclick={on.reform(|_: MouseEvent| Action::Still(StillAction::Save))}>{ "Save" }</button>
                <button class="secondary" onclick={on.reform(|_: MouseEvent| Action::Still(StillAction::Close))}>{ "Close" }</button>
            </div>
        </section>
    }
}

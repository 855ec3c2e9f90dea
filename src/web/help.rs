//! The `?` overlay: every keyboard shortcut, for presenters.

use yew::prelude::*;

use super::focus::{focus, focus_id, focused};
use super::keys::{character_keys_on, set_character_keys};

/// Every shortcut and what it does.
pub const SHORTCUTS: [(&str, &str); 15] = [
    ("Space", "play / pause"),
    ("1 to 9", "answer the tour step's question"),
    ("W", "just watch: play on without answering"),
    ("S", "step one event"),
    ("→ or Page Down", "next tour step (starts the tour)"),
    ("← or Page Up", "previous tour step"),
    ("K", "kill the active controller"),
    ("X", "partition a node: isolate the selected node, or a follower"),
    ("H", "heal every link"),
    ("G", "the leader resigns gracefully; in the race, each side's partitions in place of its drawing"),
    ("R", "reset to the start (same seed: the demo repeats exactly)"),
    ("P", "presenter mode (large type)"),
    ("F", "full screen"),
    (
        "E",
        "save a picture of the view shown: the cluster, the race, a pain or an opened log (SVG, or PNG at 1080p or 4K)",
    ),
    ("?", "show or hide this list"),
];

#[derive(Properties, PartialEq)]
pub struct HelpProps {
    pub on_close: Callback<()>,
}

#[function_component(HelpOverlay)]
pub fn help_overlay(props: &HelpProps) -> Html {
    let close = use_node_ref();
    // A modal dialog: focus moves to Close on opening, stays inside (Tab and Shift+Tab go between
    // its two controls; Escape or Close leave), and goes back where it was on closing.
    {
        let close = close.clone();
        use_effect_with((), move |_| {
            let before = focused();
            if let Some(button) = close.cast::<web_sys::Element>() {
                focus(&button);
            }
            move || {
                if let Some(element) = before {
                    focus(&element);
                }
            }
        });
    }
    let keys_on = use_state(character_keys_on);
    let on_switch = {
        let keys_on = keys_on.clone();
        Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<web_sys::HtmlInputElement>().checked();
            set_character_keys(on);
            keys_on.set(on);
        })
    };
    let onkeydown = Callback::from(|e: KeyboardEvent| {
        if e.key() == "Tab" {
            e.prevent_default();
            let on_close = focused().is_some_and(|f| f.id() == "help-close");
            focus_id(if on_close { "character-keys" } else { "help-close" });
        }
    });
    html! {
        <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="help-heading" {onkeydown}>
            <div class="panel help">
                <h2 id="help-heading">{ "Keyboard shortcuts" }</h2>
                <dl>
                    { for SHORTCUTS.iter().map(|(key, what)| html! { <><dt><kbd>{ *key }</kbd></dt><dd>{ *what }</dd></> }) }
                </dl>
                <label class="character-keys">
                    <input id="character-keys" type="checkbox" checked={*keys_on} onchange={on_switch} />
                    { " single-key shortcuts (letters and ?) on; turn off if speech input sets them off" }
                </label>
                <button ref={close} id="help-close" onclick={props.on_close.reform(|_| ())}>{ "Close" }</button>
            </div>
        </div>
    }
}

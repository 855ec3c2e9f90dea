//! Keyboard shortcuts: the key of a keydown meant as a shortcut, not typed into a field, not
//! pressing a focused button and not combined with Ctrl, Alt or Meta.

use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The key pressed, if it is meant as a shortcut: not typed into a field, and not Space or
/// Enter on a button or link, which press it.
pub fn shortcut(event: &KeyboardEvent) -> Option<String> {
    let target = event.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
    let typing =
        target.as_ref().is_some_and(|e| matches!(e.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA"));
    let pressing = matches!(event.key().as_str(), " " | "Enter")
        && target.is_some_and(|e| {
            matches!(e.tag_name().as_str(), "BUTTON" | "A" | "SUMMARY") || e.get_attribute("role").is_some()
        });
    (!typing && !pressing && !event.ctrl_key() && !event.meta_key() && !event.alt_key()).then(|| event.key())
}

/// Keys the failover race handles itself while its tab is shown.
pub fn is_race_key(key: &str) -> bool {
    matches!(key, " " | "s" | "S" | "k" | "K" | "r" | "R")
}

/// Listen to every keydown on the window (with `preventDefault` allowed), for as long as the
/// returned listener is kept.
pub fn listen(on_key: Callback<KeyboardEvent>) -> Option<gloo::events::EventListener> {
    let window = gloo::utils::window().dyn_into::<web_sys::EventTarget>().ok()?;
    let options = gloo::events::EventListenerOptions::enable_prevent_default();
    Some(gloo::events::EventListener::new_with_options(&window, "keydown", options, move |event| {
        if let Some(key) = event.dyn_ref::<KeyboardEvent>() {
            on_key.emit(key.clone());
        }
    }))
}

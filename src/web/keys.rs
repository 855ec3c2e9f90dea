//! Keyboard shortcuts: the key of a keydown meant as a shortcut, not typed into a field, not
//! pressing a focused button and not combined with Ctrl, Alt or Meta.

use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The key pressed, if it is meant as a shortcut: not typed into a field, not moving a slider
/// or ticking a box, and not Space or Enter on a button or link reached by keyboard, which
/// press it. (After a click, Space still plays and pauses, as presenters expect.)
pub fn shortcut(event: &KeyboardEvent) -> Option<String> {
    let key = event.key();
    let target = event.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
    let used_by_target = target.is_some_and(|e| match e.tag_name().as_str() {
        "INPUT" if matches!(e.get_attribute("type").as_deref(), Some("range" | "checkbox")) => {
            key.starts_with("Arrow")
                || key.starts_with("Page")
                || matches!(key.as_str(), "Home" | "End" | " ")
        }
        "INPUT" | "SELECT" | "TEXTAREA" => true,
        "BUTTON" | "A" | "SUMMARY" => pressing(&e, &key),
        _ => e.get_attribute("role").is_some() && pressing(&e, &key),
    });
    (!used_by_target && !event.ctrl_key() && !event.meta_key() && !event.alt_key()).then_some(key)
}

/// Space or Enter on an element focused by keyboard (showing its focus ring).
fn pressing(element: &web_sys::Element, key: &str) -> bool {
    matches!(key, " " | "Enter") && element.matches(":focus-visible").unwrap_or(false)
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

//! Keyboard shortcuts: the key of a keydown meant as a shortcut, not typed into a field or
//! used by a slider, and not combined with Ctrl, Alt or Meta.

use std::cell::Cell;

use wasm_bindgen::JsCast;
use yew::prelude::*;

thread_local! {
    /// Whether single-character shortcuts (K, X, ?, ...) are on: WCAG 2.1.4 asks that they can
    /// be turned off, for speech input that would otherwise fire them by accident.
    static CHARACTER_KEYS: Cell<bool> = const { Cell::new(true) };
}

/// Whether single-character shortcuts are on.
pub fn character_keys_on() -> bool {
    CHARACTER_KEYS.with(Cell::get)
}

/// Turn single-character shortcuts on or off (Space, the arrows and Escape stay on).
pub fn set_character_keys(on: bool) {
    CHARACTER_KEYS.with(|keys| keys.set(on));
}

/// The key pressed, if it is meant as a shortcut: not typed into a field, not moving a slider
/// or ticking a box (a slider keeps its arrows, Home and End; letters still reach the
/// shortcuts), and not combined with Ctrl, Alt or Meta. Enter presses the focused button.
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
        _ => false,
    });
    let switched_off = key.chars().count() == 1 && key != " " && !character_keys_on();
    (!used_by_target && !switched_off && !event.ctrl_key() && !event.meta_key() && !event.alt_key())
        .then_some(key)
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

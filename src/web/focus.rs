//! Moving keyboard focus where a keyboard user expects it when what they were on goes away
//! (leaving the tour) or a dialog opens and closes.

use wasm_bindgen::JsCast;

/// Focus the element with this id, if it is on the page.
pub fn focus_id(id: &str) {
    if let Some(element) = gloo::utils::document().get_element_by_id(id) {
        focus(&element);
    }
}

/// Focus the element with this id without scrolling the page to it: a page opened on the tour
/// (an embed of 480 x 320 too) shows its step from the top, with Next focused below.
pub fn focus_id_in_place(id: &str) {
    let element = gloo::utils::document().get_element_by_id(id);
    if let Some(element) = element.as_ref().and_then(|e| e.dyn_ref::<web_sys::HtmlElement>()) {
        let options = web_sys::FocusOptions::new();
        options.set_prevent_scroll(true);
        let _ = element.focus_with_options(&options);
    }
}

/// Focus `element` if it can take focus.
pub fn focus(element: &web_sys::Element) {
    if let Some(element) = element.dyn_ref::<web_sys::HtmlElement>() {
        let _ = element.focus();
    }
}

/// Focus the element with this id once the page has re-rendered (it may not exist yet).
pub fn focus_id_soon(id: &'static str) {
    gloo::timers::callback::Timeout::new(0, move || focus_id(id)).forget();
}

/// The element that has focus now, to give it back later.
pub fn focused() -> Option<web_sys::Element> {
    gloo::utils::document().active_element()
}

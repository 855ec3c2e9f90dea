//! Turns a Rust panic into a readable error panel instead of a blank page.

use std::panic::PanicHookInfo;

use web_sys::Element;

/// Installs the hook through yew, which would otherwise replace a hook set with
/// `std::panic::set_hook` by its own default when the app is rendered.
pub fn install() {
    yew::set_custom_panic_hook(Box::new(|info: &PanicHookInfo<'_>| {
        console_error_panic_hook::hook(info);
        show(&info.to_string());
    }));
}

/// Renders (or updates) the panel; never panics itself, as it runs inside a panic.
fn show(message: &str) {
    let document = gloo::utils::document();
    if let Some(panel) = document.get_element_by_id("panic-panel") {
        set_message(&panel, message);
        return;
    }
    let Some(body) = document.body() else {
        return;
    };
    let (Ok(panel), Ok(heading), Ok(details), Ok(hint)) = (
        document.create_element("section"),
        document.create_element("h2"),
        document.create_element("pre"),
        document.create_element("p"),
    ) else {
        return;
    };
    panel.set_id("panic-panel");
    panel.set_class_name("panic-panel");
    let _ = panel.set_attribute("role", "alert");
    heading.set_text_content(Some("kraftscope crashed"));
    hint.set_text_content(Some(
        "This is a bug. Reload the page to start again; details are also in the browser console.",
    ));
    let _ = panel.append_with_node_3(&heading, &details, &hint);
    set_message(&panel, message);
    let _ = body.prepend_with_node_1(&panel);
}

fn set_message(panel: &Element, message: &str) {
    if let Ok(Some(details)) = panel.query_selector("pre") {
        details.set_text_content(Some(message));
    }
}

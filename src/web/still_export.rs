//! Saving a still: the exporter, `www/still.js`, imported by index.html's `kraftscopeStill` only
//! now, puts the served stylesheet between the file's head and tail (`El::document`'s, as
//! `kraftscope render` writes it), draws the PNG or keeps the SVG, and offers the file.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

use crate::page::Still;

/// Save `still`; `report` gets the status line to show once the file is offered or failed.
pub fn save(still: &Still, report: impl FnOnce(String) + 'static) {
    let name = still.name.clone();
    let outcome = move |outcome: JsValue| {
        report(match outcome.as_f64() {
            Some(bytes) => format!("Saved {name} ({:.0} KiB).", bytes / 1024.0),
            None => format!("Cannot save {name}: {}", outcome.as_string().unwrap_or_default()),
        })
    };
    let exporter = js_sys::Reflect::get(&gloo::utils::window(), &"kraftscopeStill".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    let Some(exporter) = exporter else {
        return outcome("this page has no exporter (kraftscopeStill in index.html)".into());
    };
    let (head, tail) = still.drawing.document_around_style();
    let (width, height) = still.size.map_or((JsValue::NULL, JsValue::NULL), |(w, h)| (w.into(), h.into()));
    let request = js_sys::Object::new();
    for (key, value) in [
        ("head", JsValue::from(head)),
        ("tail", JsValue::from(tail)),
        ("name", still.name.as_str().into()),
        ("width", width),
        ("height", height),
        ("background", still.background.into()),
    ] {
        let _ = js_sys::Reflect::set(&request, &key.into(), &value);
    }
    let _ = exporter.call2(&JsValue::NULL, &request, &Closure::once_into_js(outcome));
}

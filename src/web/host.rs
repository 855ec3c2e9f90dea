//! The host-page API in the browser: commands arrive by `postMessage` from the origins the URL
//! allows (`origins=`), or from the same page through the `command` export; events go to the
//! parent page's allowed origins and to the `onEvent` listeners. Messages are converted with
//! serde-wasm-bindgen (JSON text through `JSON.parse`); a bad one is answered with an error
//! event. The schema is `crate::page::host`.

use std::cell::RefCell;

use gloo::events::EventListener;
use serde::Serialize;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::MessageEvent;
use yew::Callback;

use crate::page::host::{API_VERSION, Command, HostEvent, Message, Origins};

/// Where commands go and events are sent.
#[derive(Default)]
struct Host {
    origins: Origins,
    on_command: Option<Callback<Command>>,
    listeners: Vec<js_sys::Function>,
    _messages: Option<EventListener>,
}

thread_local! {
    static HOST: RefCell<Host> = RefCell::new(Host::default());
}

/// Start taking commands for the page (from `origins`, and from the same page) and say so
/// with a `ready` event.
pub fn listen(origins: Origins, on_command: Callback<Command>) {
    let window = gloo::utils::window();
    let messages = (!origins.is_empty()).then(|| {
        EventListener::new(&window, "message", |event| {
            let Some(event) = event.dyn_ref::<MessageEvent>() else { return };
            let origin = event.origin();
            if HOST.with(|host| host.borrow().origins.allows(&origin)) {
                receive(event.data());
            } else {
                gloo::console::warn!(format!(
                    "kraftscope: ignored a message from {origin}, which origins= does not allow"
                ));
            }
        })
    });
    HOST.with(|host| {
        let mut host = host.borrow_mut();
        (host.origins, host.on_command, host._messages) = (origins, Some(on_command), messages);
    });
    emit(&HostEvent::Ready { api: API_VERSION });
}

/// Whether anyone hears the events (so the page computes nothing for nobody).
pub fn heard() -> bool {
    HOST.with(|host| {
        let host = host.borrow();
        !host.listeners.is_empty() || (!host.origins.is_empty() && in_frame())
    })
}

/// Send an event to the parent page's allowed origins and to the same page's listeners.
pub fn emit(event: &HostEvent) {
    if !heard() {
        return;
    }
    let Ok(value) = event.serialize(&serde_wasm_bindgen::Serializer::json_compatible()) else { return };
    let (origins, listeners) = HOST.with(|host| {
        let host = host.borrow();
        (host.origins.iter().map(str::to_string).collect::<Vec<_>>(), host.listeners.clone())
    });
    if in_frame()
        && let Ok(Some(parent)) = gloo::utils::window().parent()
    {
        // A message only reaches a parent whose origin is the target one, so listing every
        // allowed origin reaches the embedder without leaking events to any other page.
        for origin in &origins {
            let _ = parent.post_message(&value, origin);
        }
    }
    for listener in &listeners {
        let _ = listener.call1(&JsValue::NULL, &value);
    }
}

/// Whether the page runs inside a frame (else `window.parent` is the page itself).
fn in_frame() -> bool {
    let window = gloo::utils::window();
    window.parent().ok().flatten().is_some_and(|parent| !js_sys::Object::is(&parent, &window))
}

/// Hand a command to the page, or answer what was wrong with it.
fn receive(data: JsValue) {
    let on_command = HOST.with(|host| host.borrow().on_command.clone());
    match (read(data), on_command) {
        (Ok(command), Some(on_command)) => on_command.emit(command),
        (Ok(_), None) => emit(&HostEvent::Error { error: "the page is not running yet".into() }),
        (Err(error), _) => emit(&HostEvent::Error { error }),
    }
}

/// A command from a message: an object, or JSON text of one.
fn read(data: JsValue) -> Result<Command, String> {
    let data = match data.as_string() {
        Some(text) => js_sys::JSON::parse(&text).map_err(|_| {
            let start: String = text.chars().take(40).collect();
            format!("the message is text but not JSON: '{start}'")
        })?,
        None => data,
    };
    serde_wasm_bindgen::from_value::<Message>(data)
        .map_err(|e| format!("the message is not a command: {}", js_error(&e)))?
        .command()
}

/// Send the page a command from the same page (`import { command } from "./kraftscope.js"`):
/// the same objects as `postMessage` takes; a bad one is answered with an error event.
#[wasm_bindgen]
pub fn command(message: JsValue) {
    receive(message);
}

/// Call `listener` with every event the page sends (the same objects a parent page receives).
#[wasm_bindgen(js_name = onEvent)]
pub fn on_event(listener: js_sys::Function) {
    HOST.with(|host| host.borrow_mut().listeners.push(listener));
}

/// A serde-wasm-bindgen error's message, without the "Error: " a JS error's text starts with.
pub fn js_error(error: &serde_wasm_bindgen::Error) -> String {
    let text = error.to_string();
    text.strip_prefix("Error: ").map_or(text.clone(), str::to_string)
}

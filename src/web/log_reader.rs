//! The page's side of the metadata-log reader: a module Web Worker (`log-worker.js`, with its own
//! wasm) started when the page first opens a log. Requests go to it as plain messages, the file
//! bytes transferred rather than copied; its answers and failures come back as actions.

use gloo::events::EventListener;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};
use yew::Callback;

use crate::log_reader::{LogRequest, OpenedLog};

/// The worker's script, beside index.html.
const SCRIPT: &str = "log-worker.js";

/// The running worker and its listeners.
pub struct LogReaderWorker {
    worker: Worker,
    _message: EventListener,
    _error: EventListener,
}

impl LogReaderWorker {
    /// Starts the worker; `answered` receives each answer, or why the worker failed.
    pub fn start(answered: Callback<Result<Box<OpenedLog>, String>>) -> Result<LogReaderWorker, String> {
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let worker = Worker::new_with_options(SCRIPT, &options)
            .map_err(|error| format!("cannot start the log reader ({})", described(&error)))?;
        let on_answer = answered.clone();
        let message = EventListener::new(&worker, "message", move |event| {
            let data = event.unchecked_ref::<MessageEvent>().data();
            let answer = serde_wasm_bindgen::from_value::<Result<OpenedLog, String>>(data)
                .map_err(|error| format!("its answer did not read ({error})"))
                .and_then(|answer| answer.map(Box::new));
            on_answer.emit(answer);
        });
        let error = EventListener::new(&worker, "error", move |event| {
            let text = event
                .dyn_ref::<web_sys::ErrorEvent>()
                .map_or_else(|| "it stopped".to_string(), |error| error.message());
            answered.emit(Err(text));
        });
        Ok(LogReaderWorker { worker, _message: message, _error: error })
    }

    /// Sends `request`: the files' bytes are moved to the worker, not copied twice.
    pub fn send(&self, request: LogRequest) -> Result<(), String> {
        let message = js_sys::Object::new();
        let transfer = js_sys::Array::new();
        let set = |key: &str, value: &JsValue| js_sys::Reflect::set(&message, &key.into(), value).map(|_| ());
        let sent = match request {
            LogRequest::Open(files) => {
                let (names, bytes) = (js_sys::Array::new(), js_sys::Array::new());
                for (name, data) in files {
                    let array = js_sys::Uint8Array::from(data.as_slice());
                    transfer.push(&array.buffer());
                    names.push(&name.into());
                    bytes.push(&array);
                }
                set("names", &names).and_then(|()| set("files", &bytes))
            }
            LogRequest::Seek(count) => set("seek", &(count as f64).into()),
            LogRequest::History => set("history", &true.into()),
        };
        sent.and_then(|()| self.worker.post_message_with_transfer(&message, &transfer))
            .map_err(|error| format!("cannot reach the log reader ({})", described(&error)))
    }
}

/// What a thrown JS value says.
pub(super) fn described(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|error| String::from(error.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "an unknown error".to_string())
}

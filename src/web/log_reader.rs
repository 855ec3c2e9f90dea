//! The page's side of the metadata-log reader: a module Web Worker (`log-worker.js`, with its own
//! wasm) started when the page first opens a log. Files go to it as the browser holds them
//! (`File` objects, which it reads itself: a large log's bytes never enter the page's thread),
//! queries as plain messages; its answers, a file it could not read, and its failures come back
//! as actions.

use gloo::events::EventListener;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};
use yew::Callback;

use super::log_drop::PickedFiles;
use crate::log_reader::{LogQuery, OpenedLog};
use crate::page::MetadataLogAction;

/// The worker's script, beside index.html.
const SCRIPT: &str = "log-worker.js";

/// What the page asks the worker.
pub enum Ask {
    /// Read and decode these files.
    Open(PickedFiles),
    /// A query about the files opened.
    Query(LogQuery),
}

/// The running worker and its listeners.
pub struct LogReaderWorker {
    worker: Worker,
    _message: EventListener,
    _error: EventListener,
}

impl LogReaderWorker {
    /// Starts the worker; `heard` receives each answer, a file it could not read, or why it failed.
    pub fn start(heard: Callback<MetadataLogAction>) -> Result<LogReaderWorker, String> {
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let worker = Worker::new_with_options(SCRIPT, &options)
            .map_err(|error| format!("cannot start the log reader ({})", described(&error)))?;
        let on_answer = heard.clone();
        let message = EventListener::new(&worker, "message", move |event| {
            let data = event.unchecked_ref::<MessageEvent>().data();
            let unreadable =
                js_sys::Reflect::get(&data, &"unreadable".into()).ok().and_then(|e| e.as_string());
            on_answer.emit(match unreadable {
                Some(error) => MetadataLogAction::Unreadable(error),
                None => MetadataLogAction::Answered(
                    serde_wasm_bindgen::from_value::<Result<OpenedLog, String>>(data)
                        .map_err(|error| format!("its answer did not read ({error})"))
                        .and_then(|answer| answer.map(Box::new)),
                ),
            });
        });
        let error = EventListener::new(&worker, "error", move |event| {
            let text = event
                .dyn_ref::<web_sys::ErrorEvent>()
                .map_or_else(|| "it stopped".to_string(), |error| error.message());
            heard.emit(MetadataLogAction::Answered(Err(text)));
        });
        Ok(LogReaderWorker { worker, _message: message, _error: error })
    }

    /// Sends `ask`: files go as `File` objects (a handle each; the worker reads their bytes).
    pub fn send(&self, ask: Ask) -> Result<(), String> {
        let message = js_sys::Object::new();
        let set = |key: &str, value: &JsValue| js_sys::Reflect::set(&message, &key.into(), value).map(|_| ());
        let sent = match ask {
            Ask::Open(files) => {
                let (names, handles) = (js_sys::Array::new(), js_sys::Array::new());
                for (name, file) in files {
                    names.push(&name.into());
                    handles.push(&file);
                }
                set("names", &names).and_then(|()| set("files", &handles))
            }
            Ask::Query(LogQuery::Seek(count)) => set("seek", &(count as f64).into()),
            Ask::Query(LogQuery::History) => set("history", &true.into()),
        };
        sent.and_then(|()| self.worker.post_message(&message))
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

//! The metadata-log reader's Web Worker (wasm32 with the `log-worker` feature): its own wasm,
//! loaded by `www/log-worker.js` when the page first opens a log, that decodes the files and
//! keeps their timeline off the page's thread, answering each request with the view of the log
//! ([`crate::log_reader`]).

use std::cell::RefCell;

use wasm_bindgen::prelude::*;

use crate::log_reader::{LogReader, LogRequest, OpenedLog};

thread_local! {
    static READER: RefCell<LogReader> = RefCell::new(LogReader::default());
}

fn answer(request: LogRequest) -> JsValue {
    console_error_panic_hook::set_once();
    let answer: Result<OpenedLog, String> = READER.with(|reader| reader.borrow_mut().answer(request));
    serde_wasm_bindgen::to_value(&answer).unwrap_or_else(|error| JsValue::from_str(&error.to_string()))
}

/// Decode the files (`names[i]`'s bytes are `files[i]`) into a timeline.
#[wasm_bindgen(js_name = openLog)]
pub fn open_log(names: Vec<String>, files: Vec<js_sys::Uint8Array>) -> JsValue {
    answer(LogRequest::Open(names.into_iter().zip(files.iter().map(js_sys::Uint8Array::to_vec)).collect()))
}

/// Work out the opened log's history.
#[wasm_bindgen(js_name = logHistory)]
pub fn log_history() -> JsValue {
    answer(LogRequest::History)
}

/// Replay the image after `count` records of the opened log.
#[wasm_bindgen(js_name = seekLog)]
pub fn seek_log(count: usize) -> JsValue {
    answer(LogRequest::Seek(count))
}

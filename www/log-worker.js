// The metadata-log reader's Web Worker: decodes a log with its own wasm (kraftscope-log_bg.wasm,
// src/log_worker.rs) off the page's thread, keeps the timeline, and answers each request (open
// these files, replay to this record, or work out its history) with the view of the log, as
// plain data. A failure
// reaches the page as the worker's error event.
import init, { logHistory, openLog, seekLog } from "./kraftscope-log.js";

const ready = init();

onmessage = async ({ data }) => {
  await ready;
  if (data.history) postMessage(logHistory());
  else postMessage(data.seek === undefined ? openLog(data.names, data.files) : seekLog(data.seek));
};

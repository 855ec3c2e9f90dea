// The metadata-log reader's Web Worker: reads the files the page hands it (File objects, so a
// large log's bytes never pass through the page's thread), decodes them with its own wasm
// (kraftscope-log_bg.wasm, src/log_worker.rs) and keeps the timeline, answering each request
// (open these files, replay to this record, or work out its history) with the view of the log,
// as plain data, in the order asked. A file it cannot read is answered { unreadable: why }; a
// failure reaches the page as the worker's error event.
import init, { logHistory, openLog, seekLog } from "./kraftscope-log.js";

let answered = init();

async function opened(names, files) {
  const bytes = [];
  for (const [index, file] of files.entries()) {
    try {
      bytes.push(new Uint8Array(await file.arrayBuffer()));
    } catch (error) {
      return { unreadable: `Cannot read ${names[index]}: ${error.message ?? error}` };
    }
  }
  return openLog(names, bytes);
}

function answer(data) {
  if (data.history) return logHistory();
  if (data.seek !== undefined) return seekLog(data.seek);
  return opened(data.names, data.files);
}

onmessage = ({ data }) => {
  answered = answered
    .then(() => answer(data))
    .then((reply) => postMessage(reply))
    // A failure (a panic in the wasm) is thrown outside the chain, so the page hears it as the
    // worker's error event, and the requests after it are still answered.
    .catch((error) => setTimeout(() => { throw error; }));
};

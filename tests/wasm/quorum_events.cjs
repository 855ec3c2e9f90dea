// Times one run of the quorum events benchmark's workload (kraftscope::experiments::events, the
// static quorum without checks) in the page's WebAssembly built for node, after one untimed run
// (the page plays for minutes: V8 has tiered its hot functions up by then), and prints
// `events seconds` as the native bench's `--once` does; `cargo xtask bench` takes them in turn.
// Usage: node quorum_events.cjs <bindings.js> <seed>
"use strict";

const [bindings, seed] = process.argv.slice(2);
const { quorumEvents } = require(bindings);

quorumEvents(BigInt(seed));
const started = performance.now();
const events = quorumEvents(BigInt(seed));
console.log(`${events} ${(performance.now() - started) / 1000}`);

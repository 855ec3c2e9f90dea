// Loads the wasm build of the core (nodejs bindings) and prints the trace fingerprint of each
// "scenario:seed" argument; `cargo xtask test` compares them with the native core.
// Usage: node determinism.cjs <bindings.js> <scenario:seed>...
"use strict";

const [bindings, ...cases] = process.argv.slice(2);
const { scenarioFingerprint } = require(bindings);

for (const item of cases) {
  const [name, seed] = item.split(":");
  console.log(scenarioFingerprint(name, BigInt(seed)));
}

// Real Kafka files for the browser tests, read in place from `../shared/fixtures/kafka/` beside
// the project (the project commits none of their bytes), as tests/common/mod.rs does for the
// native tests: a test that needs a folder skips, naming it, when it is absent.
import { existsSync } from "node:fs";
import path from "node:path";

const shared = path.resolve(import.meta.dirname, "../../../shared/fixtures/kafka");

/** `../shared/fixtures/kafka/<folder>`: its path, and `skip` for node:test (false, or why). */
export function realFiles(folder) {
  const at = path.join(shared, folder);
  const skip = !existsSync(at) && `../shared/fixtures/kafka/${folder} is absent (a clone without ../shared beside it)`;
  return { path: at, skip };
}

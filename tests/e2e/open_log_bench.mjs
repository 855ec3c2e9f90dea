// The page's figure for opening a big metadata log: picks PATH in "Open a metadata log" and
// prints the time from the file's selection to the decoded timeline (the page's own
// performance.now() span, data-open-ms), the time until its history is shown, the main thread's
// longest task in each phase (opening, the history arriving, playing it at 1000x and stepping
// election by election, scrubbing back to the middle and forward to the end), and the longest
// of all. `cargo xtask bench` runs it on a written 2,000,000-partition cluster's log
// (`cargo bench --bench kafka_log -- --write-cluster PATH 2000000`); by hand, make a file with
// that or `KRAFTSCOPE_BENCH_LOG=PATH cargo bench --bench kafka_log`, serve dist/
// (`cargo xtask serve --port P`), then:
//   KRAFTSCOPE_URL=http://127.0.0.1:P/ CHROMIUM_PATH=/usr/bin/chromium node tests/e2e/open_log_bench.mjs PATH
import { statSync } from "node:fs";
import { chromium } from "playwright-core";
import { FLAGS, executablePath } from "./chromium.mjs";

const file = process.argv[2];
const url = process.env.KRAFTSCOPE_URL;
if (!file || !url) {
  console.error("usage: KRAFTSCOPE_URL=... node tests/e2e/open_log_bench.mjs PATH");
  process.exit(2);
}
const browser = await chromium.launch({ executablePath, headless: true, args: FLAGS });
const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
await page.goto(url);
await page.getByRole("tab", { name: "Open a metadata log" }).click();
const longest = [];
// Each phase is traced (Chromium's toplevel category): its longest task on the page's main thread
// (the ThreadControllerImpl::RunTask events of the renderer's main thread, whatever their length; the Long Tasks API
// would report only those over 50 ms).
await browser.startTracing(page, { categories: ["toplevel"] });
/** The longest main-thread task since the last call, noted under `name`. */
async function phase(name) {
  await page.evaluate(() => new Promise((done) => setTimeout(done, 100)));
  const trace = JSON.parse((await browser.stopTracing()).toString());
  await browser.startTracing(page, { categories: ["toplevel"] });
  const events = trace.traceEvents ?? trace;
  const main = new Set(events.filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`));
  const ms = Math.max(0, ...events.filter((e) => e.name === "ThreadControllerImpl::RunTask" && e.ph === "X" && main.has(`${e.pid}:${e.tid}`)).map((e) => e.dur / 1000));
  longest.push([name, ms]);
  return ms;
}
await page.locator("#log-file").setInputFiles(file);
await page.locator(".log-opened").waitFor({ timeout: 600_000 });
const mib = statSync(file).size / (1024 * 1024);
const openMs = await page.locator(".log-opened").evaluate((e) => e.dataset.openMs);
const records = Number(await page.locator(".log-opened").evaluate((e) => e.dataset.records));
console.log(`opened ${mib.toFixed(1)} MiB (${records} records) in the page: ${openMs} ms; the page's longest task meanwhile ${(await phase("opening")).toFixed(0)} ms`);
let started = Date.now();
await page.locator("#log-history").waitFor({ timeout: 600_000 });
console.log(`its history shown ${Date.now() - started} ms later; longest task ${(await phase("the history arriving")).toFixed(0)} ms`);
const elections = await page.locator("#history-elections tbody tr").count();
await page.getByRole("button", { name: "1000×", exact: true }).click();
await page.locator("#history-play").click();
await page.waitForTimeout(5_000);
await page.locator("#history-play").click();
for (let step = 1; step < elections; step++) await page.locator("#history-next").click();
console.log(`played 5 s at 1000x and stepped through its ${elections} elections: longest task ${(await phase("playing the history")).toFixed(0)} ms`);
for (const [label, to] of [["back to the middle", Math.floor(records / 2)], ["forward to the end", records]]) {
  started = Date.now();
  await page.locator("#log-scrub").fill(String(to));
  await page.waitForFunction((t) => document.querySelector("#log-position")?.dataset.position === String(t), to, { timeout: 600_000 });
  console.log(`scrub ${label}: ${Date.now() - started} ms; longest task ${(await phase(`scrubbing ${label}`)).toFixed(0)} ms`);
}
const memory = await page.evaluate(() => performance.memory?.usedJSHeapSize ?? 0);
console.log(`JS heap after: ${(memory / 1048576).toFixed(0)} MiB`);
const [worst, worstMs] = longest.reduce((a, b) => (b[1] > a[1] ? b : a));
await browser.stopTracing();
console.log(`a ${mib.toFixed(0)} MiB log in the page: longest main-thread task ${worstMs.toFixed(0)} ms (${worst}; target <= 50 ms)`);
await browser.close();

// The page's figure for opening a big metadata log: picks PATH in "Open a metadata log" and
// prints the time from the file's selection to the decoded timeline (the page's own
// performance.now() span, data-open-ms), then the time to scrub back to the middle and forward
// to the end. Make the file with `KRAFTSCOPE_BENCH_LOG=PATH cargo bench --bench kafka_log`,
// serve dist/ (`cargo xtask serve --port P`), then:
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
await page.evaluate(() => {
  window.longestTask = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.longestTask = Math.max(window.longestTask, entry.duration);
  }).observe({ type: "longtask" });
});
await page.locator("#log-file").setInputFiles(file);
await page.locator(".log-opened").waitFor({ timeout: 600_000 });
const mib = statSync(file).size / (1024 * 1024);
const openMs = await page.locator(".log-opened").evaluate((e) => e.dataset.openMs);
const records = await page.locator(".log-opened").evaluate((e) => e.dataset.records);
console.log(`opened ${mib.toFixed(1)} MiB (${records} records) in the page: ${openMs} ms; the page's longest task meanwhile ${(await page.evaluate(() => window.longestTask)).toFixed(0)} ms`);
for (const [label, to] of [["back to the middle", Math.floor(records / 2)], ["forward to the end", records]]) {
  const started = Date.now();
  await page.locator("#log-scrub").fill(String(to));
  await page.waitForFunction((t) => document.querySelector("#log-position")?.dataset.position === String(t), to, { timeout: 600_000 });
  console.log(`scrub ${label}: ${Date.now() - started} ms`);
}
const memory = await page.evaluate(() => performance.memory?.usedJSHeapSize ?? 0);
console.log(`JS heap after: ${(memory / 1048576).toFixed(0)} MiB`);
await browser.close();

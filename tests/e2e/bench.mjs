// Browser benchmark (not a test): prints figures for the page, measured in headless Debian
// Chromium against the served dist/. Run with `cargo xtask bench`.
//   - p95 work per animation frame while animating 5 controllers and 9 brokers, at the default
//     pace and at 1x
//   - a 2,000,000-partition failover race with both clusters drawn: the longest task while it
//     prepares, p95 work per frame while it plays, the longest task while it skips to the end
//   - a 100,000-partition migration (`?scenario=migration&partitions=100000`): the longest task
//     while its run is recorded, and while it plays from the claim through the copy to dual-write
//   - callbacks and timers firing while paused and while the tab is hidden
//   - the first screen's weight (index.html and what it loads, gzipped) against its budget, and
//     the parts loaded later, as xtask/src/first_screen.rs measures them
//   - time to the first rendered cluster; with KRAFTSCOPE_BASELINE_URL (`cargo xtask bench
//     --against REV`), the time to the first drawing of the live view and of the race embed,
//     this page and REV's side by side, on loopback and on a throttled link
// Each figure is printed beside the one measured before issue 9's work (bench-before.json).
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";
import { FLAGS, executablePath } from "./chromium.mjs";

const baseUrl = process.env.KRAFTSCOPE_URL;
const baselineUrl = process.env.KRAFTSCOPE_BASELINE_URL;
const before = JSON.parse(readFileSync(new URL("./bench-before.json", import.meta.url), "utf8"));

// Times every requestAnimationFrame callback, counts timers, and records long tasks and the
// moment the first cluster node appears (on the race: the first of both clusters, KRaft's node
// and ZooKeeper mode's broker). Installed before the page's own scripts run.
function instrument() {
  window.__bench = { frames: [], scripts: [], callbacks: 0, timers: 0, longTasks: [], firstCluster: null };
  // Two measures per frame: the page's own work (the callback and the rendering it queues as
  // microtasks), and the whole frame including the browser's style, layout and paint, which
  // ends when a message posted at the end of the callback is delivered.
  const raf = window.requestAnimationFrame.bind(window);
  const channel = new MessageChannel();
  const started = [];
  channel.port1.onmessage = () => window.__bench.frames.push(performance.now() - started.shift());
  window.requestAnimationFrame = (callback) => raf((ts) => {
    started.push(performance.now());
    window.__bench.callbacks += 1;
    callback(ts);
    const start = started[started.length - 1];
    Promise.resolve().then(() => Promise.resolve()).then(() => window.__bench.scripts.push(performance.now() - start));
    channel.port2.postMessage(0);
  });
  for (const name of ["setTimeout", "setInterval"]) {
    const original = window[name].bind(window);
    window[name] = (fn, ...rest) => original((...args) => { window.__bench.timers += 1; return typeof fn === "function" ? fn(...args) : undefined; }, ...rest);
  }
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__bench.longTasks.push(e.duration); }).observe({ type: "longtask", buffered: true });
  const drawn = location.search.includes("scenario=failover")
    ? () => document.querySelector("svg.cluster g.node") && document.querySelector("svg.zk-cluster .zk-broker")
    : () => document.querySelector("svg.cluster g.node");
  new MutationObserver((_, observer) => {
    if (drawn()) {
      window.__bench.firstCluster = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
};
const reset = (page) => page.evaluate(() => { Object.assign(window.__bench, { frames: [], scripts: [], callbacks: 0, timers: 0, longTasks: [] }); });
const read = (page) => page.evaluate(() => window.__bench);

const longTasks = (tasks) => (tasks.length ? tasks.map((d) => d.toFixed(0)).join(", ") + " ms" : "none");

/** The 100,000-partition migration's long tasks while it is recorded and while it plays. */
async function migration100k(context, url) {
  const page = await context.newPage();
  await page.goto(new URL("?scenario=migration&partitions=100000", url).href);
  await page.locator("#mig-recording").waitFor({ timeout: 60_000 });
  await reset(page);
  const started = Date.now();
  await page.locator("#mig-play").waitFor({ timeout: 120_000 });
  const recording = await read(page);
  console.log(`100,000-partition migration: recorded in ${Date.now() - started} ms over ${recording.frames.length} frames; longest frame task ${Math.max(0, ...recording.scripts).toFixed(1)} ms; long tasks (>50 ms): ${longTasks(recording.longTasks)} (target: none)`);
  await reset(page);
  const playing = Date.now();
  await page.waitForFunction(() => /DUAL_WRITE/.test(document.querySelector("#mig-standing")?.textContent ?? ""), null, { timeout: 180_000 });
  const played = await read(page);
  console.log(`  played to dual-write in ${Date.now() - playing} ms, ${played.frames.length} frames: page work per frame p95 ${percentile(played.scripts, 0.95).toFixed(1)} ms, longest ${Math.max(0, ...played.scripts).toFixed(1)} ms; long tasks (>50 ms): ${longTasks(played.longTasks)} (target: none)`);
  await page.close();
}

const browser = await chromium.launch({ executablePath, headless: true, args: FLAGS });
const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
await context.addInitScript(instrument);

// Time to first render, median of five cold loads.
const firsts = [];
for (let i = 0; i < 5; i += 1) {
  const page = await context.newPage();
  await page.goto(baseUrl);
  await page.waitForFunction(() => window.__bench.firstCluster !== null);
  firsts.push((await read(page)).firstCluster);
  await page.close();
}
console.log(`time to first rendered cluster: median ${percentile(firsts, 0.5).toFixed(0)} ms over 5 loads (before: ${before.firstClusterMs} ms; target <= 1000 ms)`);

// Time to the first drawing, this page beside another revision's: cold loads (a fresh context
// each) taken in turn, on loopback and on a link throttled to 20 Mbit/s with 40 ms round trips
// (the bench's server sends files uncompressed, so this weighs the raw bytes).
if (baselineUrl) {
  const ROUNDS = 7;
  const sites = [["this page", baseUrl], [process.env.KRAFTSCOPE_BASELINE ?? "baseline", baselineUrl]];
  const views = [
    ["the live view at 1280 x 720", "", { width: 1280, height: 720 }],
    ["the race embed at 480 x 320", "?embed=1&scenario=failover", { width: 480, height: 320 }],
  ];
  const firstDrawing = async (url, viewport, throttled) => {
    const cold = await browser.newContext({ viewport });
    await cold.addInitScript(instrument);
    const page = await cold.newPage();
    if (throttled) {
      const cdp = await cold.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 40, downloadThroughput: 20e6 / 8, uploadThroughput: 20e6 / 8 });
    }
    await page.goto(url);
    await page.waitForFunction(() => window.__bench.firstCluster !== null, null, { timeout: 120_000 });
    const ms = (await read(page)).firstCluster;
    await cold.close();
    return ms;
  };
  for (const throttled of [false, true]) {
    for (const [view, query, viewport] of views) {
      const times = sites.map(() => []);
      for (let round = 0; round < ROUNDS; round += 1) {
        for (const [i, [, url]] of sites.entries()) times[i].push(await firstDrawing(new URL(query, url).href, viewport, throttled));
      }
      const medians = times.map((t) => percentile(t, 0.5));
      console.log(`time to the first drawing of ${view}, ${throttled ? "20 Mbit/s, 40 ms" : "loopback"}, median of ${ROUNDS} cold loads each: ${sites.map(([name], i) => `${name} ${medians[i].toFixed(0)} ms`).join(", ")}; ratio ${(medians[0] / medians[1]).toFixed(2)}`);
    }
  }
}

// Frame work while animating 5 controllers and 9 brokers for 6 s once a leader is elected: at
// the default pace (what a viewer sees first), then at 1x (through quiet stretches 100x, every
// strip sliding each frame). Returns the page and what it recorded.
async function animate(query) {
  const live = await context.newPage();
  await live.goto(new URL(query, baseUrl).href);
  await live.locator("svg.cluster g.node.role-leader").first().waitFor({ timeout: 30_000 });
  await reset(live);
  await live.waitForTimeout(6000);
  return [live, await read(live)];
}
const [paced, atDefault] = await animate("?voters=5&brokers=9");
console.log(`5 controllers + 9 brokers at the default pace, ${atDefault.frames.length} frames (target p95 <= 8 ms): page work per frame p95 ${percentile(atDefault.scripts, 0.95).toFixed(1)} ms, median ${percentile(atDefault.scripts, 0.5).toFixed(1)} ms; whole frame p95 ${percentile(atDefault.frames, 0.95).toFixed(1)} ms`);
await paced.close();
const [page, animating] = await animate("?voters=5&brokers=9&speed=1");
console.log(`5 controllers + 9 brokers at 1x, ${animating.frames.length} frames (target p95 <= 8 ms):`);
console.log(`  page work per frame (simulation + Yew render): p95 ${percentile(animating.scripts, 0.95).toFixed(1)} ms, median ${percentile(animating.scripts, 0.5).toFixed(1)} ms (before: p95 ${before.frameWorkP95Ms} ms, median ${before.frameWorkMedianMs} ms)`);
console.log(`  whole frame incl. the browser's style, layout and software paint: p95 ${percentile(animating.frames, 0.95).toFixed(1)} ms, median ${percentile(animating.frames, 0.5).toFixed(1)} ms (before: p95 ${before.wholeFrameP95Ms} ms, median ${before.wholeFrameMedianMs} ms)`);

// Paused: nothing should fire.
await page.getByRole("button", { name: "Pause" }).click();
await page.waitForTimeout(200);
await reset(page);
await page.waitForTimeout(3000);
const paused = await read(page);
console.log(`while paused for 3 s: ${paused.callbacks} animation frames, ${paused.timers} timers fired (target: 0)`);

// Hidden: play again, then hide the tab behind another one.
await page.getByRole("button", { name: "Play" }).click();
const other = await context.newPage();
await other.goto("about:blank");
await other.bringToFront();
await page.evaluate(() => new Promise((resolve) => { if (document.hidden) resolve(); else document.addEventListener("visibilitychange", resolve, { once: true }); setTimeout(resolve, 2000); }));
const visibility = await page.evaluate(() => document.visibilityState);
await reset(page);
await page.waitForTimeout(3000);
const hidden = await read(page);
console.log(`behind another tab (document.visibilityState "${visibility}" in headless Chromium) for 3 s while playing: ${hidden.callbacks} animation frames, ${hidden.timers} timers fired (the page uses no timers; browsers stop animation frames in hidden tabs)`);
await other.close();
await page.close();

// The 2,000,000-partition failover race: preparation, kill, run to the end.
const race = await context.newPage();
await race.goto(baseUrl);
await race.getByRole("tab", { name: "Failover: KRaft vs ZooKeeper" }).click();
await race.locator("#partitions").evaluate((input) => {
  input.value = input.max;
  input.dispatchEvent(new Event("input", { bubbles: true }));
});
await race.waitForFunction(() => document.querySelector("#partition-count")?.textContent === "2,000,000", null, { timeout: 10_000 });
await reset(race);
const prepared = Date.now();
await race.locator("#kill-both:not([disabled])").waitFor({ timeout: 120_000 });
const preparation = Date.now() - prepared;
const preparing = await read(race);
console.log(`2,000,000-partition failover: preparation ${preparation} ms over ${preparing.frames.length} frames; longest frame ${Math.max(0, ...preparing.frames).toFixed(1)} ms; long tasks (>50 ms): ${preparing.longTasks.length ? preparing.longTasks.map((d) => d.toFixed(0)).join(", ") + " ms" : "none"}`);
// Played at the sports-replay pace with both clusters drawn: the election, the session expiry and
// into the cold load (about 15 s of playback).
await reset(race);
await race.locator("#kill-both").click();
await race.waitForFunction(() => /Cold load/.test(document.querySelector(".side-zk .side-caption")?.textContent ?? "") && Number(document.querySelector(".partition-grid.zk")?.dataset.loadedCells) > 100, null, { timeout: 120_000 });
await race.waitForTimeout(3000);
const playing = await read(race);
console.log(`  played with both clusters drawn, ${playing.frames.length} frames (target p95 <= 8 ms): page work per frame p95 ${percentile(playing.scripts, 0.95).toFixed(1)} ms, median ${percentile(playing.scripts, 0.5).toFixed(1)} ms; whole frame p95 ${percentile(playing.frames, 0.95).toFixed(1)} ms; long tasks (>50 ms): ${playing.longTasks.length ? playing.longTasks.map((d) => d.toFixed(0)).join(", ") + " ms" : "none"}`);
await reset(race);
await race.getByRole("button", { name: "Skip to the end" }).click();
await race.waitForFunction(() => document.querySelector(".race-stage")?.textContent === "Both sides recovered.", null, { timeout: 120_000 });
const skipping = await read(race);
console.log(`  skipped to the end, ${skipping.frames.length} frames: page work per frame p95 ${percentile(skipping.scripts, 0.95).toFixed(1)} ms, longest ${Math.max(0, ...skipping.scripts).toFixed(1)} ms; long tasks (>50 ms): ${skipping.longTasks.length ? skipping.longTasks.map((d) => d.toFixed(0)).join(", ") + " ms" : "none"} (target: none)`);
console.log(`  2,000,000-partition race: preparation ${preparation} ms (before ${before.racePreparationMs} ms); longest frame task while skipping ${Math.max(0, ...skipping.frames).toFixed(1)} ms (before ${before.raceLongestFrameMs} ms)`);
await race.close();

// The 100,000-partition migration: recorded a slice a frame, then played through the claim and
// the copy to dual-write.
await migration100k(context, baseUrl);

// The first screen's weight, as xtask measured it (KRAFTSCOPE_WEIGHTS: "name=bytes,...;name=bytes,..."
// for the first screen, then the parts loaded later), beside the wasm + js + css of before.
const [firstScreen, later] = (process.env.KRAFTSCOPE_WEIGHTS ?? ";").split(";").map((list) =>
  list ? list.split(",").map((pair) => { const [name, bytes] = pair.split("="); return [name, Number(bytes)]; }) : []);
const budget = Number(process.env.KRAFTSCOPE_BUDGET);
const kib = (bytes) => (bytes / 1024).toFixed(1);
const total = firstScreen.reduce((sum, [, bytes]) => sum + bytes, 0);
console.log(`first screen, gzipped: ${firstScreen.map(([name, bytes]) => `${name} ${kib(bytes)} KiB${name in before.transferKB ? ` (before ${before.transferKB[name]} KiB)` : ""}`).join(", ")}; total ${kib(total)} KiB = ${total} B (before ${before.transferKB.total} KiB for the wasm, js and css; budget ${kib(budget)} KiB = ${budget} B)`);
console.log(`loaded later, gzipped: ${later.length ? later.map(([name, bytes]) => `${name} ${kib(bytes)} KiB`).join(", ") : "nothing"}`);

await browser.close();

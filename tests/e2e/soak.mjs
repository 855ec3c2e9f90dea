// Soak (not a test suite): runs the live cluster in headless Chromium for SOAK_MINUTES minutes
// at SOAK_SPEED (max: 1000x, 1: real time, default: the page's own pace) with random actions
// drawn from SOAK_SEED, and prints every minute the JS heap (after a garbage collection), the
// wasm memory, the DOM node count, the event log's length, and the simulated time and events
// the page played that minute (forward moves of the clock and of the event count, sampled
// between actions: a seek or a reset moves them back). Fails when a minute plays no simulated
// time, when a size ends up above 1.5x its minute-5 value (minute 1 for shorter runs), or when
// the page logs an error. Run with `cargo xtask soak --minutes N [--seed S] [--speed ...]`.
import { chromium } from "playwright-core";
import { FLAGS, executablePath } from "./chromium.mjs";
import { seededRandom } from "./random.mjs";

const baseUrl = process.env.KRAFTSCOPE_URL;
const minutes = Number(process.env.SOAK_MINUTES ?? 5);
const seed = Number(process.env.SOAK_SEED ?? 1);
const speed = process.env.SOAK_SPEED ?? "max";
const SPEED_QUERY = { max: "&speed=1000", 1: "&speed=1", default: "" };
/** Real time between two random actions. */
const ACTION_EVERY_MS = 250;
const GROWTH_LIMIT = 1.5;

const rng = seededRandom(seed);
const pick = (items) => items[Math.floor(rng() * items.length)];

const browser = await chromium.launch({ executablePath, headless: true, args: FLAGS });
const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
const page = await context.newPage();
const errors = [];
page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
page.on("pageerror", (e) => errors.push(e.message));
const cdp = await context.newCDPSession(page);
await page.goto(new URL(`?seed=${seed}${SPEED_QUERY[speed]}&voters=5&brokers=6`, baseUrl).href);
await page.locator("svg.cluster g.node").first().waitFor({ timeout: 60_000 });

async function measure() {
  await cdp.send("HeapProfiler.collectGarbage");
  const { usedSize } = await cdp.send("Runtime.getHeapUsage");
  const page_ = await page.evaluate(async () => {
    const module = await import(new URL("kraftscope.js", location.href).href);
    const wasm = await module.default();
    const limits = document.querySelector("#log-limits")?.textContent ?? "";
    const [, kept, actions] = /\(([\d,]+) now\).*\(([\d,]+) now\)/.exec(limits) ?? [];
    return {
      wasm: wasm.memory.buffer.byteLength,
      dom: document.getElementsByTagName("*").length,
      log: Number((kept ?? "NaN").replaceAll(",", "")),
      actions: Number((actions ?? "NaN").replaceAll(",", "")),
      clock: document.querySelector("#clock")?.textContent,
    };
  });
  return { heap: usedSize, ...page_ };
}

/** The simulated clock (us) and the events processed, as the page shows them. */
const position = () => page.evaluate(() => {
  const clock = /^(\d+)\.(\d{3}) s/.exec(document.querySelector("#clock")?.textContent ?? "");
  const events = /of ([\d,]+) events/.exec(document.querySelector(".invariants .hint")?.textContent ?? "");
  return {
    us: clock ? (Number(clock[1]) * 1000 + Number(clock[2])) * 1000 : NaN,
    events: events ? Number(events[1].replaceAll(",", "")) : NaN,
  };
});

const actions = {
  "kill the leader": () => page.keyboard.press("k"),
  "partition a node": () => page.keyboard.press("x"),
  heal: () => page.keyboard.press("h"),
  resign: () => page.keyboard.press("g"),
  step: () => page.keyboard.press("s"),
  "play/pause": () => page.keyboard.press(" "),
  reset: () => page.keyboard.press("r"),
  "create a topic": () => page.getByRole("button", { name: "Create topic" }).click({ timeout: 5000 }),
  share: () => page.locator("#share").click({ timeout: 5000 }),
  seek: async () => {
    const max = Number(await page.locator("#scrubber").getAttribute("max"));
    await page.locator("#scrubber").fill(String(Math.floor(rng() * max)));
    await page.evaluate(() => document.activeElement?.blur());
  },
};
const weighted = [
  ...Array(4).fill("play/pause"), ...Array(3).fill("kill the leader"), ...Array(2).fill("partition a node"),
  ...Array(2).fill("heal"), "resign", "step", "create a topic", "share", "seek", "reset",
];

const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;
const rows = [];
const missed = {};
let done = 0;
const started = Date.now();
const stalled = [];
let last = await position();
console.log(`soak: ${minutes} min, seed ${seed}, speed ${speed}, ${baseUrl}`);
for (let minute = 1; minute <= minutes; minute += 1) {
  let played = { us: 0, events: 0 };
  while (Date.now() - started < minute * 60_000) {
    const name = pick(weighted);
    // A click may find its button gone (a reset, the timeline's end): count it and go on.
    await actions[name]().catch(() => { missed[name] = (missed[name] ?? 0) + 1; });
    // Mostly playing: a paused page does nothing worth soaking.
    if (await page.getByRole("button", { name: "Play" }).count() && rng() < 0.7) await page.keyboard.press(" ");
    done += 1;
    await page.waitForTimeout(ACTION_EVERY_MS);
    const now = await position();
    played = { us: played.us + Math.max(0, now.us - last.us), events: played.events + Math.max(0, now.events - last.events) };
    last = now;
  }
  const row = await measure();
  rows.push(row);
  if (!(played.us > 0)) stalled.push(minute);
  console.log(`minute ${minute}: played ${(played.us / 1e6).toFixed(1)} simulated s and ${played.events} events; JS heap ${mb(row.heap)}, wasm memory ${mb(row.wasm)}, DOM nodes ${row.dom}, event log ${row.log} lines, ${row.actions} actions, clock ${row.clock}; ${done} random actions so far`);
}

const baseMinute = rows.length >= 5 ? 5 : 1;
const base = rows[baseMinute - 1];
const grown = [];
for (const [i, row] of rows.entries()) {
  if (i < baseMinute) continue;
  for (const key of ["heap", "wasm", "dom", "log"]) {
    if (!(row[key] <= GROWTH_LIMIT * base[key])) grown.push(`minute ${i + 1}: ${key} ${row[key]} > ${GROWTH_LIMIT} x ${base[key]}`);
  }
}
const peak = (key) => Math.max(...rows.slice(baseMinute - 1).map((r) => r[key]));
console.log(`after minute ${baseMinute}: peak JS heap ${mb(peak("heap"))} (${(peak("heap") / base.heap).toFixed(2)}x), wasm ${mb(peak("wasm"))} (${(peak("wasm") / base.wasm).toFixed(2)}x), DOM ${peak("dom")} (${(peak("dom") / base.dom).toFixed(2)}x), event log ${peak("log")} (${(peak("log") / base.log).toFixed(2)}x) of the minute-${baseMinute} values`);
if (Object.keys(missed).length) console.log(`actions that found nothing to act on: ${JSON.stringify(missed)}`);
await browser.close();
if (errors.length) {
  console.log(`page errors: ${errors.join(" | ")}`);
  process.exit(1);
}
if (stalled.length) {
  console.log(`the clock did not advance in minute(s) ${stalled.join(", ")}`);
  process.exit(1);
}
if (grown.length) {
  console.log(`grew past ${GROWTH_LIMIT}x: ${grown.join("; ")}`);
  process.exit(1);
}
console.log(`soak passed: everything within ${GROWTH_LIMIT}x of minute ${baseMinute}`);

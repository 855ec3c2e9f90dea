// The host-page API: the example docs page (served from another origin, `localhost` against
// the embed's `127.0.0.1`) drives the embed through every command and receives every event
// kind; a page of an origin `origins=` does not list is ignored; malformed messages are
// answered with error events and the page keeps running.
// covers: src/web/host.rs src/page/host www/embed-example.html
import { test } from "node:test";
import assert from "node:assert/strict";
import { baseUrl, caughtUpWithLeader, freshContext, screenshot } from "./browser.mjs";

/** The same server under another origin: the docs page's. */
const docsBase = baseUrl.replace("127.0.0.1", "localhost");
const embedUrl = new URL("index.html", baseUrl).href;

const EVENT_KINDS = [
  "ready", "epoch-bumped", "leader-elected", "high-watermark-advanced", "broker-fenced",
  "broker-unfenced", "failover-finished", "invariant-broken", "error",
];

/** The events the docs page has listed, parsed (commands it sent are left out). */
const received = (page) => page.locator("#events li:not(.sent)").evaluateAll(
  (items) => items.map((item) => JSON.parse(item.dataset.json)));

/** Waits until the docs page lists, after the first `from` entries, an event matching `accept`. */
async function waitForEvent(page, accept, from = 0, timeout = 60_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const found = (await received(page)).slice(from).find(accept);
    if (found) return found;
    if (Date.now() > deadline) assert.fail(`no matching event within ${timeout} ms: ${JSON.stringify((await received(page)).slice(-5))}`);
    await page.waitForTimeout(100);
  }
}

const fingerprintOf = (frame) => frame.locator(".page").getAttribute("data-fingerprint");

/** Posts `message` to the embed as the docs page would. */
const post = (page, message) => page.evaluate(
  (m) => document.getElementById("kraftscope-embed").contentWindow.postMessage(m, "*"), message);

/** Waits until the paused embed shows a fingerprint matching `pattern` and returns it. */
const pausedAt = (frame, pattern) => frame.locator(".page").evaluate((el, source) => new Promise((resolve) => {
  const check = () => new RegExp(source).test(el.dataset.fingerprint ?? "") ? resolve(el.dataset.fingerprint) : setTimeout(check, 50);
  check();
}), pattern.source);
const eventsOf = (print) => Number(/ us, (\d+) events/.exec(print)[1]);

/** Clicks the "Try it" button of the section titled `title` and returns how many events were listed before. */
async function tryIt(page, title) {
  const before = (await received(page)).length;
  await page.locator("section", { has: page.getByRole("heading", { name: title, exact: true }) }).getByRole("button", { name: "Try it" }).click();
  return before;
}

test("the docs page drives the embed through every command and receives every event kind", async () => {
  const context = await freshContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(`${docsBase}embed-example.html?kraftscope=${encodeURIComponent(embedUrl)}`);
  const frame = page.frameLocator("#kraftscope-embed");
  await waitForEvent(page, (e) => e.event === "ready" && e.api === 1);

  // play: an election, commits, brokers unfenced.
  let from = await tryIt(page, "Controllers elect a leader");
  const first = await waitForEvent(page, (e) => e.event === "leader-elected", from);
  await waitForEvent(page, (e) => e.event === "epoch-bumped", from);
  await waitForEvent(page, (e) => e.event === "high-watermark-advanced" && e.leader === first.leader, from);
  await waitForEvent(page, (e) => e.event === "broker-unfenced", from);

  // pause, seek 2000 ms, step: paused one event past 2 s (a seek runs every event up to its
  // moment, so the step's lies later); seeking there again and stepping again agrees.
  await tryIt(page, "Stop time, and go back");
  const stepped = await pausedAt(frame, /^2(?!000000 )\d{6} us, \d+ events/);
  await post(page, { command: "seek", ms: 2000 });
  const seeked = await pausedAt(frame, /^2000000 us, \d+ events/);
  assert.equal(eventsOf(stepped), eventsOf(seeked) + 1, "step processes exactly one event");
  await post(page, { command: "step" });
  assert.equal(await pausedAt(frame, /^2(?!000000 )\d{6} us/), stepped, "the same step again, still paused");

  // set-speed 1 and play; the leader dies and another is elected at a higher epoch.
  await tryIt(page, "Speed it up");
  await frame.locator('.page[data-speed="1×"]:not([data-fingerprint])').waitFor();
  await waitForEvent(page, (e) => e.event === "leader-elected");
  const beforeKill = (await received(page)).filter((e) => e.event === "leader-elected").at(-1);
  from = await tryIt(page, "The leader dies");
  const successor = await waitForEvent(page, (e) => e.event === "leader-elected" && e.epoch > beforeKill.epoch, from);

  // resign: a graceful hand-over to a new epoch.
  from = await tryIt(page, "A graceful hand-over");
  const resigned = await waitForEvent(page, (e) => e.event === "leader-elected" || e.event === "error", from);
  assert.equal(resigned.event, "leader-elected", JSON.stringify(resigned));
  assert.ok(resigned.epoch > successor.epoch, JSON.stringify(resigned));

  // crash and restart n1: the embed draws it down, then back.
  const n1 = frame.locator('svg.cluster g.node[aria-label^="controller n1 "]');
  await tryIt(page, "A controller crashes...");
  await frame.locator('svg.cluster g.node[aria-label^="controller n1 DOWN"]').waitFor({ timeout: 10_000 });
  await tryIt(page, "...and comes back");
  await frame.locator('svg.cluster g.node.role-down[aria-label^="controller n1 "]').waitFor({ state: "detached", timeout: 10_000 });
  assert.doesNotMatch(await n1.getAttribute("aria-label"), /DOWN/);

  // isolate n101: fenced after the broker session timeout; heal: unfenced again.
  from = await tryIt(page, "A silent broker is fenced");
  await waitForEvent(page, (e) => e.event === "broker-fenced" && e.broker === 101, from, 90_000);
  from = await tryIt(page, "Links heal");
  await waitForEvent(page, (e) => e.event === "broker-unfenced" && e.broker === 101, from, 90_000);
  await screenshot(page, "host-docs-page");

  // power-loss n101, then restart it; torn-write n2: it stops at its next write, then restart.
  const then = (title) => page.locator("section", { has: page.getByRole("heading", { name: title, exact: true }) })
    .getByRole("button", { name: "Then" }).click();
  for (const [title, label] of [["The power fails", "broker n101 "], ["A write torn in half", "controller n2 "]]) {
    await tryIt(page, title);
    await frame.locator(`svg.cluster g.node.role-down[aria-label^="${label}"]`).waitFor({ timeout: 10_000 });
    await then(title);
    await frame.locator(`svg.cluster g.node.role-down[aria-label^="${label}"]`).waitFor({ state: "detached", timeout: 10_000 });
  }

  // new-controller, then add-controller n4 (refused until n4 caught up, so tried again):
  // voters-changed with n4 in the set, then once it commits. Events describe the changes between
  // drawn frames, and the VotersRecord may commit within one frame, so the first voters-changed
  // naming n4 may already be the committed one (then a further try would be a duplicate).
  await tryIt(page, "A fourth controller");
  await frame.locator('svg.cluster g.node[aria-label^="controller n4 "]').waitFor();
  const fourth = page.locator("section", { has: page.getByRole("heading", { name: "A fourth controller", exact: true }) });
  // Between tries, wait (in the embed's own state) until n4's log reaches the leader's end; a
  // pending change from any try counts.
  const embed = page.frame({ url: /embed=1/ });
  from = (await received(page)).length;
  for (let attempt = 0; ; attempt++) {
    await fourth.getByRole("button", { name: "Then" }).click();
    try {
      await waitForEvent(page, (e) => e.event === "voters-changed" && e.voters.includes(4), from, 3_000);
      break;
    } catch (error) {
      const refusals = (await received(page)).slice(from).filter((e) => e.event === "error").map((e) => e.error);
      assert.ok(attempt < 10, `n4 is added once it has caught up: ${error.message}; refusals: ${JSON.stringify(refusals)}`);
      await embed.waitForFunction(caughtUpWithLeader, 4, { timeout: 60_000 });
    }
  }
  await waitForEvent(page, (e) => e.event === "voters-changed" && !e.pending && e.voters.join() === "1,2,3,4", from);

  // wipe-disk n3, then remove-controller n3: the old entry leaves the voter set.
  await tryIt(page, "A disk dies");
  await frame.locator(`svg.cluster g.node[aria-label*="old disk's entry still counts"]`).waitFor({ timeout: 20_000 });
  const disk = page.locator("section", { has: page.getByRole("heading", { name: "A disk dies", exact: true }) });
  await frame.locator('svg.cluster g.node.role-leader:not([aria-label^="controller n3 "])').waitFor({ timeout: 20_000 });
  from = (await received(page)).length;
  await disk.getByRole("button", { name: "Then" }).click();
  await waitForEvent(page, (e) => e.event === "voters-changed" && !e.pending && e.voters.join() === "1,2,4", from);

  // tour-step 4: the embed shows the step.
  await tryIt(page, "A step of the guided tour");
  await frame.locator("#tour-progress", { hasText: "Step 4 of 26" }).waitFor();

  // load-scenario failover: both stopwatches when both sides are back.
  from = await tryIt(page, "KRaft against ZooKeeper mode");
  const race = await waitForEvent(page, (e) => e.event === "failover-finished", from, 90_000);
  assert.equal(race.partitions, 1000);
  assert.ok(race.kraft_ms > 0 && race.zookeeper_ms > race.kraft_ms, JSON.stringify(race));
  await frame.locator("#race-headline").waitFor();

  // The race takes seek (and play, pause, step, kill-leader), not node commands.
  await tryIt(page, "Rewind the race");
  await frame.locator("#race-headline").waitFor({ state: "detached" });
  from = await tryIt(page, "Thirty seconds later");
  const again = await waitForEvent(page, (e) => e.event === "failover-finished", from, 90_000);
  assert.deepEqual(again, race, "the replayed race ends the same way");
  from = (await received(page)).length;
  await page.evaluate(() => document.getElementById("kraftscope-embed").contentWindow.postMessage({ command: "crash", node: 1 }, "*"));
  await waitForEvent(page, (e) => e.event === "error" && /failover race is shown: it takes play, pause, step, seek and kill-leader/.test(e.error), from);

  // A reload with a deliberate bug, then play: the broken invariant is reported.
  from = await tryIt(page, "When the protocol is broken");
  const broken = await waitForEvent(page, (e) => e.event === "invariant-broken", from);
  assert.ok(broken.invariant.length > 0 && broken.detail.length > 0, JSON.stringify(broken));

  // Three malformed messages: three error events naming what was wrong; the page goes on.
  from = await tryIt(page, "Bad messages");
  await waitForEvent(page, (e) => e.event === "error" && /invalid type: string "two"/.test(e.error), from);
  await waitForEvent(page, (e) => e.event === "error" && /text but not JSON: 'not JSON'/.test(e.error), from);
  await waitForEvent(page, (e) => e.event === "error" && /'explode' is not a command/.test(e.error), from);
  const kinds = new Set((await received(page)).map((e) => e.event));
  for (const kind of EVENT_KINDS) assert.ok(kinds.has(kind), `received a ${kind} event (got ${[...kinds].join(", ")})`);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a page of an origin that origins= does not list cannot command the embed, and hears nothing", async () => {
  const context = await freshContext();
  const page = await context.newPage();
  // A host page on the docs origin (loaded from the server, as a page on a public origin may
  // not frame a loopback one), its content replaced by an embed allowing only another origin.
  const warnings = [];
  page.on("console", (message) => { if (message.type() === "warning") warnings.push(message.text()); });
  await page.goto(`${docsBase}index.html?autoplay=0`);
  await page.setContent(`<!doctype html><title>stranger</title><ol id="heard"></ol>
    <iframe id="embed" width="480" height="320" src="${embedUrl}?embed=1&seed=7&autoplay=0&origins=https%3A%2F%2Fdocs.example.com"></iframe>
    <script>addEventListener("message", (e) => { const li = document.createElement("li"); li.textContent = JSON.stringify(e.data); document.getElementById("heard").append(li); });</script>`);
  const frame = page.frameLocator("#embed");
  const before = await frame.locator(".page[data-fingerprint]").getAttribute("data-fingerprint");
  await page.evaluate(() => {
    const embed = document.getElementById("embed").contentWindow;
    for (const command of [{ command: "play" }, { command: "seek", ms: 5000 }, { command: "kill-leader" }, "garbage"]) embed.postMessage(command, "*");
  });
  const origin = new URL(docsBase).origin;
  const ignored = () => warnings.filter((w) => w.includes(`ignored a message from ${origin}`)).length;
  for (const deadline = Date.now() + 10_000; ignored() < 4 && Date.now() < deadline; ) await page.waitForTimeout(50);
  assert.equal(ignored(), 4, `each of the four messages was ignored with a warning: ${JSON.stringify(warnings)}`);
  await page.waitForTimeout(1500);
  assert.equal(await frame.locator(".page").getAttribute("data-fingerprint"), before, "the state did not change");
  assert.equal(await page.locator("#heard li").count(), 0, "no event, not even ready or an error, reached the stranger");
  await context.close();
});

test("malformed messages from an allowed origin get error events and the page keeps running", async () => {
  const context = await freshContext();
  const page = await context.newPage();
  await page.goto(`${docsBase}embed-example.html?kraftscope=${encodeURIComponent(embedUrl)}`);
  const frame = page.frameLocator("#kraftscope-embed");
  await waitForEvent(page, (e) => e.event === "ready");
  const bad = [null, 42, "{", [], { command: "seek" }, { command: "seek", ms: -1 }, { command: "set-speed", speed: 1e9 },
    { command: "tour-step", step: 99 }, { command: "load-scenario", scenario: "mars" }, { command: "crash", node: 999 }];
  await page.evaluate((messages) => {
    const embed = document.getElementById("kraftscope-embed").contentWindow;
    for (const message of messages) embed.postMessage(message, "*");
  }, bad);
  await page.waitForFunction((n) => document.querySelectorAll('#events li[data-event="error"]').length >= n, bad.length);
  const errors = (await received(page)).filter((e) => e.event === "error").map((e) => e.error);
  for (const named of ["invalid type: unit value, expected struct Message", "invalid type: floating point `42.0`",
    "text but not JSON: '{'", "missing field `command`", "seek: missing field `ms`", "floating point `-1.0`, expected u64",
    "set-speed: speed 1000000000 is outside", "tour-step: step 99 is outside", "'mars' is not a scenario", "no node n999"]) {
    assert.ok(errors.some((e) => e.includes(named)), `an error names "${named}": ${JSON.stringify(errors)}`);
  }
  // Still running: a valid command after them works.
  await page.evaluate(() => document.getElementById("kraftscope-embed").contentWindow.postMessage({ command: "seek", ms: 1500 }, "*"));
  await frame.locator('.page[data-fingerprint^="1500000 us"]').waitFor();
  await context.close();
});

test("on the same page, the module's command and onEvent exports drive the page", async () => {
  const context = await freshContext();
  const page = await context.newPage();
  await page.goto(`${baseUrl}?seed=7&autoplay=0`);
  await page.locator(".page[data-fingerprint]").waitFor();
  await page.evaluate(async () => {
    const kraftscope = await import("./kraftscope.js");
    window.heard = [];
    kraftscope.onEvent((event) => window.heard.push(event));
    kraftscope.command({ command: "seek", ms: 3000 });
    kraftscope.command({ command: "explode" });
  });
  await page.locator('.page[data-fingerprint^="3000000 us"]').waitFor();
  const heard = await page.evaluate(() => window.heard);
  assert.ok(heard.some((e) => e.event === "leader-elected"), JSON.stringify(heard));
  assert.ok(heard.some((e) => e.event === "error" && e.error.startsWith("'explode' is not a command")), JSON.stringify(heard));
  await context.close();
});

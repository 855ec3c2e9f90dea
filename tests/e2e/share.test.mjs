// Shared links reopen the very same state: the whole-state fingerprint (data-fingerprint on the
// page while paused) of the sharer and of the reopened link match at 10 random pause points,
// elections included (tests/share_links.rs checks many more natively; here the real page's
// links, address bar and wasm do it); a damaged link still opens with a notice naming what was
// wrong; a link a simulated day in replays under a progress bar; duplication and reordering set
// with the network controls, and a node's power loss and torn write, are named in the event log
// and kept by the link.
// covers: src/web/timeline.rs src/session src/web/controls.rs src/sim/network.rs
import { test } from "node:test";
import assert from "node:assert/strict";
import { freshContext, open, screenshot, waitForLeader } from "./browser.mjs";
import { seededRandom } from "./random.mjs";

const POINTS = 10;

const fingerprint = (page) => page.locator(".page").getAttribute("data-fingerprint");
/** The moment a fingerprint was taken at: [microseconds, events]. */
const moment = (print) => /^(\d+) us, (\d+) events/.exec(print).slice(1).map(Number);
const electing = (print) => /Candidate|Prospective/.test(print) || !/Leader/.test(print);

/** Waits until the paused page shows a fingerprint (that does not match `not`) and returns it. */
async function waitForPrint(page, { prefix = "", not = null } = {}) {
  const handle = await page.waitForFunction(([prefix, not]) => {
    const print = document.querySelector(".page")?.getAttribute("data-fingerprint");
    return print && print.startsWith(prefix) && !(not && new RegExp(not).test(print)) ? print : null;
  }, [prefix, not], { timeout: 30_000 });
  return handle.jsonValue();
}

/** Seeks the paused page to `ms` and returns the fingerprint there. */
async function seek(page, ms) {
  await page.locator("#scrubber").fill(String(ms));
  return waitForPrint(page, { prefix: `${ms * 1000} us, ` });
}

test(`a shared link reopens the same whole-state fingerprint at ${POINTS} random pause points`, async () => {
  const { page, errors, context } = await open("?seed=7&speed=1");
  const first = await waitForLeader(page);
  const killMs = Number(await page.locator("#scrubber").inputValue());
  await page.getByRole("button", { name: "Kill active controller" }).click();
  await waitForLeader(page, (l) => l.epoch > first.epoch);
  // The new leader becomes the active controller only once its LeaderChange record is
  // committed (QuorumController.claim): until then CreateTopics is refused, so ask again.
  let created = false;
  for (let attempt = 0; attempt < 50 && !created; attempt += 1) {
    await page.getByRole("button", { name: "Create topic" }).click();
    const status = await page.locator("div.notice[role=status]").textContent();
    created = !status.includes("refused");
    if (!created) await page.waitForTimeout(200);
  }
  assert.ok(created, "a topic was created once the new controller was active");
  await page.waitForFunction(() => [...document.querySelectorAll("svg.cluster g.node text.small")]
    .filter((t) => t.textContent.includes("1 topic ·")).length >= 2, null, { timeout: 30_000 });
  await page.getByRole("button", { name: "Pause" }).click();
  const horizon = Number(await page.locator("#scrubber").getAttribute("max"));

  // Moments of the elections (the first one and the one after the kill), found by scanning.
  const elections = [];
  for (const [from, to] of [[0, Math.min(3000, horizon)], [killMs, Math.min(killMs + 4000, horizon)]]) {
    let seen = false;
    for (let ms = from; ms <= to; ms += 25) {
      const during = /Candidate|Prospective/.test(await seek(page, ms));
      if (during) elections.push(ms);
      if (seen && !during) break;
      seen ||= during;
    }
  }
  assert.ok(elections.length > 0, "the scan found the elections");

  const rng = seededRandom(2026);
  const reader = await (await freshContext()).newPage();
  let midElection = 0;
  const started = Date.now();
  for (let point = 0; point < POINTS; point += 1) {
    const ms = point % 3 === 0 ? elections[Math.floor(rng() * elections.length)] : Math.floor(rng() * horizon);
    let print = await seek(page, ms);
    // A few single steps: the moment may fall between two events of one microsecond.
    for (let steps = Math.floor(rng() * 4); steps > 0; steps -= 1) {
      const events = moment(print)[1];
      await page.getByRole("button", { name: "Step one event" }).click();
      print = await waitForPrint(page, { not: `^\\d+ us, ${events} events` });
    }
    const [at, events] = moment(print);
    await page.locator("#share").click();
    await page.waitForFunction((m) => document.querySelector("#share-url")?.value.includes(m), `at=${at}.${events}.`);
    const url = await page.locator("#share-url").inputValue();
    await reader.goto(url);
    const reopened = await waitForPrint(reader);
    assert.equal(reopened, print, `pause point ${point} at ${at} us after ${events} events: ${url}`);
    assert.equal(await reader.getByRole("alert").count(), 0, `no notice for ${url}`);
    midElection += electing(print) ? 1 : 0;
  }
  console.log(`${POINTS} pause points (${midElection} mid-election) compared in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  assert.ok(midElection >= 2, `only ${midElection} pause points fell in an election`);
  await screenshot(reader, "shared-link-reopened");
  await reader.context().close();
  assert.deepEqual(errors, []);
  await context.close();
});

test("duplicated and reordered messages are named in the event log, and a share link keeps both controls", async () => {
  const { page, errors, context } = await open("?seed=3&speed=1");
  await waitForLeader(page);
  await page.locator("#duplicate-rate").fill("30");
  await page.locator("#reorder").check();
  const lines = page.locator("section.log ol.lines li");
  const named = (ending) => lines.evaluateAll((all, e) => all.some((l) => l.textContent.endsWith(e)), ending);
  await page.waitForFunction(() => {
    const texts = [...document.querySelectorAll("section.log ol.lines li")].map((l) => l.textContent);
    return texts.some((t) => t.endsWith("(a duplicate: its second copy)")) && texts.some((t) => t.endsWith("(overtook a message sent before it)"));
  }, null, { timeout: 30_000 });
  assert.ok(await named("(a duplicate: its second copy)"));
  await page.getByRole("button", { name: "Pause" }).click();
  const print = await waitForPrint(page);
  await page.locator("#share").click();
  const url = await page.locator("#share-url").inputValue();
  await page.goto(url);
  assert.equal(await waitForPrint(page), print, "the same state");
  assert.equal(await page.locator("#duplicate-rate").inputValue(), "30");
  assert.ok(await page.locator("#reorder").isChecked(), "reordering still on");
  assert.equal(await page.getByRole("alert").count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a power loss and a torn write from a node's menu say what they lose, are named in the event log and kept by a share link", async () => {
  const { page, errors, context } = await open("?seed=3&speed=1");
  await waitForLeader(page);
  const lines = page.locator("section.log ol.lines li");
  const shown = (part) => page.waitForFunction((p) => [...document.querySelectorAll("section.log ol.lines li")].some((l) => l.textContent.includes(p)), part, { timeout: 30_000 });
  await page.locator('svg.cluster g.node[aria-label^="broker n101 "]').click();
  assert.match(await page.locator(".faults").textContent(), /A power loss keeps only what was flushed: a broker flushes its metadata log only when it shuts down cleanly, so it loses what it fetched since/);
  await page.getByRole("button", { name: "Cut n101's power" }).click();
  await shown("n101's disk after the power loss: ");
  await page.locator('svg.cluster g.node.role-down[aria-label^="broker n101 "]').waitFor();
  await page.locator('svg.cluster g.node[aria-label^="controller n2 "]').click();
  assert.match(await page.locator(".faults").textContent(), /a controller flushes its log before it counts or reports a record, so nothing/);
  await page.getByRole("button", { name: "Tear n2's next write" }).click();
  await shown("n2's disk after the power loss: the batch it was writing at offset ");
  await page.getByRole("button", { name: "Restart n2" }).click();
  await shown("n2 recovers its log: the batch at offset ");
  await screenshot(page, "power-faults");
  assert.ok((await lines.count()) > 0);
  await page.getByRole("button", { name: "Pause" }).click();
  const print = await waitForPrint(page);
  await page.locator("#share").click();
  const url = await page.locator("#share-url").inputValue();
  assert.match(url, /o101/, "the power loss is in the link");
  await page.goto(url);
  assert.equal(await waitForPrint(page), print, "the same state");
  await page.locator('svg.cluster g.node.role-down[aria-label^="broker n101 "]').waitFor();
  assert.equal(await page.getByRole("alert").count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a damaged share link still opens, with a notice naming what did not match", async () => {
  const { page, errors, context } = await open("?seed=7&speed=1");
  await waitForLeader(page);
  await page.getByRole("button", { name: "Pause" }).click();
  const print = await waitForPrint(page);
  await page.locator("#share").click();
  const url = await page.locator("#share-url").inputValue();
  const damaged = url.replace(/fp=[0-9a-f]{8}/, "fp=00000000");
  assert.notEqual(damaged, url);
  await page.goto(damaged);
  const alert = page.getByRole("alert");
  await alert.waitFor();
  assert.match(await alert.textContent(), /fp: the state here .* differs from the shared one \(00000000\).*opened anyway/);
  assert.equal(await waitForPrint(page), print, "it opens at the shared moment all the same");
  assert.deepEqual(errors, []);
  await context.close();
});

test("a link to a moment a simulated day in replays under a progress bar, then opens there", async () => {
  const { page, errors, context } = await open("?t=86400000&autoplay=0");
  const bar = page.locator(".reopening");
  await bar.waitFor({ timeout: 30_000 });
  assert.match(await bar.textContent(), /Replaying the shared session from its seed: [\d.]+ s of 86400\.000 s/);
  await screenshot(page, "reopening-a-day");
  await page.keyboard.press("k");
  // The notice is drawn in a later task, once the page has re-rendered: wait for it.
  await page.waitForFunction(() => /Still replaying/.test(document.querySelector("div.notice[role=status]")?.textContent ?? ""), null, { timeout: 10_000 });
  await bar.waitFor({ state: "detached", timeout: 180_000 });
  assert.match(await page.locator("#clock").textContent(), /^86400\.000 s/);
  assert.deepEqual(errors, []);
  await context.close();
});

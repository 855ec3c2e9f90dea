// Tours that play their event in real frames: a live-cluster step of the guided tour opens a few
// seconds before its key moment, which is not in the event log yet, and plays it: the moment
// appears in the event log within 10 s of wall time, and the tour panel ticks "Watch" off. A race
// step and a pain step do the same with their own moments. Every step's timing is checked natively
// over the page's reducer at 60 frames a second (tests/tour_steps.rs); here one step of each view
// shows that the browser's real frames keep that pace.
// covers: src/web/tour.rs src/web/frame_clock.rs src/teaching/stories.rs src/teaching/key_moment.rs
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, screenshot } from "../browser.mjs";

/** The cluster steps played here and their key moments as the event log words them
 *  (independent of the page's own matcher in src/teaching/key_moment.rs): the divergence, and a
 *  voter added. */
const KEY_MOMENTS = new Map([
  [7, /truncated its log to \d+ \(DivergingEpoch/],
  [20, /AddRaftVoter n4 \(dir \w+\): committed, answered NONE$/],
]);

const millis = (line) => Number(/^\s*(\d+)\.\d+ms/.exec(line)?.[1] ?? -1);

test("a cluster, a race and a pain step of the tour each play their key moment within 10 s of opening", async () => {
  const { page, errors, context } = await open("?tour=7");
  for (const [step, moment] of KEY_MOMENTS) {
    await page.goto(new URL(`?tour=${step}`, page.url()).href);
    // Step 7 asks first (what the deposed leader keeps), from its opening: just watch.
    await page.locator("#tour-watch, #prediction-skip").first().waitFor();
    if (await page.locator("#prediction-skip").count()) await page.locator("#prediction-skip").click();
    await page.locator("#tour-watch").waitFor();
    const opened = Date.now();
    const state = await page.evaluate(() => ({
      clock: document.querySelector("#clock").textContent,
      lines: [...document.querySelectorAll(".log .lines li")].map((li) => li.textContent),
      watch: document.querySelector("#tour-watch").textContent,
    }));
    const openedMs = Math.round(Number(state.clock.split(" ")[0]) * 1000);
    assert.match(state.watch, /^Watch: /, `step ${step} tells what to watch for`);
    assert.ok(!state.lines.some((l) => millis(l) >= openedMs && moment.test(l)), `step ${step}: its key moment is not there when it opens at ${state.clock}`);
    await page.waitForFunction(([source, from]) => {
      const re = new RegExp(source);
      return [...document.querySelectorAll(".log .lines li")].some((li) => {
        const ms = Number(/^\s*(\d+)\.\d+ms/.exec(li.textContent)?.[1] ?? -1);
        return ms >= from && re.test(li.textContent);
      });
    }, [moment.source, openedMs], { timeout: 10_000, polling: 50 });
    const wall = Date.now() - opened;
    await page.locator("#tour-watch.seen").waitFor({ timeout: 5_000 });
    console.log(`step ${step}: key moment after ${wall} ms of wall time`);
    if (step === 7) await screenshot(page, "tour-step-7-divergence-played");
    if (step === 20) await screenshot(page, "tour-step-20-add-controller-played");
  }
  // A race step: the moment is the race's (its phase, announced per side); the panel ticks it
  // off with the time since the kill.
  for (const step of [1]) {
    await page.goto(new URL(`?tour=${step}`, page.url()).href);
    // Step 7 asks first (what the deposed leader keeps), from its opening: just watch.
    await page.locator("#tour-watch, #prediction-skip").first().waitFor();
    if (await page.locator("#prediction-skip").count()) await page.locator("#prediction-skip").click();
    await page.locator("#tour-watch").waitFor();
    assert.match(await page.locator("#tour-watch").textContent(), /^Watch: /, `step ${step} tells what to watch for`);
    await page.waitForFunction(() => / since the kill/.test(document.querySelector(".race-stage")?.textContent ?? ""), null, { timeout: 120_000, polling: 50 });
    const opened = Date.now();
    assert.equal(await page.locator("#tour-watch.seen").count(), 0, `step ${step}: its moment is not there when the race opens`);
    await page.locator("#tour-watch.seen").waitFor({ timeout: 10_000 });
    console.log(`step ${step}: key moment after ${Date.now() - opened} ms of wall time (${await page.locator("#tour-watch").textContent()})`);
  }
  // A pain of ZooKeeper mode: it plays from the fault to the session expiring.
  for (const step of [16]) {
    await page.goto(new URL(`?tour=${step}`, page.url()).href);
    await page.locator(".pains-tab svg.zk-cluster").waitFor();
    const opened = Date.now();
    assert.match(await page.locator("#tour-watch").textContent(), /^Watch: /, `step ${step} tells what to watch for`);
    await page.locator("#tour-watch.seen").waitFor({ timeout: 10_000 });
    console.log(`step ${step}: key moment after ${Date.now() - opened} ms of wall time`);
  }
  // Replay step reopens before the moment.
  await page.locator("#tour-replay").click();
  await page.waitForFunction(() => document.querySelector("#tour-watch").textContent.startsWith("Watch:"));
  assert.deepEqual(errors, []);
  await context.close();
});

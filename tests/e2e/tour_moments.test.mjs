// Tours that play their event: each live-cluster step of the guided tour opens a few seconds
// before its key moment, which is not in the event log yet, and plays it: the moment appears
// in the event log within 10 s of wall time, and the tour panel ticks "Watch" off. Each race
// step does the same with the race's milestones.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, screenshot } from "./browser.mjs";

/** Each cluster step's key moment as the event log words it (independent of the page's own
 *  matcher in src/session/key_moment.rs). */
const KEY_MOMENTS = new Map([
  [3, /became Leader at epoch 1$/],
  [4, /became \w+( of n\d+)? at epoch [2-9]$/],
  [5, /n3 became Prospective at epoch 1$/],
  [6, /n3 became Candidate at epoch/],
  [7, /truncated its log to \d+ \(DivergingEpoch/],
  [8, /n101 appended \d+ records from a TopicRecord/],
  [9, /n101 appended/],
  [11, /-> n103 SnapshotId\(/],
  [12, /n102 appended \d+ records from a PartitionChangeRecord/],
  [13, /n101 appended (a|\d+ records from a) BrokerRegistrationChangeRecord/],
  [17, /became Prospective at epoch [1-9]$/],
  [18, /AddRaftVoter n4 \(dir \w+\): committed, answered NONE$/],
  [19, /AddRaftVoter n3 \(dir \w+\): committed, answered NONE$/],
  [20, /resigned \(/],
]);

const millis = (line) => Number(/^\s*(\d+)\.\d+ms/.exec(line)?.[1] ?? -1);

test("each tour step plays its key moment within 10 s of opening", async () => {
  const { page, errors, context } = await open("?tour=3");
  for (const [step, moment] of KEY_MOMENTS) {
    await page.goto(new URL(`?tour=${step}`, page.url()).href);
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
    if (step === 18) await screenshot(page, "tour-step-18-add-controller-played");
  }
  // The race steps: the moment is the race's (its phase, announced per side); the panel
  // ticks it off with the time since the kill.
  for (const step of [1, 2, 10]) {
    await page.goto(new URL(`?tour=${step}`, page.url()).href);
    await page.locator("#tour-watch").waitFor();
    assert.match(await page.locator("#tour-watch").textContent(), /^Watch: /, `step ${step} tells what to watch for`);
    await page.waitForFunction(() => / since the kill/.test(document.querySelector(".race-stage")?.textContent ?? ""), null, { timeout: 120_000, polling: 50 });
    const opened = Date.now();
    assert.equal(await page.locator("#tour-watch.seen").count(), 0, `step ${step}: its moment is not there when the race opens`);
    await page.locator("#tour-watch.seen").waitFor({ timeout: 10_000 });
    console.log(`step ${step}: key moment after ${Date.now() - opened} ms of wall time (${await page.locator("#tour-watch").textContent()})`);
  }
  // ZooKeeper mode's other pains: each plays from the fault to the session expiring.
  for (const step of [14, 15, 16]) {
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

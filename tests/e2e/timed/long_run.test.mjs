// A page left open keeps running: at 1x the clock follows real time, skipping quiet stretches
// is labelled where it happens, and past ten simulated minutes the page still plays while a
// scrub back inside the reachable window shows the very state a replay from the seed gives.
// (A link a simulated day in is in share.test.mjs: it measures no real time.)
// covers: src/web/frame_clock.rs src/page/clock.rs
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, screenshot } from "../browser.mjs";

/** The simulated clock, in seconds, from "12.345 s of 20.000 s". */
const clock = async (page) => Number(/^([\d.]+) s/.exec(await page.locator("#clock").textContent())[1]);
const fingerprint = (page) => page.waitForFunction(
  () => document.querySelector(".page")?.getAttribute("data-fingerprint"), null, { timeout: 60_000 },
).then((h) => h.jsonValue());

test("at ?speed=1 with skipping off the clock follows real time and the page keeps playing", async () => {
  const { page, errors, context } = await open("?speed=1&skip=0");
  await page.locator("#clock").waitFor();
  const started = Date.now();
  const before = await clock(page);
  await page.waitForTimeout(10_000);
  const passed = (await clock(page)) - before;
  const wall = (Date.now() - started) / 1000;
  assert.ok(passed >= 7.5 && passed <= 12.5, `${passed.toFixed(1)} simulated s passed in ${wall.toFixed(1)} s of wall time`);
  assert.equal(await page.locator("button.play").textContent(), "Pause", "still playing");
  assert.equal(await page.locator("#skip-quiet").isChecked(), false);
  assert.deepEqual(errors, []);
  await context.close();
});

test("at the default speed skipping quiet stretches is labelled while it happens", async () => {
  const { page, errors, context } = await open("");
  await page.locator("#skipping:not(.idle)", { hasText: "skipping quiet stretches 100x" }).waitFor({ timeout: 60_000 });
  assert.equal(await page.locator("#skip-quiet").isChecked(), true);
  await screenshot(page, "skipping-quiet");
  await page.locator("#skip-quiet").uncheck();
  await page.locator("#skipping.idle").waitFor({ state: "attached", timeout: 10_000 });
  // Frames go on playing and none of them skips.
  const before = await clock(page);
  await page.waitForFunction((t) => Number(/^([\d.]+) s/.exec(document.querySelector("#clock").textContent)[1]) > t + 0.01, before);
  assert.equal(await page.locator("#skipping").textContent(), "", "no skipping once it is switched off");
  assert.deepEqual(errors, []);
  await context.close();
});

test("past ten simulated minutes the page still plays, and a scrub inside the window equals a replay", async () => {
  const { page, errors, context } = await open("?speed=1000&seed=3");
  await page.waitForFunction(() => {
    const text = document.querySelector("#clock")?.textContent ?? "";
    return Number(/^([\d.]+) s/.exec(text)?.[1] ?? 0) > 700;
  }, null, { timeout: 120_000 });
  // Still playing past 10 minutes: the clock goes on from where it passed 700 s.
  const passed = await clock(page);
  await page.waitForFunction((t) => Number(/^([\d.]+) s/.exec(document.querySelector("#clock").textContent)[1]) > t + 60, passed, { timeout: 60_000 });
  assert.equal(await page.locator("button.play").textContent(), "Pause", "still playing past 10 minutes");
  await page.getByRole("button", { name: "Pause" }).click();
  const scrubber = page.locator("#scrubber");
  const [min, max] = [Number(await scrubber.getAttribute("min")), Number(await scrubber.getAttribute("max"))];
  assert.ok(min > 0 && max - min >= 600_000, `the window reaches back 10 minutes: ${min}..${max} ms`);
  assert.match(await page.locator("#clock").textContent(), /kept from/);
  await screenshot(page, "long-run-window");
  // Past ten minutes: the link below replays from the seed under a progress bar.
  const target = max - 20_000;
  await scrubber.fill(String(target));
  const scrubbed = await page.waitForFunction((us) => {
    const print = document.querySelector(".page")?.getAttribute("data-fingerprint");
    return print?.startsWith(`${us} us, `) ? print : null;
  }, target * 1000, { timeout: 30_000 }).then((h) => h.jsonValue());
  await page.locator("#share").click();
  const link = await page.locator("#share-url").inputValue();

  const reopened = await context.newPage();
  await reopened.goto(link);
  assert.equal(await fingerprint(reopened), scrubbed, "the replay from the seed gives the scrubbed state");
  assert.equal(await reopened.locator("#reopening").count(), 0, "the progress bar is gone once it opened");
  assert.equal(await reopened.locator(".notices").count(), 0, "no mismatch notice");
  assert.deepEqual(errors, []);
  await context.close();
});

// The first screen carries the live cluster; the race, the pains and the log reader come with the
// full page, which takes over at a link carrying the state (issue #48). Opening them from a
// paused live cluster and coming back finds the same cluster drawn the same way; a link to a
// later view loads the full page at once.
// covers: index.html src/page/mod.rs src/web/app.rs xtask/src/dist.rs src/page/params.rs
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, screenshot, waitForLeader } from "./browser.mjs";

const part = (page) => page.evaluate(() => document.documentElement.dataset.part);
const tab = (page, name) => page.getByRole("tab", { name }).click();

/** The live view as drawn: the state's fingerprint and the drawing's markup. */
async function liveDrawing(page) {
  await page.locator(".page[data-fingerprint]").waitFor();
  return {
    fingerprint: await page.locator(".page").getAttribute("data-fingerprint"),
    drawing: await page.locator("svg.cluster").evaluate((svg) => svg.outerHTML),
  };
}

test("from the live cluster paused after a kill, the race, the pains and the log reader load, and the live drawing returns unchanged", async () => {
  const { page, errors, context } = await open("?seed=7&speed=1");
  assert.equal(await part(page), "first-screen");
  await waitForLeader(page);
  await page.keyboard.press("k");
  await page.keyboard.press(" ");
  const before = await liveDrawing(page);
  assert.match(before.fingerprint, /n\d down/, "a controller is down");

  await tab(page, "Failover: KRaft vs ZooKeeper");
  await page.locator("#kill-both:not([disabled])").waitFor({ timeout: 120_000 });
  assert.equal(await part(page), "full-page");
  assert.match(page.url(), /[?&]tab=failover/);
  await screenshot(page, "later-views-race");
  await tab(page, "ZooKeeper's other pains");
  await page.locator("#pain-clock").waitFor();
  await tab(page, "Open a metadata log");
  await page.locator("#log-file").waitFor({ state: "attached" });
  await tab(page, "Live cluster");
  const after = await liveDrawing(page);
  assert.equal(after.fingerprint, before.fingerprint, "the live cluster's state");
  assert.equal(after.drawing, before.drawing, "the live cluster's drawing");
  assert.deepEqual(errors, []);
  await context.close();
});

test("an embed of the race loads the full page at once and shows both clusters with no click", async () => {
  const { page, errors, context } = await open("?embed=1&scenario=failover", { viewport: { width: 480, height: 320 } });
  assert.equal(await part(page), "full-page");
  // At 480 x 320 each side's nodes are chips (readable.test.mjs measures them).
  await page.locator(".side-zk .race-chips .chip").first().waitFor({ timeout: 60_000 });
  await page.locator(".side-kraft .race-chips .chip").first().waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test("a KRaft tour step opens on the first screen; the next step, a race, loads the full page there", async () => {
  const { page, errors, context } = await open("?tour=10");
  assert.equal(await part(page), "first-screen");
  await page.locator("#tour-progress", { hasText: "Step 10 of 26" }).waitFor();
  await page.keyboard.press("ArrowRight");
  await page.locator("#tour-progress", { hasText: "Step 11 of 26" }).waitFor({ timeout: 60_000 });
  await page.locator("svg.zk-cluster").first().waitFor({ timeout: 120_000 });
  assert.equal(await part(page), "full-page");
  assert.deepEqual(errors, []);
  await context.close();
});

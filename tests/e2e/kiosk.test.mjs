// Kiosk mode walks the guided tour on its own and hands control back on any key. `hold=800`
// holds each step 0.8 s instead of its reading time, to keep the test short. A step held that
// briefly can fall between two of playwright's polls, so the page records every step it shows
// from its first render on, and the tests wait on that record.
// covers: src/web/kiosk.rs
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, recordTexts, screenshot, waitForShown } from "./browser.mjs";

const PROGRESS = "#tour-progress";
const progress = (page) => page.locator(PROGRESS).textContent();
const recordProgress = [recordTexts, PROGRESS];

test("kiosk mode advances two steps on its own and stops on a key", async () => {
  const { page, errors, context } = await open("?kiosk=1&tour=3&hold=800", {}, recordProgress);
  await waitForShown(page, PROGRESS, /Step 3 of 26/);
  await waitForShown(page, PROGRESS, /Step 4 of 26/, 10_000);
  await waitForShown(page, PROGRESS, /Step 5 of 26/, 10_000);
  await page.keyboard.press("a");
  const stopped = await progress(page);
  await page.locator("div.notice[role=status]", { hasText: "Kiosk mode stopped" }).waitFor();
  await page.waitForTimeout(2_500);
  assert.equal(await progress(page), stopped, "no step advanced after the key");
  await screenshot(page, "kiosk-stopped");
  assert.deepEqual(errors, []);
  await context.close();
});

test("kiosk mode loops from the last step to the first", async () => {
  const { page, context } = await open("?kiosk=1&tour=26&hold=300", {}, recordProgress);
  // Step 26 is a migration, and step 1 the race: the first screen hands over to the full page
  // (a reload), which goes on (the record of steps shown is kept across the reload).
  await page.waitForFunction(() => document.documentElement.dataset.part === "full-page", null, { timeout: 10_000 });
  await waitForShown(page, PROGRESS, /Step 1 of 26/, 10_000);
  const shown = await page.evaluate((s) => window.textsShown[s], PROGRESS);
  const last = shown.findIndex((t) => t.includes("Step 26 of 26"));
  const first = shown.findIndex((t) => t.includes("Step 1 of 26"));
  assert.ok(last >= 0 && last < first, `steps shown, in order: ${shown.join(" | ")}`);
  // The first screen can show step 1 before it hands over; a later step shows the full page's
  // kiosk runs, so its listeners hear the click.
  await waitForShown(page, PROGRESS, /Step [2-9] of 26/, 20_000);
  await page.mouse.click(5, 5);
  await page.locator("div.notice[role=status]", { hasText: "Kiosk mode stopped" }).waitFor();
  await context.close();
});

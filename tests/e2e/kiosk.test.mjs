// Kiosk mode walks the guided tour on its own and hands control back on any key. `hold=800`
// holds each step 0.8 s instead of its reading time, to keep the test short.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, screenshot } from "./browser.mjs";

const progress = (page) => page.locator("#tour-progress").textContent();

test("kiosk mode advances two steps on its own and stops on a key", async () => {
  const { page, errors, context } = await open("?kiosk=1&tour=3&hold=800");
  await page.locator("#tour-progress", { hasText: "Step 3 of 16" }).waitFor();
  await page.locator("#tour-progress", { hasText: "Step 4 of 16" }).waitFor({ timeout: 10_000 });
  await page.locator("#tour-progress", { hasText: "Step 5 of 16" }).waitFor({ timeout: 10_000 });
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
  const { page, context } = await open("?kiosk=1&tour=16&hold=300");
  await page.locator("#tour-progress", { hasText: "Step 1 of 16" }).waitFor({ timeout: 10_000 });
  await page.mouse.click(5, 5);
  await page.locator("div.notice[role=status]", { hasText: "Kiosk mode stopped" }).waitFor();
  await context.close();
});

// A chapter's self-check on its last tour step: answers are marked right or wrong with why and a
// link to the step that shows it; they stay in the browser across reloads until "Reset my
// answers".
// covers: src/web/self_check.rs src/page/self_check.rs src/teaching/self_check.rs src/web/app.rs
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, screenshot, waitForText } from "./browser.mjs";

const answered = (page) => page.locator("#self-check summary").textContent();

test("a chapter's self-check marks each answer, links the step that shows it, and keeps the answers until reset", async () => {
  const { page, errors, context } = await open("?tour=10");
  await waitForText(page, "#tour-progress", "Step 10 of 26");
  assert.match(await answered(page), /^Check yourself: Metadata as an event stream \(0 of 3 answered\)$/);
  await page.locator("#self-check summary").click();
  const checks = page.locator("#self-check .check");
  // The first option of "How does a KRaft broker learn of a new topic?" is the ZooKeeper-era push.
  await checks.nth(0).locator(".option").nth(0).click();
  const wrong = checks.nth(0).locator(".verdict");
  assert.match(await wrong.textContent(), /^✗ Not quite\. Brokers are observers/);
  await checks.nth(1).locator(".option").nth(1).click();
  assert.match(await checks.nth(1).locator(".verdict").textContent(), /^✓ Right\./);
  assert.equal(await checks.nth(1).locator(".option").nth(1).getAttribute("aria-pressed"), "true");
  assert.match(await answered(page), /\(2 of 3 answered\)$/);
  await screenshot(page, "self-check-answered");

  // A reload keeps the answers; the link opens the step whose moment shows the answer.
  await page.reload();
  await waitForText(page, "#tour-progress", "Step 10 of 26");
  assert.match(await answered(page), /\(2 of 3 answered\)$/);
  await page.locator("#self-check summary").click();
  assert.equal(await checks.nth(1).locator(".option").nth(1).getAttribute("aria-pressed"), "true");
  await checks.nth(0).getByRole("link", { name: /^See it in step 8:/ }).click();
  await waitForText(page, "#tour-progress", "Step 8 of 26");
  assert.match(new URL(page.url()).search, /tour=8/);

  // Reset forgets them, in this page and the next.
  await page.goto(new URL("?tour=10", page.url()).href);
  await waitForText(page, "#tour-progress", "Step 10 of 26");
  await page.locator("#self-check summary").click();
  await page.getByRole("button", { name: "Reset my answers" }).click();
  assert.match(await answered(page), /\(0 of 3 answered\)$/);
  await page.reload();
  await waitForText(page, "#tour-progress", "Step 10 of 26");
  assert.match(await answered(page), /\(0 of 3 answered\)$/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("damaged stored answers open the page with what could be read", async () => {
  const init = () => localStorage.setItem("kraftscope-self-check", "image-offset=0,garbage,broker-restart=77,=");
  const { page, errors, context } = await open("?tour=10", {}, [init]);
  await waitForText(page, "#tour-progress", "Step 10 of 26");
  assert.match(await answered(page), /\(1 of 3 answered\)$/);
  assert.deepEqual(errors, []);
  await context.close();
});

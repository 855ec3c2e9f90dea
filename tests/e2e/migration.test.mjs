// The bridge release in the page (#64): a ZooKeeper-mode cluster migrated to KRaft as Kafka 3.9
// runs it. A link plays it to dual-write within 20 s; the operator's steps and faults act on it;
// a link taken at a paused moment reopens the same state; the stranded case says why in words.
// covers: src/web/migration_tab.rs src/page/migration.rs src/drawing/migration.rs src/page/later.rs
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertNoViolations } from "./axe.mjs";
import { open, screenshot } from "./browser.mjs";

const driver = (page) => page.locator(".migration-tab").getAttribute("data-driver");
const standing = (page) => page.locator("#mig-standing").textContent();

test("?scenario=migration plays to DUAL_WRITE within 20 s, showing where it stands; Finalize then stops the writes to ZooKeeper", async () => {
  const started = Date.now();
  const { page, errors, context } = await open("?scenario=migration");
  await page.locator('.migration-tab[data-driver="DUAL_WRITE"]').waitFor({ timeout: 20_000 });
  const seconds = (Date.now() - started) / 1000;
  assert.ok(seconds < 20, `DUAL_WRITE after ${seconds} s`);
  await page.keyboard.press(" ");
  await page.locator("#mig-play", { hasText: "Play" }).waitFor();
  const words = await standing(page);
  assert.match(words, /The log says MIGRATION \(ZkMigrationStateRecord\)/);
  assert.match(words, /Copy: (\d+) of \1 records committed/, words);
  const drawing = await page.locator("svg.migration").textContent();
  assert.match(drawing, /controller epoch/i, "ZooKeeper's controller epoch");
  assert.match(drawing, /epoch/i, "KRaft's leader epoch");
  await screenshot(page, "migration-dual-write");
  await assertNoViolations(page, "the migration view in dual-write");
  await page.getByRole("button", { name: "finalize: roll the controllers without the migration flag" }).click();
  await page.keyboard.press(" ");
  await page.waitForFunction(() => /ZooKeeper is no longer written/.test(document.querySelector("#mig-standing").textContent), null, { timeout: 30_000 });
  assert.deepEqual(errors, []);
  await context.close();
});

test("a step out of order is refused with what Kafka waits for, and the stranded migration ends saying why", async () => {
  const { page, errors, context } = await open("?scenario=migration&autoplay=0");
  await page.locator(".migration-tab").waitFor();
  await page.getByRole("button", { name: "restart broker 0 as a KRaft broker" }).click();
  assert.match(await page.locator("#mig-refusal").textContent(), /refused, only a broker in migration mode/);
  await page.selectOption("#mig-scenario", "migration-stranded");
  await page.locator('.migration-tab[data-scenario="migration-stranded"]').waitFor();
  await page.locator("#mig-play[disabled]").waitFor({ timeout: 60_000 });
  const words = await standing(page);
  assert.match(words, /INACTIVE/);
  assert.match(words, /Kafka 3\.9 cannot leave this without an operator/);
  await screenshot(page, "migration-stranded");
  assert.deepEqual(errors, []);
  await context.close();
});

test("a link shared at a paused moment after a fault reopens the same state; keys step and seek", async () => {
  const { page, errors, context } = await open("?scenario=migration-failover&seed=4");
  await page.locator('.migration-tab[data-driver="DUAL_WRITE"]').waitFor({ timeout: 30_000 });
  await page.keyboard.press(" ");
  await page.keyboard.press("z");
  await page.keyboard.press("s");
  await page.keyboard.press(".");
  const moment = await page.locator("#mig-clock").textContent();
  await page.keyboard.press(",");
  assert.notEqual(await page.locator("#mig-clock").textContent(), moment, ", goes back");
  await page.keyboard.press(".");
  assert.equal(await page.locator("#mig-clock").textContent(), moment, ". goes forward");
  const fingerprint = await page.locator(".migration-tab").getAttribute("data-fingerprint");
  assert.ok(fingerprint, "paused: the state's fingerprint is shown");
  await page.locator("#share").click();
  const shared = await page.locator("#share-url").inputValue();
  assert.match(shared, /scenario=migration-failover&seed=4&ops=[\d.]+:zk-outage-30000&t=/, shared);
  const again = await open(shared);
  await again.page.locator(".migration-tab[data-fingerprint]").waitFor();
  assert.equal(await again.page.locator(".migration-tab").getAttribute("data-fingerprint"), fingerprint);
  assert.equal(await again.page.locator("svg.migration").evaluate((s) => s.outerHTML), await page.locator("svg.migration").evaluate((s) => s.outerHTML));
  assert.deepEqual(errors, []);
  assert.deepEqual(again.errors, []);
  await again.context.close();
  await context.close();
});

test("embedded at 480 x 320, the migration shows its nodes as chips and where it stands, never scrolling, no text under 11 px", async () => {
  const { page, errors, context } = await open("?scenario=migration&embed=1&t=30000", { viewport: { width: 480, height: 320 } });
  await page.locator(".migration-tab .race-chips .chip").first().waitFor();
  assert.equal(await page.locator("svg.migration").isVisible(), false, "chips, not a drawing too small to read");
  const chips = await page.locator(".migration-tab .race-chips .chip").allTextContents();
  assert.ok(chips.some((c) => /^ZooKeeper controller epoch \d+/.test(c)), `${chips}`);
  assert.ok(chips.some((c) => /^c\d+ leader epoch \d+/.test(c)), `${chips}`);
  assert.match(await standing(page), /DUAL_WRITE/);
  const [scrollWidth, scrollHeight, innerWidth, innerHeight] = await page.evaluate(() => [
    document.documentElement.scrollWidth, document.documentElement.scrollHeight, window.innerWidth, window.innerHeight]);
  assert.ok(scrollWidth <= innerWidth && scrollHeight <= innerHeight, `${scrollWidth} x ${scrollHeight} in ${innerWidth} x ${innerHeight}`);
  const smallest = await page.evaluate(() => {
    let min = Infinity;
    for (const el of document.querySelectorAll(".migration-tab *")) {
      const shown = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (shown && el.getClientRects().length) min = Math.min(min, parseFloat(getComputedStyle(el).fontSize));
    }
    return min;
  });
  assert.ok(smallest >= 11, `smallest text ${smallest} px`);
  await screenshot(page, "migration-480x320-embed");
  assert.deepEqual(errors, []);
  await context.close();
});

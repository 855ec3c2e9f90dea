// Divergence and commitment you can see: an isolated leader's uncommitted records are struck
// and flashing while the DivergingEpoch that truncates them is on its way; the high watermark
// bar glides; brokers show the records they fetched and the offset they applied.
// covers: src/web/cluster_view.rs src/web/node_view.rs
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, screenshot, shownLeader, waitForLeader } from "./browser.mjs";

test("records about to be truncated are marked before they go, and brokers show fetched and applied records", async () => {
  const { page, errors, context } = await open("?speed=0.05");
  const first = await waitForLeader(page);
  await page.waitForFunction(() => [...document.querySelectorAll("svg.cluster .broker-log text.tiny")].some((t) => /fetched [1-9]/.test(t.textContent)), null, { timeout: 30_000 });
  const brokerStrip = await page.evaluate(() => {
    const g = [...document.querySelectorAll("svg.cluster .broker-log")].find((s) => /fetched [1-9]/.test(s.querySelector("text.tiny").textContent));
    return { cells: g.querySelectorAll("rect.cell").length, applied: g.querySelector("line.hw") !== null };
  });
  assert.ok(brokerStrip.cells > 0 && brokerStrip.applied, `a broker's strip shows records and the applied offset: ${JSON.stringify(brokerStrip)}`);
  const transition = await page.locator("svg.cluster line.hw").first().evaluate((l) => getComputedStyle(l).transitionProperty + " " + getComputedStyle(l).transitionDuration);
  assert.match(transition, /transform 0\.5s/, "the high watermark bar moves smoothly");

  // Isolate the leader, let it append records no one else gets, and let the others elect.
  await page.waitForFunction(() => [...document.querySelectorAll("svg.cluster g.node text.role")].filter((t) => t.textContent === "RUNNING").length === 3, null, { timeout: 30_000 });
  await page.locator(`svg.cluster g.node[aria-label^="controller n${first.id} "]`).click();
  await page.getByRole("button", { name: `Isolate n${first.id}` }).click();
  await page.getByRole("button", { name: "Create topic" }).click();
  await waitForLeader(page, (l) => l.id !== first.id && l.epoch > first.epoch);
  await page.getByRole("button", { name: "Heal all links" }).click();
  const oldLeader = `svg.cluster g.node[aria-label^="controller n${first.id} "]`;
  // Pause from inside the page the moment the marks appear: the DivergingEpoch is on its way.
  await page.waitForFunction((selector) => {
    if (document.querySelector(`${selector} rect.cell.doomed`) === null) return false;
    document.querySelector("button.play").click();
    return true;
  }, oldLeader, { timeout: 60_000 });
  await page.getByRole("button", { name: "Play" }).waitFor();
  assert.ok(await page.locator(`${oldLeader} rect.cell.doomed`).count() > 0, "the old leader's diverging records are marked while the DivergingEpoch travels");
  assert.equal(await page.locator(`${oldLeader} .strike`).count(), 1, "and struck through");
  assert.ok(await page.locator("svg.cluster .message-label", { hasText: /^DE$/ }).count() >= 1, "the DivergingEpoch is on screen");
  await screenshot(page, "diverging-records-marked");
  await page.getByRole("button", { name: "Play" }).click();
  // Pause from inside the page the moment the old leader's marks go, so what is counted is
  // the frame that removed them and not one drawn later.
  await page.waitForFunction((selector) => {
    if (document.querySelector(`${selector} rect.cell.doomed`) !== null) return false;
    document.querySelector("button.play").click();
    return true;
  }, oldLeader, { timeout: 30_000 });
  await page.getByRole("button", { name: "Play" }).waitFor();
  assert.equal(await page.locator(`${oldLeader} rect.cell.doomed`).count(), 0, "the marks go with the truncation");
  assert.ok((await shownLeader(page)).epoch > first.epoch);
  assert.deepEqual(errors, []);
  await context.close();
});

// The live cluster page: loads cleanly, elects a leader, fails over at a higher epoch, replicates
// a new topic to every broker, and travels back in time.
// covers: src/web/app.rs src/web/mod.rs src/web/cluster_view.rs src/web/controls.rs src/web/event_log.rs src/web/panic_panel.rs src/web/timeline.rs index.html xtask/src/server.rs
import { test } from "node:test";
import assert from "node:assert/strict";
import { baseUrl, open, screenshot, shownLeader, waitForLeader } from "./browser.mjs";

test("the page loads without console errors and a leader is elected", async () => {
  const { page, errors, context } = await open();
  const leader = await waitForLeader(page);
  assert.ok(leader.epoch >= 1);
  assert.equal(await page.locator(".invariants li.broken").count(), 0);
  assert.match(await page.locator("#log-limits").textContent(), /last 4,000 events .*runs on for as long as the page is open, a scrub reaches back 10 simulated minutes.*500 actions/, "the limits of a timeline are shown");
  await screenshot(page, "1-leader-elected");
  assert.deepEqual(errors, []);
  await context.close();
});

test("killing the leader yields a new leader at a higher epoch, and scrubbing back restores the old one", async () => {
  const { page, errors, context } = await open();
  const first = await waitForLeader(page);
  // Let a few simulated milliseconds pass, so that one millisecond before the kill the leader
  // was already shown (at the followable default pace the clock moves slowly).
  const seen = Number(await page.locator("#scrubber").inputValue());
  await page.waitForFunction((t) => Number(document.querySelector("#scrubber").value) >= t + 3, seen, { timeout: 30_000 });
  const beforeKill = await page.locator("#scrubber").inputValue();
  await page.getByRole("button", { name: "Kill active controller" }).click();
  const second = await waitForLeader(page, (l) => l.epoch > first.epoch);
  assert.ok(second.epoch > first.epoch, `epoch ${second.epoch} after ${first.epoch}`);
  await screenshot(page, "2-new-leader");
  const back = String(Number(beforeKill) - 1);
  await page.locator("#scrubber").fill(back);
  // Seeking pauses the simulation, at the moment asked for.
  await page.getByRole("button", { name: "Play" }).waitFor();
  await page.waitForFunction((v) => document.querySelector("#scrubber").value === v, back);
  const restored = await shownLeader(page);
  assert.deepEqual(restored, first, "scrubbing back shows the earlier leader and epoch");
  await screenshot(page, "3-scrubbed-back");
  assert.deepEqual(errors, []);
  await context.close();
});

test("creating a topic shows it in every live broker's image", async () => {
  const { page, errors, context } = await open();
  await waitForLeader(page);
  await page.waitForFunction(() => document.querySelectorAll("svg.cluster g.node text.role").length > 0 &&
    [...document.querySelectorAll("svg.cluster g.node text.role")].filter((t) => t.textContent.startsWith("RUNNING")).length === 3, null, { timeout: 30_000 });
  await page.locator("#topic-partitions").fill("8");
  await page.getByRole("button", { name: "Create topic" }).click();
  await page.waitForFunction(() => {
    const images = [...document.querySelectorAll("svg.cluster g.node text.small")].map((t) => t.textContent).filter((t) => t.includes("partitions"));
    return images.length === 3 && images.every((t) => t === "1 topic · 8 partitions");
  }, null, { timeout: 30_000 });
  await screenshot(page, "4-topic-created");
  assert.deepEqual(errors, []);
  await context.close();
});

test("the side-by-side failover at 1,000,000 partitions shows ZooKeeper mode unavailable far longer", async () => {
  const { page, errors, context } = await open();
  await page.getByRole("tab", { name: "Failover: KRaft vs ZooKeeper" }).click();
  assert.equal(await page.locator("#partition-count").textContent(), "1,000,000");
  await page.locator("#kill-both:not([disabled])").waitFor({ timeout: 60_000 });
  await page.locator("#kill-both").click();
  await page.getByRole("button", { name: "Skip to the end" }).click();
  await page.waitForFunction(() => document.querySelector(".race-stage")?.textContent === "Both sides recovered.", null, { timeout: 60_000 });
  const seconds = async (id) => Number((await page.locator(id).textContent()).replace(" s", ""));
  const kraft = await seconds("#kraft-stopwatch");
  const zk = await seconds("#zk-stopwatch");
  assert.ok(kraft > 0.5 && kraft < 5, `KRaft ${kraft} s`);
  assert.ok(zk > 10 * kraft, `ZooKeeper mode ${zk} s against KRaft ${kraft} s`);
  await page.locator("svg.chart polyline.kraft").waitFor({ state: "attached" });
  await screenshot(page, "5-failover-race");
  assert.deepEqual(errors, []);
  await context.close();
});

test("the server sends wasm as application/wasm", async () => {
  const { context } = await open();
  const response = await context.request.get(new URL("kraftscope_bg.wasm", baseUrl).href);
  assert.equal(response.status(), 200);
  assert.equal(response.headers()["content-type"], "application/wasm");
  await context.close();
});

test("a panic shows a readable error panel instead of a blank page", async () => {
  const { page, errors, context } = await open("?panic=1");
  const panel = page.locator("#panic-panel");
  await panel.waitFor();
  assert.equal(await panel.getAttribute("role"), "alert");
  assert.equal(await panel.locator("h2").textContent(), "kraftscope crashed");
  assert.match(await panel.locator("pre").textContent(), /deliberate panic requested with \?panic=1/);
  assert.ok(errors.some((e) => e.includes("deliberate panic")), `console_error_panic_hook logs the panic: ${errors.join(" | ")}`);
  await screenshot(page, "6-panic-panel");
  await context.close();
});

test("every control is reachable by keyboard with an accessible name", async () => {
  const { page, errors, context } = await open();
  await waitForLeader(page);
  const unnamed = await page.evaluate(() => {
    const focusable = [...document.querySelectorAll("button, input, select, [tabindex='0'], summary")];
    return focusable.filter((el) => {
      const label = el.getAttribute("aria-label") || el.textContent.trim() || (el.labels && el.labels.length > 0 && el.labels[0].textContent.trim());
      return !label;
    }).map((el) => el.outerHTML.slice(0, 80));
  });
  assert.deepEqual(unnamed, []);
  await page.keyboard.press("Tab");
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.notEqual(outline, "none", "the focused element shows a focus ring");
  await page.keyboard.press("k");
  await waitForLeader(page, (l) => l.epoch >= 2);
  assert.deepEqual(errors, []);
  await context.close();
});

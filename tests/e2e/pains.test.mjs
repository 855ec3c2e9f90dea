// ZooKeeper mode's other pains, each a scenario and a tour step: the small ZooKeeper-mode
// cluster drawn, the copies of the truth compared cell by cell, each broker's notions of
// liveness, and KRaft's answer beside them with a way to see it live.
// covers: src/web/pains_tab.rs src/web/zk_view.rs src/page/pains.rs src/zk
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, recordTexts, screenshot, waitForShown } from "./browser.mjs";

const staleCells = (page) => page.locator("table.copies").evaluate((t) => Number(t.dataset.staleCells));
/** Waits until the pain has played to its end (while the controller writes and pushes, the
 *  copies disagree for a moment; what is left after is the pain). */
const played = (page) => page.locator("#pain-play[disabled]").waitFor({ timeout: 30_000 });
const EVENTS = ".pain-events";
const eventsText = (page) => page.locator(EVENTS).textContent();

for (const [scenario, check] of [
  ["zk-stale-cache", async (page) => {
    await played(page);
    assert.ok(await staleCells(page) > 0, "cells disagree at the end");
    const rows = await page.locator("table.copies tr.stale-row th").allTextContents();
    assert.equal(rows.length, 5, `ZooKeeper alone holds the shrunk ISR: ${rows}`);
    assert.match(rows[0], /^controller/);
    assert.ok(rows.slice(1).every((r) => /^b\d's cache$/.test(r)), `${rows}`);
    assert.match(await page.locator("table.copies td.stale").first().textContent(), /^≠/, "marked by a sign, not colour alone");
  }],
  ["zk-liveness", async (page) => {
    await played(page);
    const split = await page.locator("table.liveness tr.split th").allTextContents();
    assert.equal(split.length, 1, `one broker is alive to ZooKeeper and the controller but unreachable: ${split}`);
    const cut = /^b(\d)/.exec(split[0])[1];
    assert.deepEqual(await page.locator("table.copies tr.stale-row th").allTextContents(), [`b${cut}'s cache`], "and it is the one left behind");
  }],
  ["zk-watch-storm", async (page) => {
    // The panel shows only the latest events, and under load a line can scroll out before the
    // test first looks: the page records every text the panel shows from its first render.
    await waitForShown(page, EVENTS, /watch fired/);
    await waitForShown(page, EVENTS, /wrote \d+ state znodes/);
    await played(page);
    assert.match(await eventsText(page), /every live broker has the change/);
    assert.equal(await staleCells(page), 0, "once pushed, every copy agrees");
  }],
]) {
  test(`scenario=${scenario} draws the ZooKeeper-mode cluster and its copies of the truth beside KRaft's answer`, async () => {
    const { page, errors, context } = await open(`?scenario=${scenario}`, {}, [recordTexts, EVENTS]);
    await page.locator(`.pains-tab[data-pain="${scenario}"]`).waitFor();
    assert.equal(await page.locator("svg.zk-cluster .zk-server").count(), 3, "three ZooKeeper servers");
    assert.equal(await page.locator("svg.zk-cluster .zk-broker").count(), 4, "four brokers");
    assert.equal(await page.locator("table.copies tbody tr").count(), 6, "ZooKeeper, the controller and four caches");
    assert.match(await page.locator(".kraft-answer").textContent(), /KRaft/);
    await check(page);
    await screenshot(page, `pain-${scenario}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test("scenario=zk-security: a client writes an ACL into ZooKeeper, every broker's authorizer turns, KRaft refuses the same with Kafka's errors", async () => {
  const { page, errors, context } = await open("?scenario=zk-security", {}, [recordTexts, EVENTS]);
  await page.locator('.pains-tab[data-pain="zk-security"]').waitFor();
  const allowed = () => page.locator("table.authorizer").evaluate((t) => Number(t.dataset.allowed));
  assert.equal(await page.locator("table.authorizer tbody tr").count(), 4, "each broker's authorizer");
  assert.equal(await page.locator("table.copies").count(), 0, "the authorizer's table instead of the copies");
  assert.equal(await allowed(), 0, "before the write every broker denies User:mallory");
  assert.match(await page.locator("svg.zk-cluster .zk-client").getAttribute("aria-label"), /no Kafka credentials: can reach ZooKeeper's port 2181/);
  assert.match(await page.locator("table.authorizer tbody tr td").last().textContent(), /^DENIED: no ACL matches/);
  await waitForShown(page, EVENTS, /no Kafka request, no authorizer asked/);
  await played(page);
  assert.equal(await allowed(), 4, "every broker obeys the znode");
  assert.match(await page.locator("svg.zk-cluster .zk-client.wrote").getAttribute("aria-label"), /wrote \/kafka-acl\/Topic\/topic-3/);
  assert.match(await page.locator('svg.zk-cluster [data-znode="/kafka-acl/Topic/topic-3"]').textContent(), /User:mallory ALL/);
  const kraft = await page.locator(".kraft-trace li").allTextContents();
  assert.ok(kraft.some((l) => /refused: TOPIC_AUTHORIZATION_FAILED/.test(l)), `${kraft}`);
  assert.ok(kraft.some((l) => /refused: CLUSTER_AUTHORIZATION_FAILED/.test(l)), `${kraft}`);
  assert.ok(kraft.some((l) => /AccessControlEntryRecord/.test(l)), `${kraft}`);
  const sources = await page.locator("table.surface td .source").allTextContents();
  assert.equal(sources.length, 12, "each side of each row names its source");
  assert.ok(sources.every((s) => /Source: \S/.test(s)));
  assert.equal(await page.getByRole("button", { name: /See it live/ }).count(), 0, "no live KRaft step: the model's trace instead");
  await screenshot(page, "pain-zk-security");
  assert.deepEqual(errors, []);
  await context.close();
});

test("the pains tab: Space pauses, R replays from the start, and the KRaft button opens the live tour step", async () => {
  const { page, errors, context } = await open();
  await page.getByRole("tab", { name: "ZooKeeper's other pains" }).click();
  await page.locator(".pains-tab svg.zk-cluster").waitFor();
  await page.getByRole("button", { name: "Two notions of liveness" }).click();
  await page.locator('.pains-tab[data-pain="zk-liveness"]').waitFor();
  // On a busy machine the pain can reach its end before the first key, or even between R and
  // Space (frames of up to 100 ms at its time-lapse): R starts it again and Space follows at once,
  // until it pauses before its end (where Play is disabled), so Step below has time left to show.
  let ended = true;
  for (let tries = 0; ended && tries < 5; tries++) {
    await page.keyboard.press("r");
    await page.keyboard.press(" ");
    await page.locator("#pain-play", { hasText: "Play" }).waitFor();
    ended = await page.locator("#pain-play").isDisabled();
  }
  assert.ok(!ended, "Space pauses the pain before its end");
  const paused = await page.locator("#pain-clock").textContent();
  // A step plays half a second of wall time at the pace of that moment: in the slow motion
  // around the pain's key moment that is under a millisecond, which the clock may not show.
  let stepped = paused;
  for (let presses = 0; stepped === paused && presses < 40; presses++) {
    await page.keyboard.press("s");
    stepped = await page.locator("#pain-clock").textContent();
  }
  assert.notEqual(stepped, paused, "S steps the paused pain on");
  await page.waitForFunction(() => /^[1-9]/.test(document.querySelector("#pain-clock").textContent));
  // Replay plays from 0 at a time-lapse that leaves the clock under 1 s for a few frames only.
  await page.evaluate(recordTexts, "#pain-clock");
  await page.keyboard.press("r");
  await waitForShown(page, "#pain-clock", /^0\.\d+ s/);
  await page.locator("#pain-play", { hasText: "Pause" }).waitFor();
  await page.getByRole("button", { name: /See it live: tour step 13/ }).click();
  await page.locator("#tour-progress", { hasText: "Step 13 of 26" }).waitFor();
  assert.equal(await page.locator("svg.cluster").count(), 1, "the live KRaft cluster");
  assert.deepEqual(errors, []);
  await context.close();
});

// (At 480 x 320 the embed keeps the pain's table, its events and the brokers as chips:
// readable.test.mjs.)
test("a pain embedded at 480 x 600 stacks its sides, with no sideways scroll", async () => {
  const { page, errors, context } = await open("?scenario=zk-liveness&embed=1", { viewport: { width: 480, height: 600 } });
  await played(page);
  const [scrollWidth, innerWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(scrollWidth <= innerWidth, `${scrollWidth} px wide in a ${innerWidth} px frame`);
  const zk = await page.locator(".side-zk").boundingBox();
  const kraft = await page.locator(".pains-tab .side-kraft").boundingBox();
  assert.ok(kraft.y >= zk.y + zk.height, "KRaft's answer below the ZooKeeper side");
  await screenshot(page, "pain-480x600-embed");
  assert.deepEqual(errors, []);
  await context.close();
});

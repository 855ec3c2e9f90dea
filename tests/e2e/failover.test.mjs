// The failover race as two living clusters: both drawn in the failover tab, the tour and the
// docs embed, the race's keys and buttons, the partition grid filling up, and screenshots
// mid-race at 1280 x 720, 1024 x 768 and 480 x 320.
// covers: src/web/failover_tab.rs src/web/chart.rs src/web/partition_grid.rs src/web/zk_view.rs src/page/race src/race
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, screenshot } from "./browser.mjs";

const text = (page, selector) => page.locator(selector).first().textContent();
const seconds = async (page, selector) => Number((await text(page, selector)).replace(" s", ""));
const grid = (page, side) => page.locator(`svg.partition-grid.${side}`).evaluate((g) => ({
  cells: Number(g.dataset.cells), loaded: Number(g.dataset.loadedCells), pushed: Number(g.dataset.pushedCells),
}));
/** The lead band: partitions without a live leader as the model counts them, and the share of
 *  the band drawn as leaderless. */
const lead = (page, side) => page.locator(`svg.partition-grid.${side}`).evaluate((g) => {
  const width = (run) => Number(g.querySelector(`.band.lead .run.${run}`).getAttribute("width"));
  return {
    partitions: Number(g.dataset.partitions),
    leaderless: Number(g.querySelector(".band.lead").dataset.leaderless),
    drawn: width("leaderless") / (width("served") + width("leaderless")),
  };
});
/** The band draws what the model says: no partition the model has served is drawn leaderless. */
function assertLeadDrawn(band, what) {
  const share = band.leaderless / band.partitions;
  assert.ok(Math.abs(band.drawn - share) < 0.001, `${what}: ${band.leaderless} of ${band.partitions} leaderless, drawn as ${band.drawn}`);
}
/** Waits for two animation frames, so anything playing would have moved. */
const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r)))));

/** Both clusters are drawn and both stopwatches are inside the viewport. */
async function assertBothClusters(page, what) {
  // Drawn, though an embed too short for the drawings shows its nodes as chips instead.
  await page.locator("svg.zk-cluster .zk-broker").first().waitFor({ state: "attached", timeout: 120_000 });
  assert.equal(await page.locator("svg.zk-cluster .zk-server").count(), 3, `${what}: three ZooKeeper servers`);
  assert.equal(await page.locator("svg.zk-cluster .zk-broker").count(), 5, `${what}: five ZooKeeper-mode brokers`);
  assert.equal(await page.locator('.side-kraft svg.cluster g.node[aria-label^="controller"]').count(), 3, `${what}: three KRaft controllers`);
  assert.equal(await page.locator('.side-kraft svg.cluster g.node[aria-label^="broker"]').count(), 5, `${what}: five KRaft brokers`);
  const viewport = page.viewportSize();
  for (const id of ["#kraft-stopwatch", "#zk-stopwatch"]) {
    const box = await page.locator(id).boundingBox();
    assert.ok(box && box.y >= 0 && box.y + box.height <= viewport.height && box.x + box.width <= viewport.width,
      `${what}: ${id} at ${JSON.stringify(box)} is inside ${viewport.width} x ${viewport.height}`);
  }
}

test("the failover tab draws both clusters; K, Space, S and R act on the race; the grid only fills up", async () => {
  const { page, errors, context } = await open();
  await page.getByRole("tab", { name: "Failover: KRaft vs ZooKeeper" }).click();
  await page.locator("#kill-both:not([disabled])").waitFor({ timeout: 120_000 });
  await assertBothClusters(page, "failover tab");
  assert.equal(await page.locator("svg.zk-cluster .zk-broker.role-leader").count(), 1, "one broker is the controller");
  const before = await grid(page, "zk");
  assert.equal(before.cells, 2000);
  assert.equal(before.loaded, before.cells, "before the kill the controller holds everything");

  assertLeadDrawn(await lead(page, "zk"), "before the kill");
  assert.equal((await lead(page, "zk")).leaderless, 0, "before the kill every partition has its leader");

  await page.keyboard.press("k");
  await page.waitForFunction(() => / since the kill/.test(document.querySelector(".race-stage").textContent));
  assert.equal((await grid(page, "kraft")).loaded, 2000, "KRaft's grid is whole from the first instant");
  const orphaned = await lead(page, "zk");
  assert.equal(orphaned.leaderless, orphaned.partitions / 5, "the controller's broker led a fifth of the partitions");
  // Play until the cold load is under way, checking the grid never goes back.
  let loaded = 0;
  for (;;) {
    const now = await grid(page, "zk");
    assert.ok(now.loaded >= loaded, `loaded cells went from ${loaded} to ${now.loaded}`);
    loaded = now.loaded;
    const [zkLead, kraftLead] = [await lead(page, "zk"), await lead(page, "kraft")];
    assertLeadDrawn(zkLead, "ZooKeeper side mid-race");
    assert.equal(kraftLead.leaderless, 0, "the killed KRaft controller led no partition");
    assertLeadDrawn(kraftLead, "KRaft side mid-race");
    if (loaded > 200) break;
    await frames(page);
  }
  assert.match(await text(page, "#race-pace"), /time-lapse \d+×/, "the time-lapse factor is on screen");
  // A side at 1280 x 720 draws its compact ZooKeeper cluster: /controller and its epoch in one line.
  assert.match(await text(page, 'text[data-znode="/controller"]'), /, epoch 2$/, "the epoch was bumped");
  await screenshot(page, "failover-1280x720-mid-race");
  await page.locator(".failover-tab .race").screenshot({ path: `${process.env.KRAFTSCOPE_ARTIFACTS ?? "target/e2e-artifacts"}/failover-race-only.png` });

  await page.keyboard.press(" ");
  await page.locator("#race-play", { hasText: "Play" }).waitFor();
  const paused = await text(page, "#zk-stopwatch");
  await frames(page);
  assert.equal(await text(page, "#zk-stopwatch"), paused, "Space pauses the race");
  await page.keyboard.press("s");
  await page.waitForFunction((t) => document.querySelector("#zk-stopwatch").textContent !== t, paused);
  assert.ok(await seconds(page, "#zk-stopwatch") > Number(paused.replace(" s", "")), "S steps the race forward");
  await page.keyboard.press(" ");
  await page.locator("#race-play", { hasText: "Pause" }).waitFor();

  await page.keyboard.press("r");
  await page.waitForFunction(() => /Both clusters are healthy/.test(document.querySelector(".race-stage").textContent));
  assert.equal(await text(page, "#zk-stopwatch"), "0.000 s", "R runs the race again from the start");
  assert.equal(await page.locator(".failover-tab").count(), 1, "R stays on the failover tab");

  await page.keyboard.press("k");
  await page.getByRole("button", { name: "Skip to the end" }).click();
  let last = 0;
  while ((await text(page, ".race-stage")) !== "Both sides recovered.") {
    const now = await grid(page, "zk");
    assert.ok(now.loaded >= last, `loaded cells went from ${last} to ${now.loaded}`);
    last = now.loaded;
    await frames(page);
  }
  const end = await grid(page, "zk");
  assert.deepEqual(end, { cells: 2000, loaded: 2000, pushed: 2000 }, "the grid reaches every cell");
  assert.equal((await lead(page, "zk")).leaderless, 0, "every partition has a leader again");
  assertLeadDrawn(await lead(page, "zk"), "at the end");
  const kraft = await seconds(page, "#kraft-stopwatch");
  const zk = await seconds(page, "#zk-stopwatch");
  const headline = await text(page, "#race-headline");
  const ratio = Number(/KRaft's controller was back (\d+)× sooner/.exec(headline)?.[1]);
  assert.ok(Math.abs(ratio - zk / kraft) < 1, `headline "${headline}" against ${zk} s / ${kraft} s`);
  const why = await text(page, "#race-why");
  const without = /without a leader meanwhile: ([\d,]+) on the ZooKeeper side for ([\d.]+) s, 0 on the KRaft side/.exec(why);
  assert.ok(without, `the result names partition availability too: "${why}"`);
  assert.equal(Number(without[1].replaceAll(",", "")), orphaned.leaderless, "the partitions counted at the kill");
  assert.deepEqual(errors, []);
  await context.close();
});

test("like for like: with combined KRaft nodes the killed one's partitions are drawn leaderless until it is fenced", async () => {
  const { page, errors, context } = await open("?scenario=failover&partitions=10000&kraft-roles=combined&autoplay=0");
  await page.locator("#kill-both:not([disabled])").waitFor({ timeout: 120_000 });
  const combined = '.side-kraft svg.cluster g.node[aria-label^="controller and broker"]';
  assert.equal(await page.locator(combined).count(), 3, "three combined nodes");
  assert.equal(await page.locator('.side-kraft svg.cluster g.node[aria-label^="broker"]').count(), 2, "two dedicated brokers");
  assert.equal(await page.locator(combined, { hasText: "+ broker" }).count(), 3, "each marked as a broker too");
  assert.equal(await page.locator("#kraft-roles").inputValue(), "combined");
  await page.keyboard.press("k");
  await page.waitForFunction(() => / since the kill/.test(document.querySelector(".race-stage").textContent));
  const orphaned = await lead(page, "kraft");
  assert.equal(orphaned.leaderless, orphaned.partitions / 5, "the killed node's broker led a fifth of the partitions");
  assertLeadDrawn(orphaned, "KRaft side at the kill");
  await page.getByRole("button", { name: "Skip to the end" }).click();
  while ((await text(page, ".race-stage")) !== "Both sides recovered.") {
    const band = await lead(page, "kraft");
    assert.ok(band.leaderless === 0 || band.leaderless === orphaned.leaderless, `all or none: ${band.leaderless}`);
    assertLeadDrawn(band, "KRaft side mid-race");
    await frames(page);
  }
  assert.equal((await lead(page, "kraft")).leaderless, 0, "fenced and moved at the end");
  assertLeadDrawn(await lead(page, "kraft"), "KRaft side at the end");
  const why = await text(page, "#race-why");
  const both = /on the ZooKeeper side for ([\d.]+) s, ([\d,]+) for ([\d.]+) s on the KRaft side/.exec(why);
  assert.ok(both, `the result times both sides' partitions: "${why}"`);
  assert.equal(Number(both[2].replaceAll(",", "")), orphaned.leaderless);
  assert.ok(Number(both[3]) > 9, `a broker session (9 s) at least: ${both[3]} s`);
  await screenshot(page, "failover-combined-1280x720-end");
  await page.locator("#kraft-roles").selectOption("dedicated");
  await page.locator('.side-kraft svg.cluster g.node[aria-label^="broker"]').nth(4).waitFor({ timeout: 120_000 });
  assert.equal(await page.locator(combined).count(), 0, "dedicated controllers again");
  assert.deepEqual(errors, []);
  await context.close();
});

test("the scrubber rewinds the race by replaying it", async () => {
  const { page, errors, context } = await open("?partitions=20000");
  await page.getByRole("tab", { name: "Failover: KRaft vs ZooKeeper" }).click();
  await page.locator("#kill-both:not([disabled])").waitFor({ timeout: 60_000 });
  await page.locator("#kill-both").click();
  await page.getByRole("button", { name: "Skip to the end" }).click();
  await page.waitForFunction(() => document.querySelector(".race-stage")?.textContent === "Both sides recovered.", null, { timeout: 60_000 });
  const end = { kraft: await text(page, "#kraft-stopwatch"), zk: await text(page, "#zk-stopwatch") };
  await page.locator("#race-timeline").evaluate((input) => {
    input.value = "3000";
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
  await page.waitForFunction(() => document.querySelector(".race-stage").textContent === "3.000 s since the kill (simulated)", null, { timeout: 30_000 });
  assert.equal(await text(page, "#zk-stopwatch"), "3.000 s", "rewound to 3 s: ZooKeeper mode is not back yet");
  assert.equal(await text(page, "#kraft-stopwatch"), end.kraft, "KRaft was back before 3 s, the same as in the first run");
  assert.equal((await grid(page, "zk")).loaded, 0, "at 3 s nothing is loaded yet");
  await page.keyboard.press(" ");
  await page.waitForFunction(() => document.querySelector(".race-stage")?.textContent === "Both sides recovered.", null, { timeout: 60_000 });
  assert.equal(await text(page, "#zk-stopwatch"), end.zk, "the replay ends exactly as the first run");
  assert.deepEqual(errors, []);
  await context.close();
});

for (const step of [1, 2, 11]) {
  test(`tour step ${step} plays the race with both clusters, and Kill restarts it`, async () => {
    const { page, errors, context } = await open(`?tour=${step}`);
    await assertBothClusters(page, `tour step ${step}`);
    // Step 11 asks first (which side is back first): just watch.
    if (step === 11) await page.locator("#prediction-skip").click();
    // The step opens the race a few seconds before its moment and plays on through it.
    await page.locator("#tour-watch.seen").waitFor({ timeout: 120_000 });
    assert.match(await text(page, "#race-play"), /Pause/, "the race plays on");
    await page.locator("#kill-both").click();
    await page.waitForFunction(() => Number(document.querySelector("#zk-stopwatch").textContent.replace(" s", "")) < 5, null, { timeout: 10_000 });
    await page.waitForFunction(() => /Pause/.test(document.querySelector("#race-play").textContent));
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test("the docs embed at 480 x 320 fits both sides, plays by itself, kills and runs again; controls=none hides every control", async () => {
  const { page, errors, context } = await open("?embed=1&scenario=failover&autoplay=1", { viewport: { width: 480, height: 320 } });
  await assertBothClusters(page, "embed");
  assert.ok(await page.locator(".side-kraft .race-chips .chip").first().isVisible(), "the KRaft side's nodes as chips");
  assert.ok(await page.locator(".side-zk .race-chips .chip").first().isVisible(), "the ZooKeeper side's nodes as chips");
  // autoplay: the healthy clusters, then the kill, then both stopwatches running.
  await page.waitForFunction(() => / since the kill/.test(document.querySelector(".race-stage")?.textContent ?? ""), null, { timeout: 120_000 });
  const started = await seconds(page, "#zk-stopwatch");
  await page.waitForFunction((t) => Number(document.querySelector("#zk-stopwatch").textContent.replace(" s", "")) > t, started, { timeout: 30_000 });
  assert.match(await text(page, "#race-play"), /Pause/, "it plays on by itself");
  assert.equal(await page.locator(".race-caption").count(), 1, "a one-line caption");
  for (const id of ["#kill-both", "#run-again", "#race-play"]) {
    const box = await page.locator(id).boundingBox();
    assert.ok(box && box.y + box.height <= 320, `${id} is visible in the frame`);
  }
  await page.locator("#kill-both").click();
  await page.waitForFunction(() => Number(document.querySelector("#zk-stopwatch").textContent.replace(" s", "")) < 5);
  await page.waitForFunction(() => /cold load/i.test(document.querySelector(".side-zk .side-caption").textContent), null, { timeout: 60_000 });
  await screenshot(page, "failover-480x320-embed-mid-race");
  await page.locator("#run-again").click();
  await page.waitForFunction(() => document.querySelector("#zk-stopwatch").textContent === "0.000 s");
  assert.deepEqual(errors, []);
  await context.close();

  const bare = await open("?embed=1&scenario=failover&controls=none&autoplay=0", { viewport: { width: 480, height: 320 } });
  await assertBothClusters(bare.page, "embed without controls");
  // Without autoplay it waits on healthy clusters: still so after longer than autoplay's hold.
  await bare.page.locator("#zk-phase", { hasText: "healthy" }).waitFor({ state: "attached", timeout: 120_000 });
  await bare.page.waitForTimeout(2_500);
  assert.match(await text(bare.page, "#zk-phase"), /healthy/, "autoplay=0: no kill by itself");
  assert.equal(await text(bare.page, "#zk-stopwatch"), "0.000 s");
  assert.equal(await bare.page.locator("button, input, select").count(), 0, "controls=none: no control at all");
  assert.deepEqual(bare.errors, []);
  await bare.context.close();
});

test("mid-race at 1024 x 768 (a projector)", async () => {
  const { page, errors, context } = await open("?scenario=failover&t=10000", { viewport: { width: 1024, height: 768 } });
  await assertBothClusters(page, "1024 x 768");
  await page.waitForFunction(() => document.querySelector("#zk-stopwatch")?.textContent === "10.000 s", null, { timeout: 120_000 });
  await screenshot(page, "failover-1024x768-mid-race");
  // At a million partitions the brokers' offsets have seven digits: every line stays in its box.
  const overflowing = await page.locator(".side-kraft svg.cluster g.node").evaluateAll((nodes) => nodes.flatMap((node) => {
    const shape = node.querySelector("rect.shape");
    if (!shape) return [];
    const box = shape.getBBox();
    return [...node.querySelectorAll("text")].filter((t) => t.textContent.trim()).map((t) => ({ text: t.textContent, b: t.getBBox() }))
      .filter(({ b }) => b.x < box.x - 0.5 || b.x + b.width > box.x + box.width + 0.5)
      .map(({ text, b }) => `${text.trim()} (${b.x.toFixed(0)}..${(b.x + b.width).toFixed(0)} in ${box.x}..${box.x + box.width})`);
  }));
  assert.deepEqual(overflowing, [], "broker texts inside their boxes");
  assert.deepEqual(errors, []);
  await context.close();
});

test("on a 1024 x 768 stage G shows both sides' partition grids and lead bands on the first screen, and the clusters again", async () => {
  const { page, errors, context } = await open("?present=1&scenario=failover&partitions=100000&t=60000", { viewport: { width: 1024, height: 768 } });
  await page.locator("#race-headline").waitFor({ timeout: 120_000 });
  const inView = (selector) => page.locator(selector).evaluate((e) => {
    const r = e.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight + 1;
  });
  assert.equal(await inView("svg.partition-grid.zk"), false, "with the drawings the grids are below the first screen");
  await page.keyboard.press("g");
  await page.locator("#race-grids", { hasText: "Show the clusters" }).waitFor();
  assert.equal(await page.locator(".failover-tab svg.cluster, .failover-tab svg.zk-cluster").count(), 0, "no drawing");
  for (const side of ["kraft", "zk"]) {
    assert.ok(await inView(`svg.partition-grid.${side}`), `the ${side} grid and its lead band are on the first screen`);
  }
  assert.ok(await inView("#kraft-stopwatch") && await inView("#zk-stopwatch") && await inView("#race-headline"));
  await screenshot(page, "failover-1024x768-presenter-grids");
  await page.locator("#race-grids").click();
  await page.locator(".failover-tab svg.zk-cluster").waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

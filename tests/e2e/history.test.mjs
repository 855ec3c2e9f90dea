// A real cluster's history played in the page: the shared three-node volumes
// (`../shared/fixtures/kafka/docker-compose-kafka4.10`, skipped when absent) opened, then stepped
// election by election (the crown on the leader of each, the words saying the same), brokers drawn
// fenced where the records fence them, the clock playing on its own time and through a stretch
// with no active controller (no crown drawn, the words saying none); axe-clean; screenshots at
// 1280 x 720 and 375 x 667.
// covers: src/web/log_tab.rs src/page/metadata_log/history.rs src/log_reader/history.rs src/kafka_log/history.rs src/drawing/log.rs www/later.css
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertNoViolations } from "./axe.mjs";
import { open, screenshot } from "./browser.mjs";
import { realFiles } from "./real_files.mjs";

const volumes = realFiles("docker-compose-kafka4.10/data");

/** The elections the three nodes' logs hold (`kraftscope history` prints the same): epoch, leader. */
const ELECTIONS = [[1, 3], [4, 3], [5, 2], [7, 3], [8, 1], [9, 3], [10, 1], [16, 1], [17, 2], [18, 1],
  [24, 1], [25, 3], [26, 2], [27, 1], [28, 3], [29, 1], [30, 2], [36, 2]];

async function opened(width, height) {
  const { page, errors } = await open("?tab=log", { viewport: { width, height } });
  await page.locator("#log-folder").setInputFiles(volumes.path);
  await page.locator("#log-history").waitFor({ timeout: 60_000 });
  return { page, errors };
}

/** The moment shown: the active controller and epoch the panel carries, the crowned cards, the words. */
async function shown(page) {
  const panel = page.locator("#log-history");
  return {
    active: await panel.getAttribute("data-active"),
    epoch: await panel.getAttribute("data-epoch"),
    crowned: await page.locator("#history-nodes li.history-node.leads").evaluateAll((cards) => cards.map((c) => c.dataset.node)),
    status: await page.locator("#history-status").textContent(),
  };
}

for (const [width, height] of [[1280, 720], [375, 667]]) {
  test(`the three nodes' history steps election by election, the crown moving with the words (${width}x${height})`, { skip: volumes.skip }, async () => {
    const { page, errors } = await opened(width, height);
    assert.equal(await page.locator("#history-elections tbody tr").count(), ELECTIONS.length, "every election listed");
    for (const [index, [epoch, leader]] of ELECTIONS.entries()) {
      if (index > 0) await page.locator("#history-next").click();
      const now = await shown(page);
      const what = `election ${index + 1} (epoch ${epoch})`;
      assert.equal(now.active, String(leader), what);
      assert.equal(now.epoch, String(epoch), what);
      assert.deepEqual(now.crowned, [String(leader)], `${what}: one crown, on n${leader}`);
      assert.equal(now.status, `n${leader} is the active controller (epoch ${epoch}).`, what);
      assert.equal(await page.locator("#log-history").getAttribute("data-election"), String(index), what);
    }
    await page.locator('button[aria-label="Go to the election of epoch 4"]').click();
    // The cluster was stopped before epoch 4: n1..n3's brokers were fenced at 09:20:20.172.
    const cards = page.locator("#history-nodes li.history-node");
    assert.deepEqual(await cards.evaluateAll((all) => all.map((c) => c.dataset.broker)), ["fenced", "fenced", "fenced"]);
    assert.equal(await cards.first().evaluate((c) => getComputedStyle(c).borderStyle), "dashed", "a fenced broker drawn dashed");
    assert.match(await cards.first().textContent(), /broker: fenced/);
    await assertNoViolations(page, "the history panel");
    await screenshot(page, `history-${width}x${height}`);
    assert.deepEqual(errors, []);
  });
}

test("the history plays on the cluster's clock: brokers come back, then a stretch with no active controller shows no crown", { skip: volumes.skip }, async () => {
  const { page, errors } = await opened(1280, 720);
  await page.locator('button[aria-label="Go to the election of epoch 4"]').click();
  await page.getByRole("button", { name: "1×", exact: true }).click();
  // Quiet stretches skipped, the clock would jump the 209 s before the next fence at once.
  await page.locator("#history-skip").uncheck();
  const before = Number(await page.locator("#log-history").getAttribute("data-at"));
  await page.locator("#history-play").click();
  // At 1x the three brokers re-register and are unfenced within 0.8 s of the election.
  await page.waitForFunction(() => [...document.querySelectorAll("#history-nodes li.history-node")].every((c) => c.dataset.broker === "active"), null, { timeout: 10_000 });
  await page.locator("#history-play").click();
  const after = Number(await page.locator("#log-history").getAttribute("data-at"));
  assert.ok(after > before + 700 && after < before + 30_000, `the clock moved at 1x: ${after - before} ms`);
  // From epoch 7 at 1000x, quiet stretches skipped, the 48-minute gap before epoch 8 comes.
  await page.locator('button[aria-label="Go to the election of epoch 7"]').click();
  await page.getByRole("button", { name: "1000×", exact: true }).click();
  await page.locator("#history-skip").check();
  await page.locator("#history-play").click();
  // The moment read in the same frame the words first say so (a click to pause, late on a busy
  // machine, could land in a later gap).
  const seen = await page.waitForFunction(() => {
    const status = document.querySelector("#history-status")?.textContent ?? "";
    if (!status.startsWith("No active controller")) return null;
    const crowned = [...document.querySelectorAll("#history-nodes li.history-node.leads")].map((c) => c.dataset.node);
    return { status, crowned, active: document.querySelector("#log-history").dataset.active };
  }, null, { timeout: 30_000 });
  const now = await seen.jsonValue();
  await page.locator("#history-play").click();
  assert.match(now.status, /^No active controller: none has written for .*; n1 leads epoch 8 in .*\.$/);
  assert.deepEqual(now.crowned, [], "no card crowned while no controller acts");
  assert.equal(now.active, "");
  assert.deepEqual(errors, []);
});

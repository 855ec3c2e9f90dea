// A deliberate bug (?sabotage=...) shows what the invariants are for: the first broken invariant
// pauses the simulation and the drawing marks the nodes it concerns, with its explanation.
// covers: src/web/invariants_panel.rs src/sweep/sabotage.rs src/invariants
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, screenshot } from "./browser.mjs";

test("a sabotage run pauses at the first broken invariant with the culprits marked", async () => {
  const { page, errors, context } = await open("?sabotage=hw-on-minority&speed=1");
  await page.locator(".violation-banner").waitFor({ timeout: 60_000 });
  await page.getByRole("button", { name: "Play" }).waitFor();
  const banner = await page.locator(".violation-banner").textContent();
  assert.match(banner, /a majority of voters holds every offset below the high watermark/);
  const broken = await page.locator(".invariants li.broken").textContent();
  assert.ok(banner.includes(broken.replace(" is broken", "").replace("✗", "").trim()), `banner and panel agree: ${broken}`);
  const culprits = await page.locator("svg.cluster g.node.culprit").evaluateAll((nodes) => nodes.map((g) => g.getAttribute("aria-label")));
  assert.ok(culprits.length >= 1, "the nodes involved are marked");
  const named = [...banner.matchAll(/n(\d+)/g)].map((m) => m[1]);
  for (const label of culprits) {
    const id = /n(\d+)/.exec(label)[1];
    assert.ok(named.includes(id), `marked n${id} is named in the explanation`);
    assert.match(label, /involved in the broken invariant/);
  }
  const clock = await page.locator("#clock").textContent();
  await page.waitForTimeout(500);
  assert.equal(await page.locator("#clock").textContent(), clock, "the simulation stays paused");
  await screenshot(page, "sabotage-culprit-marked");
  assert.deepEqual(errors, []);
  await context.close();
});

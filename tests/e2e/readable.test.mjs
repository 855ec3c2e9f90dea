// Readable type where the page is used small and large: every text of the drawing measured as
// rendered (its font size times the drawing's scale on screen), in a 480 x 320 docs embed, on a
// 375 x 667 phone and in presenter mode at 1024 x 768 (names at least 20 px, other text at least
// 14 px, the headline at least 28 px, the drawing above the fold); an embed never scrolls. The
// race's and the pains' drawings too, and the race embed's chips. And
// nothing covers the drawing: no node under the sticky transport bar, no label over another
// node's, messages under the nodes, a tour step's table on the first screen.
// covers: www/style.css www/later.css src/drawing/migration.rs src/web/cluster_view.rs src/web/node_view.rs src/web/app.rs src/web/tour.rs src/drawing/layout.rs src/drawing/text_fit.rs src/web/zk_view.rs src/drawing/zk_layout.rs src/web/failover_tab.rs src/web/pains_tab.rs
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, screenshot, waitForLeader } from "./browser.mjs";

/** Every text drawn in the drawings matching `selector`: its words, class and rendered size in px. */
const drawnTexts = (page, selector) => page.evaluate((selector) =>
  [...document.querySelectorAll(`${selector} text`)]
    .filter((t) => t.textContent.trim() && t.getBoundingClientRect().height > 0)
    .map((t) => ({
      text: t.textContent.trim().slice(0, 30),
      name: t.matches(".name, .mig-name"),
      px: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a,
    })), selector);

/** The texts of `texts` under `px`, described for a failure message. */
const under = (texts, px) => texts.filter((t) => t.px < px - 0.05).map((t) => `"${t.text}" ${t.px.toFixed(1)} px`);

const documentSize = (page) => page.evaluate(() => ({
  width: document.documentElement.scrollWidth,
  height: document.documentElement.scrollHeight,
}));

test("a 480 x 320 embed of a scenario: every text of the drawing at least 11 px, and no scrolling", async () => {
  const { page, errors, context } = await open("?embed=1&scenario=leader-crash&seed=7&autoplay=1", { viewport: { width: 480, height: 320 } });
  await page.locator("svg.cluster.compact g.node").first().waitFor();
  const texts = await drawnTexts(page, "svg.cluster");
  assert.ok(texts.length >= 12, `names, roles and epochs drawn: ${texts.length} texts`);
  assert.deepEqual(under(texts, 11), [], "texts under 11 px");
  const size = await documentSize(page);
  assert.ok(size.height <= 320 && size.width <= 480, `the document is ${size.width} x ${size.height} in a 480 x 320 frame`);
  await screenshot(page, "readable-embed-480x320");
  assert.deepEqual(errors, []);
  await context.close();
});

test("on a 375 x 667 phone: every text of the drawing at least 11 px", async () => {
  const { page, errors, context } = await open("?t=8000&autoplay=0", { viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true });
  await page.locator("svg.cluster.compact g.node").first().waitFor();
  const texts = await drawnTexts(page, "svg.cluster");
  assert.ok(texts.length >= 12, `names, roles and epochs drawn: ${texts.length} texts`);
  assert.deepEqual(under(texts, 11), [], "texts under 11 px");
  await screenshot(page, "readable-phone-375x667");
  assert.deepEqual(errors, []);
  await context.close();
});

test("presenter mode at 1024 x 768: names 20 px, other text 14 px, headline 28 px, the drawing above the fold", async () => {
  const { page, errors, context } = await open("?present=1&t=8000&autoplay=0", { viewport: { width: 1024, height: 768 } });
  await waitForLeader(page);
  const texts = await drawnTexts(page, "svg.cluster");
  assert.ok(texts.length >= 20, `every detail drawn: ${texts.length} texts`);
  assert.deepEqual(under(texts.filter((t) => t.name), 20), [], "node names under 20 px");
  assert.deepEqual(under(texts.filter((t) => !t.name), 14), [], "other texts under 14 px");
  const headline = await page.locator("h1").evaluate((h) => parseFloat(getComputedStyle(h).fontSize));
  assert.ok(headline >= 28, `the headline is ${headline} px`);
  const drawing = await page.locator("svg.cluster").boundingBox();
  assert.ok(drawing.y + drawing.height <= 768, `the drawing ends at ${drawing.y + drawing.height} px, below the fold`);
  await screenshot(page, "readable-presenter-1024x768");
  assert.deepEqual(errors, []);
  await context.close();
});

/** The boxes of every node and of each of its texts, and the sticky transport bar's top. */
const coverage = (page) => page.evaluate(() => {
  const box = (e) => e.getBoundingClientRect().toJSON();
  const nodes = [...document.querySelectorAll("svg.cluster g.node")].map((g) => ({
    name: g.getAttribute("aria-label").split(",")[0],
    box: box(g),
    texts: [...g.querySelectorAll("text")].filter((t) => t.textContent.trim()).map((t) => ({ text: t.textContent.trim(), box: box(t) })),
  }));
  const bar = document.querySelector("section.timeline");
  const order = [...document.querySelectorAll("svg.cluster > g")].map((g) => g.getAttribute("class"));
  return { nodes, barTop: bar ? bar.getBoundingClientRect().top : innerHeight, order, height: innerHeight };
});

const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

for (const [width, height] of [[1280, 720], [1024, 768]]) {
  for (const query of ["?voters=5&t=8000&autoplay=0", "?voters=7&brokers=12&t=8000&autoplay=0", "?tour=3", "?tour=21"]) {
    test(`at ${width} x ${height}, ${query}: every node above the transport bar, no label over another node's, messages under the nodes`, async () => {
      const { page, errors, context } = await open(query, { viewport: { width, height } });
      // Step 3 asks who will lead before anyone does: just watch.
      if (query === "?tour=3") await page.locator("#prediction-skip").click();
      await waitForLeader(page);
      const drawn = await coverage(page);
      assert.ok(drawn.nodes.length >= 6);
      for (const node of drawn.nodes) {
        assert.ok(node.box.bottom <= drawn.barTop && node.box.top >= 0, `${node.name} (${node.box.top.toFixed(0)}-${node.box.bottom.toFixed(0)}) is under the bar at ${drawn.barTop.toFixed(0)} or off screen`);
      }
      for (const [i, a] of drawn.nodes.entries()) {
        for (const b of drawn.nodes.slice(i + 1)) {
          for (const t of a.texts) {
            const hit = b.texts.find((u) => overlaps(t.box, u.box));
            assert.ok(!hit, `"${t.text}" of ${a.name} overlaps "${hit?.text}" of ${b.name}`);
          }
        }
      }
      assert.ok(drawn.order.indexOf("messages") < drawn.order.indexOf("nodes"), `messages are drawn under the nodes: ${drawn.order}`);
      await screenshot(page, `uncovered-${width}x${height}-${query.replace(/\W+/g, "-")}`);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
  test(`at ${width} x ${height}, the tour's ZooKeeper pains show their table on the first screen`, async () => {
    const { page, errors, context } = await open("?tour=15", { viewport: { width, height } });
    for (const [step, table] of [[15, "table.copies"], [16, "table.liveness"]]) {
      if (step === 16) await page.getByRole("button", { name: "Next" }).click();
      await page.locator("#tour-progress").filter({ hasText: `Step ${step} of` }).waitFor();
      const box = await page.locator(table).boundingBox();
      assert.ok(box && box.y >= 0 && box.y + box.height <= height, `step ${step}: ${table} at ${box?.y}-${box && box.y + box.height}, below the fold`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
}

// The race's two drawings and the pains' ZooKeeper drawing turn compact in a narrow frame, and
// larger on a stage: on a phone every text of a node at least 11 px; in presenter mode at
// 1024 x 768, names at least 20 px and other node text at least 14 px.
const NODE_TEXTS = "svg.cluster g.node, svg.zk-cluster g.node, svg.zk-cluster g.zk-server";
const nodeTexts = (page) => page.evaluate((selector) =>
  [...document.querySelectorAll(selector)].flatMap((g) => [...g.querySelectorAll("text")])
    .filter((t) => t.textContent.trim() && t.getBoundingClientRect().height > 0)
    .map((t) => ({
      text: t.textContent.trim().slice(0, 30),
      name: t.classList.contains("name"),
      px: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a,
    })), NODE_TEXTS);

for (const [query, what] of [["?scenario=failover&t=10000", "the race"], ["?tab=pains", "the pains"]]) {
  test(`on a 375 x 667 phone, ${what}: every text on a node at least 11 px`, async () => {
    const { page, errors, context } = await open(query, { viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true });
    await page.locator("svg.zk-cluster.compact g.zk-broker").first().waitFor();
    const texts = await nodeTexts(page);
    assert.ok(texts.length >= 15, `brokers and servers drawn: ${texts.length} texts`);
    assert.deepEqual(under(texts, 11), [], "texts under 11 px");
    await screenshot(page, `readable-phone-${what.replace(" ", "-")}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test("presenter mode at 1024 x 768, the race: node names 20 px, other node text 14 px, both drawings above the fold", async () => {
  const { page, errors, context } = await open("?present=1&scenario=failover&t=10000", { viewport: { width: 1024, height: 768 } });
  await page.locator("svg.zk-cluster.compact g.zk-broker").first().waitFor();
  await page.locator("svg.cluster.compact g.node").first().waitFor();
  const texts = await nodeTexts(page);
  assert.ok(texts.length >= 30, `both sides drawn: ${texts.length} texts`);
  assert.deepEqual(under(texts.filter((t) => t.name), 20), [], "node names under 20 px");
  assert.deepEqual(under(texts.filter((t) => !t.name), 14), [], "other node texts under 14 px");
  for (const drawing of ["svg.cluster", "svg.zk-cluster"]) {
    const box = await page.locator(drawing).boundingBox();
    assert.ok(box.y + box.height <= 768, `${drawing} ends at ${box.y + box.height} px, below the fold`);
  }
  await screenshot(page, "readable-presenter-race");
  assert.deepEqual(errors, []);
  await context.close();
});

test("a 480 x 320 embed of the race: each side's nodes as chips of at least 11 px, and no scrolling while it plays", async () => {
  const { page, errors, context } = await open("?embed=1&scenario=failover&autoplay=1", { viewport: { width: 480, height: 320 } });
  await page.locator(".side-zk .race-chips .chip").first().waitFor();
  // Healthy, then both stopwatches running, then the ZooKeeper side well into its failover.
  for (const seconds of [0, 1, 5]) {
    await page.waitForFunction((s) => Number(document.querySelector("#zk-stopwatch")?.textContent.replace(" s", "")) >= s, seconds, { timeout: 60_000 });
    const seen = await page.evaluate(() => ({
      chips: [...document.querySelectorAll(".race-chips .chip")].filter((c) => c.getBoundingClientRect().height > 0)
        .map((c) => ({ text: c.textContent.trim(), px: parseFloat(getComputedStyle(c).fontSize) })),
      drawings: [...document.querySelectorAll(".failover-tab svg.cluster, .failover-tab svg.zk-cluster")].filter((s) => s.getBoundingClientRect().height > 0).length,
      height: document.documentElement.scrollHeight,
      width: document.documentElement.scrollWidth,
    }));
    assert.ok(seen.chips.length >= 10, `both sides' nodes: ${seen.chips.map((c) => c.text)}`);
    assert.ok(seen.chips.some((c) => c.text.startsWith("b0")) && seen.chips.some((c) => c.text.startsWith("n1")));
    assert.deepEqual(under(seen.chips, 11), [], "chips under 11 px");
    assert.equal(seen.drawings, 0, "the chips replace the drawings, which would be unreadable here");
    assert.ok(seen.height <= 320 && seen.width <= 480, `the document is ${seen.width} x ${seen.height} in a 480 x 320 frame`);
  }
  await screenshot(page, "readable-race-embed-480x320");
  assert.deepEqual(errors, []);
  await context.close();
});

for (const scenario of ["zk-stale-cache", "zk-liveness", "zk-watch-storm", "zk-security"]) {
  test(`a 480 x 320 embed of the pains (${scenario}): the brokers as chips of at least 11 px, the pain's table, no scrolling`, async () => {
    const { page, errors, context } = await open(`?embed=1&scenario=${scenario}`, { viewport: { width: 480, height: 320 } });
    await page.locator(".pains-tab .race-chips .chip").first().waitFor();
    // Played on until the events list holds a few lines, as it does once the pain unfolds.
    await page.waitForFunction(() => document.querySelectorAll(".pains-tab .pain-events li").length >= 3, null, { timeout: 60_000 });
    const seen = await page.evaluate(() => ({
      chips: [...document.querySelectorAll(".pains-tab .race-chips .chip")].map((c) => ({ text: c.textContent.trim(), px: parseFloat(getComputedStyle(c).fontSize) })),
      tables: [...document.querySelectorAll(".pains-tab table")].filter((t) => t.getBoundingClientRect().height > 0).length,
      height: document.documentElement.scrollHeight,
      width: document.documentElement.scrollWidth,
    }));
    assert.ok(seen.chips.length >= 5, `/controller and the brokers: ${seen.chips.map((c) => c.text)}`);
    assert.deepEqual(under(seen.chips, 11), [], "chips under 11 px");
    assert.equal(seen.tables, 1, "the pain's own table");
    assert.ok(seen.height <= 320 && seen.width <= 480, `the document is ${seen.width} x ${seen.height} in a 480 x 320 frame`);
    await screenshot(page, `readable-pains-embed-${scenario}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test("presenter mode at 1024 x 768, the migration: names 20 px, other drawn text 14 px, the drawing above the fold, one header row", async () => {
  const { page, errors, context } = await open("?present=1&scenario=migration&t=30000", { viewport: { width: 1024, height: 768 } });
  await page.locator("svg.migration .mig-controller").first().waitFor();
  const texts = await drawnTexts(page, "svg.migration");
  assert.ok(texts.filter((t) => t.name).length >= 7, `controllers and brokers named: ${texts.length} texts`);
  assert.deepEqual(under(texts.filter((t) => t.name), 20), [], "names under 20 px");
  assert.deepEqual(under(texts.filter((t) => !t.name), 14), [], "other drawn texts under 14 px");
  const drawing = await page.locator("svg.migration").boundingBox();
  assert.ok(drawing.y + drawing.height <= 768, `the drawing ends at ${drawing.y + drawing.height} px, below the fold`);
  const rows = await page.locator("header button").evaluateAll((buttons) => new Set(buttons.map((b) => Math.round(b.getBoundingClientRect().top))).size);
  assert.equal(rows, 1, "the header's buttons in one row");
  // Each controller's name inside its circle.
  const inside = await page.locator("svg.migration .mig-controller").evaluateAll((nodes) => nodes.every((g) => {
    const [c, t] = [g.querySelector("circle").getBoundingClientRect(), g.querySelector(".mig-name").getBoundingClientRect()];
    return t.left >= c.left && t.right <= c.right;
  }));
  assert.ok(inside, "a controller's name runs past its circle");
  await screenshot(page, "migration-presenter-1024x768");
  assert.deepEqual(errors, []);
  await context.close();
});

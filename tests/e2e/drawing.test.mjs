// The cluster drawing never misleads: for every cluster size no two nodes overlap and no link
// crosses a third node (read from the real SVG boxes), messages sit on their own link, and every
// label drawn appears in the legend.
// covers: src/web/cluster_view.rs src/web/node_view.rs src/web/links_view.rs src/web/legend.rs src/web/svg_html.rs src/drawing/cluster.rs src/session/picture.rs src/drawing/layout.rs
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, screenshot, waitForLeader } from "./browser.mjs";

/** Boxes of every node and its shape, the links' points and the messages, in screen pixels. */
function readDrawing() {
  const svg = document.querySelector("svg.cluster");
  const matrix = svg.getScreenCTM();
  const toScreen = (x, y) => new DOMPoint(x, y).matrixTransform(matrix);
  const box = (element) => {
    const r = element.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  };
  const nodes = [...svg.querySelectorAll("g.node")].map((g) => ({
    name: g.getAttribute("aria-label"),
    box: box(g),
    shape: box(g.querySelector(".shape")),
  }));
  const links = [...svg.querySelectorAll("polyline.link")].map((line) => ({
    link: line.dataset.link,
    points: line.getAttribute("points").trim().split(/\s+/).map((pair) => {
      const [x, y] = pair.split(",").map(Number);
      const p = toScreen(x, y);
      return { x: p.x, y: p.y };
    }),
  }));
  const messages = [...svg.querySelectorAll("g.message:not(.lost)")].map((g) => {
    const t = g.transform.baseVal.consolidate().matrix;
    const p = toScreen(t.e, t.f);
    return { link: g.dataset.link, x: p.x, y: p.y };
  });
  return { nodes, links, messages };
}

const intersects = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const shrink = (r, m) => ({ left: r.left + m, top: r.top + m, right: r.right - m, bottom: r.bottom - m });

/** Whether the segment p-q passes through the inside of box r (Liang-Barsky). */
function crosses(r, p, q) {
  const dx = q.x - p.x;
  const dy = q.y - p.y;
  let t0 = 0;
  let t1 = 1;
  for (const [a, b] of [[-dx, p.x - r.left], [dx, r.right - p.x], [-dy, p.y - r.top], [dy, r.bottom - p.y]]) {
    if (a === 0) {
      if (b <= 0) return false;
    } else if (a < 0) t0 = Math.max(t0, b / a);
    else t1 = Math.min(t1, b / a);
  }
  return t1 - t0 > 1e-9;
}

const distanceToSegment = (m, p, q) => {
  const dx = q.x - p.x;
  const dy = q.y - p.y;
  const t = Math.max(0, Math.min(1, ((m.x - p.x) * dx + (m.y - p.y) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(m.x - (p.x + t * dx), m.y - (p.y + t * dy));
};

const nodeId = (name) => /n(\d+)/.exec(name)?.[1];

for (const voters of [1, 3, 5, 7]) {
  for (const brokers of [0, 3, 9, 12]) {
    test(`${voters} controllers and ${brokers} brokers: nodes apart, links clear of third nodes, messages on their links`, async () => {
      // Opened paused 10 simulated seconds in (a replay from the seed, not seconds of play): a
      // leader elected and the brokers fetching.
      const { page, errors, context } = await open(`?voters=${voters}&brokers=${brokers}&t=10000&autoplay=0`);
      await waitForLeader(page);
      if (brokers > 0) await page.locator("svg.cluster polyline.link.observer").first().waitFor();
      const talking = voters + brokers > 1;
      for (let step = 0; talking && step < 200 && (await page.locator("svg.cluster g.message:not(.lost)").count()) === 0; step += 1) {
        await page.getByRole("button", { name: "Step one event" }).click();
      }
      const drawing = await page.evaluate(readDrawing);
      assert.equal(drawing.nodes.length, voters + brokers);
      for (const [i, a] of drawing.nodes.entries()) {
        for (const b of drawing.nodes.slice(i + 1)) {
          assert.ok(!intersects(a.box, b.box), `${a.name} overlaps ${b.name}`);
        }
      }
      for (const { link, points } of drawing.links) {
        const ends = link.split("-");
        for (const node of drawing.nodes.filter((n) => !ends.includes(nodeId(n.name)))) {
          const shape = shrink(node.shape, 1);
          for (let k = 0; k + 1 < points.length; k += 1) {
            assert.ok(!crosses(shape, points[k], points[k + 1]), `link n${ends.join("-n")} crosses ${node.name}`);
          }
        }
      }
      assert.ok(drawing.messages.length > 0 || !talking, "some message is in flight");
      for (const message of drawing.messages) {
        const [from, to] = message.link.split("-");
        const own = drawing.links.find((l) => l.link === `${from}-${to}` || l.link === `${to}-${from}`);
        assert.ok(own, `message ${message.link} has a drawn link`);
        const distance = Math.min(...own.points.slice(1).map((q, k) => distanceToSegment(message, own.points[k], q)));
        assert.ok(distance < 1.5, `message ${message.link} is ${distance.toFixed(1)} px off its link`);
      }
      await screenshot(page, `layout-${voters}x${brokers}`);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
}

test("every message label drawn during a 20 s run is in the legend, with its meaning", async () => {
  const { page, errors, context } = await open("?voters=5&brokers=3&speed=0.3");
  // The page has loaded, but the wasm may not have drawn yet: wait for the legend before
  // reading it (read at once, an empty legend failed a run under load).
  await page.locator(".legend .legend-label").first().waitFor();
  // Read in one evaluation (a locator's evaluateAll finds the elements and reads them in two
  // steps), and keep the elements: the legend must never rewrite them as epochs come and go.
  const legend = await page.evaluate(() => {
    window.legendLabels = [...document.querySelectorAll(".legend .legend-label")]
      .map((l) => ({ element: l, label: l.textContent, title: l.getAttribute("title") }));
    return window.legendLabels.map(({ label, title }) => ({ label, title }));
  });
  const known = new Map(legend.map((l) => [l.label, l.title]));
  assert.equal(known.size, legend.length, "legend labels are distinct");
  assert.ok(known.size >= 10, `the legend names every kind of message: ${[...known.keys()]}`);
  await waitForLeader(page);
  await page.getByRole("button", { name: "Kill active controller" }).click();
  const seen = new Set();
  const titled = new Set();
  const until = Date.now() + 20_000;
  while (Date.now() < until) {
    // Found and read in one evaluation: a locator's evaluateAll finds the labels first, and a
    // message delivered in between has left the drawing (its label without a parent).
    const drawn = await page.evaluate(() => [...document.querySelectorAll("svg.cluster .message-label")]
      .map((l) => ({ label: l.textContent, title: l.parentNode.querySelector("title")?.textContent ?? "" })));
    for (const { label, title } of drawn) {
      seen.add(label);
      if (title.startsWith(`${label} = `)) titled.add(label);
    }
    await page.waitForTimeout(50);
  }
  assert.ok(seen.size >= 4, `several kinds drawn: ${[...seen]}`);
  for (const label of seen) {
    assert.ok(known.has(label), `label ${label} is not in the legend`);
    assert.ok(known.get(label).length > 10, `${label} has a hover title`);
    assert.ok(titled.has(label), `${label} explains itself on hover`);
  }
  const epochs = await page.locator(".legend .legend-epoch").allTextContents();
  assert.ok(epochs.length >= 1 && epochs.every((e) => /epoch \d+/.test(e)), `epochs in the legend: ${epochs}`);
  const rewritten = await page.evaluate(() => window.legendLabels
    .filter(({ element, label }) => !element.isConnected || element.textContent !== label).map(({ label }) => label));
  assert.deepEqual(rewritten, [], "legend labels rewritten while the epochs changed");
  await screenshot(page, "legend-after-20s");
  assert.deepEqual(errors, []);
  await context.close();
});

test("a crown appearing changes nothing else of the node: its shape and name are the same elements after", async () => {
  const { page, errors, context } = await open("?autoplay=0");
  await page.locator("svg.cluster g.node text.name").first().waitFor();
  assert.equal(await page.locator("svg.cluster .crown").count(), 0, "no leader yet");
  // Each node's shape and name, marked: an element the page's diff replaces loses its mark.
  const marked = await page.evaluate(() => {
    const nodes = [...document.querySelectorAll("svg.cluster g.node")];
    for (const node of nodes) {
      for (const part of node.querySelectorAll(".shape, text.name")) part.dataset.mark = node.getAttribute("aria-label").split(" ")[1];
    }
    return nodes.length;
  });
  assert.ok(marked >= 3);
  await page.keyboard.press(" ");
  await waitForLeader(page);
  const leader = await page.evaluate(() => {
    const crowned = document.querySelector("svg.cluster .crown").closest("g.node");
    const marks = [...crowned.querySelectorAll(".shape, text.name")].map((part) => part.dataset.mark ?? null);
    return { name: crowned.getAttribute("aria-label").split(" ")[1], marks };
  });
  assert.deepEqual(leader.marks, [leader.name, leader.name], `the leader ${leader.name} kept its shape and name elements as its crown appeared`);
  assert.deepEqual(errors, []);
  await context.close();
});

// Teaching, talks and docs: the guided tour forward and back, presenter shortcuts, the
// embedded docs page, URL parameter notices, reduced motion and small screens.
// covers: src/web/tour.rs src/web/app.rs src/teaching/stories.rs www/embed-example.html
import { test } from "node:test";
import assert from "node:assert/strict";
import { TOUR_STEPS, open, screenshot, waitForLeader, waitForText } from "./browser.mjs";


/** What a tour step shows: its title and either the moment it opened at, the race's size or the
 *  migration's scenario and moment. */
async function stepState(page) {
  const title = await page.locator("#tour-title").textContent();
  const progress = await page.locator("#tour-progress").textContent();
  if (await page.locator(".pains-tab").count()) {
    return { title, progress, pain: await page.locator(".pains-tab").getAttribute("data-pain") };
  }
  if (await page.locator(".migration-tab").count()) {
    // A migration step opens paused at its question, at a moment read from its scenario's run.
    const clock = await page.locator("#mig-clock").textContent();
    const scenario = await page.locator(".migration-tab").getAttribute("data-scenario");
    return { title, progress, scenario, clock, asking: await page.locator("#prediction .options").count() };
  }
  if (!(await page.locator(".failover-tab").count())) {
    // A cluster step opens playing, before its key moment: the timeline's end is fixed, the
    // clock starts at the opening. What to watch for is hidden while the step's question is open.
    const clock = await page.locator("#clock").textContent();
    const before = await page.evaluate(() => {
      const watch = document.querySelector("#tour-watch");
      return watch ? watch.textContent.startsWith("Watch:") : document.querySelector("#prediction .options") !== null;
    });
    return { title, progress, watch: before, horizon: clock.split(" of ")[1] };
  }
  // A race step fast-forwards the race to a few seconds before its moment and plays on (step
  // 11 after its question: just watch).
  if (await page.locator("#race-guess").count()) await page.locator("#prediction-skip").click();
  await page.waitForFunction(() => / since the kill|Both sides recovered/.test(document.querySelector(".race-stage")?.textContent ?? ""), null, { timeout: 60_000 });
  return { title, progress, partitions: await page.locator("#partition-count").textContent() };
}

test("the guided tour walks forward and back, each step restoring its exact state", async () => {
  const { page, errors, context } = await open("?tour=1");
  const forward = [];
  for (let step = 1; step <= TOUR_STEPS; step += 1) {
    await waitForText(page, "#tour-progress", `Step ${step} of ${TOUR_STEPS}`);
    forward.push(await stepState(page));
    if (step === 3) await screenshot(page, "tour-step-3");
    if (step < TOUR_STEPS) await page.locator("#tour-next").click();
  }
  assert.equal(await page.locator("#tour-next").isDisabled(), true);
  assert.equal(forward[0].partitions, "100,000");
  assert.equal(forward[10].partitions, "1,000,000");
  for (let step = TOUR_STEPS - 1; step >= 1; step -= 1) {
    await page.locator("#tour-back").click();
    await waitForText(page, "#tour-progress", `Step ${step} of ${TOUR_STEPS}`);
    assert.deepEqual(await stepState(page), forward[step - 1], `step ${step} going back`);
  }
  assert.equal(await page.locator("#tour-back").isDisabled(), true);
  assert.match(new URL(page.url()).search, /tour=1/, "each step has a deep link");
  assert.deepEqual(errors, []);
  await context.close();
});

test("presenter shortcuts each do their action", async () => {
  const { page, errors, context } = await open();
  const first = await waitForLeader(page);
  await page.keyboard.press("p");
  await page.locator(".page.present").waitFor(); // P: large type
  await page.keyboard.press("?");
  await page.getByRole("dialog").waitFor();
  assert.match(await page.getByRole("dialog").textContent(), /kill the active controller/);
  await page.keyboard.press("Escape");
  await page.getByRole("dialog").waitFor({ state: "detached" });
  await page.keyboard.press("k");
  await waitForLeader(page, (l) => l.epoch > first.epoch);
  await page.locator('svg.cluster g.node.role-follower[aria-label^="controller"]').first().waitFor();
  await page.keyboard.press("x");
  await page.locator(".cut-mark").first().waitFor();
  await page.keyboard.press("h");
  await page.waitForFunction(() => document.querySelectorAll(".cut-mark").length === 0);
  await page.keyboard.press("g");
  await page.waitForFunction(() => /resigns/.test(document.querySelector(".notice").textContent));
  await page.keyboard.press(" ");
  await page.getByRole("button", { name: "Play" }).waitFor();
  const events = async () => Number(/(\d+) events/.exec(await page.locator(".invariants .hint").textContent())[1]);
  const before = await events();
  await page.keyboard.press("s");
  await page.waitForFunction((n) => Number(/(\d+) events/.exec(document.querySelector(".invariants .hint").textContent)[1]) > n, before);
  await page.keyboard.press("ArrowRight");
  await waitForText(page, "#tour-progress", `Step 1 of ${TOUR_STEPS}`);
  await page.keyboard.press("PageDown");
  await waitForText(page, "#tour-progress", `Step 2 of ${TOUR_STEPS}`);
  await page.keyboard.press("PageUp");
  await waitForText(page, "#tour-progress", `Step 1 of ${TOUR_STEPS}`);
  await page.getByRole("button", { name: "Leave the tour" }).click();
  // Still on the failover tab (step 1 is the race): R runs the race again there.
  await page.locator("#kill-both:not([disabled])").waitFor({ timeout: 60_000 });
  await page.keyboard.press("r");
  await page.waitForFunction(() => /Both clusters are healthy/.test(document.querySelector(".race-stage")?.textContent ?? ""));
  await page.getByRole("tab", { name: "Live cluster" }).click();
  await page.keyboard.press("r");
  await page.waitForFunction(() => /Reset/.test(document.querySelector(".notice").textContent));
  await screenshot(page, "presenter-1280x720");
  assert.deepEqual(errors.filter((e) => !/fullscreen/i.test(e)), []);
  await context.close();
});

test("the example docs page shows the simulation inside a 480 x 320 iframe", async () => {
  const { page, errors, context } = await open("embed-example.html");
  const frameElement = page.locator("#kraftscope-embed");
  assert.deepEqual(await frameElement.evaluate((f) => [f.clientWidth, f.clientHeight]), [480, 320]);
  const box = await frameElement.boundingBox();
  const frame = page.frameLocator("#kraftscope-embed");
  await frame.locator("svg.cluster g.node").first().waitFor({ timeout: 30_000 });
  // The docs page opens the embed paused; its first "Try it" plays it.
  await page.getByRole("button", { name: "Try it" }).first().click();
  await frame.locator("svg.cluster g.node.role-leader").first().waitFor({ timeout: 30_000 });
  const svg = await frame.locator("svg.cluster").boundingBox();
  assert.ok(svg.y + svg.height <= box.y + box.height + 1 && svg.width <= box.width, "the drawing fits the frame");
  assert.equal(await frame.locator("header").count(), 0, "no page chrome in the embed");
  await screenshot(page, "docs-page-with-embed");
  assert.deepEqual(errors, []);
  await context.close();
});

test("a tour step embedded at 480 x 320 opens at the step's top, with the keyboard on Next", async () => {
  const { page, errors, context } = await open("?embed=1&tour=3", { viewport: { width: 480, height: 320 } });
  await page.locator("#tour-title").waitFor();
  await page.waitForFunction(() => document.activeElement?.id === "tour-next");
  assert.equal(await page.evaluate(() => window.scrollY), 0, "not scrolled down to the buttons");
  const title = await page.locator("#tour-title").boundingBox();
  assert.ok(title.y >= 0 && title.y + title.height <= 320, `the step's title is in the frame: ${JSON.stringify(title)}`);
  await page.keyboard.press("Enter");
  await page.locator("#tour-progress", { hasText: "Step 4 of" }).waitFor();
  await screenshot(page, "tour-embed-480x320");
  assert.deepEqual(errors, []);
  await context.close();
});

for (const [kind, query, named] of [
  ["a bad seed", "?seed=abc", ["seed"]],
  ["an unknown scenario", "?scenario=blackhole", ["scenario"]],
  ["a huge partition count", "?partitions=99999999999&brokers=5000", ["partitions", "brokers"]],
  ["a truncated share string", "?seed=4&actions=4000000.310.k~6000000.4", ["actions"]],
  ["an unknown parameter", "?colour=red", ["colour"]],
]) {
  test(`${kind} opens the page with defaults and a notice naming it`, async () => {
    const { page, errors, context } = await open(query);
    const alert = page.getByRole("alert");
    await alert.waitFor();
    const text = await alert.textContent();
    for (const name of named) assert.match(text, new RegExp(name), `the notice names ${name}: ${text}`);
    await waitForLeader(page);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test("with prefers-reduced-motion no element animates position", async () => {
  const { page, errors, context } = await open("", { reducedMotion: "reduce" });
  await waitForLeader(page);
  const midpointsOnly = () => page.evaluate(() => {
    const translate = (g) => (/translate\(([-\d.]+) ([-\d.]+)\)/.exec(g.getAttribute("transform")) ?? []).slice(1).map(Number);
    // The middle of a link, by length along its route.
    const middle = (line) => {
      const points = line.getAttribute("points").trim().split(/\s+/).map((p) => p.split(",").map(Number));
      const lengths = points.slice(1).map((q, k) => Math.hypot(q[0] - points[k][0], q[1] - points[k][1]));
      let left = lengths.reduce((a, b) => a + b, 0) / 2;
      for (const [k, length] of lengths.entries()) {
        if (left <= length) return points[k].map((v, i) => v + (points[k + 1][i] - v) * (left / length));
        left -= length;
      }
      return points[points.length - 1];
    };
    const moving = [...document.querySelectorAll("svg.cluster g.message:not(.lost)")].filter((g) => {
      const [from, to] = g.dataset.link.split("-");
      const line = document.querySelector(`svg.cluster polyline[data-link="${from}-${to}"]`) ?? document.querySelector(`svg.cluster polyline[data-link="${to}-${from}"]`);
      const [mx, my] = middle(line);
      const [x, y] = translate(g);
      return Math.abs(mx - x) > 0.2 || Math.abs(my - y) > 0.2;
    });
    const messages = [...document.querySelectorAll("svg.cluster g.message")];
    return { messages: messages.length, moving: moving.length, animations: document.getAnimations().length };
  });
  let sawMessages = 0;
  for (let i = 0; i < 20; i += 1) {
    const sample = await midpointsOnly();
    sawMessages += sample.messages;
    assert.equal(sample.moving, 0, "a message is drawn between positions");
    assert.equal(sample.animations, 0, "no CSS animation runs");
    const clock = await page.locator("#clock").textContent();
    await page.waitForFunction((c) => document.querySelector("#clock").textContent !== c, clock);
  }
  assert.ok(sawMessages > 0, "messages were shown, standing still");
  assert.deepEqual(errors, []);
  await context.close();
});

for (const [width, height] of [[1280, 720], [480, 320], [375, 667]]) {
  test(`the page renders at ${width} x ${height}`, async () => {
    const { page, errors, context } = await open("", { viewport: { width, height } });
    await waitForLeader(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 1, `no horizontal scrolling (${overflow}px too wide)`);
    await screenshot(page, `page-${width}x${height}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test("at 1280 x 720 (#61 item 5): after a verdict Back and Next stay on the screen, and the next step opens at the top", async () => {
  const { page, errors, context } = await open("?tour=4", { viewport: { width: 1280, height: 720 } });
  await page.locator("#prediction-question").waitFor({ timeout: 60_000 });
  await page.locator("#prediction .option").first().click();
  await page.locator("#prediction-verdict").waitFor({ timeout: 60_000 });
  const inView = (selector) => page.locator(selector).evaluate((e) => {
    const r = e.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight;
  });
  assert.ok(await inView("#tour-next") && await inView("#tour-back"), "Back and Next are on the screen after the verdict");
  await page.mouse.wheel(0, 2000);
  await page.waitForFunction(() => scrollY > 0);
  await page.locator("#tour-next").click();
  await page.locator("#tour-progress").filter({ hasText: "Step 5 of 26" }).waitFor();
  await page.waitForFunction(() => scrollY === 0, null, { timeout: 5_000 });
  assert.ok(await inView("#tour-title"), "the next step opens with its title in view");
  await screenshot(page, "tour-after-verdict-1280x720");
  assert.deepEqual(errors, []);
  await context.close();
});

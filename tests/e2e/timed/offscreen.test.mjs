// Off screen is idle: an embed scrolled out of view requests no animation frames and uses under
// 1% of a core, measured, and plays on when scrolled back.
// covers: src/web/on_screen.rs src/web/frame_clock.rs
import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "../browser.mjs";

/** How long each measurement runs, in real milliseconds. */
const WINDOW_MS = 4000;

/** Counts animation frame callbacks and the time spent in them, and watches whether the
 *  document is in view as the page does; installed in every frame. */
function countFrames() {
  window.__frames = { callbacks: 0, ms: 0 };
  window.__inView = true;
  document.addEventListener("DOMContentLoaded", () => {
    new IntersectionObserver((entries) => { window.__inView = entries.at(-1).isIntersecting; }).observe(document.documentElement);
  });
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => raf((ts) => {
    const start = performance.now();
    callback(ts);
    window.__frames.callbacks += 1;
    window.__frames.ms += performance.now() - start;
  });
}

/** The embed's frame callbacks and the renderer's main-thread busy time over one window. */
async function measure(page, cdp, frame) {
  await frame.evaluate(() => { window.__frames = { callbacks: 0, ms: 0 }; });
  const busy = async () => (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "TaskDuration").value;
  const before = await busy();
  await page.waitForTimeout(WINDOW_MS);
  const cpu = (await busy()) - before;
  const frames = await frame.evaluate(() => window.__frames);
  return { perSecond: frames.callbacks / (WINDOW_MS / 1000), frameMs: frames.ms, core: cpu / (WINDOW_MS / 1000) };
}

const figure = (m) => `${m.perSecond.toFixed(1)} animation frames/s (${m.frameMs.toFixed(0)} ms in them), main thread ${(m.core * 100).toFixed(2)}% of a core`;

test("an embed scrolled out of view does no animation work, and plays on when back in view", async () => {
  const { page, errors, context } = await open("embed-example.html");
  await context.addInitScript(countFrames);
  await page.reload();
  const frame = page.frameLocator("#kraftscope-embed");
  // The docs page opens its embed paused; its first "Try it" plays it.
  await frame.locator("svg.cluster g.node").first().waitFor({ timeout: 30_000 });
  await page.getByRole("button", { name: "Try it" }).first().click();
  await frame.locator("svg.cluster g.node.role-leader").first().waitFor({ timeout: 30_000 });
  const embed = page.frame({ url: /embed=1/ });
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");

  const onScreen = await measure(page, cdp, embed);
  console.log(`embed in view: ${figure(onScreen)}`);
  assert.ok(onScreen.perSecond > 10, "in view it animates");

  await page.evaluate(() => {
    document.body.append(Object.assign(document.createElement("div"), { id: "spacer", style: "height: 4000px" }));
    window.scrollTo(0, document.body.scrollHeight);
  });
  await embed.waitForFunction(() => !window.__inView, null, { timeout: 10_000 });
  // The median of three windows: one window can catch a stray task of the renderer.
  const windows = [];
  for (let i = 0; i < 3; i += 1) windows.push(await measure(page, cdp, embed));
  const offScreen = windows.sort((a, b) => a.core - b.core)[1];
  console.log(`off screen, three windows: ${windows.map((w) => `${(w.core * 100).toFixed(2)}%`).join(", ")}`);
  const clock = await frame.locator("#clock").textContent();
  console.log(`embed scrolled out of view: ${figure(offScreen)}`);
  // The frame requested just before the embed learnt it left the viewport may still arrive.
  assert.ok(offScreen.perSecond * (WINDOW_MS / 1000) <= 1, "no animation frames off screen");
  assert.ok(offScreen.core < 0.01, `under 1% of a core off screen: ${(offScreen.core * 100).toFixed(2)}%`);

  await page.evaluate(() => window.scrollTo(0, 0));
  await frame.locator("#clock").filter({ hasNotText: clock }).waitFor({ timeout: 10_000 });
  assert.deepEqual(errors, []);
  await context.close();
});

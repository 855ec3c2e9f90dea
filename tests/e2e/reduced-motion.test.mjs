// prefers-reduced-motion over the failover race and the guided tour (the live cluster's
// messages are covered in teaching.test.mjs): nothing flows or flashes, and each check is shown
// to notice motion when the preference is not set.
// covers: src/web/failover_tab.rs src/web/zk_view.rs src/web/tour.rs www/style.css
import { test } from "node:test";
import assert from "node:assert/strict";
import { TOUR_STEPS, open, waitForText } from "./browser.mjs";


/** Positions of the dots of the cold load's batches of requests, and running animations. (Single
 *  requests such as session pings come and go between two samples, so they are left out.) */
const raceMotion = (page) => page.evaluate(() => ({
  dots: [...document.querySelectorAll("svg.zk-cluster .zk-message.batch circle")].map((c) => `${c.getAttribute("cx")},${c.getAttribute("cy")}`).join(" "),
  animations: document.getAnimations().length,
}));

/** Plays the race until ZooKeeper mode cold-loads, then samples what is drawn twice while it
 *  keeps playing: { moved, animations }. */
async function raceWhilePlaying(reducedMotion) {
  const { page, errors, context } = await open("", { reducedMotion });
  await page.getByRole("tab", { name: "Failover: KRaft vs ZooKeeper" }).click();
  await page.locator("#zk-phase", { hasText: "healthy" }).waitFor({ state: "attached", timeout: 120_000 });
  await page.keyboard.press("k");
  await page.locator("svg.zk-cluster .zk-message.batch").first().waitFor({ timeout: 120_000 });
  const first = await raceMotion(page);
  // Stillness can only be watched for (300 ms is many frames of a playing race); motion is
  // waited for, up to 10 s: under load a 300 ms window once passed with no dot moved.
  let second = first;
  const until = Date.now() + (reducedMotion === "reduce" ? 300 : 10_000);
  while (second.dots === first.dots && Date.now() < until) {
    await page.waitForTimeout(50);
    second = await raceMotion(page);
  }
  assert.ok(await page.locator("svg.zk-cluster .zk-message.batch").count(), "still cold-loading when sampled");
  assert.deepEqual(errors, []);
  await context.close();
  return { moved: first.dots !== second.dots, animations: Math.max(first.animations, second.animations) };
}

test("with reduced motion the failover race's requests sit still while it plays", async () => {
  const [still, moving] = await Promise.all([raceWhilePlaying("reduce"), raceWhilePlaying("no-preference")]);
  assert.equal(still.moved, false, "the cold load's batches of requests do not flow");
  assert.equal(still.animations, 0, "no CSS animation or transition runs");
  assert.equal(moving.moved, true, "without the preference the same batches do flow (the check can see motion)");
});

/** In the page: the most animations running at once over `ms` milliseconds, sampled every frame
 *  (one sample can fall in a pause between two transitions). */
const mostAnimationsWithin = (ms) => new Promise((resolve) => {
  let most = 0;
  const until = performance.now() + ms;
  const sample = (now) => {
    most = Math.max(most, document.getAnimations().length);
    if (now < until) requestAnimationFrame(sample);
    else resolve(most);
  };
  requestAnimationFrame(sample);
});

/** The most animations running at each tour step, walked with Next (up to the first step that
 *  animates, when `untilAnimating`). */
async function tourAnimations(reducedMotion, untilAnimating = false) {
  const { page, errors, context } = await open("?tour=1", { reducedMotion });
  const running = [];
  for (let step = 1; step <= TOUR_STEPS; step += 1) {
    await waitForText(page, "#tour-progress", `Step ${step} of ${TOUR_STEPS}`);
    if (await page.locator(".pains-tab").count()) {
      await page.locator(".pains-tab svg.zk-cluster").waitFor();
    } else if (await page.locator(".failover-tab").count()) {
      // Step 11 asks first (which side is back first): just watch.
      if (await page.locator("#race-guess").count()) await page.locator("#prediction-skip").click();
      await page.locator("#kraft-phase", { hasText: /won the vote|back/ }).waitFor({ state: "attached", timeout: 60_000 });
    } else if (await page.locator(".migration-tab").count()) {
      await page.locator(".mig-figure svg").waitFor();
    } else {
      await page.locator("svg.cluster g.node").first().waitFor();
    }
    running.push(await page.evaluate(mostAnimationsWithin, 400));
    if (untilAnimating && running.at(-1) > 0) break;
    if (step < TOUR_STEPS) await page.locator("#tour-next").click();
  }
  assert.deepEqual(errors, []);
  await context.close();
  return running;
}

test("with reduced motion no step of the tour animates", async () => {
  const [reduced, moving] = await Promise.all([tourAnimations("reduce"), tourAnimations("no-preference", true)]);
  assert.deepEqual(reduced, Array(TOUR_STEPS).fill(0));
  assert.ok(moving.some((n) => n > 0), "without the preference some step animates (the check can see it)");
});

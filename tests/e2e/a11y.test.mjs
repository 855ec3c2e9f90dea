// WCAG 2.1 AA on every view, measured by axe-core (tests/e2e/axe.mjs): the live cluster (with a
// node selected, the share link and the shortcuts overlay), the failover race idle, mid-race and
// finished, every tour step, a prediction's verdict (the race's too), a chapter's self-check, presenter mode, the docs embeds at 480 x 320 and the phone layout.
// Zero violations of any impact; each test fails on the first, naming rule, impact and elements.
// covers: www/style.css src/web/help.rs src/web/focus.rs src/web/app.rs
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assertNoViolations } from "./axe.mjs";
import { TOUR_STEPS, open, screenshot, waitForLeader, waitForText } from "./browser.mjs";

const PHONE = { viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true };
const EMBED = { viewport: { width: 480, height: 320 } };

const raceStage = (page, pattern, timeout = 120_000) =>
  page.waitForFunction((source) => new RegExp(source).test(document.querySelector(".race-stage")?.textContent ?? ""), pattern.source, { timeout });

/** The live cluster with a leader, paused (by the Pause button, or Space without controls). */
async function pausedCluster(page) {
  await waitForLeader(page);
  const pause = page.getByRole("button", { name: "Pause" });
  if (await pause.count()) await pause.click();
  else await page.keyboard.press(" ");
}

/** The failover race, both clusters built and healthy, waiting for the kill (told by the
 *  announcement, which embeds without controls have too). */
const raceReady = (page) => page.locator("#zk-phase", { hasText: "healthy" }).waitFor({ state: "attached", timeout: 120_000 });

/** The live cluster opened paused 8 simulated seconds in, by a link: a leader, brokers
 *  registering, messages in flight (playing there at the default pace takes many seconds). */
const PAUSED_LIVE = "t=8000&autoplay=0";
const pausedLive = (page) => waitForLeader(page);

/** The failover race opened as a still 10 s after the kill (`scenario=failover&t=10000`), with
 *  ZooKeeper mode cold-loading (playing there takes many seconds; failover.test.mjs plays it). */
const RACE_STILL = "scenario=failover&t=10000";
async function raceMidway(page) {
  await waitForText(page, "#zk-stopwatch", "10.000 s", 120_000);
  await page.locator("#zk-phase", { hasText: "cold-loads" }).waitFor({ state: "attached" });
}

async function openFailoverTab(page) {
  await page.getByRole("tab", { name: "Failover: KRaft vs ZooKeeper" }).click();
}

/** Every view: its name, URL, browser options and how to bring it to the state checked. */
const VIEWS = [
  ["live cluster, paused with messages in flight", `?${PAUSED_LIVE}`, {}, pausedLive],
  ["live cluster, a node selected and a share link shown", `?${PAUSED_LIVE}`, {}, async (page) => {
    await pausedLive(page);
    await page.locator("svg.cluster g.node").first().click();
    await page.locator(".selected-name").waitFor();
    await page.locator("#share").click();
    await page.locator("#share-url").waitFor();
  }],
  ["live cluster, shortcuts overlay open", `?${PAUSED_LIVE}`, {}, async (page) => {
    await pausedLive(page);
    await page.keyboard.press("?");
    await page.getByRole("dialog").waitFor();
  }],
  ["failover race, idle", "", {}, async (page) => {
    await openFailoverTab(page);
    await raceReady(page);
  }],
  ["failover race, mid-race", `?${RACE_STILL}`, {}, raceMidway],
  ["failover race, finished", "", {}, async (page) => {
    await openFailoverTab(page);
    await raceReady(page);
    await page.keyboard.press("k");
    await page.getByRole("button", { name: "Skip to the end" }).click();
    await raceStage(page, /Both sides recovered/);
    await page.locator("#race-headline").waitFor();
  }],
  ...Array.from({ length: TOUR_STEPS }, (_, i) => [`tour step ${i + 1}`, `?tour=${i + 1}`, {}, async (page) => {
    await waitForText(page, "#tour-progress", `Step ${i + 1} of ${TOUR_STEPS}`);
    if (await page.locator(".pains-tab").count()) {
      await page.locator(".pains-tab :is(table.copies, table.authorizer)").waitFor();
    } else if (await page.locator("#race-guess").count()) {
      // The race's step holds before the kill at its question (a slider).
      await raceReady(page);
    } else if (await page.locator(".failover-tab").count()) {
      await raceStage(page, / since the kill|Both sides recovered/);
      await page.waitForFunction(() => !document.querySelector("#race-play")?.disabled || /recovered/.test(document.querySelector(".race-stage").textContent));
    } else if (!(await page.locator("#prediction .options").count())) {
      // A step held at its question has no leader to wait for yet.
      await waitForLeader(page, () => true).catch(() => {});
    }
  }]),
  ["tour step 4, a prediction answered wrong, its verdict", "?tour=4", {}, async (page) => {
    await page.locator("#prediction .options button").first().click();
    await page.locator("#prediction-verdict.missed").waitFor({ timeout: 60_000 });
  }],
  ["tour step 11, the race's prediction given, its verdict", "?tour=11", {}, async (page) => {
    await page.locator("#race-guess").waitFor({ timeout: 60_000 });
    await page.locator("#prediction-lock").click();
    await page.locator("#skip-to-end:not([disabled])").click();
    await page.locator("#prediction-verdict").waitFor({ timeout: 60_000 });
  }],
  ["tour step 12, the chapter's self-check answered right and wrong", "?tour=12", {}, async (page) => {
    await page.locator("#self-check summary").click();
    for (const check of await page.locator("#self-check .check").all()) await check.locator(".option").first().click();
    await page.locator("#self-check .verdict.missed").first().waitFor();
  }],
  ["presenter mode, live cluster", `?present=1&${PAUSED_LIVE}`, { viewport: { width: 1024, height: 768 } }, pausedLive],
  ["presenter mode, failover race mid-race", `?present=1&${RACE_STILL}`, { viewport: { width: 1024, height: 768 } }, raceMidway],
  ...["full", "min", "none"].flatMap((controls) => [
    [`embed 480 x 320, leader-crash, controls=${controls}`, `?embed=1&scenario=leader-crash&seed=7&controls=${controls}`, EMBED, pausedCluster],
    [`embed 480 x 320, failover mid-race, controls=${controls}`, `?embed=1&${RACE_STILL}&seed=7&controls=${controls}`, EMBED,
      (page) => waitForText(page, "#zk-stopwatch", "10.000 s", 120_000)],
  ]),
  ["embed 480 x 320, a ZooKeeper pain played", "?embed=1&scenario=zk-stale-cache", EMBED,
    (page) => page.locator("#pain-play[disabled]").waitFor({ timeout: 30_000 })],
  ["phone 375 x 667, live cluster", `?${PAUSED_LIVE}`, PHONE, pausedLive],
  ["phone 375 x 667, failover race mid-race", `?${RACE_STILL}`, PHONE, raceMidway],
  ["phone 375 x 667, tour step 4", "?tour=4", PHONE, (page) => waitForText(page, "#tour-progress", `Step 4 of ${TOUR_STEPS}`)],
  ["class mode 1024 x 768, a question with its QR code", "?class=1&tour=4", { viewport: { width: 1024, height: 768 } },
    (page) => page.locator("#class-question").waitFor({ timeout: 60_000 })],
  ["phone 375 x 667, a class question answered", "?ask=leader-crash", PHONE, async (page) => {
    await page.locator("#phone-question .option").first().click();
    await page.getByRole("button", { name: "Show the answer" }).click();
    await page.locator("#phone-verdict").waitFor();
  }],
];

// Each view in its own browser context, three at a time: most of a check is waiting for the
// view to reach its state.
describe("every view", { concurrency: 3 }, () => {
  for (const [name, query, options, prepare] of VIEWS) {
    test(`axe: no violations on ${name}`, async () => {
      const { page, errors, context } = await open(query, options);
      await prepare(page);
      await assertNoViolations(page, name);
      await screenshot(page, `a11y-${name.replace(/[^a-z0-9]+/gi, "-")}`);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
});

test("the axe check fails when a violation is put back into the page", async () => {
  const { page, errors, context } = await open("");
  await pausedCluster(page);
  await assertNoViolations(page, "the page as built");
  // Two of the violations the page once had: a control nested in another, a control unnamed.
  await page.evaluate(() => {
    const play = document.querySelector("button.play");
    const wrapper = document.createElement("div");
    wrapper.setAttribute("role", "button");
    wrapper.tabIndex = 0;
    play.replaceWith(wrapper);
    wrapper.append(play);
  });
  await assert.rejects(assertNoViolations(page, "a nested button"), /axe rule "nested-interactive"/);
  await page.evaluate(() => {
    const scrubber = document.querySelector("#scrubber");
    scrubber.closest("label")?.replaceWith(scrubber);
    scrubber.removeAttribute("aria-label");
    scrubber.removeAttribute("aria-labelledby");
    scrubber.removeAttribute("title");
  });
  await assert.rejects(assertNoViolations(page, "an unnamed slider"), /axe rule "label"|also violated: (.*, )?label(,|$)/m);
  assert.deepEqual(errors, []);
  await context.close();
});

test("what the drawing says to a screen reader: the summary, every message's name, the race's phases, the chart's table", async () => {
  const { page, errors, context } = await open("?speed=0.1&partitions=10000");
  const leader = await waitForLeader(page);
  const summary = page.locator(".cluster-summary[role=status]");
  await page.waitForFunction((l) => document.querySelector(".cluster-summary").textContent.startsWith(`n${l.id} leads at epoch ${l.epoch}; brokers at offset `), leader);
  // Quiet stretches fast-forward, so wait for a frame with messages drawn and read it there.
  const messages = await (await page.waitForFunction(() => {
    const drawn = [...document.querySelectorAll("svg.cluster g.message")].map((g) => ({
      // A label that cannot keep clear of the nodes and the other labels is left out.
      name: g.getAttribute("aria-label") ?? "", role: g.getAttribute("role"), label: g.querySelector(".message-label")?.textContent ?? "\\S+",
    }));
    return drawn.length > 0 ? drawn : null;
  }, null, { polling: "raf", timeout: 30_000 })).jsonValue();
  assert.ok(messages.length > 0, "messages are in flight");
  for (const m of messages) {
    assert.equal(m.role, "img");
    assert.match(m.name, new RegExp(`^${m.label} (@\\d+ |\\+\\d+ )?(lost on its way )?from n\\d+ to n\\d+: .{10,}`), `message ${m.label} is named`);
  }
  await page.getByRole("button", { name: "Kill active controller" }).click();
  await page.waitForFunction((id) => document.querySelector(".cluster-summary").textContent.includes(`n${id} is down`), leader.id);
  assert.match(await summary.textContent(), /^(no leader at epoch \d+|n\d+ leads at epoch \d+)/);

  await page.getByRole("tab", { name: "Failover: KRaft vs ZooKeeper" }).click();
  const phases = { kraft: new Set(), zk: new Set() };
  const note = async () => {
    phases.kraft.add(await page.locator("#kraft-phase").textContent());
    phases.zk.add(await page.locator("#zk-phase").textContent());
  };
  await page.locator("#zk-phase", { hasText: "healthy" }).waitFor({ state: "attached", timeout: 120_000 });
  await note();
  await page.keyboard.press("k");
  while ((await page.locator(".race-stage").textContent()) !== "Both sides recovered.") {
    await note();
    await page.keyboard.press("s");
  }
  await note();
  assert.ok(phases.kraft.size >= 4, `KRaft announced its phases: ${[...phases.kraft].join(" | ")}`);
  assert.ok(phases.zk.size >= 5, `ZooKeeper mode announced its phases: ${[...phases.zk].join(" | ")}`);
  assert.equal(await page.locator(".race-stage[role=status], .race-stage[aria-live]").count(), 0, "the per-frame clock is not a live region");
  const rows = await page.locator(".chart-table tbody tr").count();
  assert.equal(rows, await page.locator("svg.chart > circle.dot.kraft").count(), "one table row per point of the chart");
  assert.deepEqual(errors, []);
  await context.close();
});

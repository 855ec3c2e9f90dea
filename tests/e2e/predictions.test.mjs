// Predict, then watch: a tour step holds at its question; a click on a node, a button or a digit
// key answers it and the moment plays; "Just watch" plays on without an answer; the verdict
// names what happened, as the drawing shows it, in the tour panel's live region. The failover
// race's step holds before the kill for a prediction on a slider; a bridge release step holds its
// migration at its question, and the second door's step its pain.
// covers: src/web/prediction.rs src/web/race_question.rs src/web/tour.rs src/page/question.rs src/page/race/question.rs src/teaching/predictions.rs src/teaching/migration_predictions.rs src/teaching/pain_predictions.rs src/page/pains.rs
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, screenshot, shownLeader, waitForLeader } from "./browser.mjs";

const FIRST_ELECTION = "?tour=3";
const LEADER_CRASH = "?tour=4";
const FAILOVER = "?tour=11";

/** Thirty animation frames of the page: as many chances to play on as half a second gives. */
const frames = (page) => page.evaluate(() => new Promise((done) => {
  let n = 0;
  const next = () => (++n >= 30 ? done() : requestAnimationFrame(next));
  requestAnimationFrame(next);
}));

async function verdict(page) {
  await page.locator("#prediction-verdict").waitFor({ timeout: 60_000 });
  return page.locator("#prediction-verdict").textContent();
}

test("a tour step holds at its question; a click on a node answers it and the verdict names the leader", async () => {
  const { page, errors, context } = await open(FIRST_ELECTION);
  await page.locator("#prediction .options").waitFor();
  assert.match(await page.locator("#prediction-question").textContent(), /Which one will become the leader\?/);
  assert.equal(await page.locator("#tour-watch").count(), 0, "what to watch for, which would answer it, waits");
  const clock = await page.locator("#clock").textContent();
  await frames(page);
  assert.equal(await page.locator("#clock").textContent(), clock, "the step holds while the question is open");
  assert.equal(await page.locator("svg.cluster g.node text.role", { hasText: /^leader$/ }).count(), 0, "nobody leads yet");
  await screenshot(page, "prediction-asked");
  await page.locator('svg.cluster g.node[aria-label^="controller n1 "]').click();
  assert.match(await page.locator("#prediction .hint").textContent(), /You said n1\./);
  const said = await verdict(page);
  const leader = await waitForLeader(page);
  const right = leader.id === 1;
  assert.ok(said.startsWith(right ? "✓ Right: n1." : `✗ You said n1; it was n${leader.id}.`), said);
  assert.equal(await page.locator("#prediction-verdict").evaluate((v) => v.closest("[aria-live]") !== null), true, "the verdict is announced");
  assert.equal(await page.locator("svg.cluster g.node.selected").count(), 0, "the click answered; it selected nothing");
  await screenshot(page, "prediction-verdict");
  assert.deepEqual(errors, []);
  await context.close();
});

test("just watching plays on without an answer, and the page tells what happened", async () => {
  const { page, errors, context } = await open(LEADER_CRASH);
  await page.locator("#prediction .options").waitFor();
  await page.getByRole("button", { name: "Just watch" }).click();
  const said = await verdict(page);
  const leader = await shownLeader(page);
  assert.ok(said.startsWith(`The answer: epoch ${leader.epoch}.`), `${said} (leader ${JSON.stringify(leader)})`);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a question answered from the keyboard alone: a digit picks an option, Tab reaches every option", async () => {
  const { page, errors, context } = await open(LEADER_CRASH);
  await page.locator("#prediction .options").waitFor();
  const options = await page.locator("#prediction .options button").allTextContents();
  assert.deepEqual(options.slice(-1), ["Just watch"]);
  // Every option is a button in the tab order.
  for (const button of await page.locator("#prediction .options button").all()) {
    assert.equal(await button.evaluate((b) => b.tabIndex), 0);
  }
  await page.keyboard.press("2");
  assert.match(await page.locator("#prediction .hint").textContent(), new RegExp(`You said ${options[1]}\\.`));
  const said = await verdict(page);
  const leader = await shownLeader(page);
  const right = options[1] === `epoch ${leader.epoch}`;
  assert.ok(said.startsWith(right ? `✓ Right: ${options[1]}.` : `✗ You said ${options[1]}; it was epoch ${leader.epoch}.`), said);
  assert.deepEqual(errors, []);
  await context.close();
});

test("the race step holds before the kill; the slider, from the keyboard, predicts; the verdict names the race's result", async () => {
  const { page, errors, context } = await open(FAILOVER, { viewport: { width: 1024, height: 768 } });
  await page.locator("#race-guess").waitFor({ timeout: 60_000 });
  assert.match(await page.locator("#prediction-question").textContent(), /Which side will have its controller back first/);
  assert.equal(await page.locator("#tour-watch").count(), 0, "what to watch for waits while the question is open");
  // Both clusters built and healthy, the race holds: no kill, the stopwatch stands at zero.
  await page.locator("#zk-phase", { hasText: "healthy" }).waitFor({ state: "attached", timeout: 120_000 });
  await frames(page);
  assert.equal(await page.locator("#zk-stopwatch").textContent(), "0.000 s", "the race holds at its question");
  // Keyboard only: focus the slider, End (KRaft 1000x sooner), then four steps back.
  await page.locator("#race-guess").focus();
  await page.keyboard.press("End");
  await page.locator("#race-guess-label", { hasText: "KRaft, 1000× sooner" }).waitFor();
  for (let i = 0; i < 10; i += 1) await page.keyboard.press("ArrowLeft");
  await page.locator("#race-guess-label", { hasText: "KRaft, 100× sooner" }).waitFor();
  assert.match(await page.locator("#tour-progress").textContent(), /Step 11 of/, "the arrows moved the slider, not the tour");
  assert.equal(await page.locator("#race-guess").getAttribute("aria-valuetext"), "KRaft, 100× sooner");
  await screenshot(page, "prediction-race-asked-1024x768");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "prediction-lock");
  await page.keyboard.press("Enter");
  assert.match(await page.locator("#prediction .hint").textContent(), /You said KRaft, 100× sooner\. Watch\./);
  await page.locator("#skip-to-end:not([disabled])").click();
  const said = await verdict(page);
  const headline = await page.locator("#race-headline").textContent();
  const drawn = headline.match(/^.*?(sooner|same time)/)[0];
  assert.ok(said.includes(drawn), `the verdict names the drawn result: ${said} / ${headline}`);
  assert.match(said, /^(✓ Right|✗ You said KRaft, 100× sooner\.)/);
  assert.equal(await page.locator("#prediction-verdict").evaluate((v) => v.closest("[aria-live]") !== null), true, "the verdict is announced");
  await screenshot(page, "prediction-race-verdict-1024x768");
  assert.deepEqual(errors, []);
  await context.close();
});

test("the race's question: W just watches and the race plays on", async () => {
  const { page, errors, context } = await open(FAILOVER);
  await page.locator("#race-guess").waitFor({ timeout: 60_000 });
  await page.locator("#tour-title").click();
  await page.keyboard.press("w");
  await page.locator("#tour-watch.seen").waitFor({ timeout: 120_000 });
  assert.match(await page.locator("#race-play").textContent(), /Pause/, "the race plays on");
  assert.equal(await page.locator("#race-guess").count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a bridge release step holds its migration at the question; a digit answers it and the verdict matches the drawing", async () => {
  const { page, errors, context } = await open("?tour=23");
  await page.locator("#prediction .options").waitFor({ timeout: 60_000 });
  await page.locator(".migration-tab").waitFor();
  assert.match(await page.locator("#prediction-question").textContent(), /where does broker 1, still in ZooKeeper mode, get its metadata from\?/);
  assert.equal(await page.locator("#tour-watch").count(), 0, "what to watch for, which would answer it, waits");
  const clock = await page.locator("#mig-clock").textContent();
  await frames(page);
  assert.equal(await page.locator("#mig-clock").textContent(), clock, "the migration holds while the question is open");
  await screenshot(page, "prediction-migration-asked");
  await page.keyboard.press("1");
  const said = await verdict(page);
  assert.ok(said.startsWith("✓ Right: UpdateMetadata and LeaderAndIsr from the KRaft controller."), said);
  await page.locator("#tour-watch.seen").waitFor();
  const driver = await page.locator(".migration-tab").getAttribute("data-driver");
  assert.match(driver, /KRAFT_CONTROLLER_TO_BROKER_COMM|DUAL_WRITE/, "the KRaft controller talks to the brokers");
  await screenshot(page, "prediction-migration-verdict");
  assert.deepEqual(errors, []);
  await context.close();
});

test("the second door's step holds its pain at the question; a wrong answer gets the verdict the authorizer table shows", async () => {
  const { page, errors, context } = await open("?tour=18");
  await page.locator("#prediction .options").waitFor({ timeout: 60_000 });
  await page.locator('.pains-tab[data-pain="zk-security"]').waitFor();
  assert.match(await page.locator("#prediction-question").textContent(), /Asked again a second later, what does broker 0 answer\?/);
  assert.doesNotMatch(await page.locator(".tour .narration").textContent(), /obey/, "the narration keeps the outcome for the verdict");
  const clock = await page.locator("#pain-clock").textContent();
  await frames(page);
  assert.equal(await page.locator("#pain-clock").textContent(), clock, "the pain holds while the question is open");
  assert.equal(await page.locator("table.authorizer").evaluate((t) => Number(t.dataset.allowed)), 0);
  await screenshot(page, "prediction-pain-asked");
  await page.keyboard.press("2");
  const said = await verdict(page);
  assert.ok(said.startsWith("✗ You said DENIED: no Kafka request ever granted it; it was ALLOWED"), said);
  assert.equal(await page.locator("table.authorizer").evaluate((t) => Number(t.dataset.allowed)), 4, "every broker allows her, as the verdict says");
  assert.match(await page.locator(".tour .narration").textContent(), /The brokers obey it/);
  await screenshot(page, "prediction-pain-verdict");
  assert.deepEqual(errors, []);
  await context.close();
});

// Predict, then watch: a tour step holds at its question; a click on a node, a button or a digit
// key answers it and the moment plays; "Just watch" plays on without an answer; the verdict
// names what happened, as the drawing shows it, in the tour panel's live region.
// covers: src/web/prediction.rs src/web/tour.rs src/page/question.rs src/session/predictions.rs
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, screenshot, shownLeader, waitForLeader } from "./browser.mjs";

const FIRST_ELECTION = "?tour=3";
const LEADER_CRASH = "?tour=4";

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
  await page.waitForTimeout(500);
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

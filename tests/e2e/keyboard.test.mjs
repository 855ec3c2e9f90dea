// The page by keyboard alone: start the tour and step through it, kill and restart nodes, scrub
// the timeline, run the failover race, open and close the shortcuts overlay, with no pointer.
// At every stop the test asserts where focus is and that it is visibly marked; at the end, Tab
// goes all the way round the page and back (no trap). The migration view too: its scenario,
// playback, scrubber and the operator's steps by keyboard.
// covers: src/web/keys.rs src/web/focus.rs src/web/help.rs src/web/migration_tab.rs
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, screenshot, waitForLeader, waitForText } from "./browser.mjs";

/** Where focus is: a short description, and whether a focus style is drawn (an outline of at
 *  least 2 px, or for a node of the drawing its highlighted shape). */
const focusNow = (page) => page.evaluate(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return { what: "body", visible: false };
  const label = el.getAttribute("aria-label") ?? el.textContent.trim().slice(0, 40);
  const what = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""} "${label}"`;
  const style = getComputedStyle(el);
  const outlined = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
  const shape = el.matches("g.node") ? getComputedStyle(el.querySelector(".shape")) : null;
  const ringed = shape !== null && shape.stroke === "rgb(179, 92, 0)" && parseFloat(shape.strokeWidth) >= 4;
  return { what, label, id: el.id, visible: el.matches(":focus-visible") && (outlined || ringed) };
});

/** Asserts focus is on an element matching `expected` (a regular expression of its
 *  description), visibly marked. */
async function assertFocus(page, expected, step) {
  const now = await focusNow(page);
  assert.match(now.what, expected, `${step}: focus is on ${now.what}`);
  assert.ok(now.visible, `${step}: the focus on ${now.what} is visibly marked`);
  return now;
}

/** Waits up to 5 s for focus to land on an element matching `expected` (the page moves it there
 *  in a later task, once it has re-rendered), then asserts it as `assertFocus` does. */
async function assertFocusLands(page, expected, step) {
  for (const deadline = Date.now() + 5_000; !expected.test((await focusNow(page)).what) && Date.now() < deadline; ) {
    await page.waitForTimeout(20);
  }
  return assertFocus(page, expected, step);
}

/** Presses Tab (or Shift+Tab) until focus is on an element matching `expected`, checking every
 *  stop on the way is visibly marked; fails after `max` presses. */
async function tabTo(page, expected, step, { back = false, max = 80 } = {}) {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    const now = await focusNow(page);
    if (now.what !== "body") assert.ok(now.visible, `${step}: passing ${now.what}, its focus is visibly marked`);
    if (expected.test(now.what)) return now;
  }
  assert.fail(`${step}: no ${expected} within ${max} presses of ${back ? "Shift+Tab" : "Tab"}`);
}

/** No trap: Tab goes round the whole page and comes back to where it started; the stops passed. */
async function roundTrip(page) {
  const start = (await focusNow(page)).what;
  let stops = 0;
  for (;;) {
    await page.keyboard.press("Tab");
    stops += 1;
    const now = await focusNow(page);
    if (now.what === start) break;
    assert.ok(stops < 150, `Tab never came back to ${start} (stuck at ${now.what})`);
  }
  return stops;
}

test("a keyboard-only walk: tour, nodes, timeline, failover race and shortcuts, focus visible at every stop, no trap", async () => {
  const { page, errors, context } = await open();
  await page.locator("svg.cluster g.node").first().waitFor();

  // Start the tour: focus lands on Next; Enter and the arrow keys step, focus stays on Next.
  await tabTo(page, /button#start-tour "Guided tour"/, "reach the tour button");
  await page.keyboard.press("Enter");
  // Step 1 is the race, which the full page carries: the first screen shows the step and hands
  // over at its link (a reload). A key pressed before the full page is there would go to the
  // page being left, so the walk goes on once it is.
  await page.waitForURL(/[?&]full=1/, { timeout: 60_000 });
  await waitForText(page, "#tour-progress", "Step 1 of 26");
  await assertFocusLands(page, /button#tour-next "Next"/, "the tour opened on the full page");
  await page.keyboard.press("Enter");
  await waitForText(page, "#tour-progress", "Step 2 of 26");
  await assertFocus(page, /button#tour-next/, "tour step 2");
  await page.keyboard.press("ArrowRight");
  await waitForText(page, "#tour-progress", "Step 3 of 26");
  await page.keyboard.press("Enter");
  await waitForText(page, "#tour-progress", "Step 4 of 26");
  await assertFocus(page, /button#tour-next/, "tour step 4");
  await tabTo(page, /button#tour-back "Back"/, "reach Back", { back: true });
  await page.keyboard.press("Enter");
  await waitForText(page, "#tour-progress", "Step 3 of 26");
  await assertFocus(page, /button#tour-back/, "tour step 3 by Back");
  await tabTo(page, /button "Leave the tour"/, "reach Leave the tour");
  await page.keyboard.press("Enter");
  await page.locator(".tour").waitFor({ state: "detached" });
  await assertFocusLands(page, /button#start-tour "Guided tour"/, "left the tour: focus back on its button");

  // Crash and restart a controller: Tab to it in the drawing, Enter selects it, then its
  // Crash button, which becomes Restart in place.
  const node = await tabTo(page, /g "controller n1 /, "reach controller n1 in the drawing");
  await page.keyboard.press("Enter");
  await page.locator(".selected-name", { hasText: "Selected: n1" }).waitFor();
  await assertFocus(page, /g "controller n1 /, "n1 selected");
  assert.ok(node.label.startsWith("controller n1"));
  await tabTo(page, /button "Crash n1"/, "reach Crash n1");
  await page.keyboard.press("Enter");
  await page.locator('svg.cluster g.node.role-down[aria-label^="controller n1 "]').waitFor();
  await assertFocus(page, /button "Restart n1"/, "n1 crashed: the same button now restarts it");
  await page.keyboard.press("Enter");
  await page.locator('svg.cluster g.node:not(.role-down)[aria-label^="controller n1 "]').waitFor();
  await assertFocus(page, /button "Crash n1"/, "n1 restarted");
  // K kills whichever controller is active: wait for one (n1 may have led, and its restart
  // started an election, when K is refused and says so until a leader is elected).
  await waitForLeader(page);
  await page.keyboard.press("k");
  await page.locator(".notice", { hasText: "Killed the active controller" }).waitFor();
  await assertFocus(page, /button "Crash n1"/, "K killed the active controller, focus unmoved");

  // Scrub the timeline back with the arrow keys and Home, and pause with Space on Play.
  await tabTo(page, /button "(Pause|Play)"/, "reach Play / Pause", { back: true });
  if ((await page.locator("section.timeline .play").textContent()) === "Pause") await page.keyboard.press(" ");
  await page.locator("section.timeline .play", { hasText: "Play" }).waitFor();
  await assertFocus(page, /button "Play"/, "paused with Space on the button");
  await tabTo(page, /input#scrubber/, "reach the timeline");
  const end = await page.locator("#clock").textContent();
  await page.keyboard.press("Home");
  await page.waitForFunction((t) => document.querySelector("#clock").textContent !== t, end);
  assert.match(await page.locator("#clock").textContent(), /^0\.000 s of /, "Home scrubs to the start");
  await page.keyboard.press("ArrowRight");
  await assertFocus(page, /input#scrubber/, "scrubbed");
  await screenshot(page, "keyboard-scrubbed");

  // The shortcuts overlay: ? opens it with focus on Close, Tab stays inside; its switch turns
  // single-key shortcuts off (WCAG 2.1.4); Escape closes it and focus goes back to the timeline,
  // where ? then does nothing.
  await page.keyboard.press("?");
  await page.getByRole("dialog").waitFor();
  await assertFocus(page, /button#help-close "Close"/, "the shortcuts overlay opened");
  await page.keyboard.press("Tab");
  await assertFocus(page, /input#character-keys/, "Tab goes to the shortcut switch");
  await page.keyboard.press("Tab");
  await assertFocus(page, /button#help-close/, "Tab stays in the dialog");
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press(" ");
  assert.equal(await page.locator("#character-keys").isChecked(), false, "Space unticks the switch");
  await assertFocus(page, /input#character-keys/, "the switch keeps focus");
  await screenshot(page, "keyboard-shortcuts-overlay");
  await page.keyboard.press("Escape");
  await page.getByRole("dialog").waitFor({ state: "detached" });
  await assertFocus(page, /input#scrubber/, "the overlay closed: focus is back");
  await page.keyboard.press("?");
  await page.waitForTimeout(300);
  assert.equal(await page.getByRole("dialog").count(), 0, "with single-key shortcuts off, ? does nothing");

  // The failover race: the tab by Enter, the smallest size with Home on its slider, Kill both,
  // Skip to the end.
  await tabTo(page, /button "Failover: KRaft vs ZooKeeper"/, "reach the failover tab", { back: true, max: 40 });
  await page.keyboard.press("Enter");
  await page.locator(".failover-tab").waitFor();
  await assertFocus(page, /button "Failover: KRaft vs ZooKeeper"/, "the failover tab opened");
  await tabTo(page, /input#partitions/, "reach the partitions slider");
  await page.keyboard.press("Home");
  await waitForText(page, "#partition-count", "10");
  await page.locator("#kill-both:not([disabled])").waitFor({ timeout: 60_000 });
  await tabTo(page, /button#kill-both/, "reach Kill both");
  await page.keyboard.press("Enter");
  await page.locator("#kraft-phase", { hasText: /fetch timeout|pre-votes|votes|won|back/ }).waitFor({ state: "attached" });
  await tabTo(page, /button#skip-to-end/, "reach Skip to the end");
  await page.keyboard.press("Enter");
  await waitForText(page, ".race-stage", "Both sides recovered.", 60_000);
  await assertFocus(page, /button#skip-to-end/, "the race finished with focus where it was");
  assert.match(await page.locator("#race-headline").textContent(), /sooner|same time/);
  assert.match(await page.locator("#zk-phase").textContent(), /ZooKeeper mode: back/);

  assert.ok((await roundTrip(page)) > 10, "the round trip passes more than 10 stops");
  assert.deepEqual(errors, []);
  await context.close();
});

test("the migration by keyboard alone: scenario, play, scrubber, an operator's step Kafka refuses; focus visible, no trap", async () => {
  const { page, errors, context } = await open("?scenario=migration&t=30000");
  await page.locator("#mig-play").waitFor();
  await tabTo(page, /select#mig-scenario/, "reach the scenario list");
  await tabTo(page, /button#mig-play "Play"/, "reach Play");
  await page.keyboard.press("Enter");
  await waitForText(page, "#mig-play", "Pause");
  await page.keyboard.press("Enter");
  await waitForText(page, "#mig-play", "Play");
  await assertFocus(page, /button#mig-play "Play"/, "paused again, focus where it was");
  const before = await page.locator("#mig-clock").textContent();
  await tabTo(page, /input#mig-scrub/, "reach the scrubber");
  for (let i = 0; i < 5; i += 1) await page.keyboard.press("ArrowLeft");
  await page.waitForFunction((was) => document.querySelector("#mig-clock").textContent !== was, before);
  await assertFocus(page, /input#mig-scrub/, "the scrubber moved the clock, focus kept");
  // In dual-write the controllers run already: provisioning them is refused, and says why.
  await tabTo(page, /button "provision the KRaft controllers in migration mode"/, "reach step 1's button");
  await page.keyboard.press("Enter");
  await page.locator("#mig-refusal", { hasText: /refused/ }).waitFor();
  await assertFocus(page, /button "provision the KRaft controllers/, "the refusal said, focus kept");

  assert.ok((await roundTrip(page)) > 20, "the round trip passes more than 20 stops");
  await screenshot(page, "migration-keyboard");
  assert.deepEqual(errors, []);
  await context.close();
});

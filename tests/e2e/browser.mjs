// Shared set-up of the browser tests: one headless Debian Chromium for the whole run, pages that
// record console errors, and screenshots saved as artifacts. `cargo xtask test` serves dist/ and
// sets KRAFTSCOPE_URL, KRAFTSCOPE_ARTIFACTS and CHROMIUM_PATH.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import { FLAGS, executablePath } from "./chromium.mjs";

export const baseUrl = process.env.KRAFTSCOPE_URL;
/** The guided tour's steps (`src/teaching/stories.rs`, `TOUR`). */
export const TOUR_STEPS = 26;
const artifacts = process.env.KRAFTSCOPE_ARTIFACTS ?? path.resolve("target/e2e-artifacts");
let browser;

before(async () => {
  assert.ok(baseUrl, "KRAFTSCOPE_URL must point at the served dist/ (use `cargo xtask test`)");
  mkdirSync(artifacts, { recursive: true });
  browser = await chromium.launch({ executablePath, headless: true, args: FLAGS });
});

after(async () => {
  await browser?.close();
});

/** A fresh browser context (no shared state) with the given viewport and options. The page's
 *  service worker (offline use) is blocked unless `serviceWorkers: "allow"` asks for it: it
 *  would fetch every file of dist/ in each context, and tests/e2e/offline.test.mjs covers it. */
export async function freshContext(options = {}) {
  return browser.newContext({ viewport: { width: 1280, height: 720 }, serviceWorkers: "block", ...options });
}

/**
 * Opens `query` (relative to the page) in a fresh context, collecting console errors.
 * `init`, if given, is `[script, arg]` for `addInitScript`: it runs before the page's own scripts.
 */
export async function open(query = "", options = {}, init = undefined) {
  const context = await freshContext(options);
  if (init) await context.addInitScript(...init);
  const page = await context.newPage();
  const errors = collectErrors(page);
  await page.goto(new URL(query, baseUrl).href);
  return { page, errors, context };
}

/** The console errors and uncaught exceptions of `page`, collected from now on. */
export function collectErrors(page) {
  const errors = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console.error: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`uncaught: ${error.message}`));
  return errors;
}

/** Saves a full-page screenshot as an artifact. */
export async function screenshot(page, name) {
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
}

/** Waits until the element at `selector` shows exactly `text`; if it does not, the error says
 *  what it showed instead, where the keyboard was and what the status line said. */
export async function waitForText(page, selector, text, timeout = 30_000) {
  try {
    await page.waitForFunction(([s, t]) => document.querySelector(s)?.textContent === t, [selector, text], { timeout });
  } catch (error) {
    const seen = await page.evaluate((s) => {
      const focused = document.activeElement;
      return JSON.stringify({
        shown: document.querySelector(s)?.textContent ?? null,
        focus: focused ? `${focused.tagName.toLowerCase()}#${focused.id} ${focused.getAttribute("aria-label") ?? ""}` : null,
        status: document.querySelector(".notice[role=status]")?.textContent ?? null,
        url: location.search,
      });
    }, selector).catch((e) => `(the page could not be read: ${e.message})`);
    throw new Error(`${selector} never showed ${JSON.stringify(text)} in ${timeout} ms; the page: ${seen}`, { cause: error });
  }
}

/**
 * In the page: records every text the element at `selector` shows, in order, however briefly.
 * Run it before the moment of interest (`page.evaluate`, or `open`'s `init` to catch the very
 * first render), then wait with `waitForShown`: a text shown for less than playwright's polling
 * interval can otherwise be missed.
 */
export function recordTexts(selector) {
  // Kept in the tab's sessionStorage, so the record goes on across the first screen's hand-over
  // to the full page (a reload).
  const key = `textsShown ${selector}`;
  window.textsShown ??= {};
  const shown = (window.textsShown[selector] = JSON.parse(sessionStorage.getItem(key) ?? "[]"));
  const note = () => {
    const text = document.querySelector(selector)?.textContent;
    if (text && text !== shown.at(-1)) {
      shown.push(text);
      sessionStorage.setItem(key, JSON.stringify(shown));
    }
  };
  note();
  new MutationObserver(note).observe(document, { subtree: true, childList: true, characterData: true });
}

/** Waits until `recordTexts(selector)` has recorded a text matching `pattern`. */
export async function waitForShown(page, selector, pattern, timeout = 30_000) {
  const matches = ([s, source]) => (window.textsShown?.[s] ?? []).some((t) => new RegExp(source).test(t));
  await page.waitForFunction(matches, [selector, pattern.source], { timeout });
}

/** The aria-labels of the cluster view's nodes, joined. */
const nodeLabels = (page) => page.locator("svg.cluster g.node").evaluateAll((nodes) => nodes.map((n) => n.getAttribute("aria-label")).join("|"));

function leaderIn(labels) {
  for (const label of labels.split("|")) {
    const match = /^controller (?:and broker )?n(\d+) LEADER, epoch (\d+),/.exec(label);
    if (match) return { id: Number(match[1]), epoch: Number(match[2]) };
  }
  return null;
}

/** The leader shown in the cluster view: { id, epoch }, or null. */
export async function shownLeader(page) {
  return leaderIn(await nodeLabels(page));
}

/** Waits until the cluster view shows a leader satisfying `accept`, and returns it: checks
 *  again each time the nodes' labels change. */
export async function waitForLeader(page, accept = () => true, timeout = 60_000) {
  const deadline = Date.now() + timeout;
  let labels = await nodeLabels(page);
  for (;;) {
    const leader = leaderIn(labels);
    if (leader && accept(leader)) return leader;
    const left = deadline - Date.now();
    if (left <= 0) assert.fail(`no leader matching the condition within ${timeout} ms (last: ${JSON.stringify(leader)})`);
    await page.waitForFunction((previous) => [...document.querySelectorAll("svg.cluster g.node")]
      .map((n) => n.getAttribute("aria-label")).join("|") !== previous, labels, { timeout: left })
      .catch(() => {});
    labels = await nodeLabels(page);
  }
}

/** In the page: whether controller n`id`'s log (drawn in its label, "log 0..123") reaches the
 *  leader's end, as AddRaftVoter's caught-up check asks. For `waitForFunction`. */
export function caughtUpWithLeader(id) {
  const end = (label) => Number(/log \d+\.\.(\d+)/.exec(label ?? "")?.[1] ?? -1);
  const labels = [...document.querySelectorAll("svg.cluster g.node")].map((n) => n.getAttribute("aria-label"));
  const leader = labels.find((l) => / LEADER,/.test(l));
  const node = labels.find((l) => l.startsWith(`controller n${id} `));
  return Boolean(leader && node && end(node) >= end(leader));
}

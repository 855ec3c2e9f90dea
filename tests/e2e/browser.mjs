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

/** A fresh browser context (no shared state) with the given viewport and options. */
export async function freshContext(options = {}) {
  return browser.newContext({ viewport: { width: 1280, height: 720 }, ...options });
}

/** Opens `query` (relative to the page) in a fresh context, collecting console errors. */
export async function open(query = "", options = {}) {
  const context = await freshContext(options);
  const page = await context.newPage();
  const errors = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console.error: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`uncaught: ${error.message}`));
  await page.goto(new URL(query, baseUrl).href);
  return { page, errors, context };
}

/** Saves a full-page screenshot as an artifact. */
export async function screenshot(page, name) {
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
}

/** The leader shown in the cluster view: { id, epoch }, or null. */
export async function shownLeader(page) {
  const labels = await page.locator("svg.cluster g.node").evaluateAll((nodes) => nodes.map((n) => n.getAttribute("aria-label")));
  for (const label of labels) {
    const match = /^controller n(\d+) LEADER, epoch (\d+)$/.exec(label ?? "");
    if (match) return { id: Number(match[1]), epoch: Number(match[2]) };
  }
  return null;
}

/** Waits until the cluster view shows a leader satisfying `accept`, and returns it. */
export async function waitForLeader(page, accept = () => true, timeout = 60_000) {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    const leader = await shownLeader(page);
    if (leader && accept(leader)) return leader;
    await page.waitForTimeout(100);
  }
  assert.fail(`no leader matching the condition within ${timeout} ms (last: ${JSON.stringify(await shownLeader(page))})`);
}


// Readable type where the page is used small and large: every text of the drawing measured as
// rendered (its font size times the drawing's scale on screen), in a 480 x 320 docs embed, on a
// 375 x 667 phone and in presenter mode at 1024 x 768 (names at least 20 px, other text at least
// 14 px, the headline at least 28 px, the drawing above the fold); an embed never scrolls.
// covers: www/style.css src/web/cluster_view.rs src/web/node_view.rs src/web/app.rs src/session/layout.rs src/session/text_fit.rs
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, screenshot, waitForLeader } from "./browser.mjs";

/** Every text drawn in the drawings matching `selector`: its words, class and rendered size in px. */
const drawnTexts = (page, selector) => page.evaluate((selector) =>
  [...document.querySelectorAll(`${selector} text`)]
    .filter((t) => t.textContent.trim() && t.getBoundingClientRect().height > 0)
    .map((t) => ({
      text: t.textContent.trim().slice(0, 30),
      name: t.classList.contains("name"),
      px: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a,
    })), selector);

/** The texts of `texts` under `px`, described for a failure message. */
const under = (texts, px) => texts.filter((t) => t.px < px - 0.05).map((t) => `"${t.text}" ${t.px.toFixed(1)} px`);

const documentSize = (page) => page.evaluate(() => ({
  width: document.documentElement.scrollWidth,
  height: document.documentElement.scrollHeight,
}));

test("a 480 x 320 embed of a scenario: every text of the drawing at least 11 px, and no scrolling", async () => {
  const { page, errors, context } = await open("?embed=1&scenario=leader-crash&seed=7&autoplay=1", { viewport: { width: 480, height: 320 } });
  await page.locator("svg.cluster.compact g.node").first().waitFor();
  await page.waitForTimeout(1500);
  const texts = await drawnTexts(page, "svg.cluster");
  assert.ok(texts.length >= 12, `names, roles and epochs drawn: ${texts.length} texts`);
  assert.deepEqual(under(texts, 11), [], "texts under 11 px");
  const size = await documentSize(page);
  assert.ok(size.height <= 320 && size.width <= 480, `the document is ${size.width} x ${size.height} in a 480 x 320 frame`);
  await screenshot(page, "readable-embed-480x320");
  assert.deepEqual(errors, []);
  await context.close();
});

test("on a 375 x 667 phone: every text of the drawing at least 11 px", async () => {
  const { page, errors, context } = await open("?t=8000&autoplay=0", { viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true });
  await page.locator("svg.cluster.compact g.node").first().waitFor();
  const texts = await drawnTexts(page, "svg.cluster");
  assert.ok(texts.length >= 12, `names, roles and epochs drawn: ${texts.length} texts`);
  assert.deepEqual(under(texts, 11), [], "texts under 11 px");
  await screenshot(page, "readable-phone-375x667");
  assert.deepEqual(errors, []);
  await context.close();
});

test("presenter mode at 1024 x 768: names 20 px, other text 14 px, headline 28 px, the drawing above the fold", async () => {
  const { page, errors, context } = await open("?present=1&t=8000&autoplay=0", { viewport: { width: 1024, height: 768 } });
  await waitForLeader(page);
  const texts = await drawnTexts(page, "svg.cluster");
  assert.ok(texts.length >= 20, `every detail drawn: ${texts.length} texts`);
  assert.deepEqual(under(texts.filter((t) => t.name), 20), [], "node names under 20 px");
  assert.deepEqual(under(texts.filter((t) => !t.name), 14), [], "other texts under 14 px");
  const headline = await page.locator("h1").evaluate((h) => parseFloat(getComputedStyle(h).fontSize));
  assert.ok(headline >= 28, `the headline is ${headline} px`);
  const drawing = await page.locator("svg.cluster").boundingBox();
  assert.ok(drawing.y + drawing.height <= 768, `the drawing ends at ${drawing.y + drawing.height} px, below the fold`);
  await screenshot(page, "readable-presenter-1024x768");
  assert.deepEqual(errors, []);
  await context.close();
});

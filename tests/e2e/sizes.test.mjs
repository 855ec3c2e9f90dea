// The page at the sizes it is used at: presenter mode in a room (1024 x 768), laptops
// (1280 x 720, 1024 x 768) and a phone (375 x 667).
// covers: www/style.css src/web/app.rs
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, screenshot, waitForLeader } from "./browser.mjs";

/** Rendered font size, in CSS pixels, of the first element matching `selector` in the drawing. */
const renderedFontSize = (page, selector) => page.evaluate((selector) => {
  const text = document.querySelector(`svg.cluster ${selector}`);
  const scale = document.querySelector("svg.cluster").getScreenCTM().a;
  return parseFloat(getComputedStyle(text).fontSize) * scale;
}, selector);

const inViewport = (page, locator) => locator.evaluate((element) => {
  const r = element.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
});

test("presenter mode at 1024 x 768: large node names, log strips kept, side panel folded below", async () => {
  const { page, errors, context } = await open("?present=1", { viewport: { width: 1024, height: 768 } });
  await waitForLeader(page);
  const name = await renderedFontSize(page, "g.node .name");
  assert.ok(name >= 20, `node names are ${name.toFixed(1)} px`);
  const stripsShown = () => {
    const strips = [...document.querySelectorAll("svg.cluster g.log")];
    return strips.length >= 3 && strips.every((g) => getComputedStyle(g).display !== "none" && g.getBoundingClientRect().height > 10);
  };
  await page.waitForFunction(stripsShown, null, { timeout: 10_000 }).catch(() => {});
  assert.ok(await page.evaluate(stripsShown), "every controller's log strip is shown");
  await page.locator("svg.cluster g.log line.hw").first().waitFor({ state: "attached" });
  const drawing = await page.locator("svg.cluster").boundingBox();
  const side = await page.locator("aside.side").boundingBox();
  assert.ok(drawing.width >= 0.9 * 1024 - 40, `the drawing takes the width (${drawing.width} px)`);
  assert.ok(side.y >= drawing.y + drawing.height, "the side panel is folded below the drawing");
  for (const name of ["Pause", "Step one event"]) {
    assert.ok(await inViewport(page, page.getByRole("button", { name })), `${name} is in view`);
  }
  await screenshot(page, "presenter-1024x768");
  assert.deepEqual(errors, []);
  await context.close();
});

for (const [width, height] of [[1280, 720], [1024, 768]]) {
  for (const query of ["", "?voters=7&brokers=12"]) {
    test(`at ${width} x ${height}${query ? ` with ${query}` : ""} play, step, speed and the timeline are in view`, async () => {
      const { page, errors, context } = await open(query, { viewport: { width, height } });
      await waitForLeader(page);
      for (const [what, locator] of [
        ["the transport bar", page.locator("section.timeline")],
        ["Pause", page.getByRole("button", { name: "Pause" })],
        ["Step", page.getByRole("button", { name: "Step one event" })],
        ["the speed", page.locator("section.timeline .speed input")],
        ["the timeline", page.locator("#scrubber")],
      ]) {
        assert.ok(await inViewport(page, locator), `${what} is inside the viewport`);
      }
      await screenshot(page, `transport-${width}x${height}${query ? "-7x12" : ""}`);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
}

test("on a 375 x 667 phone: no sideways scroll (live cluster and race), Kill and Play on the first screen, legend reachable", async () => {
  const { page, errors, context } = await open("", { viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true });
  await waitForLeader(page);
  await screenshot(page, "phone-375x667");
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: innerWidth }));
  assert.ok(widths.scroll <= widths.inner, `page is ${widths.scroll} px wide in a ${widths.inner} px viewport`);
  const drawing = await page.locator("svg.cluster").boundingBox();
  assert.ok(drawing.width <= 375, `the drawing fits the width (${drawing.width} px)`);
  for (const name of ["Kill active controller", "Pause"]) {
    assert.ok(await inViewport(page, page.getByRole("button", { name }).first()), `${name} is on the first screen`);
  }
  for (const tab of await page.getByRole("tab").all()) {
    assert.ok(await inViewport(page, tab), `the tab "${await tab.textContent()}" is in view, not past the edge`);
  }
  const legend = page.locator(".legend");
  await legend.scrollIntoViewIfNeeded();
  assert.ok(await legend.isVisible(), "the legend can be scrolled to");
  assert.ok((await page.locator(".legend .legend-label").count()) > 10);
  await page.getByRole("tab", { name: "Failover: KRaft vs ZooKeeper" }).click();
  await page.locator("#kraft-roles").waitFor();
  // A mobile browser widens the layout viewport (innerWidth) to fit wide content: compare with
  // the device's 375 px.
  const race = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(race <= 375, `the race's controls make the page ${race} px wide on a 375 px phone`);
  assert.deepEqual(errors, []);
  await context.close();
});

test("presenter mode at 1024 x 768 (#61 item 10): the status line and Save picture never move the drawing; the legend reads at 14 px", async () => {
  const { page, errors, context } = await open("?present=1", { viewport: { width: 1024, height: 768 } });
  await waitForLeader(page);
  await page.getByRole("button", { name: "Pause" }).click();
  const where = () => page.evaluate(() => ({ top: document.querySelector("svg.cluster").getBoundingClientRect().top, scroll: scrollY }));
  const before = await where();
  await page.keyboard.press("k");
  await page.locator("div.notice[role=status]").filter({ hasText: "Killed the active controller" }).waitFor();
  assert.deepEqual(await where(), before, "the status line appeared without moving the drawing");
  await page.keyboard.press("e");
  await page.locator("#still-form").waitFor();
  assert.deepEqual(await where(), before, "the Save picture form opened without scrolling the drawing away");
  assert.ok(await inViewport(page, page.locator("#still-form")), "the form is on the screen");
  const legend = await page.locator(".legend").evaluate((l) => parseFloat(getComputedStyle(l).fontSize));
  assert.ok(legend >= 14, `the legend is ${legend} px`);
  await screenshot(page, "presenter-status-and-still-form");
  assert.deepEqual(errors, []);
  await context.close();
});

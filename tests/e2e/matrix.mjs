// The readability matrix (#61): every view at every size a person uses it at, measured as
// rendered. Per view and size it prints the smallest text, the texts that overlap, the texts cut
// by their box and whether what the view promises is on the first screen, and it fails on any
// cell over the limits.
import { test } from "node:test";
import assert from "node:assert/strict";
import { freshContext, baseUrl, screenshot } from "./browser.mjs";

/** The sizes: [name, viewport, context options, query added (embed, presenter mode)]. */
export const SIZES = [
  ["375x667", { width: 375, height: 667 }, { isMobile: true, hasTouch: true }, ""],
  ["480x320-embed", { width: 480, height: 320 }, {}, "embed=1&"],
  ["768x1024", { width: 768, height: 1024 }, {}, ""],
  ["1024x768", { width: 1024, height: 768 }, {}, ""],
  ["1024x768-presenter", { width: 1024, height: 768 }, {}, "present=1&"],
  ["1280x720", { width: 1280, height: 720 }, {}, ""],
  ["1366x768", { width: 1366, height: 768 }, {}, ""],
  ["1440x900", { width: 1440, height: 900 }, {}, ""],
  ["1920x1080", { width: 1920, height: 1080 }, {}, ""],
];

/** The smallest text a person reads at a desk, and on a stage (presenter and class mode). */
const MIN_PX = 11;
const STAGE_MIN_PX = 14;

/** In the page: every visible text (HTML text nodes and SVG texts) with its rendered size and
 *  box; the pairs that overlap; the texts cut by their box; and where `promised` elements are. */
function measure(promised) {
  const hidden = (el) => {
    for (let e = el; e; e = e.parentElement) {
      if (e.classList?.contains("visually-hidden") || ["title", "TITLE", "OPTION", "SCRIPT", "STYLE"].includes(e.tagName)) return true;
      // A closed <details> shows its summary only.
      if (e.parentElement?.tagName === "DETAILS" && !e.parentElement.open && e.tagName !== "SUMMARY") return true;
      const style = getComputedStyle(e);
      if (style.display === "none" || style.visibility === "hidden" || style.opacity === "0") return true;
    }
    return false;
  };
  // What of `rect` its scrolling or clipping ancestors let show (null: nothing).
  const shown = (el, rect) => {
    let [l, t, r, b] = [rect.left, rect.top, rect.right, rect.bottom];
    for (let e = el.parentElement; e && e !== document.body; e = e.parentElement) {
      const style = getComputedStyle(e);
      if (style.overflowX === "visible" && style.overflowY === "visible") continue;
      const c = e.getBoundingClientRect();
      [l, t, r, b] = [Math.max(l, c.left), Math.max(t, c.top), Math.min(r, c.right), Math.min(b, c.bottom)];
    }
    return r - l > 1 && b - t > 1 ? { left: l, top: t, right: r, bottom: b } : null;
  };
  const pinned = (el) => {
    for (let e = el; e; e = e.parentElement) if (["sticky", "fixed"].includes(getComputedStyle(e).position)) return true;
    return false;
  };
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim() || !node.parentElement || hidden(node.parentElement)) continue;
    const svgText = node.parentElement.closest("text");
    let rect, px;
    if (svgText) {
      rect = svgText.getBoundingClientRect();
      px = parseFloat(getComputedStyle(svgText).fontSize) * (svgText.getScreenCTM()?.a ?? 1);
    } else if (node.parentElement instanceof SVGElement) {
      continue;
    } else {
      const range = document.createRange();
      range.selectNodeContents(node);
      rect = range.getBoundingClientRect();
      px = parseFloat(getComputedStyle(node.parentElement).fontSize);
    }
    const owner = svgText ?? node.parentElement;
    const raw = rect;
    rect = shown(owner, rect);
    if (!rect) continue;
    texts.push({
      text: node.textContent.trim().slice(0, 32), px, owner, pinned: pinned(owner), raw,
      box: { l: rect.left + scrollX, t: rect.top + scrollY, r: rect.right + scrollX, b: rect.bottom + scrollY },
    });
  }
  const smallest = texts.reduce((m, t) => (t.px < m.px ? t : m), { px: Infinity, text: "" });
  const overlaps = [];
  for (let i = 0; i < texts.length; i += 1) {
    for (let j = i + 1; j < texts.length; j += 1) {
      const [a, b] = [texts[i], texts[j]];
      if (a.pinned !== b.pinned || a.owner === b.owner || a.owner.contains(b.owner) || b.owner.contains(a.owner)) continue;
      const w = Math.min(a.box.r, b.box.r) - Math.max(a.box.l, b.box.l);
      const h = Math.min(a.box.b, b.box.b) - Math.max(a.box.t, b.box.t);
      if (w > 2 && h > 2) overlaps.push(`"${a.text}" over "${b.text}"`);
    }
  }
  const cut = [];
  for (const el of document.querySelectorAll("body *")) {
    if (el instanceof SVGElement || hidden(el) || !el.textContent.trim() || el.clientWidth === 0) continue;
    const style = getComputedStyle(el);
    const clips = style.overflowX === "hidden" || style.overflowX === "clip" || style.textOverflow === "ellipsis";
    if (clips && el.scrollWidth > el.clientWidth + 1) cut.push(`"${el.textContent.trim().slice(0, 32)}" (${el.tagName.toLowerCase()})`);
  }
  for (const t of texts.filter((t) => t.owner instanceof SVGElement)) {
    const drawing = t.owner.ownerSVGElement?.getBoundingClientRect();
    if (drawing && (t.raw.left < drawing.left - 1 || t.raw.right > drawing.right + 1)) cut.push(`"${t.text}" past its drawing's edge`);
  }
  const away = promised.filter((selector) => {
    const el = document.querySelector(selector);
    const r = el?.getBoundingClientRect();
    return !r || r.height === 0 || r.top < 0 || r.bottom > innerHeight + 1 || r.left < 0 || r.right > innerWidth + 1;
  });
  // A drawing remounted since the wait (a race rebuilt) is drawn for a frame it has not read.
  const unfitted = [...document.querySelectorAll('[data-fitted="false"]')].some((e) => e.getClientRects().length > 0);
  return { count: texts.length, smallest: { px: smallest.px, text: smallest.text }, overlaps, cut, away, unfitted };
}

/** One test per view: each size opened in turn (one browser context per kind of device, so the
 *  page's files load once), measured, printed, and checked against the limits. */
export function matrix(views) {
  for (const view of views) {
    test(`readability matrix: ${view.name} at every size`, async () => {
      const failures = [];
      const contexts = new Map();
      for (const [size, viewport, options, extra] of SIZES) {
        const key = JSON.stringify(options);
        if (!contexts.has(key)) contexts.set(key, await freshContext({ viewport, ...options }));
        const page = await contexts.get(key).newPage();
        await page.setViewportSize(viewport);
        await page.goto(new URL(`?${extra}${view.query}`, baseUrl).href);
        await view.ready(page, size);
        // The drawings measure their frames after their first render and are drawn again to fit;
        // a drawing shown but drawn for an unread frame says so (`data-fitted="false"`).
        const fitted = () => ![...document.querySelectorAll('[data-fitted="false"]')].some((e) => e.getClientRects().length > 0);
        let m;
        for (let tries = 0; !m || (m.unfitted && tries < 5); tries++) {
          await page.waitForFunction(fitted, null, { timeout: 10_000 });
          await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
          m = await page.evaluate(measure, size.includes("embed") ? [] : view.promised ?? []);
        }
        if (m.unfitted) failures.push(`${view.name} @ ${size}: a drawing still unfitted after five measures`);
        // A stage: presenter mode, or class mode on a screen a room looks at (not a phone).
        const stage = extra.startsWith("present") || (view.query.includes("class=1") && viewport.width >= 768);
        const limit = stage ? STAGE_MIN_PX : MIN_PX;
        const wrong = [];
        if (m.smallest.px < limit - 0.05) wrong.push(`text of ${m.smallest.px.toFixed(1)} px ("${m.smallest.text}") under ${limit} px`);
        if (m.overlaps.length) wrong.push(`${m.overlaps.length} overlapping: ${m.overlaps.slice(0, 3).join("; ")}`);
        if (m.cut.length) wrong.push(`${m.cut.length} cut: ${m.cut.slice(0, 3).join("; ")}`);
        if (m.away.length) wrong.push(`off the first screen: ${m.away.join(", ")}`);
        const cell = `${view.name} @ ${size}`;
        console.log(`${cell.padEnd(40)} ${String(m.count).padStart(4)} texts, smallest ${m.smallest.px.toFixed(1)} px; ${wrong.length ? wrong.join(" | ") : "ok"}`);
        await screenshot(page, `matrix-${view.name}-${size}`);
        if (wrong.length) failures.push(`${cell}: ${wrong.join(" | ")}`);
        await page.close();
      }
      for (const context of contexts.values()) await context.close();
      assert.deepEqual(failures, [], "cells over the limits");
    });
  }
}

// Pacing: at the default speed a newcomer can follow each message; one crossing a link takes at
// least 0.6 s of wall time, while quiet stretches are still fast-forwarded.
// covers: src/web/frame_clock.rs src/page/pacing.rs
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, waitForLeader } from "../browser.mjs";

/** Wall milliseconds the first dot labelled `label` takes from being sent to arriving. It is
 *  sent after the last frame without it: under load a frame can last 100 ms, and counting from
 *  the first frame that draws the dot would lose that much of its flight. */
const flightOf = (page, label) => page.evaluate((label) => new Promise((resolve) => {
  let dot = null;
  let started = 0;
  let previous = null;
  const frame = (now) => {
    if (dot === null) {
      const text = [...document.querySelectorAll("svg.cluster g.message:not(.lost) .message-label")].find((t) => t.textContent === label);
      if (text) {
        dot = text.closest("g.message");
        started = previous ?? now;
      }
      previous = now;
    } else if (!dot.isConnected || dot.classList.contains("lost")) {
      resolve(now - started);
      return;
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}), label);

test("at the default pacing a message takes at least 0.6 s to cross, and the first leader comes within seconds", async () => {
  const { page, errors, context } = await open("");
  const loaded = Date.now();
  const preVote = await flightOf(page, "PV");
  assert.ok(preVote >= 600, `a PreVote crossed in ${preVote.toFixed(0)} ms`);
  const vote = await flightOf(page, "V");
  assert.ok(vote >= 600, `a Vote crossed in ${vote.toFixed(0)} ms`);
  await waitForLeader(page);
  const elected = Date.now() - loaded;
  assert.ok(elected < 45_000, `the first election took ${elected} ms of wall time`);
  assert.deepEqual(errors, []);
  await context.close();
});

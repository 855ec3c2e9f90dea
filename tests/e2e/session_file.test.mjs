// Session files: a session saved as a file (after a kill, a created topic and a few single
// steps) and opened in a fresh browser context reopens the same whole-state fingerprint; a
// damaged file is refused with a notice naming the field. The first screen hands the session
// to the full page for them, at the same state.
// covers: src/web/session_files.rs src/web/download.rs src/session
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { open, screenshot, waitForLeader } from "./browser.mjs";

const fingerprint = (page) => page.locator(".page").getAttribute("data-fingerprint");

test("an exported session file reopens the same state in a fresh context", async () => {
  const { page, errors, context } = await open("?seed=5&speed=1");
  const first = await waitForLeader(page);
  await page.getByRole("button", { name: "Kill active controller" }).click();
  await waitForLeader(page, (l) => l.epoch > first.epoch);
  await page.getByRole("button", { name: "Pause" }).click();
  for (let i = 0; i < 3; i += 1) await page.getByRole("button", { name: "Step one event" }).click();
  await page.locator(".page[data-fingerprint]").waitFor();
  const saved = await fingerprint(page);

  // The first screen's panel hands the session to the full page, which opens at this moment
  // with the panel open.
  await page.locator("details.session-files summary").click();
  await page.locator("#session-files-load").click();
  await page.locator("details.session-files[open] #session-name").waitFor({ timeout: 60_000 });
  assert.match(page.url(), /files=1/);
  await page.locator(`.page[data-fingerprint="${saved}"]`).waitFor({ timeout: 30_000 });
  await page.locator("#session-name").fill("Leader crash, seed 5");
  await page.locator("#session-notes").fill("Point at the epoch going up.");
  const [download] = await Promise.all([page.waitForEvent("download"), page.locator("#session-save").click()]);
  assert.equal(download.suggestedFilename(), "leader-crash-seed-5.json");
  const file = path.join(tmpdir(), `kraftscope-${process.pid}.json`);
  await download.saveAs(file);
  const json = JSON.parse(readFileSync(file, "utf8"));
  assert.equal(json.format, "kraftscope-session");
  assert.equal(json.version, 1);
  assert.equal(json.name, "Leader crash, seed 5");
  assert.equal(json.settings.seed, "5");
  assert.ok(json.actions.some((a) => a.action === "k"), JSON.stringify(json.actions));
  await screenshot(page, "session-file-saved");
  await context.close();

  // A fresh context, another seed, playing, the panel open by its link: opening the file
  // replaces it all.
  const reader = await open("?seed=99&speed=1&files=1");
  await waitForLeader(reader.page);
  await reader.page.locator("#session-open").setInputFiles(file);
  await reader.page.locator(`.page[data-fingerprint="${saved}"]`).waitFor({ timeout: 30_000 });
  assert.match(await reader.page.locator("div.notice[role=status]").textContent(), /Opened the session file 'Leader crash, seed 5'/);
  assert.equal(await reader.page.locator(".notices").count(), 0, "no mismatch notice");

  // A damaged file: refused, naming the field, and the session is kept.
  const damaged = path.join(tmpdir(), `kraftscope-${process.pid}-damaged.json`);
  writeFileSync(damaged, JSON.stringify({ ...json, settings: { ...json.settings, voters: 40 } }));
  await reader.page.locator("#session-open").setInputFiles(damaged);
  await reader.page.locator("div.notice[role=status]", { hasText: "Cannot open the session file: settings: controllers must be 1 to 7" }).waitFor();
  assert.equal(await fingerprint(reader.page), saved, "the open session was kept");
  await screenshot(reader.page, "session-file-refused");
  assert.deepEqual([...errors, ...reader.errors], []);
  await reader.context.close();
});

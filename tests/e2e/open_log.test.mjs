// "Open a metadata log": a real __cluster_metadata segment dropped into the page shows its
// record count, last offset and epochs; scrubbing back changes the image shown; a snapshot
// opens through the file picker; bad bytes get a message naming the byte; a file that cannot be
// read (gone from the disk before the worker reads it) is named; the failover race
// opens sized from the file; the live cluster's log downloads as Kafka files that open again.
// Screenshots at 1280 x 720 and 375 x 667.
// The files are decoded off the page's thread, in the log reader's Web Worker.
// covers: src/web/log_drop.rs src/web/log_tab.rs src/web/log_reader.rs src/web/download.rs src/page/metadata_log src/log_reader/mod.rs src/log_worker.rs www/log-worker.js src/kafka_log
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { open, screenshot } from "./browser.mjs";
import { realFiles } from "./real_files.mjs";

// A real one-node log.
const { path: fixtures, skip: noFixtures } = realFiles("ldi-poc");
const SEGMENT = path.join(fixtures, "__cluster_metadata-0/00000000000000000000.log");
const SNAPSHOT = path.join(fixtures, "bootstrap.checkpoint");

/** Drops `bytes` as a file called `name` on the drop zone, as a drag from the desktop does. */
async function drop(page, name, bytes) {
  await page.evaluate(({ b64, name }) => {
    const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([data], name));
    const zone = document.querySelector(".drop-zone");
    for (const type of ["dragover", "drop"]) {
      zone.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }
  }, { b64: Buffer.from(bytes).toString("base64"), name });
}

const data = (page, selector, key) => page.locator(selector).evaluate((e, k) => e.dataset[k], key);

async function openLogTab(options) {
  const opened = await open("", options);
  await opened.page.getByRole("tab", { name: "Open a metadata log" }).click();
  await opened.page.locator(".drop-zone").waitFor();
  return opened;
}

test("a dropped segment shows its records, last offset and epochs; scrubbing back changes the image", { skip: noFixtures }, async () => {
  const { page, errors, context } = await openLogTab();
  const worker = page.waitForEvent("worker");
  await drop(page, "00000000000000000000.log", readFileSync(SEGMENT));
  await page.locator(".log-opened").waitFor({ timeout: 60_000 });
  assert.match((await worker).url(), /\/log-worker\.js$/, "decoded in the log reader's worker");
  assert.equal(await data(page, ".log-opened", "records"), "4929");
  assert.equal(await data(page, ".log-opened", "lastOffset"), "4928");
  assert.match(await page.locator("#log-totals").textContent(), /4,929 records in 4,814 batches, log offsets 0 to 4928/);
  assert.match(await page.locator("#log-epochs").textContent(), /leader epochs: 1 from offset 0 \(4,814 batches\); 1 LeaderChange record; leader 1 at offset 0 \(epoch 1\)/);
  assert.equal(await page.locator(".log-strip line.leader-change").count(), 1, "the LeaderChange is marked on the strip");
  console.log(`# opened the 353 KB segment in ${await data(page, ".log-opened", "openMs")} ms`);

  // At the end: the whole log's image.
  assert.equal(await data(page, "#log-image", "topics"), "5");
  assert.equal(await data(page, "#log-image", "partitions"), "54");
  assert.match(await page.locator("#log-image-totals").textContent(), /metadata.version feature level 19/);
  await screenshot(page, "open-log-1280x720");

  // Back to record 10: no topic exists yet.
  await page.locator("#log-scrub").fill("10");
  await page.waitForFunction(() => document.querySelector("#log-position")?.dataset.position === "10");
  assert.equal(await data(page, "#log-image", "topics"), "0");
  assert.match(await page.locator("#log-position").textContent(), /^After 10 of 4929 records: offset 9 \(epoch 1\): /);
  // Forward again to the first partitions.
  await page.locator("#log-scrub").fill("4000");
  await page.waitForFunction(() => document.querySelector("#log-position")?.dataset.position === "4000");
  assert.notEqual(await data(page, "#log-image", "topics"), "0");

  // What if its controller failed: the race opens with the file's 54 partitions.
  await page.locator("#log-race").click();
  assert.equal(await page.getByRole("tab", { name: "Failover: KRaft vs ZooKeeper" }).getAttribute("aria-selected"), "true");
  await page.locator("svg.zk-cluster").waitFor({ timeout: 60_000 });
  assert.deepEqual(errors, []);
  await context.close();
});

test("a snapshot opens through the file picker and bad bytes are named", { skip: noFixtures }, async () => {
  const { page, errors, context } = await openLogTab({ viewport: { width: 375, height: 667 } });
  await page.locator("#log-file").setInputFiles(SNAPSHOT);
  await page.locator(".log-opened").waitFor({ timeout: 60_000 });
  assert.equal(await data(page, ".log-opened", "records"), "3");
  assert.match(await page.locator("#log-image-totals").textContent(), /metadata.version feature level 19/);
  await screenshot(page, "open-log-375x667");

  const bytes = readFileSync(SEGMENT).subarray(0, 500);
  await drop(page, "00000000000000000000.log", bytes);
  await page.waitForFunction(() => document.querySelector(".log-summary")?.textContent.includes("truncated"));
  assert.match(await page.locator(".log-summary").textContent(), /00000000000000000000\.log: byte \d+ \(batch at offset \d+\): truncated/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a file gone before the worker reads it is named, and the log opened before stays", { skip: noFixtures }, async () => {
  const { page, errors, context } = await openLogTab();
  await page.locator("#log-file").setInputFiles(SNAPSHOT);
  await page.locator(".log-opened").waitFor({ timeout: 60_000 });
  // The page hands the worker the File, not its bytes: a file deleted after it was chosen fails
  // when the worker reads it.
  const gone = path.join(mkdtempSync(path.join(os.tmpdir(), "kraftscope-gone-")), "gone.log");
  writeFileSync(gone, readFileSync(SEGMENT));
  await page.evaluate(() => {
    const input = Object.assign(document.createElement("input"), { type: "file", id: "held-file", hidden: true });
    document.body.append(input);
  });
  await page.locator("#held-file").setInputFiles(gone);
  unlinkSync(gone);
  await page.evaluate(() => {
    const transfer = new DataTransfer();
    transfer.items.add(document.querySelector("#held-file").files[0]);
    const zone = document.querySelector(".drop-zone");
    for (const type of ["dragover", "drop"]) {
      zone.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }
  });
  await page.locator(".log-error").waitFor({ timeout: 30_000 });
  assert.match(await page.locator(".log-error").textContent(), /^Cannot read gone\.log: ./);
  assert.equal(await data(page, ".log-opened", "records"), "3", "the snapshot opened before is still shown");
  assert.equal(await page.locator(".drop-zone [role=status]").count(), 0, "no longer reading");
  assert.deepEqual(errors, []);
  await context.close();
});

test("the live cluster's log downloads as Kafka's files, which open again", async () => {
  // The tour step where a far-behind broker catches up by snapshot: topics, records, snapshots.
  const { page, errors, context } = await open("?tour=12");
  await page.getByRole("tab", { name: "Open a metadata log" }).click();
  const downloads = [];
  page.on("download", (d) => downloads.push(d));
  await page.locator("#log-download").click();
  await page.waitForFunction(() => document.querySelector("[role=status].notice")?.textContent.startsWith("Downloaded"));
  const status = await page.locator("[role=status].notice").textContent();
  const names = status.replace(/^.*: /, "").split(", ");
  while (downloads.length < names.length) await new Promise((r) => setTimeout(r, 100));
  const dir = mkdtempSync(path.join(os.tmpdir(), "kraftscope-download-"));
  const paths = [];
  for (const download of downloads) {
    const file = path.join(dir, download.suggestedFilename());
    await download.saveAs(file);
    paths.push(file);
  }
  assert.deepEqual(downloads.map((d) => d.suggestedFilename()).sort(), [...names].sort());
  assert.ok(names.some((n) => /^\d{20}\.log$/.test(n)), `a segment among ${names}`);
  await page.locator("#log-file").setInputFiles(paths);
  await page.locator(".log-opened").waitFor({ timeout: 60_000 });
  assert.ok(Number(await data(page, ".log-opened", "records")) > 0, "the downloaded files hold records");
  assert.notEqual(await data(page, "#log-image", "topics"), "0", "and the topics the tour created");
  assert.match(await page.locator(".log-summary").textContent(), /CRC failures: 0; other problems: 0/);
  assert.deepEqual(errors, []);
  await context.close();
});

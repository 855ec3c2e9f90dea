// A real cluster's directories opened in the page: three nodes' folders chosen with the folder
// picker or dropped draw three controllers with the epoch, leader and vote each one's quorum-state holds,
// mark the node the disagreements name and list the sentences; axe-clean; screenshots at
// 1280 x 720 and 375 x 667. The directories are the ones `kraftscope run --write-nodes` writes
// for the candidate_waits_out_timeout scenario (the crashed leader's disk still at epoch 1); then real
// clusters' directories read in place beside the project (`../shared/fixtures/kafka/`, skipped
// when absent): three Docker volumes named kafka-1..kafka-3, and a Kafka 4.x node with six
// snapshots.
// covers: src/web/cluster_files.rs src/web/folder_drop.rs src/web/log_drop.rs src/log_reader/node_dirs.rs src/kafka_log/nodes.rs src/kafka_log/node_files.rs src/sim/export.rs
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { assertNoViolations } from "./axe.mjs";
import { open, screenshot } from "./browser.mjs";
import { realFiles } from "./real_files.mjs";

const root = path.resolve(import.meta.dirname, "../..");

/** The three nodes' directories of the candidate_waits_out_timeout scenario, written by the command line. */
function nodesDirectory() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "kraftscope-nodes-"));
  execFileSync("cargo", ["run", "--release", "--quiet", "--bin", "kraftscope", "--", "run", "--scenario", "candidate_waits_out_timeout",
    "--notable", "--write-nodes", dir], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  return dir;
}

for (const [width, height] of [[1280, 720], [375, 667]]) {
  test(`three nodes' folders draw three controllers as their files hold them, the stale one marked (${width}x${height})`, async () => {
    const dir = nodesDirectory();
    const { page, errors } = await open("", { viewport: { width, height } });
    await page.getByRole("tab", { name: "Open a metadata log" }).click();
    await page.locator("#log-folder").setInputFiles(dir);
    const drawing = page.locator("#cluster-files");
    await drawing.waitFor({ timeout: 60_000 });
    assert.equal(await drawing.getAttribute("data-nodes"), "3");
    const node = (name) => page.locator(`#cluster-files li.file-node[data-name="${name}"]`);
    assert.match(await node("n1").getAttribute("aria-label"), /^n1 LEADER: epoch 2, leader n1, voted none; offsets 0 to 13/);
    assert.match(await node("n3").getAttribute("aria-label"), /^n3 follower: epoch 2, leader n1, voted n1; offsets 0 to 13/);
    assert.match(await node("n2").getAttribute("aria-label"), /^n2 stale: epoch 1, leader n2, voted none; offsets 0 to 12; disagreements 1, 2, 3/);
    assert.equal(await node("n2").locator(".disagreement-mark").count(), 3, "n2 carries the three disagreements' numbers");
    const sentences = await page.locator("#disagreements li").allTextContents();
    assert.equal(sentences.length, 3);
    assert.match(sentences[0], /^n2's quorum-state names epoch 1 \(leader n2\), but n1 and n3 are at epoch 2 \(leader n1\)/);
    assert.match(sentences[1], /^the LeaderChange of epoch 2 at offset 13 \(leader n1\) is in the logs of n1 and n3, not in n2's log/);
    assert.match(await page.locator("#log-totals").textContent(), /^[^,]*\/n1\/__cluster_metadata-0\/00000000000000000000.log: 14 records/, "the timeline is the leader's log");
    await assertNoViolations(page, "the cluster drawn from its files");
    await screenshot(page, `node-dirs-${width}x${height}`);
    assert.deepEqual(errors, []);
  });
}

test("a folder of nodes' directories dropped on the page draws the same cluster", async () => {
  const dir = nodesDirectory();
  const { page, errors, context } = await open("?tab=log");
  const zone = page.locator(".drop-zone");
  await zone.waitFor();
  const box = await zone.boundingBox();
  // A drag from the desktop, as the browser receives it: Chromium's DevTools protocol carries
  // the folder itself, so the page walks its entries.
  const cdp = await context.newCDPSession(page);
  const data = { items: [], files: [dir], dragOperationsMask: 1 };
  for (const type of ["dragEnter", "dragOver", "drop"]) {
    await cdp.send("Input.dispatchDragEvent", { type, x: box.x + 40, y: box.y + 30, data });
  }
  await page.locator("#cluster-files").waitFor({ timeout: 60_000 });
  assert.equal(await page.locator("#cluster-files").getAttribute("data-nodes"), "3");
  assert.match(await page.locator('#cluster-files li.file-node[data-name="n2"]').getAttribute("aria-label"), /^n2 stale: epoch 1/);
  assert.equal(await page.locator("#disagreements li").count(), 3);
  assert.deepEqual(errors, []);
});

const volumes = realFiles("docker-compose-kafka4.10/data");
const rig = realFiles("local-test-rig/kafka-data");

test("a real cluster's volumes named kafka-1..3 draw n1, n2, n3 as voters, n2 crowned, its log the timeline", { skip: volumes.skip }, async () => {
  const { page, errors } = await open("", { viewport: { width: 1280, height: 720 } });
  await page.getByRole("tab", { name: "Open a metadata log" }).click();
  await page.locator("#log-folder").setInputFiles(volumes.path);
  const drawing = page.locator("#cluster-files");
  await drawing.waitFor({ timeout: 60_000 });
  const node = (name) => page.locator(`#cluster-files li.file-node[data-name="${name}"]`);
  assert.match(await node("n2").getAttribute("aria-label"), /^n2 LEADER: epoch 36, leader n2, voted none; offsets 0 to 31933/);
  assert.match(await node("n1").getAttribute("aria-label"), /^n1 follower: epoch 36, leader n2, voted none; offsets 0 to 31932; snapshot at 20475; disagreement 1$/);
  assert.match(await node("n3").getAttribute("aria-label"), /^n3 follower: epoch 36, leader n2/);
  assert.equal(await node("n2").locator(".crown").count(), 1, "the leader crowned");
  assert.equal(await page.locator("#cluster-files li.file-node").count(), 3);
  assert.match(await node("n1").locator(".file-log-end").textContent(), /^last offset 31932, log end offset 31933$/);
  const sentences = await page.locator("#disagreements li").allTextContents();
  assert.equal(sentences.length, 1, sentences.join(" | "));
  assert.match(sentences[0], /^log end offsets 1 record apart: the logs of n2 and n3 end at log end offset 31934 \(last offset 31933\), n1's log at 31933 \(last offset 31932\)/);
  assert.match(await page.locator("#log-totals").textContent(), /kafka-2\/__cluster_metadata-0\//, "the timeline is the leader's log");
  assert.equal(await page.locator("#files-skipped").count(), 0, "no other partition's files in these volumes");
  await screenshot(page, "node-dirs-real-1280x720");
  assert.deepEqual(errors, []);
});

test("a Kafka 4.x node's directory opens with its six snapshots", { skip: rig.skip }, async () => {
  const { page, errors } = await open("?tab=log", { viewport: { width: 1280, height: 720 } });
  await page.locator("#log-folder").setInputFiles(rig.path);
  await page.locator(".log-opened").waitFor({ timeout: 60_000 });
  const totals = await page.locator("#log-totals").textContent();
  assert.equal((totals.match(/-\d{10}\.checkpoint/g) || []).length, 6, totals);
  assert.deepEqual(errors, []);
});


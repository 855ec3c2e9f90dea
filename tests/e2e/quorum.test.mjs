// The quorum's controls (KIP-853) in the real page: a new controller appears as an observer, is
// added to the voters and a voter is removed, and the drawing and the majority text follow. The
// quorum panel's `kafka-metadata-quorum describe --replication` table and controller line agree
// with the drawing's crown, live.
// covers: src/web/controls.rs src/web/node_view.rs src/quorum/reconfig.rs src/session/admin_tools.rs
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertNoViolations } from "./axe.mjs";
import { caughtUpWithLeader, open, screenshot, waitForLeader } from "./browser.mjs";

const quorumSays = (page, pattern) =>
  page.waitForFunction((p) => new RegExp(p).test(document.querySelector("#quorum-line")?.textContent ?? ""), pattern.source, { timeout: 30_000 });
const controller = (page, id) => page.locator(`svg.cluster g.node[aria-label^="controller n${id} "]`);

test("adding and removing a controller through the page changes the drawn voter set and the majority text", async () => {
  const { page, errors, context } = await open("?speed=1");
  await waitForLeader(page);
  await quorumSays(page, /Voters n1 n2 n3 .*2 of 3 voters must agree; 1 may fail/);
  await page.getByRole("button", { name: "New controller" }).click();
  await controller(page, 4).waitFor();
  assert.match(await controller(page, 4).getAttribute("aria-label"), /observer/, "a new controller starts as an observer");
  assert.equal(await page.locator("svg.cluster .membership-ring.observer").count(), 1, "drawn with the observer's ring");
  await controller(page, 4).click();
  // AddRaftVoter is refused (REQUEST_TIMED_OUT) until n4 has caught up; the status line says so.
  for (let attempt = 0; ; attempt++) {
    await page.getByRole("button", { name: "Add n4 to the voters" }).click();
    const answered = await page.waitForFunction(() => {
      const status = document.querySelector("div.notice[role=status]")?.textContent ?? "";
      return /committed, answered NONE|REQUEST_TIMED_OUT/.exec(status)?.[0];
    }, null, { timeout: 30_000 });
    if ((await answered.jsonValue()) !== "REQUEST_TIMED_OUT") break;
    assert.ok(attempt < 5, "n4 catches up within a few seconds");
    // Wait until n4's log reaches the leader's end, as the caught-up check asks.
    await page.waitForFunction(caughtUpWithLeader, 4, { timeout: 30_000 });
  }
  await quorumSays(page, /Voters n1 n2 n3 n4 .*3 of 4 voters must agree; 1 may fail/);
  assert.doesNotMatch(await controller(page, 4).getAttribute("aria-label"), /observer/);
  await screenshot(page, "quorum-four-voters");
  await controller(page, 2).click();
  await page.getByRole("button", { name: "Remove n2 from the voters" }).click();
  await quorumSays(page, /Voters n1 n3 n4 .*2 of 3 voters must agree; 1 may fail/);
  await page.waitForFunction(() => /observer/.test(document.querySelector('svg.cluster g.node[aria-label^="controller n2 "]').getAttribute("aria-label")), null, { timeout: 30_000 });
  await screenshot(page, "quorum-n2-removed");
  assert.deepEqual(errors, []);
  await context.close();
});

test("a refused voter change shows Kafka's error name in the page", async () => {
  const { page, errors, context } = await open("?speed=1&quorum=static");
  await waitForLeader(page);
  await quorumSays(page, /static: controller.quorum.voters/);
  await controller(page, 2).click();
  await page.getByRole("button", { name: "Remove n2 from the voters" }).click();
  await page.locator("div.notice[role=status]", { hasText: "UNSUPPORTED_VERSION" }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test("with roles=combined the live cluster draws each controller as a controller and broker", async () => {
  const { page, errors, context } = await open("?speed=1&roles=combined");
  await waitForLeader(page);
  const combined = page.locator('svg.cluster g.node[aria-label^="controller and broker "]');
  await page.waitForFunction(() => [...document.querySelectorAll('svg.cluster g.node[aria-label^="controller and broker "]')]
    .filter((n) => /broker RUNNING/.test(n.getAttribute("aria-label"))).length === 3, null, { timeout: 30_000 });
  assert.equal(await combined.count(), 3);
  assert.equal(await page.locator("svg.cluster .combined").count(), 3, "each drawn '+ broker'");
  await screenshot(page, "combined-live-cluster");
  assert.deepEqual(errors, []);
  await context.close();
});

test("the quorum panel shows describe --replication live, its leader the crowned node, and what a broker calls the controller", async () => {
  const { page, errors, context } = await open("?speed=1");
  const leader = await waitForLeader(page);
  const panel = page.locator("#describe-quorum");
  await panel.locator("summary").click();
  assert.equal(await panel.locator("summary").textContent(), "$ kafka-metadata-quorum describe --replication");
  const head = await panel.locator("thead th").allTextContents();
  assert.deepEqual(head, ["NodeId", "DirectoryId", "LogEndOffset", "Lag", "LastFetchTimestamp", "LastCaughtUpTimestamp", "Status"]);
  const rows = () => panel.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  const first = await rows();
  assert.deepEqual([first[0][0], first[0][6]], [String(leader.id), "Leader"], "the crowned node's row first");
  const drawn = await page.locator("svg.cluster g.node").count();
  assert.equal(first.length, drawn, "a row per drawn node: every voter and broker fetches");
  assert.ok(first.slice(1).every((r) => r[6] === "Follower" || r[6] === "Observer"));
  await page.waitForFunction((was) => Number(document.querySelector("#describe-quorum tbody tr td:nth-child(5)")?.textContent) > was,
    Number(first[0][4]), { timeout: 10_000 });
  // A broker answers -1 until its image holds an unfenced broker.
  await page.waitForFunction(() => /told the controller is n\d/.test(document.querySelector("#controller-line").textContent), null, { timeout: 30_000 });
  const line = await page.locator("#controller-line").textContent();
  assert.match(line, new RegExp(`^Active controller: n${leader.id}, epoch ${leader.epoch}\\. Admin tools asking broker n\\d+ \\(DescribeCluster\\) are told the controller is n\\d+`));
  const told = Number(/told the controller is n(\d+)/.exec(line)[1]);
  assert.notEqual(told, leader.id, "a broker names a broker, not the active controller");
  assert.equal(await page.locator(`svg.cluster g.node[aria-label^="broker n${told} "]`).count(), 1, "the named broker is drawn");
  await assertNoViolations(page, "the quorum panel with its table open");
  await panel.scrollIntoViewIfNeeded();
  await screenshot(page, "quorum-describe-replication");
  assert.deepEqual(errors, []);
  await context.close();
});

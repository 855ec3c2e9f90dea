// Stills: `kraftscope render` draws what the page draws. For a scenario's moment, the command
// line's SVG file and the page's drawing on screen are the same tree of elements, attributes and
// texts, less what only the page's interaction adds (the nodes are buttons on the page:
// tabindex, aria-pressed, role "button" where a still says "img") and the file's own stylesheet.
// The page's "Save picture" saves the very file `kraftscope render` writes (byte for byte), or
// a PNG of a slide's size; its exporter (www/still.js) loads only then. One drawing code
// (src/drawing/cluster.rs) makes all of them; the race's still is both sides' drawings
// (drawing/zk.rs, drawing/grid.rs) side by side, saved from the page or the command line;
// a pain's still holds its ZooKeeper drawing and its tables as the page shows them, an opened
// log's its timeline strip (drawing/log.rs), its nodes and its image.
// covers: src/drawing/race.rs src/drawing/zk.rs src/drawing/grid.rs src/drawing/cluster.rs src/drawing/svg.rs src/web/svg_html.rs src/web/cluster_view.rs src/web/node_view.rs src/cli/render_cmd.rs src/page/still.rs src/web/still_form.rs src/web/still_export.rs www/still.js src/drawing/still_sheet.rs src/page/pains.rs src/web/pains_tab.rs src/drawing/log.rs src/web/log_tab.rs
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import { assertNoViolations } from "./axe.mjs";
import { open, screenshot } from "./browser.mjs";
import { realFiles } from "./real_files.mjs";

const root = path.resolve(import.meta.dirname, "../..");

/** `kraftscope render` for these arguments: the SVG file's text. */
function render(args) {
  return execFileSync("cargo", ["run", "--release", "--quiet", "--bin", "kraftscope", "--", "render", ...args],
    { cwd: root, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8", maxBuffer: 1 << 26 });
}

/** In the page: an element as a canonical text, interaction-only attributes and the file's own
 *  stylesheet left out, so that the page's markup and a still's compare. */
function canonical([markup]) {
  const interaction = new Set(["tabindex", "aria-pressed", "xmlns"]);
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) return node.data === "" ? "" : JSON.stringify(node.data);
    if (node.nodeType !== Node.ELEMENT_NODE || node.localName === "style") return "";
    const attributes = [...node.attributes]
      .filter((a) => !interaction.has(a.name))
      .map((a) => `${a.name}=${JSON.stringify(a.name === "role" && a.value === "button" ? "img" : a.value)}`)
      .sort();
    return `<${node.localName} ${attributes.join(" ")}>${[...node.childNodes].map(walk).join("")}</${node.localName}>`;
  };
  const element = markup === undefined
    ? document.querySelector("svg.cluster")
    : new DOMParser().parseFromString(markup, "image/svg+xml").documentElement;
  return walk(element);
}

/** Where two canonical texts first differ, with some of each around it; null if equal. */
function firstDifference(a, b) {
  if (a === b) return null;
  let i = 0;
  while (a[i] === b[i]) i++;
  const around = (s) => s.slice(Math.max(0, i - 150), i + 150);
  return { at: i, file: around(a), page: around(b) };
}

/** A window whose live drawing is 1000 units wide, as a still's is (a narrower frame draws it
 *  as many units wide as it has pixels). */
const WIDE = { width: 1440, height: 900 };
/** A window whose race sides are each over 1000 px wide, so that they draw what a still draws:
 *  2400 px, and the page not held to its usual greatest width. */
const RACE_WIDE = { width: 2400, height: 1300 };
const UNBOUNDED = [() => document.addEventListener("DOMContentLoaded", () => {
  const style = document.createElement("style");
  style.textContent = ".page { max-width: none; }";
  document.head.append(style);
})];

for (const [scenario, seed] of [["leader-crash", 3], ["divergence", 5], ["broker-restart", 2]]) {
  test(`kraftscope render draws ${scenario} as the page draws it at the same moment`, async () => {
    const still = render(["--scenario", scenario, "--seed", String(seed)]);
    const { page, errors, context } = await open(`?scenario=${scenario}&seed=${seed}&autoplay=0`, { viewport: WIDE });
    await page.locator("svg.cluster .node").first().waitFor();
    const onScreen = await page.evaluate(canonical, []);
    const fromFile = await page.evaluate(canonical, [still]);
    assert.ok(onScreen.includes("class=\"node "), "nodes drawn");
    assert.equal(firstDifference(fromFile, onScreen), null);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

/** Whether the page has fetched the exporter. */
const exporterLoaded = () => performance.getEntriesByType("resource").some((r) => r.name.endsWith("/still.js"));

/** Saves with `save` (a click or a key) and returns the download's name and bytes. */
async function download(page, save) {
  const [file] = await Promise.all([page.waitForEvent("download"), save()]);
  return { name: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
}

test("Save picture saves the SVG file kraftscope render writes for the same moment, byte for byte", async () => {
  const { page, errors, context } = await open("?scenario=leader-crash&seed=3&autoplay=0", { acceptDownloads: true });
  await page.locator("svg.cluster .node").first().waitFor();
  assert.equal(await page.evaluate(exporterLoaded), false, "no exporter before a picture is saved");
  await page.getByRole("button", { name: "Save picture" }).click();
  const form = page.getByRole("region", { name: "Save a picture of the cluster" });
  await form.waitFor();
  await assertNoViolations(page, "the Save picture form");
  await screenshot(page, "still-form-1280x720");
  const { name, bytes } = await download(page, () => form.getByRole("button", { name: "Save" }).click());
  assert.match(name, /^kraftscope-leader-crash-seed3-\d+ms\.svg$/);
  assert.equal(bytes.toString("utf8"), render(["--scenario", "leader-crash", "--seed", "3"]));
  await page.locator(".notice", { hasText: `Saved ${name}` }).waitFor();
  assert.equal(await page.evaluate(exporterLoaded), true);
  assert.deepEqual(errors, []);
  await context.close();
});

test("from the keyboard alone: E, a PNG of 1920 x 1080 or 3840 x 2160, dark, with a caption", async () => {
  const { page, errors, context } = await open("?scenario=divergence&seed=5&autoplay=0", { acceptDownloads: true });
  await page.locator("svg.cluster .node").first().waitFor();
  await page.keyboard.press("e");
  await page.waitForFunction(() => document.activeElement?.id === "still-format-0");
  await page.keyboard.press("ArrowDown");
  assert.equal(await page.locator("#still-format-1").isChecked(), true, "PNG 1920 x 1080 chosen");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Space");
  assert.equal(await page.locator("#still-dark").isChecked(), true);
  await page.keyboard.press("Tab");
  await page.keyboard.type("The deposed leader's records, struck");
  for (const [radio, width, height] of [["#still-format-1", 1920, 1080], ["#still-format-2", 3840, 2160]]) {
    await page.locator(radio).check();
    await page.locator("#still-caption").focus();
    const { name, bytes } = await download(page, () => page.keyboard.press("Enter"));
    assert.match(name, /^kraftscope-divergence-seed5-\d+ms-dark\.png$/);
    assert.equal(bytes.subarray(1, 4).toString("latin1"), "PNG");
    assert.deepEqual([bytes.readUInt32BE(16), bytes.readUInt32BE(20)], [width, height]);
    if (width === 1920) {
      const shot = await context.newPage();
      await shot.setViewportSize({ width: 960, height: 540 });
      await shot.setContent(`<img src="data:image/png;base64,${bytes.toString("base64")}" style="width:960px">`);
      await screenshot(shot, "still-dark-1920x1080-shown-at-half");
      await shot.close();
    }
  }
  await page.locator("#still-format-0").check();
  await page.locator("#still-caption").focus();
  const { bytes } = await download(page, () => page.keyboard.press("Enter"));
  const caption = "The deposed leader's records, struck";
  assert.equal(bytes.toString("utf8"), render(["--scenario", "divergence", "--seed", "5", "--theme", "dark", "--caption", caption]));
  await page.keyboard.press("Escape");
  await page.locator("#still-form").waitFor({ state: "detached" });
  assert.deepEqual(errors, []);
  await context.close();
});

test("on the race, E and Save give the file kraftscope render --view race writes for that moment", async () => {
  const { page, errors, context } = await open("?scenario=failover&partitions=100000&seed=4&t=20000&autoplay=0", { acceptDownloads: true });
  await page.locator("#zk-stopwatch", { hasText: "20.000 s" }).waitFor({ timeout: 120_000 });
  await page.keyboard.press("e");
  const form = page.getByRole("region", { name: "Save a picture of the race" });
  await form.waitFor();
  const { name, bytes } = await download(page, () => form.getByRole("button", { name: "Save" }).click());
  assert.equal(name, "kraftscope-failover-100000p-seed4-20000ms.svg");
  assert.equal(bytes.toString("utf8"), render(["--view", "race", "--partitions", "100000", "--at", "20000", "--seed", "4"]));
  await screenshot(page, "still-form-race-1280x720");
  assert.deepEqual(errors, []);
  await context.close();
});

/** In the page: each drawing's children, canonical, on screen (`svg.NAME`) and in a still's
 *  markup (`g.NAME`, where the still places it as a group). */
function drawingsOf([markup, names]) {
  const interaction = new Set(["tabindex", "aria-pressed"]);
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) return node.data === "" ? "" : JSON.stringify(node.data);
    if (node.nodeType !== Node.ELEMENT_NODE) return "";
    const attributes = [...node.attributes]
      .filter((a) => !interaction.has(a.name))
      .map((a) => `${a.name}=${JSON.stringify(a.name === "role" && a.value === "button" ? "img" : a.value)}`)
      .sort();
    return `<${node.localName} ${attributes.join(" ")}>${[...node.childNodes].map(walk).join("")}</${node.localName}>`;
  };
  const root = markup === null ? document : new DOMParser().parseFromString(markup, "image/svg+xml");
  const tag = markup === null ? "svg" : "g";
  return names.map((name) => [...(root.querySelector(`${tag}.${name}`)?.childNodes ?? [])].map(walk).join(""));
}

test("the race's still holds the very drawings the page shows: KRaft's, ZooKeeper mode's and both grids", async () => {
  const { page, errors, context } = await open("?scenario=failover&partitions=100000&seed=4&t=20000&autoplay=0", { viewport: RACE_WIDE }, UNBOUNDED);
  await page.locator("#zk-stopwatch", { hasText: "20.000 s" }).waitFor({ timeout: 120_000 });
  const names = ["cluster", "zk-cluster", "partition-grid.kraft", "partition-grid.zk"];
  const onScreen = await page.evaluate(drawingsOf, [null, names]);
  const still = render(["--view", "race", "--partitions", "100000", "--at", "20000", "--seed", "4"]);
  const inStill = await page.evaluate(drawingsOf, [still, names]);
  names.forEach((name, i) => {
    assert.ok(onScreen[i].length > 200, `${name} drawn on the page`);
    assert.equal(firstDifference(inStill[i], onScreen[i]), null, name);
  });
  assert.deepEqual(errors, []);
  await context.close();
});

/** Saves the view shown (`what` the form names) with its Save picture button and the form's Save,
 *  a screenshot of the form taken; the download's name and bytes. */
async function saveWithTheButton(page, what) {
  await page.getByRole("button", { name: "Save picture" }).click();
  const form = page.getByRole("region", { name: `Save a picture of the ${what}` });
  await form.waitFor();
  await screenshot(page, `still-form-${what}-1280x720`);
  return download(page, () => form.getByRole("button", { name: "Save" }).click());
}

/** The cells of the pains' table `table`, row by row, as the page (`markup` null) or a still
 *  says them. Runs in the page. */
const tableCells = ([markup, table]) => {
  if (markup === null) {
    return [...document.querySelectorAll(`.pains-tab table.${table} tr`)]
      .map((tr) => [...tr.children].map((cell) => cell.textContent).join("|"));
  }
  const doc = new DOMParser().parseFromString(markup, "image/svg+xml");
  return [...doc.querySelectorAll(`g.still-table.${table} > g`)]
    .map((row) => [...row.children].map((cell) => [...cell.querySelectorAll("text")].map((t) => t.textContent).join(" ")).join("|"));
};

test("on the pains, the still holds the page's ZooKeeper drawing and tables, and Save gives render --view pains' file", async () => {
  const { page, errors, context } = await open("?scenario=zk-liveness&t=9000", { acceptDownloads: true, viewport: WIDE });
  await page.locator(".pains-tab svg.zk-cluster").waitFor();
  assert.equal(await page.locator("#pain-clock").textContent(), "9.000 s (simulated)", "paused at the moment linked");
  const still = render(["--view", "pains", "--scenario", "zk-liveness", "--at", "9000"]);
  const [onScreen] = await page.evaluate(drawingsOf, [null, ["zk-cluster"]]);
  const [inStill] = await page.evaluate(drawingsOf, [still, ["zk-cluster"]]);
  assert.ok(onScreen.length > 200, "the ZooKeeper-mode drawing on the page");
  assert.equal(firstDifference(inStill, onScreen), null, "zk-cluster");
  for (const table of ["copies", "liveness"]) {
    const page_ = await page.evaluate(tableCells, [null, table]);
    assert.ok(page_.length >= 5, `${table} on the page`);
    assert.deepEqual(await page.evaluate(tableCells, [still, table]), page_, table);
  }
  const stale = Number(await page.locator("table.copies").getAttribute("data-stale-cells"));
  assert.ok(stale > 0, "the moment shows stale cells");
  const { name, bytes } = await saveWithTheButton(page, "pain");
  assert.equal(name, "kraftscope-zk-liveness-9000ms.svg");
  assert.equal(bytes.toString("utf8"), still);
  assert.equal((bytes.toString("utf8").match(/<rect class="marked"/g) ?? []).length, stale + 1, "the stale cells and the split broker marked");
  assert.deepEqual(errors, []);
  await context.close();
});

test("on the second door, Save gives render --view pains --scenario zk-security's file, its drawing and authorizer table as the page's", async () => {
  const { page, errors, context } = await open("?scenario=zk-security&t=3000", { acceptDownloads: true, viewport: WIDE });
  await page.locator(".pains-tab svg.zk-cluster").waitFor();
  assert.equal(await page.locator("#pain-clock").textContent(), "3.000 s (simulated)", "paused at the moment linked");
  const still = render(["--view", "pains", "--scenario", "zk-security", "--at", "3000"]);
  const [onScreen] = await page.evaluate(drawingsOf, [null, ["zk-cluster"]]);
  const [inStill] = await page.evaluate(drawingsOf, [still, ["zk-cluster"]]);
  assert.equal(firstDifference(inStill, onScreen), null, "zk-cluster");
  const onPage = await page.evaluate(tableCells, [null, "authorizer"]);
  assert.equal(onPage.length, 5, "the head and four brokers");
  assert.ok(onPage.slice(1).every((row) => row.includes("ALLOWED")), `${onPage}`);
  assert.deepEqual(await page.evaluate(tableCells, [still, "authorizer"]), onPage, "authorizer");
  assert.match(still, /CLUSTER_AUTHORIZATION_FAILED/, "KRaft's side in the still");
  const { name, bytes } = await saveWithTheButton(page, "pain");
  assert.equal(name, "kraftscope-zk-security-3000ms.svg");
  assert.equal(bytes.toString("utf8"), still);
  assert.deepEqual(errors, []);
  await context.close();
});

/** `kraftscope render` run in `cwd`, so that the files given are named as the page names them. */
function renderIn(cwd, args) {
  return execFileSync("cargo", ["run", "--manifest-path", path.join(root, "Cargo.toml"), "--release", "--quiet", "--bin", "kraftscope", "--", "render", ...args],
    { cwd, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8", maxBuffer: 1 << 26 });
}

// A real one-node log.
const { path: segmentDir, skip: noSegment } = realFiles("ldi-poc/__cluster_metadata-0");

test("an opened log's still holds the page's strip, and Save gives render --view log's file for the same record", { skip: noSegment }, async () => {
  const { page, errors, context } = await open("?tab=log", { acceptDownloads: true });
  await page.locator("#log-file").setInputFiles(path.join(segmentDir, "00000000000000000000.log"));
  await page.locator(".log-opened").waitFor({ timeout: 60_000 });
  await page.locator("#log-scrub").fill("4000");
  await page.waitForFunction(() => document.querySelector("#log-position")?.dataset.position === "4000");
  const still = renderIn(segmentDir, ["--view", "log", "--files", "00000000000000000000.log", "--at", "4000"]);
  const [onScreen] = await page.evaluate(drawingsOf, [null, ["log-strip"]]);
  const [inStill] = await page.evaluate(drawingsOf, [still, ["log-strip"]]);
  assert.ok(onScreen.includes("epoch-band"), "the strip on the page");
  assert.equal(firstDifference(inStill, onScreen), null, "log-strip");
  const { name, bytes } = await saveWithTheButton(page, "log");
  assert.equal(name, "kraftscope-log-4000-of-4929-records.svg");
  assert.equal(bytes.toString("utf8"), still);
  assert.deepEqual(errors, []);
  await context.close();
});

test("nodes' directories: the still lists each node as its files hold it, as render --view log draws them", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "kraftscope-still-nodes-"));
  execFileSync("cargo", ["run", "--release", "--quiet", "--bin", "kraftscope", "--", "run", "--scenario", "candidate_waits_out_timeout",
    "--notable", "--write-nodes", dir], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  const { page, errors, context } = await open("?tab=log", { acceptDownloads: true });
  await page.locator("#log-folder").setInputFiles(dir);
  await page.locator("#cluster-files").waitFor({ timeout: 60_000 });
  await page.keyboard.press("e");
  const form = page.getByRole("region", { name: "Save a picture of the log" });
  await form.waitFor();
  const { bytes } = await download(page, () => form.getByRole("button", { name: "Save" }).click());
  const still = renderIn(path.dirname(dir), ["--view", "log", "--files", path.basename(dir)]);
  assert.equal(bytes.toString("utf8"), still);
  const names = await page.locator("#cluster-files li.file-node").evaluateAll((nodes) => nodes.map((n) => n.dataset.name));
  for (const name of names) assert.match(still, new RegExp(`>(♛ )?${name}<`), `${name} in the still`);
  assert.deepEqual(errors, []);
  await context.close();
});

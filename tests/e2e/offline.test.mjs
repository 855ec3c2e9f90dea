// Offline use for a stage: after one visit the page opens with the network gone (its service
// worker, www/sw.js, keeps every file of the build, the later views too), and a new build served
// later replaces the old one whole. The test serves copies of the build from a server of its own,
// so it can cut the network for real (the server stops) and serve a next build on the same origin.
// covers: www/sw.js index.html xtask/src/dist.rs
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { baseUrl, collectErrors, freshContext, screenshot, waitForLeader } from "./browser.mjs";

const TYPES = { html: "text/html", js: "text/javascript", wasm: "application/wasm", css: "text/css", svg: "image/svg+xml", csv: "text/csv" };

/** The build under test, downloaded file by file as its service worker lists them. */
async function downloadBuild() {
  const dir = mkdtempSync(path.join(tmpdir(), "kraftscope-build-"));
  const worker = await (await fetch(new URL("sw.js", baseUrl))).text();
  const files = JSON.parse(worker.match(/const FILES = (\[.*\]);/)[1]).filter((f) => f !== "./");
  assert.ok(files.includes("kraftscope-full_bg.wasm") && files.includes("failover.csv"), `the later views are kept too: ${files}`);
  for (const file of [...files, "sw.js"]) {
    const response = await fetch(new URL(file, baseUrl));
    assert.ok(response.ok, `${file}: ${response.status}`);
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), Buffer.from(await response.arrayBuffer()));
  }
  return { dir, version: worker.match(/const VERSION = "([0-9a-f]+)";/)[1] };
}

/** A copy of `build` as the next build would differ: a new version, a marked page and stylesheet. */
function nextBuild(build) {
  const dir = mkdtempSync(path.join(tmpdir(), "kraftscope-next-"));
  cpSync(build.dir, dir, { recursive: true });
  const edit = (file, change) => writeFileSync(path.join(dir, file), change(readFileSync(path.join(dir, file), "utf8")));
  const version = `${build.version}-next`;
  edit("sw.js", (text) => text.replace(`"${build.version}"`, `"${version}"`));
  edit("index.html", (text) => text.replace("<head>", '<head>\n    <meta name="test-build" content="next">'));
  edit("style.css", (text) => `${text}\n:root{--test-build:next}`);
  return { dir, version };
}

/** A static server on a fixed loopback port whose folder can change, and that can stop. */
function server(port) {
  let root;
  let http;
  const sockets = new Set();
  return {
    port,
    serve(dir) {
      root = dir;
      return new Promise((done) => {
        http = createServer((request, response) => {
          const name = decodeURIComponent(new URL(request.url, "http://x").pathname).slice(1) || "index.html";
          try {
            const body = readFileSync(path.join(root, path.normalize(name)));
            response.writeHead(200, { "Content-Type": TYPES[name.split(".").pop()] ?? "application/octet-stream" });
            response.end(body);
          } catch {
            response.writeHead(404).end();
          }
        });
        http.on("connection", (socket) => { sockets.add(socket); socket.on("close", () => sockets.delete(socket)); });
        http.listen(port, "127.0.0.1", done);
      });
    },
    /** The network gone: no more answers, and open connections dropped. */
    stop() {
      for (const socket of sockets) socket.destroy();
      const running = http?.listening;
      return new Promise((done) => (running ? http.close(done) : done()));
    },
  };
}

async function freePort() {
  const probe = createServer();
  await new Promise((done) => probe.listen(0, "127.0.0.1", done));
  const { port } = probe.address();
  await new Promise((done) => probe.close(done));
  return port;
}

/** The builds kept for offline use (not the worker's own records). */
const caches = (page) => page.evaluate(async () => (await caches.keys()).filter((name) => name !== "kraftscope-pages").sort());
const build = (page) => page.evaluate(() => ({
  page: document.querySelector('meta[name="test-build"]')?.content ?? "first",
  style: getComputedStyle(document.documentElement).getPropertyValue("--test-build").trim() || "first",
}));

test("after one visit the page opens offline, race included; a next build replaces the old one whole", { timeout: 300_000 }, async () => {
  const first = await downloadBuild();
  const next = nextBuild(first);
  const site = server(await freePort());
  const context = await freshContext({ serviceWorkers: "allow" });
  try {
    await offlineThenNext(site, context, first, next);
  } finally {
    await context.close();
    await site.stop();
  }
});

async function offlineThenNext(site, context, first, next) {
  const url = `http://127.0.0.1:${site.port}/`;
  await site.serve(first.dir);
  const page = await context.newPage();
  const errors = collectErrors(page);

  // One visit with the network: the cluster draws, then the worker keeps every file. The race
  // opened offline below is a small one (its size is not what this test is about; building a
  // million partitions would be most of its time).
  await page.goto(`${url}?partitions=10000`);
  await waitForLeader(page);
  await page.locator("html[data-offline=ready]").waitFor({ state: "attached", timeout: 60_000 });
  assert.deepEqual(await caches(page), [`kraftscope-${first.version}`]);

  // The network gone: a reload draws the cluster, and the race (the full page, loaded later) opens.
  await site.stop();
  await page.reload();
  await waitForLeader(page);
  await page.getByRole("tab", { name: "Failover: KRaft vs ZooKeeper" }).click();
  await page.locator("#kill-both:not([disabled])").waitFor({ timeout: 120_000 });
  assert.equal(await page.evaluate(() => document.documentElement.dataset.part), "full-page");
  await page.locator(".side-kraft svg.cluster g.node").first().waitFor();
  await screenshot(page, "offline-race");

  // The next build served: its worker fetches it whole and takes over, the open page says so and
  // goes on loading its own build's files.
  await site.serve(next.dir);
  await page.goto(url);
  await waitForLeader(page);
  await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r.update()));
  await page.locator("#new-version button").waitFor({ timeout: 60_000 });
  assert.deepEqual(await caches(page), [`kraftscope-${first.version}`, `kraftscope-${next.version}`].sort());
  assert.deepEqual(await build(page), { page: "first", style: "first" }, "the open page keeps its own build");
  const css = await page.evaluate(() => fetch("style.css").then((r) => r.text()));
  assert.ok(css.length > 1000 && !css.includes("--test-build"), "a file the open page loads now is of its own build");
  await screenshot(page, "offline-new-version-ready");

  // A reload runs the next build only: its page and stylesheet; offline too, the old build gone.
  await page.reload();
  await waitForLeader(page);
  assert.deepEqual(await build(page), { page: "next", style: "next" });
  assert.equal(await page.locator("#new-version button").count(), 0, "nothing newer to offer");
  await site.stop();
  await page.reload();
  await waitForLeader(page);
  assert.deepEqual(await build(page), { page: "next", style: "next" }, "offline, the next build");
  // The old build's cache goes once no page has used it for a while (a page being opened has no
  // client yet: www/sw.js waits OPENING_MS), at a page opened after that.
  await page.waitForTimeout(10_500);
  await page.reload();
  await waitForLeader(page);
  for (let tries = 0; JSON.stringify(await caches(page)) !== JSON.stringify([`kraftscope-${next.version}`]); tries += 1) {
    assert.ok(tries < 20, `the old build's cache stays: ${await caches(page)}`);
    await page.waitForTimeout(250);
  }

  // Failed fetches while the server was down are the network's, not the page's.
  assert.deepEqual(errors.filter((e) => !/Failed to load resource|ERR_CONNECTION_REFUSED|sw\.js/.test(e)), []);
}

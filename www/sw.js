// kraftscope's service worker: after one visit the page opens without a network. It keeps every
// file of one build (the later views too) in a cache named after the build, and answers from it
// first. `cargo xtask dist` writes the build's version and file list below.
//
// A new build never mixes with an old one: its worker fetches all its files into a cache of its
// own and takes over at once, but each open page goes on loading its later parts from the cache
// of the build it opened with; a page opened (or reloaded) from then on gets the new build. An
// old build's cache goes once no open page uses it.
const VERSION = "BUILD_VERSION";
const FILES = ["BUILD_FILES"];
const CACHE = `kraftscope-${VERSION}`;
// Which build's cache each open page or worker (client) opened with, kept where a restarted
// service worker finds it.
const PAGES = "kraftscope-pages";

self.addEventListener("install", (event) => {
  // All or nothing: a build whose files cannot all be fetched is not installed.
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(FILES.map((file) => new Request(file, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim().then(forgetUnusedBuilds));
});

/** A record of which build an open page or worker uses: the cache's name, and when. */
const record = (name) => new Response(JSON.stringify({ name, at: Date.now() }));
/** A record younger than this is kept although its page is not open yet (it is being opened). */
const OPENING_MS = 10_000;

/** The cache of the build page `clientId` opened with: this build's for a page opened before
 *  the workers kept track, or whose build is gone. */
async function buildOf(clientId) {
  const kept = clientId && (await (await caches.open(PAGES)).match(`/pages/${clientId}`));
  const name = kept ? (await kept.json()).name : CACHE;
  return (await caches.has(name)) ? name : CACHE;
}

/** Deletes the records of closed pages, then the caches of builds no open page uses (none while
 *  an open page has no record: it may be one of an older build). */
async function forgetUnusedBuilds() {
  const pages = await caches.open(PAGES);
  const open = new Set((await self.clients.matchAll({ includeUncontrolled: true, type: "all" })).map((c) => c.id));
  const used = new Set([CACHE]);
  const recorded = new Set();
  for (const request of await pages.keys()) {
    const id = new URL(request.url).pathname.split("/").pop();
    const { name, at } = await (await pages.match(request)).json();
    if (open.has(id) || Date.now() - at < OPENING_MS) {
      used.add(name);
      recorded.add(id);
    } else {
      await pages.delete(request);
    }
  }
  if ([...open].some((id) => !recorded.has(id))) return;
  for (const name of await caches.keys()) {
    if (name.startsWith("kraftscope-") && name !== PAGES && !used.has(name)) await caches.delete(name);
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== location.origin) return;
  const opened = event.resultingClientId;
  // A page opens with the newest build; anything else loads from its page's build (a worker's
  // script too, and then the worker itself). The record is written before the answer, so the
  // page's first request finds it.
  const build = (async () => {
    const name = request.mode === "navigate" ? CACHE : await buildOf(event.clientId);
    if (opened) await (await caches.open(PAGES)).put(`/pages/${opened}`, record(name));
    return name;
  })();
  // The query string chooses what the page shows, not which file: `?tour=3` is index.html.
  event.respondWith(
    build
      .then((name) => caches.open(name))
      .then((cache) => cache.match(request, { ignoreSearch: true }))
      .then((cached) => cached ?? fetch(request)),
  );
  if (opened) event.waitUntil(build.then(forgetUnusedBuilds));
});

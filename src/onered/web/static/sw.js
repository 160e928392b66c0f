// onered's service worker (served at /sw.js by onered.web.offline, after a first line that
// sets SHELL: the cache's version, the pages' shells, the static files, the fixed data and
// which page each URL is). A page reloaded while the server cannot be reached opens from
// here. Network first: while the server answers, every page and file is its own (the answer
// also refreshes the cache); the cache answers when the network fails, or a page when the
// network is slower than WAIT_MS. A game's data (the rest of /api/), streams and changes are
// never kept nor answered here: the server is the one source of a game.

const PREFIX = "onered-shell-";
const CACHE = `${PREFIX}${SHELL.version}`;
const WAIT_MS = 4000;
const KEPT = new Set([...SHELL.pages, ...SHELL.assets, ...SHELL.data]);
const ROUTES = SHELL.routes.map(([pattern, shell]) => [new RegExp(pattern), shell]);

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    await passBy(event);
    const cache = await caches.open(CACHE);
    await cache.addAll([...KEPT].map((url) => new Request(url, { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

/** Where the browser can (its static routing), the requests this worker never answers go
 * straight to the network without waking it: every change (POST) and a game's or a match's
 * data and live streams. Elsewhere they pass through the fetch handler untouched. */
async function passBy(event) {
  if (!event.addRoutes) return;
  try {
    const rules = [{ condition: { requestMethod: "POST" }, source: "network" }];
    for (const pathname of ["/api/games/*", "/api/matches/*"]) {
      rules.push({ condition: { urlPattern: new URLPattern({ pathname }) }, source: "network" });
    }
    await event.addRoutes(rules);
  } catch (e) {
    // another form of the API: the fetch handler lets them pass all the same
  }
}

/** Where the cache keeps a same-origin GET's answer: a page's shell for a page's URL, the
 * URL itself for a kept file or datum; null for anything else (left to the network). */
function keyOf(request) {
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || request.method !== "GET") return null;
  if (request.mode === "navigate") {
    const hit = ROUTES.find(([re]) => re.test(url.pathname));
    return hit ? hit[1] : null;
  }
  return !url.search && KEPT.has(url.pathname) ? url.pathname : null;
}

self.addEventListener("fetch", (event) => {
  const key = keyOf(event.request);
  if (key !== null) event.respondWith(networkFirst(event.request, key));
});

/** The network's answer (kept under ``key`` when it is a success); the kept one when the
 * network fails, or when it takes longer than WAIT_MS and one is kept. */
async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  const network = fetch(request).then((response) => {
    if (response.ok && !response.redirected) cache.put(key, response.clone()).catch(() => {});
    return response;
  });
  network.catch(() => {}); // a failure is answered below (or, after the wait, not needed)
  let timer = null;
  const slow = new Promise((resolve) => {
    timer = setTimeout(resolve, WAIT_MS, null);
  });
  try {
    const first = await Promise.race([network, slow]);
    if (first) return first;
    return (await cache.match(key)) || (await network);
  } catch (e) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

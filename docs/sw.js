// @ts-check
// The site's service worker: the whole glossary readable offline after one visit.
//
// This is its source. The build (hooks/glossary.py, with codex.offline) writes it to the site's root — so its
// scope is the whole site, under a sub-path too — with BUILD filled in: the precache list with each file's content
// revision, the per-game parts, the caches saved on first use. Every build with other content gives this file
// other bytes, which is how browsers learn there is a new version. Workbox (npm, pinned in package.json, copied
// into the site by the hooks: no CDN) does the precaching and routing; written here is only what it does not do:
// an install in parallel lanes, the games a reader keeps offline one by one, and the clean-up across versions.
//
// Caches, all named "codex-<what>-<scope>" so two copies of the site on one origin never meet:
//   precache                core + automatic games (Workbox: entries keyed by revision, so an update downloads
//                           only what changed, and a new version's files never mix with the old one's)
//   game-<id>-<hash>        a game the reader chose to keep offline (too large to save for everyone)
//   pyodide-<version>, linker-<hash>, pdf-<hash>
//                           the linker's runtime and data, and PDFs: saved when first used, named by content
// On activate, every codex cache of this scope that the new build does not name is deleted.
//
// Messages from pages (workbox-window's messageSW; the answer goes back on the message's port):
//   {type: "SKIP_WAITING"}           the reader pressed Reload on the update notice
//   {type: "CODEX_GAMES"}            -> {games: {id: {automatic, files, bytes, kept}}}
//   {type: "CODEX_KEEP", game}       save a game's part -> {ok: true} | {ok: false, error}; meanwhile
//                                    {type: "CODEX_PROGRESS", game, done, total} goes to the asking page
//   {type: "CODEX_FORGET", game}     delete it again -> {ok: true}
"use strict";

// The WebWorker library types `self` as any worker's global scope: this one is a service worker's.
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

/**
 * What the build fills in (codex.offline.service_worker).
 * @typedef {{url: string, revision: string}} Entry  a file and its content's revision
 * @typedef {{automatic: boolean, files: number, bytes: number, cache: string, list: string}} GamePart
 *          cache and list: only for a game kept on request (not automatic)
 * @typedef {{version: string, workbox: string[], ignore: string[], lists: string, precache: Entry[],
 *            fallback: string, runtime: {prefix: string, cache: string}[], games: Record<string, GamePart>}} Build
 * @typedef {{games: Record<string, {automatic: boolean, files: number, bytes: number, kept: boolean}>,
 *            version: string}} GamesState  the answer to CODEX_GAMES
 * @typedef {(done: number, total: number) => void} OnDone
 */
const BUILD = /* codex:build */ {};
const build = /** @type {Build} */ (BUILD); // BUILD typed: to tsc, the source's line above is an empty object

importScripts(...build.workbox);

const { precaching, routing, strategies, cacheableResponse, rangeRequests } = sw.workbox;
const SCOPE = sw.registration.scope;
const SUFFIX = "-" + SCOPE;
const LANES = 8; // requests in flight while saving: Workbox saves one at a time, slow over a phone's latency
/** @param {string} what */
const cacheName = (what) => "codex-" + what + SUFFIX;
/** @param {string} url */
const here = (url) => new URL(url, sw.location.href).href;
/** @param {URL} url */
const inScope = (url) => url.href.startsWith(SCOPE);

// --- the automatic part: Workbox precaching --------------------------------------------------------------------

const PRECACHE = cacheName("precache");
const core = new precaching.PrecacheController({ cacheName: PRECACHE });
core.addToCacheList(build.precache);

/** @template T @param {T[]} items @param {(item: T) => Promise<void>} work @param {OnDone} [onDone] */
async function inLanes(items, work, onDone) {
  let next = 0;
  let done = 0;
  async function lane() {
    while (next < items.length) {
      await work(items[next++]);
      done++;
      if (onDone) onDone(done, items.length);
    }
  }
  await Promise.all(Array.from({ length: Math.min(LANES, items.length) }, lane));
}

// PrecacheController.install with lanes: each entry through Workbox's own precache strategy (which skips an
// entry already saved under its revision, refuses error responses and fails the install on one).
/** @param {ExtendableEvent} event */
function installCore(event) {
  return inLanes([...core.getURLsToCacheKeys()], async ([url, cacheKey]) => {
    const request = new Request(url, { cache: "reload", credentials: "same-origin" });
    await Promise.all(core.strategy.handleAll({ params: { cacheKey }, request, event }));
  });
}

// --- games kept one by one -------------------------------------------------------------------------------------

const GAME_PREFIX = "codex-game-";

/** @param {string} game */
function gameCache(game) {
  return cacheName(build.games[game].cache);
}

/** @param {string} game */
function optional(game) {
  const info = build.games[game];
  return Boolean(info && !info.automatic);
}

// A game is kept when its cache holds its file list: the list is saved last, after every file.
/** @param {string} game */
async function isKept(game) {
  if (!optional(game) || !(await caches.has(gameCache(game)))) return false;
  const cache = await caches.open(gameCache(game));
  return Boolean(await cache.match(here(build.games[game].list)));
}

/** @type {Promise<string[]> | null} */
let keptNow = null; // Promise of the caches of the games kept in this version (recomputed after keep/forget)
function keptCaches() {
  if (!keptNow) {
    keptNow = (async () => {
      const names = [];
      for (const game of Object.keys(build.games)) if (await isKept(game)) names.push(gameCache(game));
      return names;
    })();
  }
  return keptNow;
}

// Another version's cache of this game (the reader kept it before an update), if any.
/** @param {string} game */
async function earlierCache(game) {
  const prefix = GAME_PREFIX + game + "-";
  for (const name of await caches.keys()) {
    if (!name.startsWith(prefix) || !name.endsWith(SUFFIX) || name === gameCache(game)) continue;
    if (/^[0-9a-f]+$/.test(name.slice(prefix.length, -SUFFIX.length))) return name;
  }
  return null;
}

/** @param {Response | undefined} response */
function cacheable(response) {
  return response && response.status === 200 && response.type === "basic";
}

/** @param {string} url */
async function fetchOk(url) {
  const response = await fetch(url, { cache: "reload", credentials: "same-origin" });
  if (!cacheable(response)) throw new Error(`${url}: HTTP ${response.status}`);
  return response.redirected ? sw.workbox.core.copyResponse(response) : response;
}

// Save a game's part into this version's cache: files already there are skipped (a second try resumes), files
// unchanged since the version the reader kept are copied from it, the rest are downloaded.
/** @param {string} game @param {OnDone} [onDone] */
async function keep(game, onDone) {
  if (!optional(game)) throw new Error(`no game ${game} to keep`);
  const info = build.games[game];
  const listResponse = await fetchOk(here(info.list));
  /** @type {Entry[]} */
  const entries = await listResponse.clone().json();
  const cache = await caches.open(gameCache(game));
  const earlierName = await earlierCache(game);
  const earlier = earlierName ? await caches.open(earlierName) : null;
  const earlierRevisions = new Map(); // url -> revision in the kept version, from its list
  if (earlier) {
    const listStart = here(build.lists + game + ".");
    for (const request of await earlier.keys()) {
      if (!request.url.startsWith(listStart)) continue;
      const list = await earlier.match(request);
      if (!list) continue;
      for (const e of await list.json()) earlierRevisions.set(e.url, e.revision);
    }
  }
  await inLanes(entries, async ({ url, revision }) => {
    const key = here(url);
    if (await cache.match(key)) return;
    const copy = earlier && earlierRevisions.get(url) === revision ? await earlier.match(key) : undefined;
    await cache.put(key, copy || (await fetchOk(key)));
  }, onDone);
  await cache.put(here(info.list), listResponse);
  keptNow = null;
}

/** @param {string} game */
async function forget(game) {
  if (optional(game)) await caches.delete(gameCache(game));
  keptNow = null;
}

// An update keeps what the reader kept: their games are saved again (what changed) before the new version
// takes over; if that fails, the install fails and the browser tries again later, the old version intact.
async function carryKeptGames() {
  for (const game of Object.keys(build.games)) {
    if (optional(game) && !(await isKept(game)) && (await earlierCache(game))) await keep(game);
  }
}

// --- install, activate, messages -------------------------------------------------------------------------------

sw.addEventListener("install", (event) => {
  event.waitUntil(installCore(event).then(carryKeptGames));
});

sw.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    await core.activate(event); // entries of earlier revisions leave the precache
    const current = new Set([PRECACHE, ...build.runtime.map((r) => cacheName(r.cache)), ...(await keptCaches())]);
    for (const name of await caches.keys()) {
      if (name.startsWith("codex-") && name.endsWith(SUFFIX) && !current.has(name)) await caches.delete(name);
    }
    await sw.clients.claim();
  })());
});

/** @returns {Promise<GamesState>} */
async function gamesState() {
  const kept = new Set(await keptCaches());
  /** @type {GamesState["games"]} */
  const games = {};
  for (const [game, info] of Object.entries(build.games)) {
    games[game] = {
      automatic: info.automatic, files: info.files, bytes: info.bytes,
      kept: info.automatic || kept.has(gameCache(game)),
    };
  }
  return { games, version: build.version };
}

sw.addEventListener("message", (event) => {
  const data = event.data || {};
  const port = event.ports && event.ports[0];
  const reply = (/** @type {unknown} */ value) => { if (port) port.postMessage(value); };
  const failed = (/** @type {any} */ error) => reply({ ok: false, error: String((error && error.message) || error) });
  if (data.type === "SKIP_WAITING") {
    sw.skipWaiting();
  } else if (data.type === "CODEX_GAMES") {
    event.waitUntil(gamesState().then(reply, failed));
  } else if (data.type === "CODEX_KEEP") {
    const client = event.source;
    let last = 0;
    /** @type {OnDone} */
    const progress = (done, total) => {
      const now = Date.now();
      if (client && (done === total || now - last > 250)) {
        last = now;
        client.postMessage({ type: "CODEX_PROGRESS", game: data.game, done, total });
      }
    };
    event.waitUntil(keep(data.game, progress).then(() => reply({ ok: true }), failed));
  } else if (data.type === "CODEX_FORGET") {
    event.waitUntil(forget(data.game).then(() => reply({ ok: true }), failed));
  }
});

// --- routes: only this site's own URLs; nothing from another origin is ever handled or saved --------------------

const IGNORED = build.ignore.map((pattern) => new RegExp(pattern));
routing.registerRoute(new precaching.PrecacheRoute(core, { ignoreURLParametersMatching: IGNORED, cleanURLs: false }));

const onlyComplete = new cacheableResponse.CacheableResponsePlugin({ statuses: [200] }); // no opaque, 206, 4xx/5xx
for (const { prefix, cache } of build.runtime) {
  const start = here(prefix);
  routing.registerRoute(
    ({ url }) => url.href.startsWith(start),
    new strategies.CacheFirst({
      cacheName: cacheName(cache),
      matchOptions: { ignoreSearch: true },
      plugins: [onlyComplete, new rangeRequests.RangeRequestsPlugin()],
    }),
  );
}

// Everything else of this site: a kept game's page, else the network; a page that cannot load offline shows the
// site's own 404 page (saved with the core), whose search and navigation still work.
routing.registerRoute(({ url }) => inScope(url), async ({ request }) => {
  for (const name of await keptCaches()) {
    const response = await caches.match(request, { cacheName: name, ignoreSearch: true });
    if (response) return response;
  }
  try {
    return await fetch(request);
  } catch (error) {
    if (request.mode === "navigate") {
      const page = await core.matchPrecache(build.fallback);
      if (page) return page;
    }
    throw error;
  }
});

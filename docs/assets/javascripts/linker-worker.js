// @ts-check
// The linker's Python side: a module Web Worker that boots the self-hosted Pyodide (with `codex` precompiled
// in the build's stdlib zip, or else its wheel installed) and loads every game's index, then answers requests.
//
// Protocol (all messages are plain objects):
//   page -> worker  {op: "init", manifest?: url, pyodide?: url,   start loading (sent once; idempotent)
//                    manifestData?: the manifest itself}        (given inline by the page's head: not fetched)
//                   {id, op: "link",   game, text, format, every?, preview?}
//                       result: the linked text (string); with preview: true, {text, html}
//                       where html is the same text linked as HTML (for the preview pane)
//                   {id, op: "lookup", game, query, limit?}
//                   {id, op: "traits", game, traits: [string, ...]}
//                   {id, op: "mentions", game, text, markup?}
//                   game "auto" or absent: detected from the text (the answer's `game` says which, or null)
//                   (the requests and answers are codex.api.Codex.handle's: see its docstring)
//   worker -> page  {type: "progress", key, params, marks}       while loading; marks: {step: performance.now()},
//                                                                and origin (this worker's timeOrigin), at ready
//                                                                fetches ([[file, start, end, bytes], ...]) and
//                                                                wasm: "early" (compiled before Pyodide asked)
//                   {type: "ready", games: [{id, name: {en, ru}}], site_url, marks}
//                                                                marks.boot: "snapshot" (this browser's memory
//                                                                snapshot of an earlier visit), "fast" (the
//                                                                build's precompiled standard library) or
//                                                                "stock" (Pyodide's own: the fallback)
//                   {type: "snapshot", bytes, error?, marks}     after a fast start: the snapshot for the next
//                                                                visit was saved (bytes > 0) or not
//                   {type: "failed", key, params, error}         loading failed for good
//                   (key, params: a message of hooks/codex/labels.py, which the page words in the reader's
//                   language; error: the same as plain text, for logs)
//                   {id, result, game?}  |  {id, error}          one answer per request (game: the game that
//                                                                answered; "auto" or no game detects it)
// Requests sent before "ready" wait for it. URLs default to this file's neighbours:
// <site>/assets/javascripts/linker-worker.js -> <site>/assets/pyodide/, <site>/assets/codex/.

/**
 * @typedef {import("../../../types/protocol").GameInfo} GameInfo
 * @typedef {import("../../../types/protocol").GamesRequest} GamesRequest
 * @typedef {import("../../../types/protocol").GamesAnswer} GamesAnswer
 * @typedef {(request: string) => string} Handler  codex.api.Codex.handle_json, called through Pyodide
 * @typedef {{manifest?: string, manifestData?: Manifest | null, pyodide?: string, stock?: boolean}} StartOptions  the
 *            "init" message's
 * @typedef {Record<string, number | string | (string | number)[][]>} Marks  step -> performance.now(); boot: how
 *            Python started; wasm: "early" if our compile served Pyodide; fetches: each file fetched until ready
 * @typedef {{games: GameInfo[], site_url: string, marks: Marks}} ReadyInfo  the "ready" message's
 * @typedef {{id: string, name: Record<string, string>, index: string}} ManifestGame
 * @typedef {{pyodide?: string, stdlib?: string, stdlib_codex?: boolean, snapshot?: string, wheel: string,
 *            site_url: string, games?: ManifestGame[]}} Manifest  assets/codex/manifest.json (hooks/glossary.py writes it)
 * @typedef {{unpackArchive(buffer: ArrayBuffer, format: string): void, runPython(code: string): unknown,
 *            globals: {get(name: string): any}, makeMemorySnapshot(): Uint8Array<ArrayBuffer>,
 *            _api?: {config?: Record<string, unknown>}}} Pyodide  the part of Pyodide's API used here
 * @typedef {(config: Record<string, unknown>) => Promise<Pyodide>} LoadPyodide
 * @typedef {(settings: object) => Promise<unknown>} CreateModule  pyodide.asm.mjs's module factory
 * @typedef {{loadPyodide: LoadPyodide, pyodideUrl: string, wheelBytes: () => Promise<ArrayBuffer>,
 *            indexBytes: () => Promise<[string, Uint8Array][]>, siteUrl: string, codexInStdlib: boolean,
 *            createPyodideModule: CreateModule | null}} Python  what a start needs
 */

const HERE = new URL(import.meta.url);
const DEFAULTS = {
  manifest: new URL("../codex/manifest.json", HERE).href,
  pyodide: new URL("../pyodide/", HERE).href,
};

// The protocol itself is Python: codex.api.Codex.handle (tested by pytest). Requests go in as one JSON string
// and come back as one JSON string ({result} or {error}), so no PyProxy ever crosses into JavaScript.
const START = `
from codex.api import Codex
def _codex_start(site_url, *games_then_indexes):
    global _codex
    half = len(games_then_indexes) // 2
    indexes = [data.to_bytes() for data in games_then_indexes[half:]]  # each a Uint8Array: one copy, no decoding
    _codex = Codex.from_json(dict(zip(games_then_indexes[:half], indexes)), site_url)
def _codex_handle(request):
    return _codex.handle_json(request)
`;

/** @type {Promise<ReadyInfo> | null} */
let ready = null; // Promise of the Python handler function, once "init" arrives
/** @type {Handler | null} */
let handle = null;
// Where the start-up time goes (benchmarks/linker.py and startup.py read them): performance.now() of each step,
// `origin` (this worker's performance.timeOrigin, to line them up with the page's) and, at ready, `fetches`.
/** @type {Marks} */
const marks = { start: performance.now(), origin: performance.timeOrigin };

// Pyodide compiles and instantiates its wasm in one call, once its two scripts have loaded. The worker starts
// compiling it as soon as the manifest names it (compiledWasm, streaming from the HTTP cache, so Chromium can
// keep the compiled code for the next visit); Pyodide's call then only instantiates that module. Marked at both ends.
/** @type {{url: string, module: Promise<WebAssembly.Module>} | null} */
let compiledWasm = null;
if (typeof WebAssembly !== "undefined" && WebAssembly.instantiateStreaming) {
  const instantiateStreaming = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async (source, imports) => {
    mark("wasm_start");
    const response = await source;
    let made = null;
    if (compiledWasm && response && response.url === compiledWasm.url) {
      try {
        const module = await compiledWasm.module;
        made = { module, instance: await WebAssembly.instantiate(module, imports) };
        marks.wasm = "early";
      } catch (err) {
        console.warn(`codex linker: the early wasm compile failed, compiling again: ${messageOf(err)}`);
      }
    }
    if (!made) made = await instantiateStreaming.call(WebAssembly, response, imports);
    mark("wasm_ready");
    return made;
  };
}

// Each file the worker fetched until now: [name, start, end, bytes as sent] (ms, this worker's clock).
function fetchTimes() {
  return performance.getEntriesByType("resource").map((e) => {
    const timing = /** @type {PerformanceResourceTiming} */ (e);
    return [e.name.split("/").pop() || e.name, Math.round(e.startTime), Math.round(timing.responseEnd), timing.encodedBodySize];
  });
}

/** @param {string} step */
function mark(step) {
  marks[step] = performance.now();
}

/** @param {string} key @param {Record<string, string>} [params] */
function progress(key, params) {
  self.postMessage({ type: "progress", key, params: params || {}, marks });
}

// A start-up failure the page can word in the reader's language (a labels.py key and its values).
class LabelledError extends Error {
  /** @param {string} key @param {Record<string, string>} params @param {string} [detail] */
  constructor(key, params, detail) {
    super(`${key} ${JSON.stringify(params)}${detail ? ": " + detail : ""}`);
    this.key = key;
    this.params = params;
  }
}

/** What went wrong, as text: an Error's message, else the thrown value itself. @param {unknown} err */
function messageOf(err) {
  return err instanceof Error ? err.message : String(err);
}

/** @param {string} url */
async function fetchOk(url) {
  let response;
  try {
    response = await fetch(url);
  } catch (err) {
    throw new LabelledError("linker_error_fetch", { url, reason: "—" }, messageOf(err));
  }
  if (!response.ok) throw new LabelledError("linker_error_fetch", { url, reason: `HTTP ${response.status}` });
  return response;
}

// loadPyodide asks for its two scripts, then the wasm and the stdlib, one after another (a round trip each on a
// phone's network): the worker asks for them all at once, and the HTTP cache hands the same responses to Pyodide's
// requests. The wasm is compiled meanwhile (see compiledWasm). Asked once per URL: `start` asks again for what the
// manifest names, which the URL's fragment has usually named already (EARLY).
/** @type {Map<string, Promise<any>>} */
const prefetched = new Map();
/** @param {string} url @param {() => Promise<any>} load */
function once(url, load) {
  let made = prefetched.get(url);
  if (!made) {
    made = load();
    made.catch(() => {});
    prefetched.set(url, made);
  }
  return made;
}

/** @param {string} pyodideUrl @param {string} stdlibUrl @returns {{pyodideModule: Promise<{loadPyodide: LoadPyodide}>, asmModule: Promise<{default?: unknown}>}} */
function prefetch(pyodideUrl, stdlibUrl) {
  const wasmUrl = `${pyodideUrl}pyodide.asm.wasm`;
  if (WebAssembly.compileStreaming && !(compiledWasm && compiledWasm.url === wasmUrl)) {
    compiledWasm = { url: wasmUrl, module: once(wasmUrl, () => WebAssembly.compileStreaming(fetch(wasmUrl))) };
  }
  once(stdlibUrl, () => fetch(stdlibUrl).then((r) => r.blob()));
  return {
    pyodideModule: once(`${pyodideUrl}pyodide.mjs`, () => import(`${pyodideUrl}pyodide.mjs`)),
    asmModule: once(`${pyodideUrl}pyodide.asm.mjs`, () => import(`${pyodideUrl}pyodide.asm.mjs`)),
  };
}

// The linker page's head names Pyodide's folder and the standard library's zip in this worker's URL, as its
// fragment (#pyodide=<url>&stdlib=<url>: never sent, the same HTTP and offline cache entry): their downloads and the
// wasm's compile start as this module runs, not once "init" arrives — tens of ms later on a cold start, while the
// page's main thread is busy with its own loading. Without it (instant navigation), `start` asks for them.
const EARLY = new URLSearchParams(self.location.hash.slice(1));
{
  const pyodideUrl = EARLY.get("pyodide");
  const stdlibUrl = EARLY.get("stdlib");
  if (pyodideUrl && stdlibUrl && typeof WebAssembly !== "undefined") {
    mark("prefetch");
    prefetch(pyodideUrl, stdlibUrl);
  }
}

/** @param {StartOptions} options @returns {Promise<ReadyInfo>} */
async function start(options) {
  if (typeof WebAssembly === "undefined") {
    throw new LabelledError("linker_error_wasm", {});
  }
  const manifestUrl = new URL(options.manifest || DEFAULTS.manifest, HERE).href;
  progress("linker_loading_python");
  // The manifest names the runtime's versioned folder (cached as immutable), so it comes first: given with "init"
  // by the linker page's head (the same JSON, inlined by the build), else fetched.
  /** @type {Manifest} */
  const manifest = options.manifestData || await (await fetchOk(manifestUrl)).json();
  mark("manifest");
  const base = new URL(".", manifestUrl);
  const pyodideUrl = new URL(options.pyodide || manifest.pyodide || DEFAULTS.pyodide, base).href;
  // The standard library precompiled by the build (codex.stdlib): the fast start. Absent or refused: the stock one.
  const stdlibUrl = manifest.stdlib && !options.stock ? new URL(manifest.stdlib, base).href : null;
  // A memory snapshot this browser made on an earlier visit of this very build (see saveSnapshot).
  const snapshotKey = stdlibUrl && manifest.snapshot && self.caches
    ? new URL(`linker-snapshot-${manifest.snapshot}`, manifestUrl).href : null;
  const snapshot = snapshotKey ? storedSnapshot(snapshotKey) : Promise.resolve(null);
  const asked = prefetch(pyodideUrl, stdlibUrl || `${pyodideUrl}python_stdlib.zip`);
  // Our files travel while Pyodide boots: the wheel and every index are fetched at once, not after it (the
  // indexes only without a snapshot, which holds them loaded).
  const games = manifest.games || [];
  // The fast start imports codex from the precompiled zip (manifest.stdlib_codex): the wheel only for the stock one.
  const codexInStdlib = Boolean(stdlibUrl && manifest.stdlib_codex);
  /** @type {Promise<ArrayBuffer> | null} */
  let wheel = null;
  const wheelBytes = () => {
    wheel = wheel || fetchOk(new URL(manifest.wheel, base).href).then((r) => r.arrayBuffer());
    return wheel;
  };
  if (!codexInStdlib) wheelBytes().catch(() => {});
  // As bytes: Python parses the UTF-8 itself (a JavaScript string would be decoded here, then copied into
  // Python character by character).
  /** @type {Promise<[string, Uint8Array][]> | null} */
  let indexes = null;
  const indexBytes = () => {
    indexes = indexes || Promise.all(games.map(async (game) => /** @type {[string, Uint8Array]} */ (
      [game.id, new Uint8Array(await (await fetchOk(new URL(game.index, base).href)).arrayBuffer())])));
    return indexes;
  };
  snapshot.then((found) => { if (!found) indexBytes().catch(() => {}); });
  let loadPyodide;
  try {
    ({ loadPyodide } = await asked.pyodideModule);
  } catch (err) {
    throw new LabelledError("linker_error_pyodide", { url: `${pyodideUrl}pyodide.mjs`, message: messageOf(err) });
  }
  mark("pyodide_module");
  const python = { loadPyodide, pyodideUrl, wheelBytes, indexBytes, siteUrl: manifest.site_url, codexInStdlib,
    createPyodideModule: await earlyModule(asked.asmModule) };
  const stored = await snapshot;
  if (stored) {
    try {
      handle = await restorePython(python, stdlibUrl, stored);
      marks.boot = "snapshot";
    } catch (err) {
      // An engine or memory limit that refuses it: forget it, and start as on a first visit.
      console.warn(`codex linker: the saved snapshot did not start, starting without it: ${pythonError(err)}`);
      handle = null;
      forgetSnapshots(/** @type {string} */ (snapshotKey), true); // set whenever a snapshot was found
    }
  }
  if (!handle && stdlibUrl) {
    try {
      const made = await startPython(python, stdlibUrl, Boolean(snapshotKey));
      handle = made.handler;
      marks.boot = "fast";
      if (snapshotKey) setTimeout(() => saveSnapshot(made.pyodide, snapshotKey), SNAPSHOT_DELAY_MS);
    } catch (err) {
      // Another engine, a memory limit, a stale or broken file: the reader still gets a working linker.
      console.warn(`codex linker: the fast start (${stdlibUrl}) failed, starting Pyodide the ordinary way: ${pythonError(err)}`);
      handle = null;
    }
  }
  if (!handle) {
    handle = (await startPython({ ...python, codexInStdlib: false }, null, false)).handler;
    marks.boot = "stock";
  }
  marks.fetches = fetchTimes();
  // Not needed to start, but kept in the HTTP cache (and the offline app's) for a stock start later.
  if (marks.boot !== "stock") setTimeout(() => wheelBytes().catch(() => {}), 0);
  return { games: games.map((g) => ({ id: g.id, name: g.name })), site_url: manifest.site_url, marks };
}

// Pyodide's module factory from pyodide.asm.mjs, imported beside pyodide.mjs (loadPyodide's `createPyodideModule`,
// which it would otherwise import only once started); null if that failed (loadPyodide imports it itself then).
/** @param {Promise<{default?: unknown}>} asmModule @returns {Promise<CreateModule | null>} */
async function earlyModule(asmModule) {
  try {
    const create = (await asmModule).default;
    if (typeof create !== "function") return null;
    return (/** @type {object} */ settings) => create(settings).then((/** @type {unknown} */ made) => {
      mark("python_initialized");
      return made;
    });
  } catch (err) {
    return null;
  }
}

// Pyodide up, codex installed and every index loaded: the request handler. With `stdlibUrl`, from the build's
// precompiled standard library (nothing compiles in the reader's browser); without, from Pyodide's own.
// `forSnapshot`: booted so that a memory snapshot can be taken once it is ready (private API, see saveSnapshot).
/** @param {Python} python @param {string | null} stdlibUrl @param {boolean} forSnapshot @returns {Promise<{pyodide: Pyodide, handler: Handler}>} */
async function startPython({ loadPyodide, pyodideUrl, wheelBytes, indexBytes, siteUrl, codexInStdlib, createPyodideModule }, stdlibUrl, forSnapshot) {
  /** @type {Record<string, unknown>} */
  const config = { indexURL: pyodideUrl, stdout: () => {}, stderr: (/** @type {string} */ s) => console.warn(s) };
  if (createPyodideModule) config.createPyodideModule = createPyodideModule;
  if (stdlibUrl) config.stdLibURL = stdlibUrl;
  if (forSnapshot) config._makeSnapshot = true;
  const pyodide = await loadPyodide(config);
  mark("pyodide_ready");

  progress("linker_loading_codex");
  // The wheel is a zip of pure-Python files: unpacked straight into site-packages (no package-manager round).
  // The fast start's zip holds codex already, precompiled.
  if (!(stdlibUrl && codexInStdlib)) pyodide.unpackArchive(await wheelBytes(), "wheel");
  mark("wheel");
  try {
    pyodide.runPython(START);
  } catch (err) {
    throw new LabelledError("linker_error_codex", { details: "", message: pythonError(err) });
  }
  mark("codex_imported");

  const loaded = await indexBytes();
  mark("indexes_fetched");
  progress("linker_preparing");
  const startFn = pyodide.globals.get("_codex_start");
  try {
    // The game ids cross as Python str, their indexes as Uint8Array proxies (bytes in Python; no JSON around JSON).
    startFn(siteUrl, ...loaded.map(([id]) => id), ...loaded.map(([, data]) => data));
  } finally {
    startFn.destroy();
  }
  const handler = pyodide.globals.get("_codex_handle");
  mark("indexes_loaded");
  return { pyodide, handler };
}

// --- the memory snapshot: later visits start from the interpreter as it stood after the first one's start ---
// Pyodide 314's snapshot API is private (loadPyodide's _makeSnapshot / _loadSnapshot, makeMemorySnapshot;
// tests/test_linker_fast.py pins it). A snapshot holds the whole wasm heap (about 31 MB): codex imported, the
// indexes loaded, not the file system (so the same stdlib zip is mounted and the wheel unpacked again). It is
// made here, in the reader's browser after "ready" (one made under Node would carry Node's environment), and
// kept in Cache Storage under a key naming this build's runtime, stdlib, wheel and indexes (manifest.snapshot):
// a new build never meets an old snapshot, and each save removes this site's older ones.
const SNAPSHOT_CACHE = "codex-linker-snapshot"; // not "codex-<what>-<scope>": the service worker leaves it alone
const SNAPSHOT_DELAY_MS = 1000; // after "ready": the first requests (the text typed while loading) go first

/** @param {string} key */
async function storedSnapshot(key) {
  try {
    const found = await (await caches.open(SNAPSHOT_CACHE)).match(key);
    return found ? new Uint8Array(await found.arrayBuffer()) : null;
  } catch (err) {
    return null; // no Cache Storage here (an opaque origin, a private window): no snapshot
  }
}

/** @param {Python} python @param {string | null} stdlibUrl @param {Uint8Array} snapshot @returns {Promise<Handler>} */
async function restorePython({ loadPyodide, pyodideUrl, wheelBytes, codexInStdlib, createPyodideModule }, stdlibUrl, snapshot) {
  /** @type {Record<string, unknown>} */
  const config = {
    indexURL: pyodideUrl, stdLibURL: stdlibUrl, _loadSnapshot: snapshot, stdout: () => {}, stderr: (/** @type {string} */ s) => console.warn(s),
  };
  if (createPyodideModule) config.createPyodideModule = createPyodideModule;
  const pyodide = await loadPyodide(config);
  mark("pyodide_ready");
  // Pyodide keeps its config, and so the 31 MB it was restored from: let the buffer go (a phone's memory).
  if (pyodide._api && pyodide._api.config) delete pyodide._api.config._loadSnapshot;
  // The file system is not in the snapshot: codex's modules not yet imported come from the zip, or the wheel.
  if (!codexInStdlib) pyodide.unpackArchive(await wheelBytes(), "wheel");
  mark("wheel");
  const handler = pyodide.globals.get("_codex_handle");
  if (!handler) throw new Error("the snapshot holds no linker");
  /** @type {GamesAnswer} */
  const answer = JSON.parse(handler(JSON.stringify(/** @type {GamesRequest} */ ({ op: "games" }))));
  if (!Array.isArray(answer.result)) throw new Error(`the snapshot's linker does not answer: ${JSON.stringify(answer)}`);
  mark("indexes_loaded");
  return handler;
}

/** @param {Pyodide} pyodide @param {string} key */
async function saveSnapshot(pyodide, key) {
  try {
    const bytes = pyodide.makeMemorySnapshot();
    await forgetSnapshots(key, false);
    await (await caches.open(SNAPSHOT_CACHE)).put(key, new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
    mark("snapshot_saved");
    self.postMessage({ type: "snapshot", bytes: bytes.length, marks });
  } catch (err) {
    console.warn(`codex linker: no snapshot saved for the next visit: ${pythonError(err)}`);
    self.postMessage({ type: "snapshot", bytes: 0, error: pythonError(err), marks });
  }
}

// This site's snapshots other than `key` (or `key` itself too, with `andKey`): one per site is enough.
/** @param {string} key @param {boolean} andKey */
async function forgetSnapshots(key, andKey) {
  try {
    const cache = await caches.open(SNAPSHOT_CACHE);
    const prefix = key.slice(0, key.lastIndexOf("linker-snapshot-"));
    for (const request of await cache.keys()) {
      if (request.url.startsWith(prefix + "linker-snapshot-") && (andKey || request.url !== key)) await cache.delete(request);
    }
  } catch (err) {
    // nothing to clean
  }
}

/** @param {unknown} err */
function pythonError(err) {
  const text = messageOf(err);
  // A PythonError's message is the whole traceback: the reader needs its last line.
  const lines = text.trim().split("\n");
  return lines[lines.length - 1] || text;
}

/** @type {StartOptions} */
let startOptions = {};
/** @param {StartOptions} [options] */
function ensureStarted(options) {
  if (!ready) {
    startOptions = options || {};
    ready = start(startOptions);
    ready.then(
      (info) => self.postMessage({ type: "ready", ...info }),
      (err) => self.postMessage({ type: "failed", key: err.key, params: err.params, error: pythonError(err) }),
    );
  }
  return ready;
}

self.onmessage = async (event) => {
  const msg = event.data || {};
  if (msg.op === "init") {
    ensureStarted(msg);
    return;
  }
  if (msg.id === undefined) return;
  try {
    await ensureStarted({});
  } catch (err) {
    self.postMessage({ id: msg.id, error: pythonError(err) });
    return;
  }
  const { id, ...request } = msg;
  try {
    self.postMessage({ id, ...JSON.parse(/** @type {Handler} */ (handle)(JSON.stringify(request))) });
  } catch (err) {
    if (marks.boot === "fast" && /ModuleNotFoundError/.test(messageOf(err))) {
      // A standard module the build did not foresee (codex.stdlib lists them by running the linker): start
      // again with Pyodide's whole standard library and answer from there.
      console.warn(`codex linker: the fast start lacks a module (${pythonError(err)}); starting the ordinary way`);
      if (!restarting) restarting = restartStock();
      try {
        await restarting;
        self.postMessage({ id, ...JSON.parse(/** @type {Handler} */ (handle)(JSON.stringify(request))) });
      } catch (again) {
        self.postMessage({ id, error: pythonError(again) });
      }
      return;
    }
    self.postMessage({ id: msg.id, error: pythonError(err) });
  }
};

/** @type {Promise<void> | null} */
let restarting = null;
async function restartStock() {
  const info = await start({ ...startOptions, stock: true });
  self.postMessage({ type: "ready", ...info });
}

// @ts-check
// The linker's worker client: starts the linker's worker (linker-worker.js: Python through Pyodide), sends it
// typed requests, hands back the answers and reports its progress. No DOM here: the widget (linker.js) shows it.
//
// A classic script, like every page script (the offline copy opens from file://). It starts nothing until asked,
// except on a linker page, where the worker is already running: the page's head started it (overrides/main.html,
// window.codexLinkerEarly) and this script takes it as soon as it runs; reached by instant navigation, the page
// gets it started here. ONE worker per tab, reused across Material's instant navigation. The worker's message protocol is described at the top of linker-worker.js.
(function () {
  "use strict";

  const codex = window.codex; // codex-common.js, in the head
  if (codex.linker) return; // the script was included twice: the first copy does the work

  const URLS = {
    worker: codex.siteFile("assets/javascripts/linker-worker.js"),
    manifest: codex.siteFile("assets/codex/manifest.json"),
  };
  const REQUEST_TIMEOUT_MS = 8000; // a request unanswered this long means the worker is stuck or gone: restart it
  const t = codex.label; // the messages are labels of hooks/codex/labels.py (linker_*), in the reader's language

  /** @type {LinkerState} */
  const state = {
    worker: null,
    phase: "idle", // idle | loading | ready | failed
    message: "",
    games: null,
    nextId: 0,
    pending: new Map(),
    watchers: new Set(),
    manifest: null, // Promise of the manifest, fetched by the page to fill the game list early
  };
  /** @type {LinkerClient} */
  const api = {
    urls: URLS, state: state, start: start, ask: ask, request: request, manifest: manifest, watch: watch,
    timeoutMs: REQUEST_TIMEOUT_MS, restarts: 0,
  };
  codex.linker = api;

  // Tells every watcher still on the page that the state changed; forgets the ones gone.
  function notify() {
    state.watchers.forEach((watcher) => {
      if (watcher.alive()) watcher.onState();
      else state.watchers.delete(watcher);
    });
  }

  /** @param {LinkerWatcher} watcher */
  function watch(watcher) {
    state.watchers.forEach((w) => { if (!w.alive()) state.watchers.delete(w); });
    state.watchers.add(watcher);
  }

  /** @param {string} message */
  function fail(message) {
    state.phase = "failed";
    state.message = message;
    state.pending.forEach((p) => { p.reject(new Error(message)); });
    state.pending.clear();
    notify();
  }

  function unsupported() {
    if (location.protocol === "file:") { // the offline copy opened from disk (make offline)
      return t("linker_error_file");
    }
    if (typeof WebAssembly === "undefined" || typeof WebAssembly.instantiate !== "function") {
      return t("linker_error_wasm");
    }
    if (typeof Worker === "undefined") {
      return t("linker_error_workers");
    }
    return null;
  }

  // Starts the worker unless one runs (after a failure, a new visit tries once more).
  function start() {
    if (state.phase === "failed" && state.worker) {
      state.worker.terminate();
      state.worker = null;
    }
    if (state.worker) return;
    const problem = unsupported();
    if (problem) {
      fail(problem);
      return;
    }
    state.phase = "loading";
    state.message = t("linker_starting");
    /** @type {Worker} */
    let worker;
    state.marks = null;
    // On a linker page's first load the head already started it (overrides/main.html): take it, once.
    const early = window.codexLinkerEarly;
    window.codexLinkerEarly = null;
    try {
      worker = early ? early.worker : new Worker(URLS.worker, { type: "module", name: "codex-linker" });
    } catch (err) {
      fail(t("linker_error_worker_start", { message: err instanceof Error ? err.message : String(err) }));
      return;
    }
    state.worker = worker;
    /** @param {MessageEvent} event */
    function onMessage(event) {
      if (worker !== state.worker) return; // a worker already replaced
      const msg = event.data || {};
      if (msg.type === "progress") {
        state.marks = msg.marks || state.marks;
        if (state.phase === "loading") { state.message = t(msg.key, msg.params); notify(); }
      } else if (msg.type === "snapshot") { // the worker saved (bytes > 0) a snapshot for the next start
        state.marks = msg.marks || state.marks;
        state.snapshot = msg.bytes;
      } else if (msg.type === "ready") {
        state.phase = "ready";
        state.message = "";
        state.games = msg.games;
        state.marks = msg.marks || state.marks;
        state.error = "";
        notify();
      } else if (msg.type === "failed") {
        fail(t("linker_error_loading", { message: msg.key ? t(msg.key, msg.params) : msg.error }));
      } else if (msg.id !== undefined && state.pending.has(msg.id)) {
        const p = /** @type {LinkerPending} */ (state.pending.get(msg.id));
        state.pending.delete(msg.id);
        if (p.timer !== null) clearTimeout(p.timer);
        if ("error" in msg) p.reject(new Error(msg.error));
        else p.resolve({ result: msg.result, game: msg.game });
      }
    }
    /** @param {ErrorEvent} event */
    function onError(event) {
      if (event && event.preventDefault) event.preventDefault();
      if (worker !== state.worker) return;
      const reason = event && event.message ? event.message : "error";
      if (state.phase === "ready") { // it was working: say so, and start a fresh one
        restart(reason);
        return;
      }
      fail(t("linker_error_worker_failed", { details: event && event.message ? " (" + event.message + ")" : "" }));
    }
    worker.onmessage = onMessage;
    worker.onerror = onError;
    if (early) { // what it said before this script ran, in order (its init was sent by the head)
      early.events.forEach((event) => {
        if (event instanceof MessageEvent) onMessage(event);
        else onError(event);
      });
    } else {
      worker.postMessage({ op: "init", manifest: URLS.manifest });
    }
    notify();
  }

  // A crash or a stuck request after start-up: the error is shown, pending requests fail with it, and a fresh
  // worker boots (the widgets re-run their requests when it is ready).
  /** @param {string} reason */
  function restart(reason) {
    // Pending requests fail with the bare reason (a widget words a failed request as linker_error, "Error: …");
    // the status line shows the same sentence worded so once.
    const stopped = t("linker_worker_failed", { reason: reason });
    const message = t("linker_error", { message: stopped });
    const old = state.worker;
    state.worker = null;
    if (old) old.terminate();
    state.pending.forEach((p) => { if (p.timer !== null) clearTimeout(p.timer); p.reject(new Error(stopped)); });
    state.pending.clear();
    state.phase = "idle";
    state.error = message;
    api.restarts += 1;
    start();
    state.error = message;
    notify();
  }

  // {result, game} of one request; rejected with a message on an error, a crash or a timeout.
  /**
   * @template {keyof LinkerRequests} Op
   * @param {Op} op @param {Omit<LinkerRequests[Op], "op">} payload @returns {Promise<LinkerAnswers[Op]>}
   */
  function ask(op, payload) {
    return new Promise((resolve, reject) => {
      if (!state.worker || state.phase === "failed") {
        reject(new Error(state.message || t("linker_not_running")));
        return;
      }
      const id = ++state.nextId;
      const worker = state.worker;
      /** @type {LinkerPending} */
      const pending = { resolve: resolve, reject: reject, timer: null };
      if (state.phase === "ready") {
        pending.timer = setTimeout(() => {
          if (state.worker === worker && state.pending.has(id)) {
            restart(t("linker_timeout", { seconds: Math.round(api.timeoutMs / 1000) }));
          }
        }, api.timeoutMs);
      }
      state.pending.set(id, pending);
      worker.postMessage(Object.assign({}, payload, { id: id, op: op }));
    });
  }

  /**
   * @template {keyof LinkerRequests} Op
   * @param {Op} op @param {Omit<LinkerRequests[Op], "op">} payload @returns {Promise<LinkerAnswers[Op]["result"]>}
   */
  function request(op, payload) {
    return ask(op, payload).then((answer) => { return answer.result; });
  }

  // The games of the build (assets/codex/manifest.json), fetched once, for the widget to list before Python is up.
  function manifest() {
    let saved = state.manifest;
    if (!saved) {
      saved = state.manifest = fetch(URLS.manifest).then((r) => {
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.json();
      });
      saved.catch(() => { state.manifest = null; });
    }
    return saved;
  }

  if (document.getElementById("linker-input")) start();
})();

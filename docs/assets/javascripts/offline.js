// @ts-check
// Offline reading, the page's side (mkdocs.yml extra_javascript, on every page): registers the site's service
// worker (sw.js at the site root, made by the build from docs/sw.js) through workbox-window, shows a small notice
// when a new version is ready, and on a game's index page the "keep this game offline" control for a game too
// large to be saved for everyone. Text in both languages from labels.js (codex.labels, keys offline_*).
//
// Nothing happens from file:// (the offline copy, `make offline`: browsers run no service worker there), under
// `mkdocs serve`, or in a browser without service workers; the site works as before.
(function () {
  "use strict";

  const codex = window.codex; // codex-common.js, in the head
  if (codex.offline) return; // the script ran again after an instant navigation: the first copy works
  /** @type {{module: typeof import("workbox-window") | null, workbox: import("workbox-window").Workbox | null,
   *          reloading: boolean}} */
  const state = (codex.offline = { module: null, workbox: null, reloading: false });
  if (location.protocol === "file:" || !("serviceWorker" in navigator)) return;
  // Only a build that is an app links its manifest (overrides/partials/offline-head.html): not the offline copy,
  // not `mkdocs serve` (whose sw.js only removes a worker an earlier build left).
  if (!document.querySelector('link[rel="manifest"]')) return;

  const WORKER = codex.siteFile("sw.js");
  const WORKBOX_WINDOW = codex.siteFile("assets/javascripts/vendor/workbox-window.prod.mjs");
  const LANGS = ["en", "ru"];

  // --- interface text: both languages, the stylesheet shows the reader's (the site's language contract) --------

  /**
   * A label in both languages, each in its span (the stylesheet shows the reader's); the values fill its
   * {placeholders}, each worded per language.
   * @param {string} key
   * @param {Record<string, (lang: string) => string>} [values]
   * @returns {Node}
   */
  function both(key, values) {
    const shown = LANGS.map((lang) => { return codex.label(key, values, lang); });
    if (shown[0] === shown[1]) return document.createTextNode(shown[0]);
    const fragment = document.createDocumentFragment();
    LANGS.forEach((lang, i) => {
      const span = document.createElement("span");
      span.className = "codex-l10n";
      span.lang = lang;
      span.textContent = shown[i];
      fragment.appendChild(span);
    });
    return fragment;
  }

  /** A size in megabytes, worded per language. @param {number} bytes @returns {(lang: string) => string} */
  function megabytes(bytes) {
    return function (lang) {
      const mb = Math.max(bytes / 1048576, 0.1);
      return codex.label("offline_megabytes", {
        n: function () { return mb.toLocaleString(lang, { maximumFractionDigits: 1 }); },
      }, lang);
    };
  }

  /** @param {string} key @param {() => void} onClick */
  function button(key, onClick) {
    const node = /** @type {HTMLButtonElement} */ (codex.el("button", { className: "codex-offline__button" }, [both(key)]));
    node.type = "button";
    node.addEventListener("click", onClick);
    return node;
  }

  // --- the update notice --------------------------------------------------------------------------------------

  function reload() {
    state.reloading = true;
    navigator.serviceWorker.getRegistration().then((registration) => {
      if (registration && registration.waiting && state.workbox) state.workbox.messageSkipWaiting(); // "controlling" reloads
      else location.reload(); // another tab already let the new version take over
    }, () => { location.reload(); });
  }

  function showUpdate() {
    if (document.getElementById("codex-update")) return;
    const notice = codex.el("div", { className: "codex-update" }, [codex.el("span", { className: "codex-update__text" }, [both("offline_update")])]);
    notice.id = "codex-update";
    notice.setAttribute("role", "status");
    const again = button("offline_reload", () => {
      again.disabled = true;
      reload();
    });
    notice.appendChild(again);
    document.body.appendChild(notice); // outside Material's container: it stays across instant navigation
  }

  // --- a game kept offline (games too large to be saved with the rest) ----------------------------------------

  function controlled() {
    if (navigator.serviceWorker.controller) return Promise.resolve(navigator.serviceWorker.controller);
    return new Promise((resolve) => {
      navigator.serviceWorker.addEventListener("controllerchange", () => {
        resolve(navigator.serviceWorker.controller);
      }, { once: true });
    });
  }

  /**
   * @typedef {{automatic: boolean, kept: boolean, files: number, bytes: number}} GameInfo  sw.js's CODEX_GAMES
   * @typedef {{ok?: boolean, error?: string, games?: Record<string, GameInfo>}} Answer  the service worker's answer
   * @param {{type: string, game?: string}} message
   * @returns {Promise<Answer>}
   */
  function ask(message) {
    return controlled().then((worker) => {
      if (!state.module || !worker) throw new Error("no service worker controls this page");
      return state.module.messageSW(worker, message);
    });
  }

  /** @param {HTMLElement} box @param {string} game @param {GameInfo | null} info */
  function renderGame(box, game, info) {
    while (box.firstChild) box.removeChild(box.firstChild);
    if (!info) { box.hidden = true; return; }
    box.hidden = false;
    box.dataset.state = info.automatic ? "automatic" : info.kept ? "kept" : "available";
    if (info.automatic) {
      box.appendChild(codex.el("p", { className: "codex-offline__status" }, [both("offline_saved")]));
      return;
    }
    if (info.kept) {
      box.appendChild(codex.el("p", { className: "codex-offline__status" }, [both("offline_kept")]));
      box.appendChild(button("offline_forget", () => {
        ask({ type: "CODEX_FORGET", game: game }).then(() => { refreshGame(box, game); });
      }));
      return;
    }
    box.appendChild(button("offline_keep", () => { keepGame(box, game); }));
    box.appendChild(codex.el("p", { className: "codex-offline__note" }, [both("offline_keep_note", { size: megabytes(info.bytes) })]));
  }

  /** @param {HTMLElement} box @param {string} game */
  function keepGame(box, game) {
    while (box.firstChild) box.removeChild(box.firstChild);
    box.dataset.state = "saving";
    const status = codex.el("p", { className: "codex-offline__status" }, [both("offline_saving", { done: n(0), total: n(0) })]);
    status.setAttribute("role", "status");
    box.appendChild(status);
    /** @param {MessageEvent} event */
    function onProgress(event) {
      const data = event.data || {};
      if (data.type !== "CODEX_PROGRESS" || data.game !== game) return;
      while (status.firstChild) status.removeChild(status.firstChild);
      status.appendChild(both("offline_saving", { done: n(data.done), total: n(data.total) }));
    }
    navigator.serviceWorker.addEventListener("message", onProgress);
    ask({ type: "CODEX_KEEP", game: game }).then((answer) => {
      navigator.serviceWorker.removeEventListener("message", onProgress);
      if (answer && answer.ok) { refreshGame(box, game); return; }
      failed(box, game, (answer && answer.error) || "?");
    }, (error) => {
      navigator.serviceWorker.removeEventListener("message", onProgress);
      failed(box, game, String((error && error.message) || error));
    });
  }

  /** A number, worded per language. @param {number} number @returns {(lang: string) => string} */
  function n(number) {
    return function (lang) { return Number(number).toLocaleString(lang); };
  }

  /** @param {HTMLElement} box @param {string} game @param {string} error */
  function failed(box, game, error) {
    while (box.firstChild) box.removeChild(box.firstChild);
    box.dataset.state = "failed";
    const message = codex.el("p", { className: "codex-offline__status" }, [both("offline_failed", { error: function () { return error; } })]);
    message.setAttribute("role", "alert");
    box.appendChild(message);
    box.appendChild(button("offline_keep", () => { keepGame(box, game); }));
  }

  /** @param {HTMLElement} box @param {string} game */
  function refreshGame(box, game) {
    return ask({ type: "CODEX_GAMES" }).then((answer) => {
      renderGame(box, game, answer && answer.games ? answer.games[game] : null);
    }, () => { box.hidden = true; });
  }

  function mountGame() {
    const box = /** @type {HTMLElement | null} */ (document.querySelector("[data-codex-offline-game]"));
    if (!box || !codex.firstMount(box)) return;
    refreshGame(box, box.getAttribute("data-codex-offline-game") || "");
  }

  // --- registration -------------------------------------------------------------------------------------------

  // The app's install downloads the site's core in parallel lanes. On the linker page's first visit the linker is
  // starting too (its head started the worker): the install waits until the linker is ready, or the two share the
  // network and both cores — a cold start measured 1.8–2.0 s alone and 2.6–4.5 s beside the install
  // (benchmarks/startup.py). After LINKER_WAIT_MS it installs anyway (a linker that never settles).
  const LINKER_WAIT_MS = 30000;
  /** @returns {Promise<void>} */
  function linkerSettled() {
    const linker = codex.linker;
    if (!linker || !(window.codexLinkerEarly || linker.state.phase === "loading")) return Promise.resolve();
    return new Promise((resolve) => {
      let settled = false;
      const settle = () => { settled = true; resolve(); };
      setTimeout(settle, LINKER_WAIT_MS);
      linker.watch({
        alive: () => !settled,
        onState: () => { if (linker.state.phase === "ready" || linker.state.phase === "failed") settle(); },
      });
    });
  }

  /** @type {Promise<typeof import("workbox-window")>} */ (import(WORKBOX_WINDOW)).then((module) => {
    state.module = module;
    const wb = (state.workbox = new module.Workbox(WORKER));
    wb.addEventListener("waiting", showUpdate);
    wb.addEventListener("controlling", (event) => {
      if (!event.isUpdate) return; // the first visit: the worker took over the page it was installed from
      if (state.reloading) location.reload();
      else showUpdate();
    });
    linkerSettled().then(() => wb.register()).catch(() => {
      /* offline: the update check failed; the installed worker keeps serving */
    });
    codex.onPage(mountGame); // Material: the first page and every instant navigation
  }, (error) => {
    console.warn("offline reading is not available:", error);
  });
})();

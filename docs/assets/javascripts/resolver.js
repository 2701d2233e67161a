// The resolver widget (/resolver/): paste a forum post, get it back with every glossary term linked.
//
// A classic script included on every page (mkdocs.yml extra_javascript); it does nothing unless the
// page has #resolver-input. Python (Pyodide) runs in ONE module Web Worker per tab, started the first
// time a resolver page is shown and reused across Material's instant navigation.
// The worker's message protocol is described at the top of resolver-worker.js.
(function () {
  "use strict";

  if (window.__codexResolver) return; // the script was included twice: the first copy does the work

  // This file lives at <site>/assets/javascripts/resolver.js: every other URL is resolved from it,
  // which holds under instant navigation and with the site served from a subpath.
  var script =
    document.currentScript || document.querySelector('script[src*="assets/javascripts/resolver.js"]');
  var SCRIPT_URL = script && script.src
    ? script.src
    : new URL("assets/javascripts/resolver.js", window.__md_scope || document.baseURI).href;
  var URLS = {
    worker: new URL("resolver-worker.js", SCRIPT_URL).href,
    manifest: new URL("../codex/manifest.json", SCRIPT_URL).href,
  };

  var DEBOUNCE_MS = 150;
  var FORMATS = ["markdown", "bbcode", "html"];
  var STORE = { game: "codex-resolver-game", format: "codex-resolver-format" };

  // --- one worker per tab ---------------------------------------------------------------

  var state = {
    worker: null,
    phase: "idle", // idle | loading | ready | failed
    message: "",
    games: null,
    nextId: 0,
    pending: new Map(),
    widgets: new Set(),
    manifest: null, // Promise of the manifest, fetched by the page to fill the game list early
  };
  window.__codexResolver = { urls: URLS, state: state, request: request };

  function notify() {
    state.widgets.forEach(function (widget) {
      if (widget.alive()) widget.onState();
      else state.widgets.delete(widget);
    });
  }

  function fail(message) {
    state.phase = "failed";
    state.message = message;
    state.pending.forEach(function (p) { p.reject(new Error(message)); });
    state.pending.clear();
    notify();
  }

  function unsupported() {
    if (typeof WebAssembly === "undefined" || typeof WebAssembly.instantiate !== "function") {
      return "Ошибка: этот браузер не поддерживает WebAssembly (или он отключён), а без него Python не запустить. " +
        "Откройте страницу в свежей версии Firefox, Chrome, Edge или Safari.";
    }
    if (typeof Worker === "undefined") {
      return "Ошибка: этот браузер не поддерживает Web Workers, без них связыватель не работает.";
    }
    return null;
  }

  function startWorker() {
    if (state.phase === "failed" && state.worker) { // a new visit after a failure: try once more
      state.worker.terminate();
      state.worker = null;
    }
    if (state.worker) return;
    var problem = unsupported();
    if (problem) {
      fail(problem);
      return;
    }
    state.phase = "loading";
    state.message = "Запуск фонового процесса…";
    var worker;
    try {
      worker = new Worker(URLS.worker, { type: "module", name: "codex-resolver" });
    } catch (err) {
      fail("Ошибка: не удалось запустить Web Worker (" + (err && err.message ? err.message : err) + ").");
      return;
    }
    state.worker = worker;
    worker.onmessage = function (event) {
      var msg = event.data || {};
      if (msg.type === "progress") {
        if (state.phase === "loading") { state.message = msg.message; notify(); }
      } else if (msg.type === "ready") {
        state.phase = "ready";
        state.message = "ready";
        state.games = msg.games;
        notify();
      } else if (msg.type === "failed") {
        fail("Ошибка загрузки: " + msg.error);
      } else if (msg.id !== undefined && state.pending.has(msg.id)) {
        var p = state.pending.get(msg.id);
        state.pending.delete(msg.id);
        if ("error" in msg) p.reject(new Error(msg.error));
        else p.resolve(msg.result);
      }
    };
    worker.onerror = function (event) {
      if (event && event.preventDefault) event.preventDefault();
      if (state.phase === "ready") return; // a stray error after start-up: requests report their own
      fail("Ошибка: фоновый процесс не запустился" + (event && event.message ? " (" + event.message + ")" : "") +
        ". Возможно, браузер не поддерживает модульные Web Workers — обновите его.");
    };
    worker.postMessage({ op: "init", manifest: URLS.manifest });
    notify();
  }

  function request(op, payload) {
    return new Promise(function (resolve, reject) {
      if (!state.worker || state.phase === "failed") {
        reject(new Error(state.message || "Python не запущен"));
        return;
      }
      var id = ++state.nextId;
      state.pending.set(id, { resolve: resolve, reject: reject });
      state.worker.postMessage(Object.assign({}, payload, { id: id, op: op }));
    });
  }

  function manifest() {
    if (!state.manifest) {
      state.manifest = fetch(URLS.manifest).then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.json();
      });
      state.manifest.catch(function () { state.manifest = null; });
    }
    return state.manifest;
  }

  // --- small DOM helpers (text only: nothing but Python's HTML output goes through innerHTML) ----

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) Object.keys(attrs).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else if (k === "className") node.className = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (child) {
      if (child !== null && child !== undefined) {
        node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
      }
    });
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  function debounce(fn, ms) {
    var timer = null;
    var wrapped = function () {
      clearTimeout(timer);
      timer = setTimeout(fn, ms);
    };
    wrapped.now = function () {
      clearTimeout(timer);
      fn();
    };
    return wrapped;
  }

  function stored(key) {
    try { return window.localStorage.getItem(key); } catch (e) { return null; }
  }

  function store(key, value) {
    try { window.localStorage.setItem(key, value); } catch (e) { /* private mode: fine */ }
  }

  function termName(item) {
    var ru = item.name_ru, en = item.name;
    return ru && en && ru !== en ? ru + " (" + en + ")" : ru || en || item.term;
  }

  function termLink(item, text) {
    return el("a", { href: item.url, className: "resolver-term", title: item.term }, [text || termName(item)]);
  }

  // --- the widget -----------------------------------------------------------------------

  function mount(input) {
    if (input.dataset.resolverMounted) return;
    input.dataset.resolverMounted = "1";

    function $(id) { return document.getElementById(id); }
    var ui = {
      root: input.closest(".resolver") || input.parentNode,
      input: input,
      game: $("resolver-game"),
      format: $("resolver-format"),
      every: $("resolver-every"),
      output: $("resolver-output"),
      copy: $("resolver-copy"),
      preview: $("resolver-preview"),
      status: $("resolver-status"),
      label: $("resolver-status-label"),
      error: $("resolver-error"),
      lookup: $("resolver-lookup"),
      lookupResults: $("resolver-lookup-results"),
      traits: $("resolver-traits"),
      traitsResults: $("resolver-traits-results"),
    };
    var seq = { link: 0, lookup: 0, traits: 0 };

    var widget = {
      alive: function () { return input.isConnected; },
      onState: onState,
    };

    function setStatus(phase, message) {
      if (ui.root && ui.root.dataset) ui.root.dataset.state = phase;
      if (ui.status) ui.status.textContent = phase === "ready" ? "ready" : message;
      if (ui.label) {
        var n = state.games ? state.games.length : 0;
        ui.label.textContent = phase === "ready"
          ? "Готово: Python запущен, глоссарии загружены (" + n + "). Вставьте текст — ссылки появятся сразу."
          : phase === "failed" ? "" : "Первый запуск занимает несколько секунд (загружается Python), дальше — из кэша браузера.";
      }
      var busy = phase !== "ready";
      [ui.output, ui.copy].forEach(function (node) { if (node) node.toggleAttribute("aria-busy", busy); });
    }

    function fillGames(games) {
      if (!ui.game || !games || !games.length) return;
      var known = Array.prototype.map.call(ui.game.options, function (o) { return o.value; }).join("\n");
      if (known === games.map(function (g) { return g.id; }).join("\n")) return;
      var wanted = new URLSearchParams(window.location.search).get("game") || ui.game.value || stored(STORE.game);
      clear(ui.game);
      games.forEach(function (g) {
        var name = (g.name && (g.name.ru || g.name.en)) || g.id;
        ui.game.appendChild(el("option", { value: g.id, text: name }));
      });
      if (games.some(function (g) { return g.id === wanted; })) ui.game.value = wanted;
      ui.game.disabled = false;
    }

    function onState() {
      setStatus(state.phase, state.message);
      if (state.phase === "ready") {
        fillGames(state.games);
        runAll();
      }
    }

    function showError(message) {
      if (ui.error) {
        ui.error.textContent = message || "";
        ui.error.hidden = !message;
      }
    }

    function game() { return ui.game ? ui.game.value : ""; }
    function format() {
      var f = ui.format ? ui.format.value : "markdown";
      return FORMATS.indexOf(f) >= 0 ? f : "markdown";
    }

    function setOutput(text, html) {
      if (ui.output) {
        // Both the text content (the textarea's default value) and the live value: either one
        // reads back exactly what codex.link returned.
        ui.output.textContent = text;
        if ("value" in ui.output) ui.output.value = text;
      }
      if (ui.preview) {
        ui.preview.innerHTML = html; // codex.link(..., "html"): Python has escaped the text already
        Array.prototype.forEach.call(ui.preview.querySelectorAll("a[href]"), function (a) {
          a.target = "_blank";
          a.rel = "noopener";
        });
      }
      if (ui.copy) ui.copy.disabled = !text;
    }

    function runLink() {
      if (state.phase !== "ready" || !game()) return;
      var text = ui.input.value;
      var mine = ++seq.link;
      if (!text) {
        setOutput("", "");
        showError("");
        return;
      }
      request("link", { game: game(), text: text, format: format(), every: !!(ui.every && ui.every.checked), preview: true })
        .then(function (result) {
          if (mine !== seq.link) return; // a newer request is on its way
          setOutput(result.text, result.html);
          showError("");
        }, function (err) {
          if (mine !== seq.link) return;
          setOutput("", "");
          showError("Ошибка: " + err.message);
        });
    }

    function runLookup() {
      if (!ui.lookup || !ui.lookupResults || state.phase !== "ready" || !game()) return;
      var query = ui.lookup.value.trim();
      var mine = ++seq.lookup;
      if (!query) { clear(ui.lookupResults); return; }
      request("lookup", { game: game(), query: query, limit: 10 }).then(function (found) {
        if (mine !== seq.lookup) return;
        clear(ui.lookupResults);
        if (!found.length) {
          ui.lookupResults.appendChild(el("p", { className: "resolver-empty", text: "Ничего не найдено." }));
          return;
        }
        var list = el("ol", { className: "resolver-candidates" });
        found.forEach(function (c) {
          list.appendChild(el("li", null, [
            termLink(c, termName(c)),
            c.parameter !== null && c.parameter !== undefined && c.parameter !== ""
              ? el("span", { className: "resolver-param", text: "параметр: " + c.parameter }) : null,
            el("span", { className: "resolver-score", title: "Степень совпадения", text: Number(c.score).toFixed(2) }),
          ]));
        });
        ui.lookupResults.appendChild(list);
      }, function (err) {
        if (mine !== seq.lookup) return;
        clear(ui.lookupResults);
        ui.lookupResults.appendChild(el("p", { className: "resolver-error", text: "Ошибка: " + err.message }));
      });
    }

    function runTraits() {
      if (!ui.traits || !ui.traitsResults || state.phase !== "ready" || !game()) return;
      var given = ui.traits.value.split(/[,;\n]/).map(function (s) { return s.trim(); }).filter(Boolean);
      var mine = ++seq.traits;
      if (!given.length) { clear(ui.traitsResults); return; }
      request("traits", { game: game(), traits: given }).then(function (res) {
        if (mine !== seq.traits) return;
        clear(ui.traitsResults);
        renderTraits(res);
      }, function (err) {
        if (mine !== seq.traits) return;
        clear(ui.traitsResults);
        ui.traitsResults.appendChild(el("p", { className: "resolver-error", text: "Ошибка: " + err.message }));
      });
    }

    function chain(item) {
      var names = (item.because_names && item.because_names.en) || item.because || [];
      return names.join(" → ");
    }

    // One side of a cancelled pair: its link and, when it was implied rather than given, its chain.
    function cancelledPart(c) {
      var ru = ((c.because_names && c.because_names.ru) || []).slice(-1)[0];
      var part = [termLink(c, termName({ term: c.term, name: c.name, name_ru: ru }))];
      if ((c.because || []).length > 1) part.push(el("span", { className: "resolver-chain", text: chain(c) }));
      return part;
    }

    function renderTraits(res) {
      var out = ui.traitsResults;
      if (res.traits.length) {
        out.appendChild(el("p", { className: "resolver-subhead", text: "Черты (с цепочкой вывода):" }));
        var list = el("ul", { className: "resolver-traits-list" });
        res.traits.forEach(function (t) {
          var given = (t.because || []).length <= 1;
          list.appendChild(el("li", null, [
            termLink(t),
            el("span", { className: "resolver-chain" + (given ? " resolver-given" : ""), text: given ? "задана" : chain(t) }),
          ]));
        });
        out.appendChild(list);
      }
      if (res.cancelled.length) {
        out.appendChild(el("p", { className: "resolver-subhead", text: "Взаимно отменяются:" }));
        var pairs = el("ul", { className: "resolver-cancelled" });
        var seen = {};
        res.cancelled.forEach(function (c) {
          var key = [c.term, c.cancelled_by].sort().join("|");
          if (seen[key]) return;
          seen[key] = true;
          var other = res.cancelled.filter(function (o) { return o.term === c.cancelled_by && o.cancelled_by === c.term; })[0];
          pairs.appendChild(el("li", null, cancelledPart(c).concat([" ✕ "], other ? cancelledPart(other) : [
            el("span", { text: c.cancelled_by_name
              ? termName({ name: c.cancelled_by_name.en, name_ru: c.cancelled_by_name.ru }) : c.cancelled_by }),
          ])));
        });
        out.appendChild(pairs);
      }
      if (res.unknown.length) {
        out.appendChild(el("p", { className: "resolver-unknown", text: "Не найдены в глоссарии: " + res.unknown.join(", ") }));
      }
      if (!res.traits.length && !res.cancelled.length && !res.unknown.length) {
        out.appendChild(el("p", { className: "resolver-empty", text: "Нет черт." }));
      }
    }

    function runAll() {
      runLink();
      runLookup();
      runTraits();
    }

    var linkSoon = debounce(runLink, DEBOUNCE_MS);
    var lookupSoon = debounce(runLookup, DEBOUNCE_MS);
    var traitsSoon = debounce(runTraits, DEBOUNCE_MS);

    input.addEventListener("input", linkSoon);
    if (ui.game) ui.game.addEventListener("change", function () {
      store(STORE.game, ui.game.value);
      linkSoon.now(); lookupSoon.now(); traitsSoon.now();
    });
    if (ui.format) {
      var savedFormat = stored(STORE.format);
      if (FORMATS.indexOf(savedFormat) >= 0) ui.format.value = savedFormat;
      ui.format.addEventListener("change", function () { store(STORE.format, ui.format.value); linkSoon.now(); });
    }
    if (ui.every) ui.every.addEventListener("change", function () { linkSoon.now(); });
    if (ui.lookup) ui.lookup.addEventListener("input", lookupSoon);
    if (ui.traits) ui.traits.addEventListener("input", traitsSoon);

    if (ui.copy) {
      ui.copy.disabled = true;
      ui.copy.addEventListener("click", function () {
        var text = ui.output ? ui.output.value : "";
        var done = function () {
          var label = ui.copy.dataset.label || ui.copy.textContent;
          ui.copy.dataset.label = label;
          ui.copy.textContent = "Скопировано";
          setTimeout(function () { ui.copy.textContent = label; }, 1500);
        };
        var fallback = function () {
          ui.output.focus();
          ui.output.select();
          try { if (document.execCommand("copy")) done(); } catch (e) { /* nothing more to try */ }
        };
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(text).then(done, fallback);
        } else {
          fallback();
        }
      });
    }

    if (ui.game && !ui.game.options.length) {
      ui.game.appendChild(el("option", { value: "", text: "Загрузка…" }));
      ui.game.disabled = true;
    }
    manifest().then(function (m) { if (widget.alive()) fillGames(m.games); }, function () { /* the worker reports it */ });

    state.widgets.forEach(function (w) { if (!w.alive()) state.widgets.delete(w); });
    state.widgets.add(widget);
    startWorker();
    onState();
  }

  function boot() {
    var input = document.getElementById("resolver-input");
    if (input) mount(input);
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(boot); // Material: the first page and every instant navigation
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", boot);
  } else {
    boot();
  }
})();

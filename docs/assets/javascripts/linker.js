// @ts-check
// The linker widget (/linker/): paste a forum post, get it back with every glossary term linked; find a term;
// traits and what follows from them. The page's DOM only: Python runs behind the worker client (linker-client.js,
// window.codex.linker), which this script asks and watches.
//
// A classic script included on every page (mkdocs.yml extra_javascript, after linker-client.js); it does nothing
// unless the page has #linker-input.
(function () {
  "use strict";

  const codex = window.codex; // codex-common.js, in the head
  const linker = /** @type {LinkerClient} */ (codex.linker); // linker-client.js, just before this script
  if (linker.widget) return; // the script was included twice: the first copy does the work
  linker.widget = true;
  const state = linker.state;

  const DEBOUNCE_MS = 150;
  const AUTO = "auto"; // the game is detected from the text (codex.api: the answer says which)
  // Every message comes from hooks/codex/labels.py (linker_*), in the reader's language: window.codexLabels.
  const t = codex.label;
  const inLanguage = codex.inLanguage;
  const el = codex.el;
  const clear = codex.clear;
  const FORMATS = ["markdown", "bbcode", "html"];
  // The game is not remembered: the selector starts at Auto. The format's key had the page's former name: a
  // choice saved under it still counts until the reader picks a format again (saved under the new key).
  const STORE = { format: "codex-linker-format", formerFormat: "codex-resolver-format" };

  /**
   * The answers are codex.protocol's, generated as types/protocol.d.ts (python -m codex.typedefs).
   * @typedef {import("../../../types/protocol").Linked} Linked
   * @typedef {import("../../../types/protocol").LinkedMention} LinkedMention  a mention in a link answer
   * @typedef {{start: number, end: number, text: string}} Skipped  a mention the reader unticked, as written
   * @typedef {import("../../../types/protocol").Format} Format
   * @typedef {import("../../../types/protocol").Candidate} Candidate  a lookup's answer
   * @typedef {import("../../../types/protocol").Trait} Trait  a trait, given or implied
   * @typedef {import("../../../types/protocol").Cancelled} Cancelled
   * @typedef {import("../../../types/protocol").Traits} Traits  a traits answer
   * @typedef {{term: string, url?: string, name?: string, name_ru?: string}} Term  a term as shown (any answer's)
   */

  // --- small helpers (text only: nothing but Python's HTML output goes through innerHTML) ----

  /** @param {() => void} fn @param {number} ms */
  function debounce(fn, ms) {
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const wrapped = function () {
      clearTimeout(timer);
      timer = setTimeout(fn, ms);
    };
    wrapped.now = function () {
      clearTimeout(timer);
      fn();
    };
    return wrapped;
  }

  /** @param {string} key */
  function stored(key) {
    try { return window.localStorage.getItem(key); } catch (e) { return null; }
  }

  /** @param {string} key @param {string} value */
  function store(key, value) {
    try { window.localStorage.setItem(key, value); } catch (e) { /* private mode: fine */ }
  }

  /** @param {Term} item */
  function termName(item) {  // the reader's language first: "Эгида (Aegis X)" / "Aegis X (Эгида)"
    const first = inLanguage({ en: item.name, ru: item.name_ru }, undefined), second = first === item.name ? item.name_ru : item.name;
    return first && second && first !== second ? first + " (" + second + ")" : first || second || item.term;
  }

  /** @param {Term} item @param {string} [text] */
  function termLink(item, text) {
    return el("a", { href: item.url || "", className: "linker-term", title: item.term }, [text || termName(item)]);
  }

  // --- the widget -----------------------------------------------------------------------

  /** @param {HTMLTextAreaElement} input */
  function mount(input) {
    if (!codex.firstMount(input)) return;

    /** @param {string} id */
    function $(id) { return document.getElementById(id); }
    const ui = {
      root: /** @type {HTMLElement | null} */ (input.closest(".linker")) || input.parentElement,
      input: input,
      game: /** @type {HTMLSelectElement | null} */ ($("linker-game")),
      format: /** @type {HTMLSelectElement | null} */ ($("linker-format")),
      every: /** @type {HTMLInputElement | null} */ ($("linker-every")),
      output: /** @type {HTMLTextAreaElement | null} */ ($("linker-output")),
      copy: /** @type {HTMLButtonElement | null} */ ($("linker-copy")),
      preview: $("linker-preview"),
      links: $("linker-links"),
      linksList: $("linker-links-list"),
      status: $("linker-status"),
      label: $("linker-status-label"),
      error: $("linker-error"),
      lookup: /** @type {HTMLInputElement | null} */ ($("linker-lookup")),
      lookupResults: $("linker-lookup-results"),
      traits: /** @type {HTMLInputElement | HTMLTextAreaElement | null} */ ($("linker-traits")),
      traitsResults: $("linker-traits-results"),
    };
    const seq = { link: 0, lookup: 0, traits: 0 };

    const widget = {
      alive: function () { return input.isConnected; },
      onState: onState,
    };

    /** @type {string | null} */
    let detected = null; // the game auto-detection found in the post
    // The mentions the reader unticked, by "start:end" (character offsets, as codex.protocol counts them: code
    // points). One stays only while the same text still stands at the same offsets (keepSkipped).
    /** @type {Map<string, Skipped>} */
    const skipped = new Map();

    /** @param {string} phase @param {string} message */
    function setStatus(phase, message) {
      if (ui.root && ui.root.dataset) ui.root.dataset.state = phase;
      if (ui.status) ui.status.textContent = phase === "ready" ? t("linker_ready") : message;  // machines: #linker-widget[data-state]
      if (ui.label) {
        const n = state.games ? state.games.length : 0;
        ui.label.textContent = phase === "ready"
          ? t("linker_ready_label", { count: n })
          : phase === "failed" ? "" : t("linker_first_start");
      }
      if (state.error && phase !== "ready") showError(state.error);
      const busy = phase !== "ready";
      [ui.output, ui.copy].forEach((node) => { if (node) node.toggleAttribute("aria-busy", busy); });
    }

    /** @param {string} id */
    function gameName(id) {
      const games = state.games || [];
      for (let i = 0; i < games.length; i++) {
        if (games[i].id === id) return inLanguage(games[i].name, id);
      }
      return id;
    }

    /** @param {string | null} game */
    function showDetected(game) {
      detected = game || null;
      const option = ui.game && ui.game.querySelector('option[value="' + AUTO + '"]');
      if (!option) return;
      option.textContent = ui.input.value.trim()
        ? (game ? t("linker_auto_detected", { game: gameName(game) }) : t("linker_auto_none")) : t("linker_auto");
      if (ui.root && ui.root.dataset) ui.root.dataset.detected = game || "";
    }

    /** @param {LinkerGame[] | null} games */
    function fillGames(games) {
      if (!ui.game || !games || !games.length) return;
      const select = ui.game;
      const known = Array.prototype.map.call(select.options, (o) => { return o.value; }).join("\n");
      if (known === [AUTO].concat(games.map((g) => { return g.id; })).join("\n")) return;
      const wanted = new URLSearchParams(window.location.search).get("game") || select.value || AUTO;
      clear(select);
      select.appendChild(el("option", { value: AUTO, text: t("linker_auto") }));
      games.forEach((g) => {
        select.appendChild(el("option", { value: g.id, text: inLanguage(g.name, g.id) }));
      });
      select.value = games.some((g) => { return g.id === wanted; }) ? wanted : AUTO;
      select.disabled = false;
    }

    function onState() {
      setStatus(state.phase, state.message);
      if (state.phase === "ready") {
        fillGames(state.games);
        runAll();
      }
    }

    /** @param {string} message */
    function showError(message) {
      if (ui.error) {
        ui.error.textContent = message || "";
        ui.error.hidden = !message;
      }
    }

    function game() { return ui.game ? ui.game.value : ""; }
    // lookup and traits follow the post: in Auto, the game detected there (or their own detection)
    function toolGame() { const g = game(); return g === AUTO ? (detected || AUTO) : g; }
    function format() {
      const f = ui.format ? ui.format.value : "markdown";
      return FORMATS.indexOf(f) >= 0 ? /** @type {Format} */ (f) : "markdown";
    }

    /** @param {string} text @param {string} html */
    function setOutput(text, html) {
      if (ui.output) {
        // Both the text content (the textarea's default value) and the live value: either one
        // reads back exactly what codex.link returned.
        ui.output.textContent = text;
        if ("value" in ui.output) ui.output.value = text;
      }
      if (ui.preview) {
        ui.preview.innerHTML = html; // codex.link(..., "html"): Python has escaped the text already
        Array.prototype.forEach.call(ui.preview.querySelectorAll("a[href]"), (a) => {
          a.target = "_blank";
          a.rel = "noopener";
        });
      }
      if (ui.copy) ui.copy.disabled = !text;
    }

    /** @param {{start: number, end: number}} m */
    function spanKey(m) { return m.start + ":" + m.end; }

    // Drops the unticked mentions the reader's edits moved or changed: a span is kept only while the same text
    // stands at the same offsets (no offset arithmetic: text typed before it un-skips it). Offsets are code
    // points, as Python counts them (Array.from), not UTF-16 units (an emoji before it would shift those).
    /** @param {string} text */
    function keepSkipped(text) {
      if (!skipped.size) return;
      const chars = Array.from(text);
      skipped.forEach((s, key) => {
        if (chars.slice(s.start, s.end).join("") !== s.text) skipped.delete(key);
      });
    }

    // The links made, one checkbox each (checked: linked; unchecked: unticked by the reader). A mention left
    // unlinked because only each term's first is linked (or because no link fits there) is left out rather than
    // shown disabled: a long post repeats its terms many times, a box that cannot be ticked would only lengthen
    // the list, and unticking the linked one moves the link to the next mention, which then shows here.
    /** @param {LinkedMention[]} mentions */
    function renderLinks(mentions) {
      const box = ui.links, list = ui.linksList;
      if (!box || !list) return;
      const active = document.activeElement;
      const focused = active instanceof HTMLInputElement && list.contains(active) ? active.dataset.span : null;
      clear(list);
      /** @type {Record<string, number>} */
      const seen = {};
      mentions.forEach((m) => {
        const key = spanKey(m);
        if (!m.linked && !skipped.has(key)) return;
        const term = inLanguage({ en: m.name, ru: m.name_ru }, m.term);
        const same = m.text + "\n" + m.term;
        seen[same] = (seen[same] || 0) + 1; // the same words listed twice: "Rage (2) → Rage +X", the second one
        const input = /** @type {HTMLInputElement} */ (el("input", { type: "checkbox", "data-span": key }));
        input.checked = m.linked;
        input.addEventListener("change", () => {
          if (input.checked) skipped.delete(key);
          else skipped.set(key, { start: m.start, end: m.end, text: m.text });
          linkSoon.now();
        });
        list.appendChild(el("li", null, [el("label", { className: "linker-link" }, [
          input,
          el("span", { className: "linker-link-text", text: m.text + (seen[same] > 1 ? " (" + seen[same] + ")" : "") }),
          " ", // the accessible name: "Rage links to Rage"; the eye sees "Rage → Rage"
          el("span", { className: "linker-link-arrow", "aria-hidden": "true", text: "→" }),
          el("span", { className: "codex-sr-only", text: t("linker_links_to") }),
          " ",
          el("span", { className: "linker-link-term", text: term }),
        ])]));
        if (focused === key) input.focus(); // the box the reader just toggled keeps the keyboard's focus
      });
      box.hidden = !list.firstChild;
    }

    function runLink() {
      if (state.phase !== "ready" || !game()) return;
      const text = ui.input.value;
      const mine = ++seq.link;
      if (!text) {
        skipped.clear();
        setOutput("", "");
        renderLinks([]);
        showError("");
        showDetected(null);
        return;
      }
      keepSkipped(text);
      const skip = Array.from(skipped.values(), (s) => { return [s.start, s.end]; });
      linker.ask("link", { game: game(), text: text, format: format(), every: !!(ui.every && ui.every.checked), preview: true, skip: skip })
        .then((answer) => {
          if (mine !== seq.link) return; // a newer request is on its way
          const result = /** @type {Linked} */ (answer.result); // preview: {text, html, mentions}
          setOutput(result.text, result.html || "");
          renderLinks(result.mentions || []);
          showDetected(game() === AUTO ? answer.game : null);
          state.error = "";
          showError("");
        }, (err) => {
          if (mine !== seq.link) return;
          setOutput("", "");
          renderLinks([]);
          showError(t("linker_error", { message: err.message }));
        });
    }

    // A tool (lookup, traits) asks about its field's text, unless it is empty: the answer replaces the results
    // unless a newer request was made meanwhile; so does an error.
    /**
     * @param {"lookup" | "traits"} tool
     * @param {HTMLInputElement | HTMLTextAreaElement | null} field
     * @param {HTMLElement | null} results
     * @param {(text: string) => Promise<any> | null} send  the request for the text; null: nothing to ask
     * @param {(out: HTMLElement, answer: any) => void} render
     */
    function runTool(tool, field, results, send, render) {
      if (!field || !results || state.phase !== "ready" || !game()) return;
      const out = results;
      const answer = send(field.value);
      const mine = ++seq[tool];
      if (!answer) { clear(out); return; }
      answer.then((value) => {
        if (mine !== seq[tool]) return;
        clear(out);
        render(out, value);
      }, (err) => {
        if (mine !== seq[tool]) return;
        clear(out);
        out.appendChild(el("p", { className: "linker-error", text: t("linker_error", { message: err.message }) }));
      });
    }

    function runLookup() {
      runTool("lookup", ui.lookup, ui.lookupResults, (text) => {
        const query = text.trim();
        return query ? linker.request("lookup", { game: toolGame(), query: query, limit: 10 }) : null;
      }, renderCandidates);
    }

    /** @param {HTMLElement} out @param {Candidate[]} found */
    function renderCandidates(out, found) {
      if (!found.length) {
        out.appendChild(el("p", { className: "linker-empty", text: t("linker_nothing_found") }));
        return;
      }
      const list = el("ol", { className: "linker-candidates" });
      found.forEach((c) => {
        list.appendChild(el("li", null, [
          termLink(c, termName(c)),
          c.parameter !== null && c.parameter !== undefined && c.parameter !== ""
            ? el("span", { className: "linker-param", text: t("linker_parameter", { value: c.parameter }) }) : null,
          el("span", { className: "linker-score", title: t("linker_score"), text: Number(c.score).toFixed(2) }),
        ]));
      });
      out.appendChild(list);
    }

    function runTraits() {
      runTool("traits", ui.traits, ui.traitsResults, (text) => {
        const given = text.split(/[,;\n]/).map((s) => { return s.trim(); }).filter(Boolean);
        return given.length ? linker.request("traits", { game: toolGame(), traits: given }) : null;
      }, renderTraits);
    }

    /** @param {Pick<Trait, "because" | "because_names">} item  a trait's or a cancelled one's */
    function chain(item) {
      const names = (item.because_names ? inLanguage(item.because_names, item.because) : item.because) || [];
      return names.join(" → ");
    }

    // One side of a cancelled pair: its link and, when it was implied rather than given, its chain.
    /** @param {Cancelled} c */
    function cancelledPart(c) {
      const ru = ((c.because_names && c.because_names.ru) || []).slice(-1)[0];
      /** @type {Array<Node | string>} */
      const part = [termLink(c, termName({ term: c.term, name: c.name, name_ru: ru }))];
      if ((c.because || []).length > 1) part.push(el("span", { className: "linker-chain", text: chain(c) }));
      return part;
    }

    /** @param {HTMLElement} out @param {Traits} res */
    function renderTraits(out, res) {
      if (res.traits.length) {
        out.appendChild(el("p", { className: "linker-subhead", text: t("linker_traits_found") }));
        const list = el("ul", { className: "linker-traits-list" });
        res.traits.forEach((trait) => {
          const given = (trait.because || []).length <= 1;
          list.appendChild(el("li", null, [
            termLink(trait),
            el("span", { className: "linker-chain" + (given ? " linker-given" : ""), text: given ? t("linker_given") : chain(trait) }),
          ]));
        });
        out.appendChild(list);
      }
      if (res.cancelled.length) {
        out.appendChild(el("p", { className: "linker-subhead", text: t("linker_cancel_each_other") }));
        const pairs = el("ul", { className: "linker-cancelled" });
        /** @type {Record<string, boolean>} */
        const seen = {};
        res.cancelled.forEach((c) => {
          const key = [c.term, c.cancelled_by].sort().join("|");
          if (seen[key]) return;
          seen[key] = true;
          const other = res.cancelled.filter((o) => { return o.term === c.cancelled_by && o.cancelled_by === c.term; })[0];
          pairs.appendChild(el("li", null, cancelledPart(c).concat([" ✕ "], other ? cancelledPart(other) : [
            el("span", { text: c.cancelled_by_name
              ? termName({ term: c.cancelled_by, name: c.cancelled_by_name.en, name_ru: c.cancelled_by_name.ru })
              : c.cancelled_by }),
          ])));
        });
        out.appendChild(pairs);
      }
      if (res.unknown.length) {
        out.appendChild(el("p", { className: "linker-unknown", text: t("linker_unknown", { names: res.unknown.join(", ") }) }));
      }
      if (!res.traits.length && !res.cancelled.length && !res.unknown.length) {
        out.appendChild(el("p", { className: "linker-empty", text: t("linker_no_traits") }));
      }
    }

    function runAll() {
      runLink();
      runLookup();
      runTraits();
    }

    const linkSoon = debounce(runLink, DEBOUNCE_MS);
    const lookupSoon = debounce(runLookup, DEBOUNCE_MS);
    const traitsSoon = debounce(runTraits, DEBOUNCE_MS);

    input.addEventListener("input", linkSoon);
    if (ui.game) ui.game.addEventListener("change", () => {
      linkSoon.now(); lookupSoon.now(); traitsSoon.now();
    });
    const formatSelect = ui.format;
    if (formatSelect) {
      const savedFormat = stored(STORE.format) || stored(STORE.formerFormat);
      if (savedFormat !== null && FORMATS.indexOf(savedFormat) >= 0) formatSelect.value = savedFormat;
      formatSelect.addEventListener("change", () => { store(STORE.format, formatSelect.value); linkSoon.now(); });
    }
    if (ui.every) ui.every.addEventListener("change", () => { linkSoon.now(); });
    if (ui.lookup) ui.lookup.addEventListener("input", lookupSoon);
    if (ui.traits) ui.traits.addEventListener("input", traitsSoon);

    const copyButton = ui.copy;
    if (copyButton) {
      copyButton.disabled = true;
      copyButton.addEventListener("click", () => {
        codex.copy(ui.output ? ui.output.value : "", ui.output).then((copied) => {
          if (!copied) return; // the text stays selected in the box for the reader to copy
          const label = copyButton.dataset.label || copyButton.textContent || "";
          copyButton.dataset.label = label;
          copyButton.textContent = t("linker_copied");
          setTimeout(() => { copyButton.textContent = label; }, 1500);
        });
      });
    }

    if (ui.game && !ui.game.options.length) {
      ui.game.appendChild(el("option", { value: "", text: t("linker_loading") }));
      ui.game.disabled = true;
    }
    if (state.phase !== "failed") { // the game list before Python is up (a failure is shown instead)
      linker.manifest().then((m) => { if (widget.alive()) fillGames(m.games); }, () => { /* the worker reports it */ });
    }

    linker.watch(widget);
    linker.start();
    onState();
  }

  // Text sent to the linker (the phone's share sheet: the manifest's share_target; the bookmarklet): ?text= fills
  // an empty box, linked once Python is up. With ?reply=<origin> (the bookmarklet), Copy also sends the linked text
  // back to the page that opened the linker; postMessage delivers it only if that page is still of that origin.
  /** @param {HTMLTextAreaElement} input */
  function prefill(input) {
    const params = new URLSearchParams(window.location.search);
    const shared = [params.get("text"), params.get("url")].filter(Boolean).join("\n");
    if (shared && !input.value) input.value = shared;
    const reply = params.get("reply");
    const copy = document.getElementById("linker-copy");
    if (!reply || !/^https?:\/\/[^/]+$/.test(reply) || !window.opener || !copy || copy.dataset.reply) return;
    copy.dataset.reply = "1";
    copy.addEventListener("click", () => {
      const output = /** @type {HTMLTextAreaElement | null} */ (document.getElementById("linker-output"));
      try { window.opener.postMessage({ codexLinked: output ? output.value : "" }, reply); } catch (e) { /* closed */ }
    });
  }

  function boot() {
    const input = /** @type {HTMLTextAreaElement | null} */ (document.getElementById("linker-input"));
    if (input) { prefill(input); mount(input); }
  }

  codex.onPage(boot); // Material: the first page and every instant navigation
})();

// @ts-check
// Rules Codex hovercards for any site: <script src="https://rules-codex.netlify.app/embed.js" async></script>
//
// Self-contained (it runs on other people's pages): no imports, no globals, no inline styles a host's CSP would
// refuse. The build serves it at the site root with BUILD filled in (hooks/codex/webapi.py: the site, each game's
// hashed cards file, the labels). Every link to a term page gets a card: pointer (dwell, grace), keyboard (focus
// opens, Escape closes, announced), touch (first tap shows, second tap or Open follows). Glossary text reaches
// the page only through textContent. Requests go only to the script's own origin, one cards file per game.
(() => {
  "use strict";
  /** @typedef {{en: string, ru: string}} Pair */
  /** @typedef {{en: string, ru: string | null, kind: string}} Param */
  /** @typedef {{name: Pair, category: string, summary: Pair, params?: Param[], names?: {en: string[], ru: string[]}}} Card */
  /** @typedef {{game: {id: string, name: Pair, url: string, categories: Record<string, Pair>},
   *   terms: Record<string, Card>, short_links: Record<string, string>, former_ids: Record<string, string>}} Cards */
  /** @typedef {{site: string, games: Record<string, string>, labels: Record<string, Pair>}} Build */

  const BUILD = /** @type {Build} */ ({}); // codex:embed-build

  const DWELL_MS = 150; // a pointer resting this long on a link asks for its card (MediaWiki's fetch delay)
  const GRACE_MS = 300; // time to move from the link onto the card before it closes
  const MAX_TEXT = 200; // link text longer than this is no name: no parameter is read from it
  const script = /** @type {HTMLScriptElement | null} */ (document.currentScript);
  if (!script || !BUILD.games || /** @type {any} */ (window).__rulesCodexEmbed) return;
  /** @type {any} */ (window).__rulesCodexEmbed = true;
  const ROOT = new URL(".", script.src).href; // the site this script came from: data is fetched from here only
  const BASES = [...new Set([ROOT, BUILD.site])];
  const forcedLang = normalLang(script.dataset.lang || "");

  /** @type {Map<string, Promise<Cards | null>>} */
  const loaded = new Map(); // game -> its cards, fetched once per page

  /** @param {string} value @returns {"en" | "ru" | ""} */
  function normalLang(value) {
    const match = /^(en|ru)\b/i.exec(value.trim());
    return match ? /** @type {"en" | "ru"} */ (match[1].toLowerCase()) : "";
  }

  /** Which term a link names: its game, the term path's parts, the language it asks for ("" none).
   * @param {HTMLAnchorElement} link */
  function target(link) {
    let url;
    try { url = new URL(link.href); } catch { return null; }
    const base = BASES.find((b) => url.href.startsWith(b));
    if (!base) return null;
    const parts = url.href.slice(base.length).split(/[?#]/)[0].split("/").filter(Boolean);
    const hash = normalLang(url.hash.slice(1)) || normalLang(url.searchParams.get("lang") || "");
    if (parts.length === 3 && parts[0] === "t" && parts[1] in BUILD.games) {
      return { game: parts[1], short: decodeURIComponent(parts[2]), id: "", lang: hash };
    }
    if (parts.length === 2 && parts[0] in BUILD.games) return { game: parts[0], short: "", id: parts[1], lang: hash };
    return null;
  }

  /** @param {string} game @returns {Promise<Cards | null>} */
  function cards(game) {
    let promise = loaded.get(game);
    if (!promise) {
      promise = fetch(new URL(BUILD.games[game], ROOT).href, { credentials: "omit", mode: "cors" })
        .then((r) => (r.ok ? r.json() : null))
        .catch(() => null);
      loaded.set(game, promise);
    }
    return promise;
  }

  /** The reader's language: the script's data-lang, the page's (the link's nearest lang), the link's, the browser's.
   * @param {HTMLAnchorElement} link @param {string} asked @returns {"en" | "ru"} */
  function readerLang(link, asked) {
    const page = normalLang(link.closest("[lang]")?.getAttribute("lang") || "");
    const browser = (navigator.languages || [navigator.language]).map((l) => normalLang(l || "")).find(Boolean);
    return /** @type {"en" | "ru"} */ (forcedLang || page || asked || browser || "en");
  }

  /** "Aegis 2" -> [["X", "2"]]: a name's placeholders matched in the link text, or a trailing number.
   * @param {Card} card @param {string} text @returns {string[][]} */
  function parameters(card, text) {
    const params = card.params || [];
    if (!params.length || text.length > MAX_TEXT) return [];
    const wanted = text.trim().replace(/\s+/g, " ");
    const escape = (/** @type {string} */ s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    for (const lang of /** @type {const} */ (["en", "ru"])) {
      for (const name of card.names?.[lang] || []) {
        /** @type {string[]} */
        const order = [];
        let pattern = escape(name.replace(/\s+/g, " "));
        for (const param of params) {
          for (const shown of [param.en, lang === "ru" ? param.ru : null]) {
            if (!shown || !name.includes(shown)) continue;
            const slot = param.kind === "number" ? "([+\\-−–]?\\s?\\d+)" : "(\\S+(?: \\S+)?)";
            const before = pattern;
            pattern = pattern.replace(new RegExp(`(?<![\\p{L}\\d])${escape(escape(shown))}(?![\\p{L}\\d])`, "u"), slot);
            if (pattern !== before) order.push(param.en);
          }
        }
        if (!order.length) continue;
        const match = new RegExp(`^${pattern}$`, "iu").exec(wanted);
        if (match) return order.map((p, i) => [p, match[i + 1]]);
      }
    }
    const number = params.find((p) => p.kind === "number");
    const trailing = /(?:^|\s)([+\-−–]?\d+)$/.exec(wanted);
    return number && trailing ? [[number.en, trailing[1]]] : [];
  }

  // --- the card: one shadow root on the page, fixed, out of the page's flow -----------------------------------
  const CSS = `
:host{all:initial!important;position:fixed!important;inset:0 auto auto 0!important;width:0!important;height:0!important;z-index:2147483647!important;display:block!important}
.card{position:fixed;box-sizing:border-box;width:max-content;max-width:min(22rem,calc(100vw - 16px));padding:10px 12px;
border-radius:8px;border:1px solid #c9c4d8;background:#fff;color:#1c1b22;box-shadow:0 4px 18px rgba(0,0,0,.18);
font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;text-align:left;white-space:normal}
.card[hidden],.sr[hidden]{display:none}
p{margin:0 0 6px}
.names{font-weight:600;font-size:15px}.names .second{font-weight:400;opacity:.8}
.meta{font-size:12px;opacity:.75}.param{font-family:ui-monospace,monospace;font-size:13px}
.open{display:inline-block;margin-top:2px;padding:8px 14px;border-radius:4px;background:#5e35b1;color:#fff;text-decoration:none;font-weight:600}
.open:focus-visible{outline:2px solid #ffb300;outline-offset:2px}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (prefers-color-scheme:dark){.card{background:#22212b;color:#e8e6f0;border-color:#4a4658;box-shadow:0 4px 18px rgba(0,0,0,.5)}
.open{background:#9575cd;color:#111}}`;

  /** @type {{host: HTMLElement, card: HTMLElement, live: HTMLElement} | null} */
  let ui = null;
  /** @type {HTMLAnchorElement | null} */
  let shownFor = null; // the link whose card is shown
  let token = 0; // one per interaction: a late answer for an older one is dropped
  let dwellTimer = 0;
  let closeTimer = 0;
  let lastPointer = "mouse"; // the kind of the last pointer press: a touch tap shows the card first

  /** @template {keyof HTMLElementTagNameMap} K @param {K} tag @param {string} cls @param {string} [text] */
  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function mount() {
    if (ui) return ui;
    const host = document.createElement("rules-codex-card");
    host.style.setProperty("position", "fixed", "important");
    host.style.setProperty("width", "0", "important");
    host.style.setProperty("height", "0", "important");
    const root = host.attachShadow({ mode: "open" });
    const sheet = new CSSStyleSheet(); // constructed: not an inline <style>, which a strict CSP refuses
    sheet.replaceSync(CSS);
    root.adoptedStyleSheets = [sheet];
    const card = el("div", "card");
    card.setAttribute("role", "tooltip");
    card.id = "card";
    card.hidden = true;
    const live = el("div", "sr");
    live.setAttribute("role", "status");
    live.setAttribute("aria-live", "polite");
    root.append(card, live);
    card.addEventListener("pointerenter", () => clearTimeout(closeTimer));
    card.addEventListener("pointerleave", (e) => { if (e.pointerType !== "touch") closeSoon(); });
    card.addEventListener("focusout", (e) => { if (!card.contains(/** @type {Node} */ (e.relatedTarget))) closeSoon(); });
    document.body.append(host);
    ui = { host, card, live };
    return ui;
  }

  /** @param {HTMLAnchorElement} link @param {Cards} data @param {string} id @param {"en" | "ru"} lang */
  function render(link, data, id, lang) {
    const term = data.terms[id];
    const { card, live } = mount();
    const second = lang === "en" ? "ru" : "en";
    const names = el("p", "names");
    const first = el("span", "", term.name[lang]);
    first.lang = lang;
    names.append(first);
    if (term.name[second] !== term.name[lang]) {
      const other = el("span", "second", term.name[second]);
      other.lang = second;
      names.append(" · ", other);
    }
    const category = data.game.categories[term.category];
    const meta = el("p", "meta", `${data.game.name[lang]} › ${category ? category[lang] : term.category}`);
    const text = el("p", "text", term.summary[lang]);
    text.lang = lang;
    const filled = parameters(term, link.textContent || "");
    const open = el("a", "open", BUILD.labels.embed_open[lang]);
    open.href = new URL(`${data.game.id}/${id}/#${lang}`, ROOT).href;
    open.lang = lang;
    card.lang = lang;
    card.replaceChildren(names, meta, ...(filled.length ? [el("p", "param", filled.map((p) => p.join(" = ")).join(", "))] : []),
      text, open);
    card.hidden = false;
    place(link, card);
    live.textContent = [names.textContent, meta.textContent, filled.map((p) => p.join(" = ")).join(", "), text.textContent]
      .filter(Boolean).join(". ");
    shownFor = link;
  }

  /** Below the link, or above it when the viewport has no room; never off screen.
   * @param {HTMLAnchorElement} link @param {HTMLElement} card */
  function place(link, card) {
    const rect = link.getClientRects()[0] || link.getBoundingClientRect();
    const width = card.offsetWidth;
    const height = card.offsetHeight;
    const left = Math.max(8, Math.min(rect.left, innerWidth - width - 8));
    const below = rect.bottom + 6;
    const top = below + height > innerHeight - 8 && rect.top - height - 6 > 8 ? rect.top - height - 6 : below;
    card.style.left = `${Math.round(left)}px`;
    card.style.top = `${Math.round(top)}px`;
  }

  /** @param {HTMLAnchorElement} link */
  async function show(link) {
    const found = target(link);
    if (!found) return;
    const mine = ++token;
    clearTimeout(closeTimer);
    const data = await cards(found.game);
    if (mine !== token || !data) return;
    const id = found.id ? (found.id in data.terms ? found.id : data.former_ids[found.id]) : data.short_links[found.short];
    if (!id || !data.terms[id]) return;
    render(link, data, id, readerLang(link, found.lang));
  }

  function close() {
    ++token;
    clearTimeout(dwellTimer);
    clearTimeout(closeTimer);
    if (ui) {
      ui.card.hidden = true;
      ui.live.textContent = "";
    }
    shownFor = null;
  }

  function closeSoon() {
    clearTimeout(closeTimer);
    closeTimer = window.setTimeout(close, GRACE_MS);
  }

  /** @param {EventTarget | null} node @returns {HTMLAnchorElement | null} */
  function termLink(node) {
    const link = node instanceof Element ? node.closest("a[href]") : null;
    return link instanceof HTMLAnchorElement && target(link) ? link : null;
  }

  /** The term link a mouse or pen points at (none for touch: a tap shows the card on click). @param {PointerEvent} e */
  const pointedLink = (e) => (e.pointerType === "touch" ? null : termLink(e.target));

  /** @param {EventTarget | null} node */
  const inCard = (node) => !!ui && node === ui.host;

  // Delegated from the document: links added later (new posts, infinite scroll) work the same.
  document.addEventListener("pointerdown", (e) => {
    lastPointer = e.pointerType;
    if (shownFor && !inCard(e.target) && termLink(e.target) !== shownFor) close(); // a tap or click elsewhere
  }, true);
  document.addEventListener("pointerover", (e) => {
    const link = pointedLink(e);
    if (!link) return;
    clearTimeout(closeTimer);
    if (link === shownFor) return;
    clearTimeout(dwellTimer);
    dwellTimer = window.setTimeout(() => show(link), DWELL_MS);
  });
  document.addEventListener("pointerout", (e) => {
    const link = pointedLink(e);
    if (!link || link.contains(/** @type {Node} */ (e.relatedTarget))) return;
    clearTimeout(dwellTimer);
    if (inCard(e.relatedTarget)) return;
    if (shownFor) closeSoon(); else ++token;
  });
  document.addEventListener("click", (e) => {
    const link = termLink(e.target);
    if (!link || lastPointer !== "touch" || link === shownFor) return; // a second tap follows the link
    e.preventDefault();
    clearTimeout(dwellTimer);
    show(link);
  });
  document.addEventListener("focusin", (e) => {
    const link = termLink(e.target);
    if (link && link !== shownFor && link.matches(":focus-visible")) show(link); // the keyboard, not a click
  });
  document.addEventListener("focusout", (e) => {
    const link = termLink(e.target);
    if (link && link === shownFor && !inCard(e.relatedTarget)) closeSoon();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && shownFor) {
      const link = shownFor;
      close();
      if (ui && ui.host.shadowRoot?.activeElement) link.focus();
    }
  });
})();

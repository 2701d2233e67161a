// @ts-check
// What the page scripts share, written once: the reader's language and its labels, copying to the clipboard, the
// URL of a file of the site, running on every page Material shows, and building DOM nodes from text.
//
// A classic script defining one namespaced global, `window.codex`, not an ES module: the offline copy (`make
// offline`) is opened from file://, where Chromium loads no <script type="module">, so every page script is a
// classic script (mkdocs.yml extra_javascript) and this one loads first, in the head (overrides/main.html),
// right after assets/codex/labels.js and before i18n.js.
(function () {
  "use strict";

  if (window.codex) return; // loaded once per document: instant navigation keeps the first copy

  // This file is <site>/assets/javascripts/codex-common.js: every other file of the site is found from it, which
  // holds under instant navigation and with the site served from a sub-path.
  const script = /** @type {HTMLScriptElement | null} */ (
    document.currentScript || document.querySelector('script[src*="assets/javascripts/codex-common.js"]'));
  const SITE = new URL("../../", script && script.src ? script.src : document.baseURI).href;

  /** The reader's language (html[data-codex-lang], set before the first paint by overrides/main.html). */
  function lang() {
    return document.documentElement.getAttribute("data-codex-lang") || "en";
  }

  /**
   * A label of hooks/codex/labels.py in a language (the reader's by default), its {placeholders} filled;
   * the English text if the language has none, the key itself if the label is unknown.
   * @param {string} key
   * @param {Record<string, string | number | ((lang: string) => string)>} [params]
   * @param {string} [which]
   * @returns {string}
   */
  function label(key, params, which) {
    const language = which || lang();
    const entry = (window.codexLabels || {})[key];
    let text = (entry && (entry[/** @type {"en" | "ru"} */ (language)] || entry.en)) || key;
    const values = params || {};
    Object.keys(values).forEach((name) => {
      const value = values[name];
      text = text.split("{" + name + "}").join(typeof value === "function" ? value(language) : String(value));
    });
    return text;
  }

  /**
   * A name in the reader's language from {en, ru} (a game's, say), else the fallback.
   * @template T
   * @param {{en?: T, ru?: T} | null | undefined} names
   * @param {T} fallback
   * @returns {T}
   */
  function inLanguage(names, fallback) {
    return (names && (names[/** @type {"en" | "ru"} */ (lang())] || names.en || names.ru)) || fallback;
  }

  /**
   * Copies text to the clipboard: resolves true once copied, false if the browser refused (the text is then
   * left selected in the field, when one is given, for the reader to copy).
   * @param {string} text
   * @param {HTMLInputElement | HTMLTextAreaElement | null} [field]
   * @returns {Promise<boolean>}
   */
  function copy(text, field) {
    function byHand() {
      if (!field) return false;
      field.focus();
      field.select();
      try { return document.execCommand("copy"); } catch (e) { return false; }
    }
    if (navigator.clipboard && navigator.clipboard.writeText && window.isSecureContext) {
      return navigator.clipboard.writeText(text).then(() => { return true; }, byHand);
    }
    return Promise.resolve(byHand());
  }

  /**
   * The absolute URL of a file of the site, by its path from the site's root ("sw.js", "assets/codex/...").
   * @param {string} path
   */
  function siteFile(path) {
    return new URL(path, SITE).href;
  }

  /**
   * Runs fn on the first page and after every instant navigation (Material's document$), or once the document
   * is loaded where there is no Material. document$ emits on DOMContentLoaded; where it has not by the load event
   * (the offline copy opened from file://, as Chromium runs it), fn runs then, once.
   * @param {() => void} fn
   */
  function onPage(fn) {
    let ran = false;
    function run() { ran = true; fn(); }
    if (window.document$ && typeof window.document$.subscribe === "function") {
      window.document$.subscribe(run);
      if (document.readyState !== "complete") window.addEventListener("load", () => { if (!ran) run(); }, { once: true });
    } else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", run);
    else run();
  }

  /**
   * A new element: attrs "text" is its text, "className" its class, any other an attribute; children are nodes or
   * text (null and undefined are skipped). Text only: nothing here goes through innerHTML.
   * @param {string} tag
   * @param {Record<string, string> | null} [attrs]
   * @param {Array<Node | string | null | undefined>} [children]
   * @returns {HTMLElement}
   */
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    if (attrs) Object.keys(attrs).forEach((k) => {
      if (k === "text") node.textContent = attrs[k];
      else if (k === "className") node.className = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach((child) => {
      if (child !== null && child !== undefined) {
        node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
      }
    });
    return node;
  }

  /** Removes every child of a node. @param {Node} node */
  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  /**
   * True the first time it is asked about an element, false after: a script mounts on an element once, though
   * Material's document$ runs it again after each instant navigation.
   * @param {HTMLElement} node
   */
  function firstMount(node) {
    if (node.dataset.codexMounted) return false;
    node.dataset.codexMounted = "1";
    return true;
  }

  window.codex = {
    lang: lang, label: label, inLanguage: inLanguage, copy: copy, siteFile: siteFile, onPage: onPage,
    el: el, clear: clear, firstMount: firstMount,
  };
})();

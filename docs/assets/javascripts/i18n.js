// @ts-check
// The reader's language for what the build could not write in both languages at once: Material's own strings
// and chrome, and attributes (an attribute holds one language). Runs after #__config and before Material's
// bundle reads it (overrides/main.html), so before the first paint, with window.codexLabels and
// window.codexChrome from assets/codex/labels.js (generated from hooks/codex/labels.py and codex/chrome.py);
// then again for the parts each instant navigation brings in (Material's document$). Every place is named
// exactly — a rule's selector, or an element's data-codex-l10n — never found by searching the page's text.
(function () {
  "use strict";

  const codex = window.codex; // codex-common.js, just before this script
  const lang = codex.lang();
  const other = lang === "en" ? "ru" : "en";
  const labels = window.codexLabels || {};
  const rules = window.codexChrome || [];
  /** @type {WeakMap<Element, Record<string, boolean>>} */
  const done = new WeakMap();  // element -> what was already put in: once each, as Material may change it later

  /** A label (codex.label), or undefined where there is none: that place then stays as the theme wrote it.
   * @param {string} key @param {string} [which] */
  function label(key, which) {
    return Object.prototype.hasOwnProperty.call(labels, key) ? codex.label(key, undefined, which) : undefined;
  }

  /** True the first time an element gets a change (named by what). @param {Element} el @param {string} what */
  function once(el, what) {
    let seen = done.get(el);
    if (!seen) done.set(el, seen = {});
    if (seen[what]) return false;
    seen[what] = true;
    return true;
  }

  // 1. Messages Material's bundle shows later (search, clipboard): in its config, before the bundle parses it.
  const script = document.getElementById("__config");
  if (script) {
    try {
      const config = JSON.parse(script.textContent || "");
      Object.keys(config.translations || {}).forEach((key) => {
        const value = label("material:" + key);
        if (value !== undefined) config.translations[key] = value;
      });
      script.textContent = JSON.stringify(config);
    } catch (e) { /* leave Material's config as built */ }
  }

  // The element's own text (its child elements stay) replaced by the given nodes.
  /** @param {Element} el @param {Node[]} nodes */
  function setOwnText(el, nodes) {
    /** @type {Text[]} */
    const texts = [];
    el.childNodes.forEach((n) => { if (n instanceof Text && n.data.trim()) texts.push(n); });
    const at = texts.length ? texts[0] : null;
    nodes.forEach((node) => { el.insertBefore(node, at); });
    texts.forEach((n) => { n.remove(); });
  }

  /** @param {string} which @param {string} key */
  function named(which, key) {
    const span = document.createElement("span");
    span.lang = which;
    span.textContent = label(key, which) || "";
    return span;
  }

  // An attribute put in the reader's language stays so: Material's tooltips capture an element's title when they
  // mount (possibly before this script's turn after an instant navigation) and write it back when they close or
  // are torn down, which left the header's logo titled in the build's language. Whatever sets another value, the
  // observer puts the reader's back; a removal (a tooltip showing itself) is left alone.
  /** @type {WeakMap<Element, Record<string, string>>} element -> {attribute: the reader's value} */
  const wanted = new WeakMap();
  const keeper = new MutationObserver((records) => {
    records.forEach((record) => {
      const el = /** @type {Element} */ (record.target), name = record.attributeName;
      const want = wanted.get(el);
      if (!want || !name || !Object.prototype.hasOwnProperty.call(want, name)) return;
      const now = el.getAttribute(name);
      if (now !== null && now !== want[name]) el.setAttribute(name, want[name]);
    });
  });

  /**
   * Set an attribute to the reader's value and keep it there.
   * @param {Element} el
   * @param {string} name
   * @param {string} value
   */
  function keepAttribute(el, name, value) {
    let want = wanted.get(el);
    if (!want) {
      want = {};
      wanted.set(el, want);
      keeper.observe(el, { attributes: true });
    }
    want[name] = value;
    el.setAttribute(name, value);
  }

  // 2. Material's chrome (codex.chrome.MATERIAL_CHROME): [selector, "text" | "names" | attribute, label key].
  function applyRules() {
    rules.forEach((rule) => {
      const what = rule[1], key = rule[2];
      const value = label(key);
      if (value === undefined) return;
      document.querySelectorAll(rule[0]).forEach((el) => {
        if (!once(el, rule.join("\n"))) return;
        if (what === "text") setOwnText(el, [document.createTextNode(value)]);
        else if (what === "names") setOwnText(el, [named(lang, key), document.createTextNode(" · "), named(other, key)]);
        else keepAttribute(el, what, value);
      });
    });
  }

  // 3. Our own markup's attributes in both languages (labels.l10n_attrs): data-codex-l10n="placeholder …", the
  //    values in data-codex-<name>-<lang>; "text" is the element's text (a <title>, an <option>, a button).
  function applyOwn() {
    document.querySelectorAll("[data-codex-l10n]").forEach((el) => {
      (el.getAttribute("data-codex-l10n") || "").split(" ").forEach((name) => {
        const value = el.getAttribute("data-codex-" + name + "-" + lang);
        if (value === null || !once(el, "own:" + name)) return;
        if (name === "text") el.textContent = value;
        else el.setAttribute(name, value);
      });
    });
  }

  // 4. The header repeats the page's heading as plain text: give it the heading's marks of language
  //    ("Aegis X · Эгида" with each name's lang), when it is the same text.
  function applyTopic() {
    const topic = document.querySelector("[data-md-component=header-topic] > .md-ellipsis");
    const heading = document.querySelector(".md-content h1");
    if (!topic || !heading || !once(topic, "topic") || !heading.querySelector("[lang]")) return;
    const copy = /** @type {Element} */ (heading.cloneNode(true));
    copy.querySelectorAll(".headerlink").forEach((a) => { a.remove(); });
    if ((copy.textContent || "").trim() !== (topic.textContent || "").trim()) return;
    while (topic.firstChild) topic.removeChild(topic.firstChild);
    while (copy.firstChild) topic.appendChild(copy.firstChild);
  }

  // 5. The switch shows which language is chosen.
  function applySwitch() {
    document.querySelectorAll("[data-codex-lang-link]").forEach((link) => {
      if (link.getAttribute("data-codex-lang-link") === lang) link.setAttribute("aria-current", "true");
      else link.removeAttribute("aria-current");
    });
  }

  function applyAll() {
    applyRules();
    applyOwn();
    applyTopic();
    applySwitch();
  }

  applyAll();
  // Material's bundle defines document$ and emits on DOMContentLoaded and after each instant navigation.
  document.addEventListener("DOMContentLoaded", () => {
    if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(applyAll);
  });
})();

// @ts-check
// The RU/EN definition tabs on term pages, as WAI-ARIA tabs: click, arrow keys, Home/End. A page opens on the
// tab the link names (#ru / #en), else on the reader's language (html[data-codex-lang]). Choosing a tab shows
// that definition only: the interface stays in the reader's language (see "Languages" in the README).
// Mounted through Material's document$, so instant navigation works; listeners live on the replaced content.
(function () {
  "use strict";

  const codex = window.codex; // codex-common.js, in the head

  /** @param {HTMLElement} set @returns {HTMLElement[]} */
  function tabsOf(set) { return Array.prototype.slice.call(set.querySelectorAll('[role="tab"]')); }

  /** @param {HTMLElement} set @param {HTMLElement} tab @param {boolean} focus */
  function select(set, tab, focus) {
    tabsOf(set).forEach((each) => {
      const chosen = each === tab;
      each.setAttribute("aria-selected", chosen ? "true" : "false");
      each.tabIndex = chosen ? 0 : -1;
      const panel = document.getElementById(each.getAttribute("aria-controls") || "");
      if (panel) panel.hidden = !chosen;
    });
    if (focus) tab.focus();
    set.dispatchEvent(new CustomEvent("codex:tabchange", { bubbles: true, detail: { lang: tab.getAttribute("lang") } }));
  }

  /** @param {HTMLElement} set @param {string | null} id @returns {HTMLElement | undefined} */
  function byPanel(set, id) {
    return tabsOf(set).filter((tab) => { return tab.getAttribute("aria-controls") === id; })[0];
  }

  /** @param {string | null} lang */
  function remember(lang) {  // the address names the tab shown, so copying it keeps the language
    try { history.replaceState(history.state, "", "#" + lang); } catch (e) { /* file:// in some browsers */ }
  }

  /** @param {HTMLElement} set */
  function mount(set) {
    if (!codex.firstMount(set)) return;
    const wanted = byPanel(set, location.hash.slice(1)) ||
      byPanel(set, document.documentElement.getAttribute("data-codex-lang")) || tabsOf(set)[0];
    if (wanted) select(set, wanted, false);
    set.addEventListener("click", (event) => {
      const tab = event.target instanceof Element ? /** @type {HTMLElement | null} */ (event.target.closest('[role="tab"]')) : null;
      if (!tab || !set.contains(tab)) return;
      select(set, tab, false);
      remember(tab.getAttribute("aria-controls"));
    });
    set.addEventListener("keydown", (event) => {
      const tabs = tabsOf(set), at = tabs.indexOf(/** @type {HTMLElement} */ (document.activeElement));
      if (at < 0) return;
      /** @type {Record<string, number>} */
      const moves = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 };
      const next = Object.prototype.hasOwnProperty.call(moves, event.key) ? moves[event.key] : undefined;
      if (next === undefined) return;
      event.preventDefault();
      const tab = tabs[(next + tabs.length) % tabs.length];
      select(set, tab, true);
      remember(tab.getAttribute("aria-controls"));
    });
  }

  function mountAll() { /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-codex-tabs]")).forEach(mount); }

  // A link to #ru / #en on the same page (or the address bar) opens that tab.
  window.addEventListener("hashchange", () => {
    /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-codex-tabs]")).forEach((set) => {
      const tab = byPanel(set, location.hash.slice(1));
      if (tab) select(set, tab, false);
    });
  });

  codex.onPage(mountAll); // Material: the first page and every instant navigation
})();

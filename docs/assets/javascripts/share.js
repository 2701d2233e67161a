// @ts-check
// Term pages: the "Share" block copies the page link, a Markdown link or a BBCode link for the definition tab
// shown (#ru / #en). Every string was made at build time by codex (pages.share_block): nothing is formatted here.
// Attached through Material's document$, so instant navigation works too; per-block listeners go with the block.
(function () {
  "use strict";

  const codex = window.codex; // codex-common.js, in the head

  function shownLanguage() {
    const tab = document.querySelector('[data-codex-tabs] [role="tab"][aria-selected="true"]');
    return (tab && tab.getAttribute("lang")) || codex.lang();
  }

  /** The block's text of a format in the tab's language. @param {HTMLElement} block @param {string | undefined} format */
  function text(block, format) {
    return block.getAttribute("data-" + format + "-" + shownLanguage()) || "";
  }

  /** @param {HTMLElement} block */
  function mount(block) {
    if (!codex.firstMount(block)) return;
    const field = /** @type {HTMLInputElement} */ (block.querySelector(".codex-share__text"));
    const status = block.querySelector(".codex-share__status");
    block.addEventListener("click", (event) => {
      const button = event.target instanceof Element
        ? /** @type {HTMLButtonElement | null} */ (event.target.closest("button[data-share]")) : null;
      if (!button) return;
      const value = text(block, button.dataset.share);
      field.value = value;
      codex.copy(value, field).then((done) => {
        if (!done) return;  // the text stays selected in the field for the reader to copy
        button.classList.add("codex-share__done");
        if (status) status.textContent = codex.label("share_copied");
        setTimeout(() => {
          button.classList.remove("codex-share__done");
          if (status) status.textContent = "";
        }, 1500);
      });
    });
    field.value = text(block, "url");
  }

  function mountAll() { /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".codex-share")).forEach(mount); }

  // The field shows the link of the tab shown: one listener for the page's lifetime, not one per navigation.
  document.addEventListener("codex:tabchange", () => {
    /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".codex-share")).forEach((block) => {
      const field = /** @type {HTMLInputElement | null} */ (block.querySelector(".codex-share__text"));
      if (field) field.value = text(block, "url");
    });
  });

  codex.onPage(mountAll);
})();

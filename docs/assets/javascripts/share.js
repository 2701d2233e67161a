// Term pages: the "Share" block copies the page link, a Markdown link or a BBCode link, for the language tab
// the reader has chosen (#ru / #en). Attached through Material's document$, so instant navigation works too.
(function () {
  "use strict";

  function chosenLanguage() {
    var checked = document.querySelector(".tabbed-set > input:checked");
    return checked && (checked.id === "en" || checked.id === "ru") ? checked.id : "ru";
  }

  function formatted(block, format) {
    var lang = chosenLanguage();
    var url = block.dataset.url + "#" + lang;
    var name = block.dataset["name" + (lang === "en" ? "En" : "Ru")];
    if (format === "markdown") return "[" + name.replace(/([\[\]])/g, "\\$1") + "](" + url + ")";
    if (format === "bbcode") return "[url=" + url + "]" + name.replace(/\[/g, "(").replace(/\]/g, ")") + "[/url]";
    return url;
  }

  function copy(text, field) {
    field.value = text;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).catch(function () { field.select(); });
    } else {
      field.select();
      try { document.execCommand("copy"); } catch (e) { /* the text stays selected for the reader */ }
    }
  }

  function mount(block) {
    if (block.dataset.mounted) return;
    block.dataset.mounted = "1";
    var field = block.querySelector(".codex-share__text");
    block.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-share]");
      if (!button) return;
      copy(formatted(block, button.dataset.share), field);
      button.classList.add("codex-share__done");
      setTimeout(function () { button.classList.remove("codex-share__done"); }, 1200);
    });
    document.addEventListener("change", function (event) {
      if (event.target.matches(".tabbed-set > input")) field.value = formatted(block, "url");
    });
    field.value = formatted(block, "url");
  }

  function attach() {
    document.querySelectorAll(".codex-share").forEach(mount);
  }

  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(attach);
  else document.addEventListener("DOMContentLoaded", attach);
})();

// Material's own interface strings in the reader's language. Runs once per page load, after #__config and
// before Material's bundle reads it (overrides/main.html), with window.codexLabels from assets/codex/labels.js
// (generated from hooks/codex/labels.py, Material's strings included as "material:<key>").
(function () {
  "use strict";

  var root = document.documentElement;
  var lang = root.getAttribute("data-codex-lang") || root.lang || "en";
  var labels = window.codexLabels || {};

  function material(key) {
    var entry = labels["material:" + key];
    return entry ? entry[lang] : undefined;
  }

  // Search and clipboard messages that Material's bundle shows later: its config, before the bundle parses it.
  var script = document.getElementById("__config");
  if (script) {
    try {
      var config = JSON.parse(script.textContent);
      Object.keys(config.translations || {}).forEach(function (key) {
        var value = material(key);
        if (value !== undefined) config.translations[key] = value;
      });
      script.textContent = JSON.stringify(config);
    } catch (e) { /* leave Material's config as built */ }
  }

  // The switch shows which language is chosen.
  document.querySelectorAll("[data-codex-lang-link]").forEach(function (link) {
    if (link.getAttribute("data-codex-lang-link") === lang) link.setAttribute("aria-current", "true");
    else link.removeAttribute("aria-current");
  });
})();

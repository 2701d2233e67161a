// ESLint for the site's scripts (docs/): the recommended rules, each file with the globals of where it runs.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    // The page scripts: classic scripts (the offline copy opens from file://, where Chromium loads no module).
    files: ["docs/assets/javascripts/*.js"],
    languageOptions: { ecmaVersion: 2020, sourceType: "script", globals: { ...globals.browser } },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "no-unused-vars": ["error", { caughtErrors: "none" }],
      eqeqeq: ["error", "always"],
      strict: ["error", "function"],
      // one dialect with the workers: ES2020 (block-scoped bindings, arrow callbacks), in classic scripts
      "no-var": "error",
      "prefer-const": "error",
      "prefer-arrow-callback": "error",
    },
  },
  {
    // The linker's module worker (strict by being a module).
    files: ["docs/assets/javascripts/linker-worker.js"],
    languageOptions: { sourceType: "module", ecmaVersion: 2022, globals: { ...globals.worker } },
    rules: { strict: "off" },
  },
  {
    // The search worker: a classic worker script, strict as a whole (its own global scope).
    files: ["docs/assets/javascripts/search-worker.js"],
    languageOptions: { globals: { ...globals.worker } },
    rules: { strict: ["error", "global"] },
  },
  {
    // The service worker: a classic worker script (importScripts Workbox), filled in by the build.
    files: ["docs/sw.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: { ...globals.serviceworker } },
    rules: { "no-unused-vars": ["error", { caughtErrors: "none" }], eqeqeq: ["error", "always"] },
  },
];

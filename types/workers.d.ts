// What the workers get from elsewhere, declared once.
export {};
declare global {
  interface ServiceWorkerGlobalScope {
    /** Workbox's modules, loaded by importScripts from the site's copy (hooks/glossary.py copies them from npm). */
    workbox: {
      core: typeof import("workbox-core");
      precaching: typeof import("workbox-precaching");
      routing: typeof import("workbox-routing");
      strategies: typeof import("workbox-strategies");
      cacheableResponse: typeof import("workbox-cacheable-response");
      rangeRequests: typeof import("workbox-range-requests");
    };
  }
  interface WorkerGlobalScope {
    /** search-worker.js's functions, for tests/test_search_js.py to call. */
    codexSearch?: Record<string, Function>;
  }
}

// Material for MkDocs' own search worker (site/assets/javascripts/workers/search.*.min.js), run under Node.js
// with a small Web Worker shim, to measure what a browser tab pays to build the search index of a built site.
//
//   node --expose-gc benchmarks/search_worker.cjs SITE_DIR [QUERY ...]
//
// Prints one JSON object: the index size, the time to parse it (JSON.parse, as fetch().json() does), the time for
// the worker to set up lunr (the SETUP message Material's page sends: {type: 0, data: {config, docs, options}})
// until it answers READY ({type: 1}), the heap the built index keeps, the process's peak RSS, and the median
// time of a few searches ({type: 2, data: query} -> {type: 3}).
"use strict";

const fs = require("fs");
const path = require("path");
const vm = require("vm");

const site = process.argv[2];
const queries = process.argv.slice(3);
if (!site) {
  console.error("usage: node --expose-gc search_worker.cjs SITE_DIR [QUERY ...]");
  process.exit(2);
}
const workers = path.join(site, "assets", "javascripts", "workers");
const workerFile = fs.readdirSync(workers).find((f) => /^search\.[0-9a-f]+\.min\.js$/.test(f));
if (!workerFile) {
  console.error(`no search worker in ${workers}`);
  process.exit(2);
}

// --- the Web Worker global scope, as much of it as the worker uses ---------------------------------------------
let onMessage = null;
let reply = null;
const imported = [];
globalThis.self = globalThis;
globalThis.addEventListener = (type, listener) => {
  if (type === "message") onMessage = listener;
};
globalThis.postMessage = (message) => {
  const settle = reply;
  reply = null;
  if (settle) settle(message);
};
// importScripts resolves against the worker's own URL, as in a browser (Material asks for "../lunr/min/...").
globalThis.importScripts = (...urls) => {
  for (const url of urls) {
    const file = path.resolve(workers, url);
    imported.push(path.relative(site, file));
    vm.runInThisContext(fs.readFileSync(file, "utf8"), { filename: file });
  }
};

function send(data) {
  return new Promise((resolve) => {
    reply = resolve;
    onMessage({ data });
  });
}

function gc() {
  if (global.gc) {
    global.gc();
    global.gc();
  }
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

async function main() {
  vm.runInThisContext(fs.readFileSync(path.join(workers, workerFile), "utf8"), { filename: workerFile });
  if (!onMessage) throw new Error("the worker registered no message listener");

  const indexPath = path.join(site, "search", "search_index.json");
  gc();
  const base = process.memoryUsage();

  let t = performance.now();
  const raw = fs.readFileSync(indexPath, "utf8");
  const index = JSON.parse(raw);
  const parseMs = performance.now() - t;
  gc();
  const parsed = process.memoryUsage();

  t = performance.now();
  const answer = await send({ type: 0, data: { config: index.config, docs: index.docs, options: { suggest: true } } });
  const setupMs = performance.now() - t;
  if (!answer || answer.type !== 1) throw new Error(`unexpected answer to SETUP: ${JSON.stringify(answer).slice(0, 200)}`);
  gc();
  const built = process.memoryUsage();

  const searches = {};
  for (const query of queries) {
    const times = [];
    let hits = 0;
    for (let i = 0; i < 7; i++) {
      t = performance.now();
      const result = await send({ type: 2, data: query });
      times.push(performance.now() - t);
      hits = result && result.data && result.data.items ? result.data.items.length : 0;
    }
    searches[query] = { median_ms: median(times), hits };
  }

  process.stdout.write(JSON.stringify({
    worker: workerFile,
    imported,
    docs: index.docs.length,
    index_bytes: Buffer.byteLength(raw),
    parse_ms: parseMs,
    setup_ms: setupMs,
    heap_parsed_mb: (parsed.heapUsed - base.heapUsed) / 1048576,
    heap_index_mb: (built.heapUsed - base.heapUsed) / 1048576,
    rss_mb: built.rss / 1048576,
    max_rss_mb: process.resourceUsage().maxRSS / 1024,
    searches,
    node: process.version,
  }) + "\n");
  // Keep the index alive until the figures are taken (the worker holds it; this holds the raw docs).
  if (index.docs.length < 0) console.log(raw.length);
}

main().catch((err) => {
  console.error(err && err.stack ? err.stack : String(err));
  process.exit(1);
});

// Runs the site's search worker (docs/assets/javascripts/search-worker.js) under Node.js for tests:
//   node search_harness.cjs WORKER SITE_DIR < requests.json > answers.json
// The worker gets a Web Worker's globals (self, addEventListener, postMessage, fetch reading SITE_DIR) and
// SITE_DIR/search/search_index.json as its SETUP message, exactly as Material's page sends it. Requests (one JSON
// array): {"words": [...]} -> each word's fold, tokens, russianStem, englishStem, textStem (the rules' parity
// with Python), {"query": "..."} -> the RESULT message's items, {"result": "..."} -> its data, {"race": ["...", ...]} -> the queries sent at once:
// each one's items, or null for an answer the worker dropped. Every fetch is logged (answers.fetched).
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");

const [workerFile, siteDir] = process.argv.slice(2);
const listeners = [];
const posted = [];
const fetched = [];
const sandbox = {
  console,
  URL,
  location: {href: "file://" + path.join(siteDir, "assets/javascripts/search-worker.js")},
  addEventListener: (type, fn) => { if (type === "message") listeners.push(fn); },
  postMessage: message => posted.push(message),
  fetch: async url => {
    fetched.push(url);
    const file = new URL(url).pathname;
    if (!fs.existsSync(file)) return {ok: false, status: 404, json: async () => null};
    const text = fs.readFileSync(file, "utf-8");
    return {ok: true, status: 200, json: async () => JSON.parse(text)};
  },
};
sandbox.self = sandbox;
vm.createContext(sandbox);
vm.runInContext(fs.readFileSync(workerFile, "utf-8"), sandbox, {filename: workerFile});
const api = sandbox.codexSearch;

async function main() {
  const requests = JSON.parse(fs.readFileSync(0, "utf-8"));
  const index = JSON.parse(fs.readFileSync(path.join(siteDir, "search/search_index.json"), "utf-8"));
  const ready = await api.handle({type: 0, data: {config: index.config, docs: index.docs, options: {suggest: false}}});
  const answers = [];
  for (const request of requests) {
    if (request.words) {
      answers.push(request.words.map(w => ({
        fold: api.fold(w), tokens: api.tokens(w), russianStem: api.russianStem(w),
        englishStem: api.englishStem(api.fold(w)), textStem: api.textStem(api.fold(w)),
      })));
    } else if ("query" in request) {
      const answer = await api.handle({type: 2, data: request.query});
      answers.push(answer.data.items);
    } else if ("result" in request) {  // the whole RESULT data: items and suggest
      answers.push((await api.handle({type: 2, data: request.result})).data);
    } else if (request.race) {  // queries sent before the previous answer: only the newest is answered
      const all = await Promise.all(request.race.map(query => api.handle({type: 2, data: query})));
      answers.push(all.map(answer => answer && answer.data.items));
    }
  }
  process.stdout.write(JSON.stringify({ready: ready.type, answers, fetched}));
}
main().catch(error => { console.error(error.stack || String(error)); process.exit(1); });

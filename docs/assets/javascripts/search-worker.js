// @ts-check
// Rules Codex site search: the engine behind Material for MkDocs' own search box, as a Web Worker speaking
// Material's worker protocol (page -> worker {type: 0 SETUP, data: search_index.json}, worker -> page
// {type: 1 READY}, page -> worker {type: 2 QUERY, data: "what the reader typed"}, worker -> page
// {type: 3 RESULT, data: {items: [[{location, title, text, score, terms}]]}}).
//
// The index is built in Python (hooks/codex/search.py) from the resolver's word forms: every form of every name
// word is looked up here, never generated. What this file computes itself — folding, tokenising, the Russian
// suffix-stripping fallback, the full-text stems — follows rules the build writes into the index (`rules`), and
// tests/test_search_js.py checks it against the Python functions on the same words.
//
// Online, shards (word -> entries), the name vocabulary (typos) and result chunks (names, game, snippet) are
// fetched on demand from search/codex/<hash>/. Under file:// (the offline copy, run by the iframe-worker shim,
// where fetch does not work) they arrive inline in the SETUP data.
//
// Everything from the glossary is inserted as text: Material puts `title` and `text` into the page as HTML,
// so every glossary string passes through escapeHtml() here.
"use strict";

/**
 * The shapes of search_index.json's `config.codex` and of the data files (hooks/codex/search.py writes them).
 * @typedef {{id: string, name: {en: string, ru: string}, label: string, url: string, words: string[],
 *            start: number}} Game  a game: its page, its name's words, its first term's number
 * @typedef {{f: Record<string, string | string[]>, s: Record<string, string[]>, k: Record<string, number[]>,
 *            t: Record<string, number[]>}} Shard  forms, stems, postings and text (term-number deltas) by word
 * @typedef {[number, string, string, string, string, string, number[]]} TermRecord
 *          game, location, names (en, ru), snippets (en, ru), the terms whose definitions mention it (deltas)
 * @typedef {{shards: Shard[], chunks: TermRecord[][], vocabulary: string[]}} Inline  everything, under file://
 * @typedef {{dir: string, games: Game[], popularity: string[], shards: string[], chunk: number, limit: number,
 *            typo: number, posting: [number, number, number, number], inline?: Inline,
 *            rules: {ru: {endings: string[], min_stem: number, keep: number},
 *                    en: {suffixes: [string, string, number, string][], min: number, keep_double: string},
 *                    stop: string[]}}} Config
 * @typedef {{location: string, title: string, text: string}} Doc  a hand-written page (Material's document)
 * @typedef {{doc: Doc, titleStems: Set<string>, textStems: Set<string>}} Page
 * @typedef {{term: number, name: number, position: number, length: number, flags: number}} Posting
 * @typedef {{word: string, keys: Map<string, number>, text: Map<number, number>, exact: boolean,
 *            guessed: boolean, textHit: boolean}} Found  one query word: the name words and terms it stands for
 * @typedef {{found: Found[], postings: Map<string, number[]>}} Looked
 * @typedef {{word: number, position: number, weight: number, key: string}} Pair
 * @typedef {{nameCover: number, bonus: number, used: Map<number, number>, keys?: string[]}} Fit
 * @typedef {{score: number, words: Map<number, number>, keys: Set<string>, named?: boolean}} Ranked
 * @typedef {{stems: Set<string>, words: Set<string>, start: string}} Highlight
 * @typedef {{location: string, title: string, text: string, score: number, terms: Record<string, boolean>}} Item
 * @typedef {{items: Item[][], suggest?: string[]}} Results
 * @typedef {{type: number, data?: any}} Message  Material's worker protocol
 */

(() => {
  const SETUP = 0, READY = 1, QUERY = 2, RESULT = 3;
  const WORD = /[\p{L}\p{N}]+/gu;
  const CYRILLIC = /[а-яё]/i;
  const DIGITS = /^[0-9]+$/;
  const MAX_TOKENS = 8;
  const PREFIX_SHARDS = 4;   // a prefix search reads at most this many consecutive shards
  const PREFIX_KEYS = 200;   // and takes at most this many completions
  const MENTION_FROM = 2.5;  // a name this good (about every query word fits) brings the pages that mention it
  const MENTION_TERMS = 3;   // from at most this many terms

  // Match weights: how much one query word counts when it stands for a name word.
  const W = {
    base: 1.0,        // the name word itself ("charge")
    form: 0.95,       // another form of it ("charges", «эгиды»)
    completion: 0.97, // the word being typed is the start of a longer name word ("counters" -> counterstrike)
    shortStart: 0.85, // the same, from fewer than four letters
    start: 0.6,       // an earlier query word is the start of a name word
    stem: 0.9,        // the Russian suffix stripper's stem (a form the dictionary lacks)
    typo1: 0.8,       // one letter off
    typo2: 0.65,      // two letters off
    gameWord: 0.5,    // a word of the game's name ("keyforge elusive")
    wordSlot: 0.5,    // a word filling a name's placeholder ("smite evil")
    textPrefix: 0.7,  // full text: the word being typed starts a definition word
    mention: 0.8,     // a page whose definition mentions the term the query names (in any form or language)
  };

  /** @type {Config} */
  let codex = /** @type {any} */ (null);  // config.codex from search_index.json (set before any search)
  /** @type {Page[]} */
  let pages = [];         // hand-written pages (Material's documents), with their words
  /** @type {Inline | null} */
  let inline = null;      // everything, when it came inline (file://)
  let latest = 0;         // the newest query: older ones that finish later are dropped
  /** @type {Map<number, Promise<Shard>>} */
  const shardCache = new Map();
  /** @type {Map<number, Promise<TermRecord[]>>} */
  const chunkCache = new Map();
  /** @type {Promise<string[]> | null} */
  let vocabulary = null;
  /** @type {Set<string>} */
  let stop = new Set();    // words too common to search the text for

  // --- words (the same rules as codex.forms / codex.search) -------------------------------------------------

  /** @param {string} word */
  function fold(word) {
    return word.toLowerCase().replace(/ё/g, "е");
  }

  /** @param {string} text */
  function tokens(text) {
    return (text.match(WORD) || []).map(fold);
  }

  /** @param {string} word */
  function length(word) {
    return Array.from(word).length;  // code points, as Python counts
  }

  /** @param {string} word @param {number} count */
  function dropLast(word, count) {
    const chars = Array.from(word);
    return chars.slice(0, chars.length - count).join("");
  }

  /** @param {string} word */
  function isCyrillic(word) {
    return CYRILLIC.test(word);
  }

  /** @param {string} word */
  function russianStem(word) {
    const ru = codex.rules.ru;
    word = fold(word);
    const size = length(word);
    for (const ending of ru.endings) {
      const cut = length(ending);
      if (word.endsWith(ending) && size - cut >= ru.keep) return dropLast(word, cut);
    }
    return word;
  }

  /** @param {string} word */
  function englishStem(word) {
    const en = codex.rules.en;
    for (const [suffix, replacement, keep, notAfter] of en.suffixes) {
      const cut = length(suffix);
      if (word.endsWith(suffix) && length(word) - cut >= keep) {
        const before = dropLast(word, cut);
        const last = Array.from(before).pop() || "";
        if (notAfter && last && notAfter.includes(last)) continue;
        word = before + replacement;
        break;
      }
    }
    if (length(word) > en.min && word.endsWith("e")) word = dropLast(word, 1);
    if (length(word) >= en.min && word.endsWith("y")) word = dropLast(word, 1) + "i";
    const chars = Array.from(word);
    const n = chars.length;
    if (n > en.min && chars[n - 1] === chars[n - 2] && !en.keep_double.includes(chars[n - 1])) word = dropLast(word, 1);
    return word;
  }

  /** @param {string} word */
  function textStem(word) {
    if (DIGITS.test(word)) return word;
    return isCyrillic(word) ? russianStem(word) : englishStem(word);
  }

  // Optimal string alignment distance (a swap of neighbours is one edit), or limit + 1 when it exceeds limit.
  /** @param {string | string[]} a @param {string | string[]} b @param {number} limit @returns {number} */
  function distance(a, b, limit) {
    a = Array.from(a); b = Array.from(b);
    if (Math.abs(a.length - b.length) > limit) return limit + 1;
    let before = null, previous = Array.from({length: b.length + 1}, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const current = [i];
      let best = i;
      for (let j = 1; j <= b.length; j++) {
        const cost = a[i - 1] === b[j - 1] ? 0 : 1;
        let d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
        if (before && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1);
        current.push(d);
        if (d < best) best = d;
      }
      if (best > limit) return limit + 1;
      before = previous; previous = current;
    }
    return previous[b.length];
  }

  // --- HTML (everything from the glossary goes through here) ------------------------------------------------

  /** @param {unknown} text */
  function escapeHtml(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;").replace(/'/g, "&#39;");
  }

  // The text, escaped, with the words the query matched in <mark>.
  /** @param {string} text @param {Highlight} highlight */
  function marked(text, highlight) {
    let out = "", at = 0;
    for (const match of String(text).matchAll(WORD)) {
      out += escapeHtml(text.slice(at, match.index));
      const word = fold(match[0]);
      const hit = highlight.stems.has(textStem(word)) || highlight.words.has(word) ||
        (highlight.start && length(highlight.start) >= 2 && word.startsWith(highlight.start));
      out += hit ? `<mark>${escapeHtml(match[0])}</mark>` : escapeHtml(match[0]);
      at = match.index + match[0].length;
    }
    return out + escapeHtml(text.slice(at));
  }

  // Both languages, each in its own `lang` element of the class codex-l10n: the stylesheet shows the reader's (the
  // language contract; codex.labels.both makes the same markup in Python, with the same "once if equal" rule).
  /** @param {{en: string, ru: string}} values @param {Highlight} highlight */
  function bilingual(values, highlight) {
    if (values.en === values.ru) return marked(values.en, highlight);
    return /** @type {const} */ (["en", "ru"]).map(lang =>
      `<span class="codex-l10n" lang="${lang}">${marked(values[lang], highlight)}</span>`).join("");
  }

  // --- data ------------------------------------------------------------------------------------------------

  /** @param {string} name */
  function dataUrl(name) {
    // This file is <site>/assets/javascripts/search-worker.js; the data is under <site>/search/codex/<hash>/.
    return new URL(`../../${codex.dir}${name}`, self.location.href).href;
  }

  /** @param {string} name */
  async function fetchJson(name) {
    const response = await fetch(dataUrl(name));
    if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
    return response.json();
  }

  /** @param {number} number @returns {Promise<Shard>} */
  function shard(number) {
    return /** @type {Promise<Shard>} */ (part("shards", shardCache, number, `s${number}.json`));
  }

  /** @param {number} number @returns {Promise<TermRecord[]>} */
  function chunk(number) {
    return /** @type {Promise<TermRecord[]>} */ (part("chunks", chunkCache, number, `c${number}.json`));
  }

  // A shard or chunk by number: from the inline index, else its file, fetched once.
  /**
   * @template T
   * @param {"shards" | "chunks"} kind @param {Map<number, Promise<T>>} cache @param {number} number @param {string} file
   * @returns {Promise<T>}
   */
  function part(kind, cache, number, file) {
    if (inline) return Promise.resolve(/** @type {T} */ (inline[kind][number]));
    if (!cache.has(number)) cache.set(number, fetchJson(file));
    return /** @type {Promise<T>} */ (cache.get(number));
  }

  /** @returns {Promise<string[]>} */
  function names() {
    if (inline) return Promise.resolve(inline.vocabulary);
    if (!vocabulary) vocabulary = fetchJson("vocabulary.json");
    return vocabulary;
  }

  // The shard holding a word: the last one whose first word is not after it (codex.search.shard_of).
  /** @param {string} word */
  function shardOf(word) {
    const bounds = codex.shards;
    let low = 0, high = bounds.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (bounds[middle] <= word) low = middle; else high = middle - 1;
    }
    return low;
  }

  // The shards a prefix search for `start` reads: from the word's own shard on, while shards may hold it.
  /** @param {string} start */
  function shardsStarting(start) {
    const first = shardOf(start), out = [first];
    for (let i = first + 1; i < codex.shards.length && out.length < PREFIX_SHARDS; i++) {
      if (!codex.shards[i].startsWith(start)) break;
      out.push(i);
    }
    return out;
  }

  /** @param {string | string[] | undefined} value @param {string} form @returns {string[]} */
  function keysOf(value, form) {
    if (value === undefined) return [];
    if (value === "") return [form];
    return typeof value === "string" ? [value] : value;
  }

  /** @param {number} code @returns {Posting} */
  function decode(code) {
    const [names, positions, lengths, flags] = codex.posting;  // codex.search.posting
    const f = code % flags; code = Math.floor(code / flags);
    const m = code % lengths; code = Math.floor(code / lengths);
    const position = code % positions; code = Math.floor(code / positions);
    return {term: Math.floor(code / names), name: code % names, position, length: m, flags: f};
  }

  // --- matching ----------------------------------------------------------------------------------------------

  /** @template K @param {Map<K, number>} map @param {K} key @param {number} weight */
  function add(map, key, weight) {
    const had = map.get(key);
    if (had === undefined || had < weight) map.set(key, weight);
  }

  // For each query word: the name words it can stand for (key -> weight), and the terms its stem finds in text.
  /** @param {string[]} words @returns {Promise<Looked>} */
  async function lookUp(words) {
    const last = words.length - 1;
    const wanted = new Set();
    words.forEach((word, i) => {
      wanted.add(shardOf(word));
      wanted.add(shardOf(textStem(word)));
      if (isCyrillic(word)) wanted.add(shardOf(russianStem(word)));
      if (length(word) >= 2) for (const n of shardsStarting(word)) wanted.add(n);
      if (i === last && length(word) >= 3) for (const n of shardsStarting(textStem(word))) wanted.add(n);
    });
    /** @type {Map<number, Shard>} */
    const loaded = new Map();
    await Promise.all([...wanted].map(async n => loaded.set(n, await shard(n))));
    const loadedShard = (/** @type {number} */ n) => /** @type {Shard} */ (loaded.get(n));  // read after loading
    /** @template {keyof Shard} N @param {string} word @param {N} name @returns {Shard[N]} */
    const table = (word, name) => (loaded.get(shardOf(word)) || /** @type {Partial<Shard>} */ ({}))[name] || {};
    const found = [];
    for (const [i, word] of words.entries()) {
      const keys = new Map(), text = new Map();
      const exact = keysOf(table(word, "f")[word], word);
      for (const key of exact) add(keys, key, key === word ? W.base : W.form);
      if (!exact.length && isCyrillic(word)) {
        const stem = russianStem(word);
        if (length(stem) >= codex.rules.ru.min_stem) for (const key of table(stem, "s")[stem] || []) add(keys, key, W.stem);
      }
      if (length(word) >= 2 && !DIGITS.test(word)) {
        const weight = i < last ? W.start : length(word) >= 4 ? W.completion : W.shortStart;
        let taken = 0;
        for (const n of shardsStarting(word)) {
          for (const [form, value] of Object.entries(loadedShard(n).f)) {
            if (form === word || !form.startsWith(word) || taken >= PREFIX_KEYS) continue;
            taken++;
            for (const key of keysOf(value, form)) if (key !== word && !exact.includes(key)) add(keys, key, weight);
          }
        }
      }
      const stem = textStem(word);
      if (!DIGITS.test(word) && !stop.has(word)) {
        for (const term of undelta(table(stem, "t")[stem])) add(text, term, 1);
        if (i === last && length(word) >= 3) {
          for (const n of shardsStarting(stem)) {
            for (const [other, list] of Object.entries(loadedShard(n).t)) {
              if (other !== stem && other.startsWith(stem)) for (const term of undelta(list)) add(text, term, W.textPrefix);
            }
          }
        }
      }
      const pageHit = pages.some(p => p.titleStems.has(stem) || p.textStems.has(stem));
      found.push({word, keys, text, exact: exact.length > 0, guessed: keys.size > 0, textHit: text.size > 0 || pageHit});
    }
    // Near spellings, for a word that is no form of a name word and no word of a definition or page — or whose
    // name words are only guesses already (the suffix stripper's stem, a prefix): «оглушенние».
    const typos = found.filter(f => !f.exact && (!f.textHit || f.guessed) && length(f.word) >= codex.typo && !DIGITS.test(f.word));
    if (typos.length) {
      const vocabulary = await names();
      for (const f of typos) {
        const cyrillic = isCyrillic(f.word), stem = cyrillic ? russianStem(f.word) : "";
        for (const key of vocabulary) {
          if (length(key) < codex.typo || Math.abs(length(key) - length(f.word)) > 3) continue;
          let d = distance(f.word, key, 2);
          if (cyrillic && d > 1) d = Math.min(d, distance(stem, russianStem(key), 2));
          if (d <= 2) add(f.keys, key, d <= 1 ? W.typo1 : W.typo2);
        }
      }
    }
    // The postings of every name word found, from the shards that hold them (usually loaded already).
    const keys = new Set(found.flatMap(f => [...f.keys.keys()]));
    const more = [...new Set([...keys].map(shardOf))].filter(n => !loaded.has(n));
    await Promise.all(more.map(async n => loaded.set(n, await shard(n))));
    const postings = new Map();
    for (const key of keys) postings.set(key, (loadedShard(shardOf(key)).k || {})[key] || []);
    return {found, postings};
  }

  /** @param {number[] | undefined} list */
  function undelta(list) {
    const out = [];
    let at = 0;
    for (const step of list || []) out.push(at += step);
    return out;
  }

  /** @param {number} term */
  function gameOf(term) {
    let game = 0;
    codex.games.forEach((g, i) => { if (term >= g.start) game = i; });
    return game;
  }

  // How well the query fits one name: each query word stands for at most one name word and the reverse; a number
  // fills a number placeholder, a word a word placeholder, a word of the game's name narrows to the game.
  /** @param {string[]} words @param {Posting} name @param {Pair[]} pairs @param {Set<string>} gameWords @returns {Fit | null} */
  function fit(words, name, pairs, gameWords) {
    pairs.sort((a, b) => b.weight - a.weight);
    const used = new Map(), usedPosition = new Set();
    for (const {word, position, weight} of pairs) {
      if (used.has(word) || usedPosition.has(position)) continue;
      used.set(word, weight);
      usedPosition.add(position);
    }
    if (!usedPosition.size) return null;
    let named = 0;
    for (const weight of used.values()) named += weight;
    let number = !!(name.flags & 1), slot = !!(name.flags & 2), filled = false;
    words.forEach((word, i) => {
      if (used.has(i)) return;
      if (DIGITS.test(word) && number) { number = false; filled = true; used.set(i, 1); return; }
      if (slot && !DIGITS.test(word)) { slot = false; filled = true; used.set(i, W.wordSlot); return; }
      if (gameWords.has(word)) used.set(i, W.gameWord);
    });
    // The main name before an alias; a name that prints a placeholder the query leaves out ("Armor +/- X" for
    // "armor") after one that prints none, as the resolver ranks them.
    const bonus = (name.flags & 4 ? 0.02 : 0) - (name.flags & 8 && !filled ? 0.01 : 0);
    return {nameCover: Math.min(named / Math.max(name.length, 1), 1), bonus, used};
  }

  // The share of the query a term's names cover together ("aegis эгида": one word each from two names).
  /** @param {string[]} words @param {Map<number, number>} used */
  function queryCover(words, used) {
    let sum = 0, total = 0;
    words.forEach((word, i) => {
      if (used.has(i)) { sum += used.get(i) || 0; total += 1; } else total += stop.has(word) ? 0.5 : 1;
    });
    return sum / Math.max(total, 1);
  }

  /** @param {string[]} words @param {Looked} looked @returns {Map<number, Ranked>} */
  function rank(words, {found, postings}) {
    /** @type {Map<string, {term: number, name: Posting, pairs: Pair[]}>} */
    const byName = new Map();  // "term/name" -> {term, name, pairs}
    found.forEach((f, i) => {
      for (const [key, weight] of f.keys) {
        for (const code of postings.get(key) || []) {
          const p = decode(code), id = `${p.term}/${p.name}`;
          let named = byName.get(id);
          if (!named) byName.set(id, named = {term: p.term, name: p, pairs: []});
          named.pairs.push({word: i, position: p.position, weight, key});
        }
      }
    });
    /** @type {Map<number, Fit[]>} */
    const fits = new Map();  // term -> its names' fits
    const gameWords = codex.games.map(g => new Set(g.words));
    for (const {term, name, pairs} of byName.values()) {
      const result = fit(words, name, pairs, gameWords[gameOf(term)]);
      if (!result) continue;
      result.keys = pairs.map(p => p.key);
      const list = fits.get(term);
      if (list) list.push(result); else fits.set(term, [result]);
    }
    const terms = new Map();  // term -> {score, words: Map(query word -> weight), keys, named}
    for (const [term, list] of fits) {
      const used = new Map();
      for (const f of list) for (const [i, w] of f.used) if (!(used.get(i) >= w)) used.set(i, w);
      const cover = queryCover(words, used);
      const best = Math.max(...list.map(f => 2 * queryCover(words, f.used) + f.nameCover + f.bonus));
      const own = Math.max(...list.map(f => f.nameCover + f.bonus));
      terms.set(term, {score: Math.max(best, 2 * cover + own), words: used, keys: new Set(list.flatMap(f => f.keys)),
        named: true});
    }
    // Full text: the share of the query's words the definitions hold; below any name, a tie-breaker among names.
    const counted = found.filter(f => !DIGITS.test(f.word) && !stop.has(f.word));
    const text = new Map();
    counted.forEach(f => { for (const [term, weight] of f.text) text.set(term, (text.get(term) || 0) + weight); });
    for (const [term, sum] of text) {
      const share = sum / counted.length;
      const entry = terms.get(term);
      if (entry) entry.score += 0.05 * share;
      else terms.set(term, {score: 0.9 * share, words: new Map(found.map((f, i) => /** @type {[number, number]} */ ([i, f.text.get(term) || 0])).filter(([, w]) => w > 0)), keys: new Set()});
    }
    for (const [term, entry] of terms) entry.score += 0.0005 * parseInt(codex.popularity[term] || "0", 36);
    return terms;
  }

  // The game pages (by the game's name) and the hand-written pages (by their titles' and texts' words).
  /** @param {string[]} words @returns {Item[]} */
  function rankPages(words) {
    /** @type {Item[]} */
    const out = [];
    const last = words.length - 1;
    const counted = words.filter(w => !stop.has(w)).length || 1;
    for (const game of codex.games) {
      const own = new Set(game.words), matched = new Set();
      words.forEach((w, i) => {
        if (own.has(w) || (i === last && length(w) >= 2 && game.words.some(g => g.startsWith(w)))) matched.add(i);
      });
      if (!matched.size) continue;
      out.push({
        location: game.url, title: game.label, text: "",  // the game's name as the pages show it (labels.both)
        score: 2 * matched.size / counted + Math.min(matched.size / game.words.length, 1), terms: termsOf(words, matched),
      });
    }
    for (const page of pages) {
      let sum = 0;
      const matched = new Set();
      words.forEach((word, i) => {
        if (stop.has(word)) return;
        const stem = textStem(word);
        let best = page.titleStems.has(stem) ? 1 : page.textStems.has(stem) ? 0.6 : 0;
        if (!best && i === last && length(stem) >= 3) {
          for (const s of page.titleStems) if (s.startsWith(stem)) best = 0.7;
          if (!best) for (const s of page.textStems) if (s.startsWith(stem)) best = 0.4;
        }
        if (best) { sum += best; matched.add(i); }
      });
      if (sum) out.push({...page.doc, score: 0.9 * sum / counted, terms: termsOf(words, matched)});
    }
    return out;
  }

  // Material's `terms`: each query word -> whether this result matched it (unmatched ones are listed as missing).
  /** @param {string[]} words @param {Set<number>} matched @param {string[]} [extra] @returns {Record<string, boolean>} */
  function termsOf(words, matched, extra = []) {
    /** @type {Record<string, boolean>} */
    const out = {};
    words.forEach((w, i) => {
      if (DIGITS.test(w) && matched.has(i)) return;  // a parameter ("aegis 2"): neither missing nor highlighted
      out[w] = out[w] || matched.has(i);
    });
    for (const e of extra) if (length(e) >= 3 && !(e in out)) out[e] = true;  // for highlighting on the page
    return out;
  }

  /** @param {string[]} words @param {Iterable<string>} keys @param {string[]} [more] @returns {Highlight} */
  function highlightOf(words, keys, more = []) {
    const last = words[words.length - 1];
    const stems = new Set([...words, ...keys, ...more].filter(w => !DIGITS.test(w)).map(textStem));
    return {stems, words: new Set([...words, ...keys]), start: last && !DIGITS.test(last) ? last : ""};
  }

  // Material's search.suggest: the name word the best result completes the last query word to ("counters" ->
  // "counterstrike"; the reader accepts it with the right arrow key), or none.
  /** @param {string[]} words @param {[number, Ranked] | undefined} best @returns {string[]} */
  function completion(words, best) {
    const last = words[words.length - 1];
    if (!best || !last || length(last) < 2) return [];
    const keys = [...best[1].keys].filter(k => k.startsWith(last) && k !== last).sort((a, b) => a.length - b.length);
    return keys.length ? [keys[0]] : [];
  }

  /** @param {string} query @returns {Promise<Results>} */
  async function search(query) {
    const words = tokens(query).slice(0, MAX_TOKENS);
    if (!words.length) return {items: []};
    const looked = await lookUp(words);
    const terms = rank(words, looked);
    /** @type {Map<number, TermRecord[]>} */
    const loaded = new Map();
    const records = async (/** @type {number[]} */ list) => {
      const need = [...new Set(list.map(term => Math.floor(term / codex.chunk)))].filter(n => !loaded.has(n));
      await Promise.all(need.map(async n => loaded.set(n, await chunk(n))));
    };
    const record = (/** @type {number} */ term) => /** @type {TermRecord[]} */ (loaded.get(Math.floor(term / codex.chunk)))[term % codex.chunk];
    const sorted = () => [...terms.entries()].sort((a, b) => b[1].score - a[1].score || a[0] - b[0]);
    // The pages whose definitions mention a term the query names well (the resolver's mentions, found at build
    // time, so «стража» finds the Russian definitions that say "Guarding"): results too, below the term itself.
    const named = sorted().filter(([, e]) => e.named && e.score >= MENTION_FROM).slice(0, MENTION_TERMS);
    await records(named.map(([term]) => term));
    for (const [term, entry] of named) {
      for (const other of undelta(record(term)[6])) {
        const score = W.mention * entry.score / 3 + 0.0005 * parseInt(codex.popularity[other] || "0", 36);
        const known = terms.get(other);
        if (!known) terms.set(other, {score, words: new Map(), keys: new Set(entry.keys)});
        else if (!known.named && known.score < score) known.score = score;
      }
    }
    const top = sorted().slice(0, codex.limit);
    const pageHits = rankPages(words);
    await records(top.map(([term]) => term));
    /** @type {Item[][]} */
    const items = top.map(([term, entry]) => {
      const [game, location, en, ru, snippetEn, snippetRu] = record(term);
      const light = highlightOf(words, entry.keys);
      return [{
        location,
        title: `<span lang="en">${marked(en, light)}</span> · <span lang="ru">${marked(ru, light)}</span>` +
          ` <span class="codex-search-game">${codex.games[game].label}</span>`,
        text: `<p class="codex-search-snippet">${bilingual({en: snippetEn, ru: snippetRu}, light)}</p>`,
        score: entry.score,
        terms: termsOf(words, new Set(entry.words.keys()), [...entry.keys].map(textStem)),
      }];
    });
    // Pages merge into the list by score; a page's sections follow its article, as Material groups them.
    /** @type {Map<string, Item[]>} */
    const groups = new Map();
    for (const hit of pageHits.sort((a, b) => b.score - a.score)) {
      const article = hit.location.split("#")[0];
      const group = groups.get(article);
      if (group) group.push(hit); else groups.set(article, [hit]);
    }
    for (const [article, hits] of groups) {
      if (!hits.some(h => h.location === article)) {
        const doc = pages.find(p => p.doc.location === article);
        if (doc) hits.push({...doc.doc, score: 0, terms: {}});
      }
      items.push(hits);
    }
    items.sort((a, b) => b[0].score - a[0].score);
    return {items: items.slice(0, codex.limit), suggest: completion(words, top[0])};
  }

  // --- protocol ----------------------------------------------------------------------------------------------

  /** @param {{config?: {codex?: Config}, docs?: Doc[]}} data */
  function setup(data) {
    codex = /** @type {Config} */ ((data.config && data.config.codex) || null);  // null: not our index (nothing to search)
    if (!codex) return;
    inline = codex.inline || null;
    stop = new Set(codex.rules.stop);
    const strip = (/** @type {unknown} */ html) => String(html).replace(/<[^>]*>/g, " ").replace(/&[#\w]+;/g, " ");
    pages = (data.docs || []).map(doc => ({
      doc,
      titleStems: new Set(tokens(strip(doc.title)).map(textStem)),
      textStems: new Set(tokens(strip(doc.text)).map(textStem)),
    }));
  }

  /** @param {Message} message @returns {Promise<Message | null>} */
  async function handle(message) {
    switch (message.type) {
      case SETUP:
        setup(message.data);
        return {type: READY};
      case QUERY: {
        const mine = ++latest;
        let data;
        try {
          data = codex ? await search(message.data) : {items: []};
        } catch (error) {
          console.warn("search failed:", error);
          data = {items: []};
        }
        return mine === latest ? {type: RESULT, data} : null;  // a newer query is on its way
      }
      default:
        throw new TypeError(`unknown message type ${message.type}`);
    }
  }

  addEventListener("message", async event => {
    const answer = await handle(event.data);
    if (answer) postMessage(answer);
  });

  // For tests (tests/test_search_js.py drives this file under Node.js).
  self.codexSearch = {fold, tokens, russianStem, englishStem, textStem, distance, escapeHtml, handle};
})();

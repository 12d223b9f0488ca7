/**
 * Ranking policy on top of the BM25F engine: field weights, query expansion
 * with synonyms and with the words implied by shapes (paths, URLs), a lift for tools of a server whose tools as a whole match the
 * query, intent alignment (read vs write verbs), and the exact-match tier.
 * Ordering is total: tier, score, then id. Weights were tuned on the
 * mcp-catalog queries and checked on held-out sets (README).
 */
import type { ToolDescriptor } from '@tool-search/kernel';
import { addField, addMergedBag, beginDoc, endDoc, type PackedDoc } from './bag.js';
import { buildEngine, type FieldSpec } from './engine.js';
import { currentVocabulary, docTerms, TOOL_FIELDS } from './doc-terms.js';
import { queryIntent, termIntent, type Intent } from './intent.js';
import { expand } from './synonyms.js';
import { entityWords } from './entities.js';
import { closestDocs } from './closest.js';
import { createNameMatcher } from './exact-names.js';
import { plainVerbs } from './phrasal.js';
import { termOf, words } from './tokenize.js';

/** `visible[doc] === 1` for the docs a run may see (policy as a query-time filter); absent: all. */
export type Visibility = Uint8Array | undefined;

export interface Ranked {
  /** Doc indices, best first, at most `k`. */
  readonly docs: readonly number[];
  /** Per doc: it matched the query poorly (little of the query's weight, or only through a fallback). */
  readonly weak: readonly boolean[];
  /** How many of the first `docs` the query names (exact-names.ts): they stay first whatever a rerank tap says. */
  readonly named?: number;
}

export interface Ranker {
  /** Doc indices, best first, at most `k`. Empty for an empty or stopword-only query. */
  rank(query: string, k: number, visible?: Visibility): number[];
  /**
   * `rank` that never comes back empty while a visible doc exists and the query has a word: when nothing
   * matches, the closest partial matches (word prefixes, then edit distance over names), all marked weak.
   */
  match(query: string, k: number, visible?: Visibility): Ranked;
}

export interface RankingConfig {
  readonly k1: number;
  readonly fields: Readonly<Record<'name' | 'title' | 'owner' | 'description' | 'params', FieldSpec>>;
  /** Query weight of a synonym relative to a word the user typed. */
  readonly synonymWeight: number;
  /** Query weight of a word implied by a shape in the query (a path means "file", entities.ts). */
  readonly entityWeight: number;
  /** Synonyms found in more than this share of tools are skipped: they add cost, not signal. */
  readonly synonymMaxDf: number;
  /** Score multiplier for a tool whose intent matches the query's, and for one that contradicts it. */
  readonly intent: { readonly match: number; readonly conflict: number };
  /**
   * A hit is weak when the typed words it holds carry less idf than `share` of the query's (catalog-known) words,
   * or than `cap` (about two rare words) for a long request. Measured on the dev set: 11 of 200 queries come back
   * weak, 2 of them with a right tool in the top 5, against 158 of the other 189.
   */
  readonly weak: { readonly share: number; readonly cap: number };
  /** How much a matching server (all its tools' text as one document) lifts its tools. */
  readonly server: number;
  readonly serverFields: Readonly<Record<'owner' | 'names' | 'leads', FieldSpec>>;
}

export const RANKING: RankingConfig = {
  k1: 1.2,
  fields: {
    name: { weight: 3, b: 0.3 },
    title: { weight: 1.5, b: 0.5 },
    owner: { weight: 2, b: 0.3 },
    description: { weight: 1, b: 0.75 },
    params: { weight: 0.4, b: 0.5 },
  },
  synonymWeight: 0.3,
  entityWeight: 1,
  weak: { share: 0.3, cap: 8 },
  synonymMaxDf: 0.2,
  intent: { match: 1.2, conflict: 0.9 },
  server: 1,
  serverFields: {
    owner: { weight: 3, b: 0.3 },
    names: { weight: 1, b: 0.75 },
    leads: { weight: 0.5, b: 0.75 },
  },
};

export function createRanker(tools: readonly ToolDescriptor[], config: RankingConfig = RANKING): Ranker {
  // Per doc: its intent as an index into INTENTS + 1 (0 = none), and its server: typed arrays, not a slot per tool.
  const intents = new Uint8Array(tools.length);
  const owners = new Map<string, number>();
  const ownerOf = new Int32Array(tools.length);
  const serverTools: PackedDoc[][] = [];
  // One vocabulary for the whole build: cached per-tool ids come from it.
  const vocab = currentVocabulary();
  const docs = tools.map((tool, i) => {
    const terms = docTerms(tool, vocab);
    intents[i] = terms.intent === undefined ? 0 : INTENTS.indexOf(terms.intent) + 1;
    let o = owners.get(tool.owner);
    if (o === undefined) {
      owners.set(tool.owner, (o = owners.size));
      serverTools.push([]);
    }
    ownerOf[i] = o;
    serverTools[o]!.push(terms.packed);
    return terms.packed;
  });
  const engine = buildEngine(docs, vocab.size, {
    k1: config.k1,
    fields: TOOL_FIELDS.map((field) => (field === 'lead' ? NO_FIELD : config.fields[field])),
  });
  const serverEngine =
    config.server > 0
      ? buildEngine(serverTools.map(serverDoc), vocab.size, {
          k1: config.k1,
          fields: [config.serverFields.owner, config.serverFields.names, config.serverFields.leads],
        })
      : undefined;
  const byId = (a: number, b: number): number =>
    tools[a]!.id < tools[b]!.id ? -1 : tools[a]!.id > tools[b]!.id ? 1 : 0;
  // Ids, names, titles and their variants (exact-names.ts).
  const names = createNameMatcher(tools, byId);
  const scores = new Float64Array(tools.length);
  const touchedDocs = new Int32Array(tools.length);
  // Position + 1 of a doc among the hits whose coverage is being read (coverage()); 0 elsewhere.
  const marks = new Int32Array(tools.length);
  const serverScores = new Float64Array(serverTools.length);
  const touchedServers = new Int32Array(serverTools.length);
  // The build's scratch shares the closures' scope: drop it so the index keeps postings, not every tool's bags.
  serverTools.length = 0;
  owners.clear();
  // The cap keeps words of a fifth of the catalog out (cost, little signal). A noun under the floor always counts:
  // in a small catalog (a deployment's 30–200 tools) one server's subject is already a fifth, and dropping it lost
  // that server (phase 3). Verbs keep the relative cap: "get" in a tenth of the tools says nothing about a subject.
  const verbMaxDf = Math.max(1, config.synonymMaxDf * tools.length);
  const maxDf = Math.max(SYNONYM_DF_FLOOR, verbMaxDf);
  // Made with the index, not on the first weak fallback (a sort of every term: a pause on that query).
  const sorted = sortedTerms();

  // The query as it is weighted and its intent read: lowercased, phrasal verbs as their one-word meaning; tokenized
  // once, for the weights, the intent and the coverage alike.
  const read = (query: string): Reading => {
    const lowered = plainVerbs(query.toLowerCase());
    const raw = words(lowered);
    const typed: string[] = [];
    for (const word of raw) {
      const term = termOf(word);
      if (term !== undefined) typed.push(term);
    }
    return { lowered, words: raw, terms: typed };
  };
  /**
   * The docs best first and those of them the query names (exact-names.ts), which come first. One scoring pass: a
   * typo is looked for among the top `TYPO_CANDIDATES` of the same ranking (and the sorted-name neighbours).
   */
  const rankNamed = (
    query: string,
    reading: Reading,
    k: number,
    visible: Visibility,
    weights: ReadonlyMap<number, number>,
  ): { docs: number[]; first: number[] } => {
    if (weights.size === 0 || k <= 0) {
      const first = names.find(query, visible, () => []);
      return { docs: first.slice(0, Math.max(k, 0)), first };
    }
    const touched = touchedDocs.subarray(0, engine.score(weights, scores, touchedDocs));
    try {
      // Lowercased first: a brand typed "GitHub" stays one word instead of also matching "git".
      adjust(touched, weights, reading);
      let wide: number[] | undefined;
      const first = names.find(
        query,
        visible,
        () => (wide ??= topK(touched, scores, Math.max(k, TYPO_CANDIDATES), byId, NONE, visible)),
      );
      const skip = new Set(first);
      const rest = wide ? wide.filter((doc) => !skip.has(doc)) : topK(touched, scores, k, byId, skip, visible);
      return { docs: [...first, ...rest].slice(0, k), first };
    } finally {
      // The accumulator is shared across queries: leave it all zero. (Indexed loops over typed arrays throughout:
      // a for-of allocated an iterator result per touched doc here, ~30 KB a query at 10,000 tools.)
      for (let i = 0; i < touched.length; i++) scores[touched[i]!] = 0;
    }
  };
  const rank = (
    query: string,
    reading: Reading,
    k: number,
    visible: Visibility,
    weights = queryWeights(reading, query),
  ): number[] => rankNamed(query, reading, k, visible, weights).docs;

  return {
    rank: (query, k, visible) => rank(query, read(query), k, visible),
    match(query, k, visible) {
      const reading = read(query);
      const { docs, first } = rankNamed(query, reading, k, visible, queryWeights(reading, query));
      if (docs.length > 0) {
        const covered = coverage(docs, knownTerms(reading.terms, visible));
        const named = Math.min(first.length, docs.length);
        return {
          docs,
          weak: docs.map((doc, i) => !first.includes(doc) && isWeak(covered[i]!, covered[docs.length]!)),
          ...(named > 0 ? { named } : {}),
        };
      }
      if (k <= 0 || reading.terms.length === 0) return { docs, weak: [] };
      // No prefix either: the name lookup that ranking would repeat already came back empty above.
      const prefixes = prefixWeights(reading.terms);
      const partial = prefixes.size > 0 ? rank(query, reading, k, visible, prefixes) : [];
      const closest = partial.length > 0 ? partial : closestByName(query, k, visible);
      return { docs: closest, weak: closest.map(() => true) };
    },
  };

  /**
   * Weak = the doc holds too little of the idf mass of the words the user typed (`RankingConfig.weak`; an exact
   * name match is never weak). Requests carry words no tool has (names, places): only words the visible catalog
   * knows count.
   */
  function isWeak(covered: number, total: number): boolean {
    return total === 0 || covered < Math.min(config.weak.share * total, config.weak.cap);
  }

  /**
   * Per doc of `docs`, the idf of the `known` terms it holds, then (last) the idf of them all: one pass over each
   * term's postings, marking the docs asked about (postings are gap-coded, so there is no binary search).
   */
  function coverage(docs: readonly number[], known: readonly (readonly [number, number])[]): Float64Array {
    const covered = new Float64Array(docs.length + 1);
    for (let i = 0; i < docs.length; i++) marks[docs[i]!] = i + 1;
    let idf = 0;
    // One visitor for all terms (not a closure per term): it reads the term's idf from the loop.
    const visit = (doc: number): void => {
      if (marks[doc] !== 0) covered[marks[doc]! - 1]! += idf;
    };
    try {
      for (const [id, termIdf] of known) {
        idf = termIdf;
        covered[docs.length]! += idf;
        engine.eachDoc(id, visit);
      }
    } finally {
      for (let i = 0; i < docs.length; i++) marks[docs[i]!] = 0;
    }
    return covered;
  }

  /** The query's typed terms the visible catalog knows, with their idf: a word only hidden tools have counts as unknown. */
  function knownTerms(typed: readonly string[], visible: Visibility): [number, number][] {
    const out: [number, number][] = [];
    for (const term of new Set(typed)) {
      const id = vocab.idOf(term);
      if (id === undefined || engine.df(id) === 0) continue;
      if (visible && !engine.some(id, (other) => visible[other] === 1)) continue;
      out.push([id, engine.idf(id)]);
    }
    return out;
  }

  /**
   * Catalog terms that share a prefix with a query word ("messenger" → "messag"), for the weak fallback: 4 letters,
   * else 3, else 2. A sorted term list, built on the first fallback, makes each prefix a binary search; at most
   * `PREFIX_TERMS` terms per query word keep a fallback query as cheap as any other.
   */
  function prefixWeights(typed: readonly string[]): Map<number, number> {
    const words = [...new Set(typed)].filter((term) => term.length >= 2 && term.charCodeAt(0) < 0x3040);
    const weights = new Map<number, number>();
    for (const length of [4, 3, 2]) {
      for (const word of words)
        if (word.length >= length) for (const id of termsWithPrefix(word.slice(0, length))) weights.set(id, 1);
      if (weights.size > 0) break;
    }
    return weights;
  }

  function termsWithPrefix(prefix: string): number[] {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (vocab.term(sorted[mid]!) < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: number[] = [];
    for (let i = lo; i < sorted.length && out.length < PREFIX_TERMS && vocab.term(sorted[i]!).startsWith(prefix); i++)
      out.push(sorted[i]!);
    return out;
  }

  /**
   * This index's terms (df > 0) as ids in term order: the shared vocabulary also holds other catalogs' terms.
   * 4 bytes a term; the strings stay in the vocabulary.
   */
  function sortedTerms(): Int32Array {
    const own: string[] = [];
    for (let id = 0; id < vocab.size; id++) if (engine.df(id) > 0) own.push(vocab.term(id));
    // The default sort compares by UTF-16 code unit, as `<` does; terms are unique, so ids follow.
    own.sort();
    return Int32Array.from(own, (term) => vocab.idOf(term)!);
  }

  /** Last resort (no catalog word shares even two letters with the query): edit distance over names, bounded. */
  function closestByName(query: string, k: number, visible: Visibility): number[] {
    // The first visible docs in catalog order (ids are unique in an index: the core keeps the first per id).
    const candidates: number[] = [];
    for (let doc = 0; doc < tools.length && candidates.length < NAME_CANDIDATES; doc++)
      if (!visible || visible[doc] === 1) candidates.push(doc);
    return closestDocs(query.slice(0, 60), candidates, tools, k);
  }

  /**
   * Term id -> query weight: typed terms 1 (repeats add up), synonyms `synonymWeight` unless too common, shape words
   * at least `entityWeight`.
   */
  function queryWeights(reading: Reading, raw: string): Map<number, number> {
    const weights = new Map<number, number>();
    const queryTerms = reading.terms;
    for (const term of queryTerms) {
      const id = vocab.idOf(term);
      if (id !== undefined) weights.set(id, (weights.get(id) ?? 0) + 1);
    }
    for (const [term, weight] of expand(queryTerms)) {
      const id = vocab.idOf(term);
      if (id !== undefined && !weights.has(id) && engine.df(id) <= (termIntent(term) === undefined ? maxDf : verbMaxDf))
        weights.set(id, weight * config.synonymWeight);
    }
    for (const word of entityWords(raw)) {
      const term = termOf(word);
      const id = term === undefined ? undefined : vocab.idOf(term);
      // A shape implies its words; one the user typed as well ("the phone number +49…") is not implied twice.
      if (id !== undefined) weights.set(id, Math.max(weights.get(id) ?? 0, config.entityWeight));
    }
    return weights;
  }

  /** Server lift and intent alignment, in place on the touched docs' scores. */
  function adjust(touched: Int32Array, weights: ReadonlyMap<number, number>, reading: Reading): void {
    if (serverEngine) {
      const servers = touchedServers.subarray(0, serverEngine.score(weights, serverScores, touchedServers));
      let max = 0;
      for (let i = 0; i < servers.length; i++) max = Math.max(max, serverScores[servers[i]!]!);
      if (max > 0)
        for (let i = 0; i < touched.length; i++) {
          const doc = touched[i]!;
          scores[doc]! *= 1 + (config.server * serverScores[ownerOf[doc]!]!) / max;
        }
      for (let i = 0; i < servers.length; i++) serverScores[servers[i]!] = 0;
    }
    const intent = queryIntent(reading.words, /[?？]\s*$/.test(reading.lowered));
    if (!intent) return;
    for (let i = 0; i < touched.length; i++) {
      const doc = touched[i]!;
      const own = intents[doc] === 0 ? undefined : INTENTS[intents[doc]! - 1];
      if (own) scores[doc]! *= own === intent ? config.intent.match : config.intent.conflict;
    }
  }
}

/** A query as the ranker reads it: lowercased with phrasal verbs read, its raw words, its index terms. */
interface Reading {
  readonly lowered: string;
  readonly words: readonly string[];
  readonly terms: readonly string[];
}

const NO_FIELD: FieldSpec = { weight: 0, b: 0 };
const INTENTS: readonly Intent[] = ['read', 'create', 'update', 'delete', 'run'];
/** Synonyms found in at most this many tools always count, whatever the catalog's size. */
const SYNONYM_DF_FLOOR = 50;
/** Tools a misspelt name is compared with: the best of the query's own ranking. */
const TYPO_CANDIDATES = 200;
const NONE: ReadonlySet<number> = new Set();
/** Catalog terms one query word's prefix may bring into the weak fallback. */
const PREFIX_TERMS = 50;
/** Tools the last-resort edit distance compares (in catalog order; nothing is close then, so it stays cheap). */
const NAME_CANDIDATES = 50;
const NAME = TOOL_FIELDS.indexOf('name');
const OWNER = TOOL_FIELDS.indexOf('owner');
const LEAD = TOOL_FIELDS.indexOf('lead');

/** A server's document: its owner words, all its tools' names and all their lead sentences. */
function serverDoc(tools: readonly PackedDoc[]): PackedDoc {
  beginDoc();
  addField(tools[0]!, OWNER);
  addMergedBag(tools, NAME);
  addMergedBag(tools, LEAD);
  return endDoc();
}

/**
 * The best `k` of `docs` by score then id, without sorting all of them: a bounded heap with the worst kept doc on
 * top, so a doc costs log k, not a shift through the kept ones (k is 200 when a typo is looked for).
 */
function topK(
  docs: Int32Array,
  scores: Float64Array,
  k: number,
  byId: (a: number, b: number) => number,
  skip: ReadonlySet<number>,
  visible: Visibility,
): number[] {
  const better = (a: number, b: number): boolean =>
    scores[a]! > scores[b]! || (scores[a] === scores[b] && byId(a, b) < 0);
  const heap: number[] = [];
  for (let d = 0; d < docs.length; d++) {
    const doc = docs[d]!;
    if (scores[doc]! <= 0 || skip.has(doc) || (visible && visible[doc] !== 1)) continue;
    if (heap.length < k) {
      heap.push(doc);
      for (let i = heap.length - 1, parent = (i - 1) >> 1; i > 0 && better(heap[parent]!, doc); ) {
        heap[i] = heap[parent]!;
        heap[parent] = doc;
        i = parent;
        parent = (i - 1) >> 1;
      }
    } else if (k > 0 && better(doc, heap[0]!)) siftDown(heap, doc, better);
  }
  return heap.sort((a, b) => (better(a, b) ? -1 : 1));
}

/** Puts `doc` at the top of the heap (worst first) and moves it down to its place. */
function siftDown(heap: number[], doc: number, better: (a: number, b: number) => boolean): void {
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= heap.length) break;
    const right = left + 1;
    const worse = right < heap.length && better(heap[left]!, heap[right]!) ? right : left;
    if (!better(doc, heap[worse]!)) break;
    heap[i] = heap[worse]!;
    i = worse;
  }
  heap[i] = doc;
}

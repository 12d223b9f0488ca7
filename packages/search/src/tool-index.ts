/**
 * `createToolIndex`: the search, describe and suggest surface every exposure
 * mode shares. The index is built lazily on the first search, so a run that
 * never searches pays nothing, and it only ever sees the descriptors it was
 * given (the run's effective catalog).
 */
import { suggestIds, type RunInfo, type ToolDescriptor, errorMessage } from '@tool-search/kernel';
import type { Ranking, RerankContext, SearchHooks } from './hooks.js';
import { normalizeName } from './exact-names.js';
import { missReasons } from './miss-reasons.js';
import { createRanker, type Ranked, type Ranker, type Visibility } from './ranker.js';
import { sanitize, signature, summarize } from './signature.js';
import type {
  BatchSearchResult,
  RankedSearch,
  RankerInfo,
  SearchHit,
  SearchOptions,
  SearchResult,
  ToolDescription,
  ToolIndex,
  ToolIndexOptions,
  UnavailableSource,
} from './types.js';
import { SearchErrors } from './errors.js';

export const DEFAULTS = {
  searchDefaultLimit: 8,
  maxSearchLimit: 20,
  maxQueryLength: 500,
  maxResponseBytes: 16 * 1024,
  maxBatchQueries: 10,
} as const;

/**
 * The part of an index every view over the same catalog shares: the tools,
 * the lookups, the ranker (built on first use) and the rendered hits.
 */
export interface IndexCore {
  readonly tools: readonly ToolDescriptor[];
  lookup(idOrName: string): ToolDescriptor | undefined;
  /** `lookup` among visible docs only: a name shared by a hidden and a visible tool finds the visible one. */
  lookupVisible(idOrName: string, visible: Uint8Array): ToolDescriptor | undefined;
  /** The doc index of one of `tools` (-1 when it is not one of them). */
  docOf(tool: ToolDescriptor): number;
  ranker(): Ranker;
  /** Whether `ranker()` has been built. */
  built(): boolean;
  hitFor(tool: ToolDescriptor): { readonly hit: SearchHit; readonly bytes: number };
}

export function createToolIndex(descriptors: readonly ToolDescriptor[], options: ToolIndexOptions = {}): ToolIndex {
  return indexView(createIndexCore(descriptors), options);
}

export function createIndexCore(descriptors: readonly ToolDescriptor[]): IndexCore {
  // First tool per id wins; the same map serves lookups. Names are only looked up by describe/suggest callers,
  // so their map waits for the first lookup (a search never pays for it).
  const byId = new Map<string, ToolDescriptor>();
  const tools = descriptors.filter((tool) => !byId.has(tool.id) && (byId.set(tool.id, tool), true));
  let byName: Map<string, ToolDescriptor> | undefined;
  const nameMap = (): Map<string, ToolDescriptor> => {
    if (byName) return byName;
    byName = new Map();
    for (const tool of tools) if (!byName.has(tool.name)) byName.set(tool.name, tool);
    return byName;
  };
  let docs: Map<ToolDescriptor, number> | undefined;
  const docOf = (tool: ToolDescriptor): number => {
    docs ??= new Map(tools.map((t, i) => [t, i]));
    return docs.get(tool) ?? -1;
  };
  // Hits and their serialized sizes, made once per tool on first use (or found made by an earlier core).
  const hits = new Map<string, HitEntry>();
  let ranker: Ranker | undefined;
  return {
    tools,
    lookup: (idOrName) => (typeof idOrName === 'string' ? (byId.get(idOrName) ?? nameMap().get(idOrName)) : undefined),
    lookupVisible(idOrName, visible) {
      if (typeof idOrName !== 'string') return undefined;
      const byIdHit = byId.get(idOrName);
      if (byIdHit && visible[docOf(byIdHit)] === 1) return byIdHit;
      return tools.find((tool, doc) => visible[doc] === 1 && tool.name === idOrName);
    },
    docOf,
    ranker: () => (ranker ??= createRanker(tools)),
    built: () => ranker !== undefined,
    hitFor(tool) {
      let entry = hits.get(tool.id) ?? renderedHits.get(tool);
      if (!entry) {
        const hit = {
          id: tool.id,
          name: tool.name,
          source: tool.source,
          owner: tool.owner,
          summary: summarize(tool.description),
          input: signature(tool.inputSchema),
        };
        entry = { hit, bytes: byteLength(JSON.stringify(hit)) };
        if (Object.isFrozen(tool) && Object.isFrozen(tool.inputSchema)) renderedHits.set(tool, entry);
      }
      hits.set(tool.id, entry);
      return entry;
    },
  };
}

type HitEntry = { readonly hit: SearchHit; readonly bytes: number };

/**
 * Rendered hits of frozen descriptors, across cores: the kernel hands every run the same deep-frozen objects, so the
 * first searches after a rebuild over an unchanged catalog find their hits made (sanitizing a description and a
 * schema is most of a first search) instead of making them again. A mutable descriptor could change after it
 * was rendered, so it is only cached in its core, as before. The WeakMap lets a hit go with its descriptor.
 */
const renderedHits = new WeakMap<ToolDescriptor, HitEntry>();

/** What a view sees of its core: the visible docs (policy as a query-time filter) and the run's failed sources. */
export interface ViewScope {
  readonly visible?: Visibility;
  /** How many docs `visible` marks. */
  readonly visibleCount?: number;
  readonly unavailable?: () => readonly UnavailableSource[];
  /** The run's rerank hooks, when a plugin tapped them (read per search: taps come at run start). */
  readonly rerank?: () => RerankScope | undefined;
}

export interface RerankScope {
  readonly hooks: SearchHooks;
  readonly run: RunInfo;
  readonly diagnostic: RerankContext['diagnostic'];
}

/** A `ToolIndex` with its own limits over a shared core. */
export function indexView(core: IndexCore, options: ToolIndexOptions, scope: ViewScope = {}): ToolIndex {
  const { tools } = core;
  const { visible } = scope;
  const settings = resolveOptions(options);
  let shown: readonly ToolDescriptor[] | undefined;
  const shownTools = (): readonly ToolDescriptor[] =>
    (shown ??= visible ? tools.filter((_, doc) => visible[doc] === 1) : tools);
  const isVisible = (tool: ToolDescriptor | undefined): tool is ToolDescriptor =>
    tool !== undefined && (!visible || visible[core.docOf(tool)] === 1);

  const cut = (raw: unknown): string => (typeof raw === 'string' ? raw.slice(0, settings.maxQueryLength) : '');

  /** Hits within the byte budget: flags, reasons and hits all count. */
  const render = (query: string, ranked: Ranked, limit: number, budget: number, selected = false): SearchResult => {
    const shown = sanitize(query);
    const weak = !selected && (ranked.docs.length === 0 || ranked.weak.every(Boolean));
    const reasons = missReasons(scope.unavailable?.() ?? [], query, weak);
    const out: SearchHit[] = [];
    const envelope = {
      query: shown,
      hits: [],
      truncated: false,
      ...(weak && ranked.docs.length > 0 ? { weak: true } : {}),
      ...(reasons.length ? { unavailable: reasons } : {}),
    };
    let bytes = byteLength(JSON.stringify(envelope)) + 1;
    let truncated = ranked.docs.length > limit;
    for (let i = 0; i < Math.min(ranked.docs.length, limit); i++) {
      const { hit, bytes: plain } = core.hitFor(tools[ranked.docs[i]!]!);
      const size = ranked.weak[i] ? plain + WEAK_BYTES : plain;
      if (bytes + size + 1 > budget) {
        truncated = true;
        break;
      }
      bytes += size + 1;
      // The cached hit itself unless it is marked weak: no wrapper per hit per query.
      out.push(ranked.weak[i] ? { ...hit, weak: true as const } : hit);
    }
    return {
      query: shown,
      hits: out,
      truncated,
      ...(weak && out.length > 0 ? { weak: true as const } : {}),
      ...(reasons.length ? { unavailable: reasons } : {}),
    };
  };

  /**
   * `select:a,b` (Anthropic's tool search convention): exactly the named tools the run may see, in the order asked,
   * by id or name, case and separators ignored. A name that is unknown or hidden is left out, the same way for both.
   */
  const selectOne = (query: string, names: readonly string[], budget: number): SearchResult => {
    const docs: number[] = [];
    for (const name of names.slice(0, settings.maxSearchLimit)) {
      const tool = (visible ? core.lookupVisible(name, visible) : core.lookup(name)) ?? byNormalizedName(name);
      const doc = tool && isVisible(tool) ? core.docOf(tool) : -1;
      if (doc >= 0 && !docs.includes(doc)) docs.push(doc);
    }
    return render(query, { docs, weak: docs.map(() => false) }, docs.length, budget, true);
  };
  const byNormalizedName = (name: string): ToolDescriptor | undefined => {
    const wanted = normalizeName(name);
    return wanted
      ? shownTools().find((tool) => normalizeName(tool.name) === wanted || normalizeName(tool.id) === wanted)
      : undefined;
  };

  /** One phrasing's ranking for fusion: its docs (best first) and weak flags; a `select:` phrasing picks its tools. */
  const lexicalRanking = (raw: string, k: number): Ranked & { readonly ranker: RankerInfo } => {
    const query = cut(raw);
    const selected = selectedNames(query);
    if (selected) {
      const docs = selectOne(query, selected, Number.MAX_SAFE_INTEGER).hits.map((hit) =>
        core.docOf(core.lookup(hit.id)!),
      );
      return { docs, weak: docs.map(() => false), ranker: LEXICAL_RANKER };
    }
    return { ...core.ranker().match(query, Math.max(k, FUSE_CANDIDATES), visible), ranker: LEXICAL_RANKER };
  };

  /**
   * Several phrasings of one need as one ranked list: reciprocal-rank fusion (each phrasing's rank r adds
   * 1 / (60 + r), Cormack et al. 2009) over each phrasing's top `FUSE_CANDIDATES`; ties by id. A tool is weak when
   * every phrasing that found it found it weakly. The result's `query` lists the phrasings joined by " | ".
   */
  const fusedOne = (
    queries: readonly string[],
    limit: number,
    rankingOf: (query: string, k: number, i: number) => Ranked,
  ): SearchResult => {
    const phrasings = queries.filter((query): query is string => typeof query === 'string');
    const fused = new Map<number, { score: number; weak: boolean }>();
    phrasings.forEach((query, i) => {
      const ranking = rankingOf(query, FUSE_CANDIDATES, i);
      ranking.docs.forEach((doc, rank) => {
        const entry = fused.get(doc) ?? { score: 0, weak: true };
        entry.score += 1 / (RRF_K + rank + 1);
        entry.weak &&= ranking.weak[rank] ?? false;
        fused.set(doc, entry);
      });
    });
    const docs = [...fused.keys()].sort(
      (a, b) =>
        fused.get(b)!.score - fused.get(a)!.score ||
        (tools[a]!.id < tools[b]!.id ? -1 : tools[a]!.id > tools[b]!.id ? 1 : 0),
    );
    const query = cut(phrasings.join(' | '));
    return render(query, { docs, weak: docs.map((doc) => fused.get(doc)!.weak) }, limit, settings.maxResponseBytes);
  };

  const searchOne = (raw: string, limit: number, budget: number): SearchResult => {
    const query = cut(raw);
    const selected = selectedNames(query);
    if (selected) return selectOne(query, selected, budget);
    return render(query, core.ranker().match(query, limit + 1, visible), limit, budget);
  };

  /** One phrasing through the run's `rerank` taps, as a ranking (for fusion); any failure keeps the lexical one. */
  const rerankedRanking = async (
    raw: string,
    k: number,
    rerank: RerankScope,
  ): Promise<Ranked & { readonly ranker: RankerInfo }> => {
    const lexical = lexicalRanking(raw, k);
    const query = cut(raw);
    if (!query.trim() || selectedNames(query)) return lexical;
    let ranking: Ranking;
    try {
      const ctx = { query, limit: k, tools: shownTools(), run: rerank.run, diagnostic: rerank.diagnostic };
      ranking = await rerank.hooks.rerank.promise(
        { ids: lexical.docs.map((doc) => tools[doc]!.id), ranker: LEXICAL_RANKER },
        ctx,
      );
    } catch (error) {
      rerank.diagnostic({
        code: SearchErrors.SEARCH_RERANK_FAILED,
        level: 'warning',
        message: `search rerank failed, lexical ranking kept: ${errorMessage(error)}`,
      });
      return lexical;
    }
    const docs = namedFirst(visibleDocs(ranking?.ids, k), lexical, k);
    if (docs.length === 0) return lexical;
    const lexicalWeak = new Map(lexical.docs.map((doc, i) => [doc, lexical.weak[i] ?? false]));
    return { docs, weak: docs.map((doc) => lexicalWeak.get(doc) ?? false), ranker: ranking.ranker ?? LEXICAL_RANKER };
  };

  /** The docs of `ids` a tap returned that the run may see, in order, at most `max`: never a hidden or unknown one. */
  const visibleDocs = (ids: unknown, max: number): number[] => {
    const docs: number[] = [];
    for (const id of Array.isArray(ids) ? ids : []) {
      const tool = typeof id === 'string' ? core.lookup(id) : undefined;
      if (tool && tool.id === id && isVisible(tool) && !docs.includes(core.docOf(tool))) docs.push(core.docOf(tool));
      if (docs.length >= max) break;
    }
    return docs;
  };

  /** The lexical candidates through the run's `rerank` taps; any failure keeps the lexical ranking. */
  const rankedOne = async (
    raw: string,
    limit: number,
    budget: number,
    rerank: RerankScope,
  ): Promise<{ result: SearchResult; ranker: RankerInfo }> => {
    const query = cut(raw);
    const selected = selectedNames(query);
    if (selected) return { result: selectOne(query, selected, budget), ranker: LEXICAL_RANKER };
    const lexical = core.ranker().match(query, Math.max(limit + 1, RERANK_CANDIDATES), visible);
    const lexicalResult = () => ({
      result: render(query, { docs: lexical.docs.slice(0, limit + 1), weak: lexical.weak }, limit, budget),
      ranker: LEXICAL_RANKER,
    });
    if (!query.trim()) return lexicalResult();
    let ranking: Ranking;
    try {
      const ctx = { query, limit, tools: shownTools(), run: rerank.run, diagnostic: rerank.diagnostic };
      ranking = await rerank.hooks.rerank.promise(
        { ids: lexical.docs.map((doc) => tools[doc]!.id), ranker: LEXICAL_RANKER },
        ctx,
      );
    } catch (error) {
      rerank.diagnostic({
        code: SearchErrors.SEARCH_RERANK_FAILED,
        level: 'warning',
        message: `search rerank failed, lexical ranking kept: ${errorMessage(error)}`,
      });
      return lexicalResult();
    }
    // A tap may reorder and add visible tools, never a hidden or unknown one.
    const lexicalWeak = new Map(lexical.docs.map((doc, i) => [doc, lexical.weak[i] ?? false]));
    const docs = namedFirst(visibleDocs(ranking?.ids, limit + 1), lexical, limit + 1);
    if (docs.length === 0) return lexicalResult();
    return {
      result: render(query, { docs, weak: docs.map((doc) => lexicalWeak.get(doc) ?? false) }, limit, budget),
      ranker: ranking.ranker ?? LEXICAL_RANKER,
    };
  };

  function search(query: string, searchOptions?: SearchOptions): SearchResult;
  function search(queries: readonly string[], searchOptions: SearchOptions & { readonly fuse: true }): SearchResult;
  function search(queries: readonly string[], searchOptions?: SearchOptions): BatchSearchResult;
  function search(
    input: string | readonly string[],
    searchOptions: SearchOptions = {},
  ): SearchResult | BatchSearchResult {
    const limit = clampLimit(searchOptions.limit, settings);
    if (typeof input === 'string') return searchOne(input, limit, settings.maxResponseBytes);
    const queries = Array.isArray(input) ? input.slice(0, settings.maxBatchQueries) : [];
    if (searchOptions.fuse === true) return fusedOne(queries, limit, (query, k) => lexicalRanking(query, k));
    // Each query gets an equal share of the byte budget, so one greedy query cannot starve the rest.
    const budget = Math.floor((settings.maxResponseBytes - BATCH_ENVELOPE) / Math.max(queries.length, 1));
    const results = queries.map((query) => searchOne(query, limit, budget));
    const cut = (Array.isArray(input) && input.length > queries.length) || results.some((result) => result.truncated);
    return { results, truncated: cut };
  }

  async function searchRanked(
    input: string | readonly string[],
    searchOptions: SearchOptions = {},
  ): Promise<RankedSearch> {
    const rerank = scope.rerank?.();
    if (!rerank)
      return {
        result:
          typeof input === 'string'
            ? search(input, searchOptions)
            : search(input, searchOptions as SearchOptions & { fuse?: false }),
        ranker: LEXICAL_RANKER,
      };
    const limit = clampLimit(searchOptions.limit, settings);
    if (typeof input === 'string') return rankedOne(input, limit, settings.maxResponseBytes, rerank);
    const queries = Array.isArray(input) ? input.slice(0, settings.maxBatchQueries) : [];
    if (searchOptions.fuse === true) {
      const rankings = await Promise.all(queries.map((query) => rerankedRanking(query, FUSE_CANDIDATES, rerank)));
      const answered = rankings.find((ranking) => ranking.ranker !== LEXICAL_RANKER)?.ranker ?? LEXICAL_RANKER;
      return { result: fusedOne(queries, limit, (_, __, i) => rankings[i]!), ranker: answered };
    }
    const budget = Math.floor((settings.maxResponseBytes - BATCH_ENVELOPE) / Math.max(queries.length, 1));
    const answers = await Promise.all(queries.map((query) => rankedOne(query, limit, budget, rerank)));
    const results = answers.map((answer) => answer.result);
    const cut = (Array.isArray(input) && input.length > queries.length) || results.some((result) => result.truncated);
    return {
      result: { results, truncated: cut },
      ranker: answers.find((answer) => answer.ranker !== LEXICAL_RANKER)?.ranker ?? LEXICAL_RANKER,
    };
  }

  return {
    ranker: LEXICAL_RANKER,
    searchRanked: searchRanked as ToolIndex['searchRanked'],
    size: visible ? (scope.visibleCount ?? shownTools().length) : tools.length,
    search,
    describe(idOrName) {
      const tool = visible ? core.lookupVisible(idOrName, visible) : core.lookup(idOrName);
      return isVisible(tool) ? describeTool(tool) : undefined;
    },
    suggest(idOrName) {
      if (typeof idOrName !== 'string') return [];
      const requested = idOrName.slice(0, settings.maxQueryLength);
      // Edit distance over the tools that share a word with the request; the whole catalog only when none do.
      const candidates = core
        .ranker()
        .rank(requested, SUGGEST_CANDIDATES, visible)
        .map((doc) => tools[doc]!);
      return suggestIds(requested, candidates.length >= 3 ? candidates : shownTools(), 3);
    },
  };
}

/**
 * A tool the query names (its id, name or a close variant, exact-names.ts) stays first whatever a rerank tap
 * returns: naming a tool finds it, with or without hybrid or learned ranking.
 */
function namedFirst(docs: readonly number[], lexical: Ranked, max: number): number[] {
  const named = lexical.docs.slice(0, lexical.named ?? 0);
  if (named.length === 0 || docs.length === 0) return [...docs];
  return [...named, ...docs.filter((doc) => !named.includes(doc))].slice(0, max);
}

/** The names of a `select:<name>[,<name>…]` query, or `undefined` for any other query. */
export function selectedNames(query: string): string[] | undefined {
  const match = /^\s*select:(.*)$/is.exec(query);
  if (!match) return undefined;
  return match[1]!
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

/** The full description `describe` returns: the exact schemas, no ranking data. */
export function describeTool(tool: ToolDescriptor): ToolDescription {
  return {
    id: tool.id,
    name: tool.name,
    source: tool.source,
    owner: tool.owner,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
  };
}

/**
 * The offline ranking (ranker.ts): BM25F with its lifts; version 2 = search phase 2 (shapes, weak hits), 3 = a shape's
 * word the user also typed counts once, weather conditions expand to the weather words, phrasal verbs read as one word;
 * 4 = phase 3: named tools first (variants, typos), arithmetic "add", noun synonyms under 50 tools always count.
 */
export const LEXICAL_RANKER: RankerInfo = Object.freeze({ id: 'bm25f', version: '4' });

/** Each phrasing's candidates in a fused search, and the reciprocal-rank constant (the usual 60). */
const FUSE_CANDIDATES = 50;
const RRF_K = 60;

/** Lexical candidates handed to `rerank` taps (they may add tools beyond them). */
const RERANK_CANDIDATES = 50;

/** `,"weak":true` on a hit. */
const WEAK_BYTES = 12;

/** Tools ranked for a miss before edit distance picks the closest three. */
const SUGGEST_CANDIDATES = 30;

/** `{"results":[],"truncated":false}` plus separators. */
const BATCH_ENVELOPE = 40;

type Settings = { -readonly [K in keyof typeof DEFAULTS]: number };

function resolveOptions(options: ToolIndexOptions): Settings {
  const pick = (value: number | undefined, fallback: number, min: number): number =>
    typeof value === 'number' && Number.isFinite(value) ? Math.max(min, Math.floor(value)) : fallback;
  const maxSearchLimit = pick(options.maxSearchLimit, DEFAULTS.maxSearchLimit, 1);
  return {
    maxSearchLimit,
    searchDefaultLimit: Math.min(pick(options.searchDefaultLimit, DEFAULTS.searchDefaultLimit, 1), maxSearchLimit),
    maxQueryLength: pick(options.maxQueryLength, DEFAULTS.maxQueryLength, 1),
    maxResponseBytes: pick(options.maxResponseBytes, DEFAULTS.maxResponseBytes, 64),
    maxBatchQueries: pick(options.maxBatchQueries, DEFAULTS.maxBatchQueries, 1),
  };
}

function clampLimit(limit: number | undefined, settings: Settings): number {
  if (typeof limit !== 'number' || !Number.isFinite(limit)) return settings.searchDefaultLimit;
  return Math.min(Math.max(Math.floor(limit), 1), settings.maxSearchLimit);
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

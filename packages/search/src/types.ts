/**
 * The search contract the modes, the CLI and the MCP server share.
 * (Written first so modes can be built against it; the ranking lives in index.ts.)
 */
import type { ToolDescriptor, ToolSource } from '@tool-search/kernel';

/** A compact search hit: enough to pick a tool and call it without `describe`. */
export interface SearchHit {
  readonly id: string;
  readonly name: string;
  readonly source: ToolSource;
  readonly owner: string;
  /** The description cut at a bounded length. */
  readonly summary: string;
  /** A TypeScript-style signature of the arguments, required first, at most 300 characters. */
  readonly input: string;
  /** Present (true) when this tool matched the query poorly: a partial match, shown because nothing matched well. */
  readonly weak?: true;
}

/** A tool source of the run that could not deliver its tools, named when a search might have wanted them. */
export interface UnavailableSource {
  /** The server (MCP) or plugin name. */
  readonly name: string;
  /** `failed` (did not start or list), `timeout` (did not answer in time), `unreachable`. */
  readonly state: 'failed' | 'timeout' | 'unreachable';
  /** The diagnostic code (`MCP_SERVER_FAILED`, `SOURCE_TIMEOUT`, …). */
  readonly code: string;
}

export interface SearchResult {
  readonly query: string;
  readonly hits: readonly SearchHit[];
  /** True when hits were cut by the limit or the response size cap. */
  readonly truncated: boolean;
  /** Present (true) when no hit matched well: the hits are the closest partial matches, each marked `weak`. */
  readonly weak?: true;
  /**
   * Sources of this run that failed to deliver tools, present when the search was weak or the query names them:
   * the tool the user means may be theirs. Listing failures only; policy never shows here.
   */
  readonly unavailable?: readonly UnavailableSource[];
}

export interface BatchSearchResult {
  readonly results: readonly SearchResult[];
  readonly truncated: boolean;
}

/** `describe`: the full descriptor with the exact input schema. */
export type ToolDescription = Pick<
  ToolDescriptor,
  'id' | 'name' | 'source' | 'owner' | 'title' | 'description' | 'inputSchema' | 'outputSchema' | 'annotations'
>;

export interface SearchOptions {
  readonly limit?: number;
  /**
   * Several phrasings of one need: with an array of queries, one ranked list fused from all of them (reciprocal
   * rank) instead of one result per query. Ignored for a single query.
   */
  readonly fuse?: boolean;
}

export interface ToolIndexOptions {
  /** Default hits per query (config `tools.toolSearch.searchDefaultLimit`, default 8). */
  readonly searchDefaultLimit?: number;
  /** Upper bound on `limit` (config `tools.toolSearch.maxSearchLimit`, default 20). */
  readonly maxSearchLimit?: number;
  /** Queries longer than this are cut (default 500 characters). */
  readonly maxQueryLength?: number;
  /** Serialized response size cap in bytes (default 16 KiB). */
  readonly maxResponseBytes?: number;
  /** Queries per batch search; later ones are dropped and the batch is marked truncated (default 10). */
  readonly maxBatchQueries?: number;
}

/** Which ranking answers a search: logged with every search (telemetry), bumped when the ranking changes. */
export interface RankerInfo {
  readonly id: string;
  readonly version: string;
}

/** A search through the run's `rerank` hooks, and the ranker that answered (lexical when none did). */
export interface RankedSearch<R extends SearchResult | BatchSearchResult = SearchResult | BatchSearchResult> {
  readonly result: R;
  readonly ranker: RankerInfo;
}

export interface ToolIndex {
  readonly size: number;
  /** The lexical ranker (`search` always uses it). */
  readonly ranker: RankerInfo;
  /**
   * `search` through the run's rerank hooks (search/src/hooks.ts: hybrid ranking when an embedder plugin is
   * there); without taps it is `search`. A failing or slow tap falls back to the lexical ranking, never fails.
   */
  searchRanked(query: string, options?: SearchOptions): Promise<RankedSearch<SearchResult>>;
  searchRanked(
    queries: readonly string[],
    options: SearchOptions & { readonly fuse: true },
  ): Promise<RankedSearch<SearchResult>>;
  searchRanked(
    queries: readonly string[],
    options?: SearchOptions & { readonly fuse?: false },
  ): Promise<RankedSearch<BatchSearchResult>>;
  searchRanked(input: string | readonly string[], options?: SearchOptions): Promise<RankedSearch>;
  search(query: string, options?: SearchOptions): SearchResult;
  search(queries: readonly string[], options: SearchOptions & { readonly fuse: true }): SearchResult;
  search(queries: readonly string[], options?: SearchOptions & { readonly fuse?: false }): BatchSearchResult;
  /** `undefined` when the id or name is not in the indexed (effective) catalog. */
  describe(idOrName: string): ToolDescription | undefined;
  /** The three closest ids, for "unknown tool id" errors. */
  suggest(idOrName: string): string[];
}

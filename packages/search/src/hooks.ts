/**
 * The search package's own extension point (STYLE.md H7): hooks per run, in
 * a WeakMap registry, so the kernel's hook list does not grow for search. A
 * plugin that re-ranks (dense embeddings, a cross-encoder) taps them for a
 * run when the kernel starts it:
 *
 *   api.hooks.runStart.tap((run) => getSearchHooks(run).rerank.tapPromise(NAME, (ranking, ctx) => …));
 *
 * `ToolIndex.searchRanked` calls them; `search` (sync) never does.
 */
import { AsyncSeriesWaterfallHook } from 'tapable';
import type { Diagnostic, RunInfo, ToolDescriptor } from '@tool-search/kernel';
import type { RankerInfo } from './types.js';

/** The waterfall value of `rerank`: tool ids best first and the ranker that ordered them. */
export interface Ranking {
  readonly ids: readonly string[];
  readonly ranker: RankerInfo;
}

export interface RerankContext {
  readonly query: string;
  /** Hits the caller will show; a tap may return more ids (they are cut). */
  readonly limit: number;
  /** The tools this run may see (its searchable catalog), for scoring beyond the lexical candidates. */
  readonly tools: readonly ToolDescriptor[];
  readonly run: RunInfo;
  /** A problem worth telling (an embedder that failed, so the lexical ranking stood): becomes a run diagnostic. */
  diagnostic(diagnostic: Omit<Diagnostic, 'hook'>): void;
}

export function createSearchHooks() {
  return Object.freeze({
    /** Re-ranks a query's lexical ranking (the input holds the lexical candidates); a tap that fails is skipped. */
    rerank: new AsyncSeriesWaterfallHook<[ranking: Ranking, ctx: RerankContext]>(['ranking', 'ctx'], 'search:rerank'),
  });
}

export type SearchHooks = ReturnType<typeof createSearchHooks>;

const registry = new WeakMap<RunInfo, SearchHooks>();

/** The search hooks of a run (created on first use); `run` is the kernel's `RunInfo` of that run. */
export function getSearchHooks(run: RunInfo): SearchHooks {
  if (typeof run !== 'object' || run === null || typeof run.runId !== 'string') {
    throw new TypeError("getSearchHooks: the 'run' argument must be a run's RunInfo");
  }
  let hooks = registry.get(run);
  if (!hooks) registry.set(run, (hooks = createSearchHooks()));
  return hooks;
}

/** The run's hooks if any plugin tapped them, without creating them. */
export function usedSearchHooks(run: RunInfo | undefined): SearchHooks | undefined {
  const hooks = run ? registry.get(run) : undefined;
  return hooks?.rerank.isUsed() ? hooks : undefined;
}

/**
 * What every mode's search does the same way: the limits that apply to a run (the mode's own, or the run's
 * `searchLimits`: a per-agent or per-provider toolSearch override) and the `search` event it reports.
 */
import type { CallOrigin, RunApi, RunRequest } from '@tool-search/kernel';
import type { RankedSearch, SearchEventResult, SearchResult } from '@tool-search/search';

export interface SearchLimitSetting {
  readonly searchDefaultLimit?: number;
  readonly maxSearchLimit?: number;
}

/**
 * The run's limits: its `searchLimits` where they are positive integers, else the mode's own; the default never
 * exceeds the maximum. A key neither gives stays absent (the search index's default applies).
 */
export function searchLimitsFor<T extends SearchLimitSetting>(own: T, request: RunRequest | undefined): T {
  const asked = request?.searchLimits;
  const max = positive(asked?.maxSearchLimit) ?? own.maxSearchLimit;
  const fallback = positive(asked?.searchDefaultLimit) ?? own.searchDefaultLimit;
  const searchDefaultLimit = fallback !== undefined && max !== undefined ? Math.min(fallback, max) : fallback;
  return {
    ...own,
    ...(max !== undefined ? { maxSearchLimit: max } : {}),
    ...(searchDefaultLimit !== undefined ? { searchDefaultLimit } : {}),
  };
}

/** Emits the run's `search` event for one search (one query, fused queries, or a batch): unique hit ids, each query's hits and weak flag. */
export function emitSearch(
  run: Pick<RunApi, 'emit'>,
  queries: readonly string[],
  ranked: RankedSearch,
  origin: CallOrigin,
  durationMs?: number,
): void {
  const each: readonly SearchResult[] = 'results' in ranked.result ? ranked.result.results : [ranked.result];
  const results: SearchEventResult[] = each.map((entry) => ({
    query: entry.query,
    hits: entry.hits.map((hit) => hit.id),
    weak: entry.weak === true || entry.hits.length === 0,
  }));
  const hits = [...new Set(each.flatMap((entry) => entry.hits.map((hit) => hit.id)))];
  const timed = durationMs !== undefined ? { durationMs } : {};
  run.emit({ type: 'search', queries: [...queries], hits, origin, results, ranker: ranked.ranker, ...timed });
}

function positive(value: number | undefined): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * Search quality in real use: per search, what each query found (hit count,
 * weak or zero-hit, the ranker); per call, where the called tool stood in the
 * run's latest search. The session summary folds them into a zero-hit rate
 * and the mean rank of called tools.
 */
import type { SearchQueryEntry, SearchRank } from '@tool-search/session-log';
import type { SearchEventResult } from './types.js';

// The logged shapes belong to the session log; re-exported here, where the rest of search quality lives.
export type { SearchQueryEntry, SearchRank };

export function searchQueries(results: readonly SearchEventResult[]): SearchQueryEntry[] {
  return results.map((result) => ({
    query: result.query,
    hitCount: result.hits.length,
    hits: [...result.hits],
    weak: result.weak,
    zeroHit: result.hits.length === 0,
  }));
}

/** The best rank of `toolId` over the queries of the latest search (`undefined`: the run has not searched). */
export function searchRank(latest: readonly SearchEventResult[] | undefined, toolId: string): SearchRank {
  if (!latest) return 'not searched';
  let best = 0;
  for (const result of latest) {
    const at = result.hits.indexOf(toolId);
    if (at >= 0 && (best === 0 || at + 1 < best)) best = at + 1;
  }
  return best === 0 ? 'not in results' : best;
}

export interface SearchQualitySummary {
  /** Queries searched (a batch search counts each of its queries). */
  readonly queries: number;
  /** Share of queries with no hit at all (`null` before the first search). */
  readonly zeroHitRate: number | null;
  /** Share of queries whose hits were all weak partial matches. */
  readonly weakRate: number | null;
  /** Mean rank of called tools that the latest search had found (`null` when none). */
  readonly meanCalledRank: number | null;
  /** Calls of a tool the latest search had found, had not found, and calls with no search before them. */
  readonly calledFound: number;
  readonly calledNotInResults: number;
  readonly calledNotSearched: number;
}

export class SearchQualityFold {
  private queries = 0;
  private zero = 0;
  private weak = 0;
  private rankSum = 0;
  private found = 0;
  private missed = 0;
  private unsearched = 0;

  addSearch(queries: readonly Pick<SearchQueryEntry, 'zeroHit' | 'weak'>[]): void {
    for (const query of queries) {
      this.queries++;
      if (query.zeroHit) this.zero++;
      else if (query.weak) this.weak++;
    }
  }

  addCall(rank: SearchRank | undefined): void {
    if (typeof rank === 'number') {
      this.found++;
      this.rankSum += rank;
    } else if (rank === 'not in results') this.missed++;
    else if (rank === 'not searched') this.unsearched++;
  }

  summary(): SearchQualitySummary {
    const rate = (count: number): number | null => (this.queries === 0 ? null : count / this.queries);
    return {
      queries: this.queries,
      zeroHitRate: rate(this.zero),
      weakRate: rate(this.weak),
      meanCalledRank: this.found === 0 ? null : this.rankSum / this.found,
      calledFound: this.found,
      calledNotInResults: this.missed,
      calledNotSearched: this.unsearched,
    };
  }
}

/**
 * Logged searches followed by a call, as an eval set: the called tool is
 * what the user meant by the query that preceded it. Per run, in log order,
 * each tool call is paired with the run's latest search: the query whose hits
 * held the tool (best rank), or the search's only query when none did (a
 * miss worth measuring). A batch search that missed the tool is skipped
 * (which of its queries meant it is unknowable). Blocked calls are skipped.
 */
import type { SessionLogEntry } from '@tool-search/session-log';

export interface LoggedEvalQuery {
  readonly query: string;
  /** Tool ids called after this query (in the run that searched it). */
  readonly relevant: readonly string[];
}

export function evalSetFromLog(entries: Iterable<SessionLogEntry>): LoggedEvalQuery[] {
  const collector = new EvalSetCollector();
  for (const entry of entries) collector.add(entry);
  return collector.queries();
}

/** `evalSetFromLog` one entry at a time, for a log read as a stream (no array of its entries is kept). */
export class EvalSetCollector {
  readonly #latest = new Map<string, readonly { readonly query: string; readonly hits: readonly string[] }[]>();
  readonly #out = new Map<string, { query: string; relevant: Set<string> }>();

  add(entry: SessionLogEntry): void {
    if (entry.type === 'search') {
      this.#latest.set(
        entry.runId,
        entry.results ?? (entry.queries.length === 1 ? [{ query: entry.queries[0]!, hits: entry.hits }] : []),
      );
    } else if (entry.type === 'tool-call' && entry.status !== 'blocked') {
      const search = this.#latest.get(entry.runId);
      const query = search && pickQuery(search, entry.toolId);
      if (!query) return;
      const key = `${entry.runId}\u0000${query}`;
      let found = this.#out.get(key);
      if (!found) this.#out.set(key, (found = { query, relevant: new Set() }));
      found.relevant.add(entry.toolId);
    }
  }

  /** The queries so far, in the order their first call came. */
  queries(): LoggedEvalQuery[] {
    return Array.from(this.#out.values(), (q) => ({ query: q.query, relevant: Array.from(q.relevant) }));
  }
}

function pickQuery(
  search: readonly { readonly query: string; readonly hits: readonly string[] }[],
  toolId: string,
): string | undefined {
  let best: { query: string; rank: number } | undefined;
  for (const result of search) {
    const rank = result.hits.indexOf(toolId);
    if (rank >= 0 && (!best || rank < best.rank)) best = { query: result.query, rank };
  }
  if (best) return best.query;
  return search.length === 1 ? search[0]!.query : undefined;
}

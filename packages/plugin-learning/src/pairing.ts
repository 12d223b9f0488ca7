/**
 * Which search a call answers: per run, in order, each tool call is paired
 * with the run's latest search (as telemetry's `evalSetFromLog` pairs them):
 * the query whose hits held the tool (best rank), or the search's only query
 * when none did (the user found the tool another way: the strongest lesson).
 * A batch search that missed the tool teaches nothing (which of its queries
 * meant it is unknowable); one search credits a tool once, however often it
 * is called after it. The live plugin and `tool-search eval --from-logs` both
 * pair through this class.
 */

export interface SearchedQuery {
  readonly query: string;
  /** Ranked hit ids. */
  readonly hits: readonly string[];
}

export interface PairedCall {
  readonly query: string;
  /** 1-based rank of the tool in that query's hits, or null when the search had not found it. */
  readonly rank: number | null;
}

/** Runs remembered at once (the oldest are forgotten first): a bound whatever the traffic. */
const MAX_RUNS = 10_000;

export class SearchCallPairer {
  readonly #latest = new Map<string, { readonly results: readonly SearchedQuery[]; readonly credited: Set<string> }>();

  /** A search of `runId` (its queries in order, each with its ranked hits). */
  search(runId: string, results: readonly SearchedQuery[]): void {
    this.#latest.delete(runId);
    this.#latest.set(runId, { results, credited: new Set() });
    if (this.#latest.size > MAX_RUNS) this.#latest.delete(this.#latest.keys().next().value!);
  }

  /** A call of `toolId` in `runId`: the query it answers, or undefined (no search before it, or already credited). */
  call(runId: string, toolId: string): PairedCall | undefined {
    const latest = this.#latest.get(runId);
    if (!latest || latest.credited.has(toolId)) return undefined;
    let best: PairedCall | undefined;
    for (const result of latest.results) {
      const at = result.hits.indexOf(toolId);
      if (at >= 0 && (!best || at + 1 < best.rank!)) best = { query: result.query, rank: at + 1 };
    }
    if (!best && latest.results.length === 1) best = { query: latest.results[0]!.query, rank: null };
    if (best) latest.credited.add(toolId);
    return best;
  }

  endRun(runId: string): void {
    this.#latest.delete(runId);
  }
}

/**
 * Retrieval metrics over any ranker with the `ToolIndex.search` shape:
 * Recall@1/5/10 (share of a query's relevant tools in the top k), Hit@1/5
 * (at least one in the top k), MRR@k (1/rank of the first relevant tool).
 */
import type { EvalQuery } from './datasets.js';

/** The part of `ToolIndex` evaluation needs; the plain-BM25 baseline implements it too. */
export interface Retriever {
  search(query: string, options?: { limit?: number }): { readonly hits: readonly { readonly id: string }[] };
}

export interface Metrics {
  readonly recallAt1: number;
  readonly recallAt5: number;
  readonly recallAt10: number;
  readonly hitAt1: number;
  readonly hitAt5: number;
  readonly mrr: number;
}

export interface QueryOutcome {
  readonly query: string;
  readonly relevant: readonly string[];
  readonly ranked: readonly string[];
}

export interface Evaluation {
  readonly metrics: Metrics;
  readonly queries: readonly QueryOutcome[];
}

export function evaluate(index: Retriever, queries: readonly EvalQuery[], options: { k?: number } = {}): Evaluation {
  const k = Math.max(options.k ?? 10, 10);
  const outcomes = queries.map((q) => ({
    query: q.query,
    relevant: q.relevant,
    ranked: index.search(q.query, { limit: k }).hits.map((hit) => hit.id),
  }));
  const mean = (score: (o: QueryOutcome) => number): number =>
    outcomes.length === 0 ? 0 : round(outcomes.reduce((sum, o) => sum + score(o), 0) / outcomes.length);
  return {
    metrics: {
      recallAt1: mean((o) => recall(o, 1)),
      recallAt5: mean((o) => recall(o, 5)),
      recallAt10: mean((o) => recall(o, 10)),
      hitAt1: mean((o) => (recall(o, 1) > 0 ? 1 : 0)),
      hitAt5: mean((o) => (recall(o, 5) > 0 ? 1 : 0)),
      mrr: mean((o) => {
        const rank = o.ranked.slice(0, k).findIndex((id) => o.relevant.includes(id));
        return rank < 0 ? 0 : 1 / (rank + 1);
      }),
    },
    queries: outcomes,
  };
}

function recall(outcome: QueryOutcome, k: number): number {
  const relevant = new Set(outcome.relevant);
  if (relevant.size === 0) return 0;
  return outcome.ranked.slice(0, k).filter((id) => relevant.has(id)).length / relevant.size;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/**
 * Search quality on the shared query sets: this repo's ranking and plain
 * BM25 over the same descriptors and queries, in the same run. The index is
 * built exactly as `tool-search eval` builds it, so both print the same numbers.
 */
import {
  createPlainBm25,
  createToolIndex,
  evaluate,
  loadSnapshot,
  splitDev,
  type EvalQuery,
  type Metrics,
  type SnapshotName,
} from '@tool-search/search';
import { hasData, sampleSnapshot, type EvalSample } from './catalogs.js';

export interface QualityRow {
  readonly dataset: SnapshotName;
  /** mcp-catalog only: the tuning part or the fixed held-out fifth (never tuned on); absent = all queries. */
  readonly split?: 'tune' | 'held-out';
  readonly description: string;
  readonly tools: number;
  readonly queries: number;
  readonly ours: Metrics;
  readonly bm25: Metrics;
}

const DATASETS: readonly { name: SnapshotName; files: string[]; description: string }[] = [
  {
    name: 'mcp-catalog',
    files: ['mcp-catalog.json', 'mcp-catalog-queries.json'],
    description: 'natural-language task queries over the real MCP catalog',
  },
  {
    name: 'livemcpbench',
    files: ['livemcpbench-retrieval.json'],
    description: 'LiveMCPBench tasks (human-annotated tools)',
  },
  {
    name: 'toolbench',
    files: ['toolbench-stable-retrieval.json'],
    description: 'StableToolBench test queries (pooled 2.5k APIs; easier than published ToolBench)',
  },
];

/** Index options of an evaluation, as `tool-search eval` sets them: no response byte cap, so the cap never hides a rank. */
export const EVAL_INDEX_OPTIONS = { maxResponseBytes: 1 << 20, maxSearchLimit: 100 } as const;

export function measureQuality(dataDir: string, only?: readonly SnapshotName[], sample?: EvalSample): QualityRow[] {
  const rows: QualityRow[] = [];
  for (const dataset of DATASETS) {
    if (only && !only.includes(dataset.name)) continue;
    if (!hasData(dataDir, ...dataset.files)) continue;
    const snapshot = sampleSnapshot(loadSnapshot(dataDir, dataset.name), sample);
    const index = createToolIndex(snapshot.descriptors, EVAL_INDEX_OPTIONS);
    const plain = createPlainBm25(snapshot.descriptors);
    const row = (queries: readonly EvalQuery[], split?: QualityRow['split']): QualityRow => ({
      dataset: dataset.name,
      ...(split ? { split } : {}),
      description: dataset.description,
      tools: snapshot.descriptors.length,
      queries: queries.length,
      ours: evaluate(index, queries, { k: 10 }).metrics,
      bm25: evaluate(plain, queries, { k: 10 }).metrics,
    });
    rows.push(row(snapshot.queries));
    if (dataset.name === 'mcp-catalog') {
      const { tune, heldOut } = splitDev(snapshot.queries);
      rows.push(row(tune, 'tune'), row(heldOut, 'held-out'));
    }
  }
  return rows;
}

/**
 * The ranking before search phase 2 (BENCHMARKS.md of 2026-11-30, same data and metrics): "no loss" on the
 * held-out benchmark sets is checked against these.
 */
export const PREVIOUS_RANKING: Readonly<
  Partial<Record<SnapshotName, { readonly hitAt5: number; readonly mrr: number; readonly recallAt5: number }>>
> = {
  livemcpbench: { hitAt5: 0.649, mrr: 0.453, recallAt5: 0.402 },
  toolbench: { hitAt5: 0.888, mrr: 0.764, recallAt5: 0.718 },
};

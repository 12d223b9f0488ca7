/**
 * Search quality on the shared query sets: this repo's ranking and plain
 * BM25 over the same descriptors and queries, in the same run. The index is
 * built exactly as `tool-search eval` builds it, so both print the same numbers.
 */
import { createPlainBm25, createToolIndex, evaluate, loadSnapshot, type Metrics, type SnapshotName } from '@tool-search/search';
import { hasData } from './catalogs.js';

export interface QualityRow {
  readonly dataset: SnapshotName;
  readonly description: string;
  readonly tools: number;
  readonly queries: number;
  readonly ours: Metrics;
  readonly bm25: Metrics;
}

const DATASETS: readonly { name: SnapshotName; files: string[]; description: string }[] = [
  { name: 'mcp-catalog', files: ['mcp-catalog.json', 'mcp-catalog-queries.json'], description: 'natural-language task queries over the real MCP catalog' },
  { name: 'livemcpbench', files: ['livemcpbench-retrieval.json'], description: 'LiveMCPBench tasks (human-annotated tools)' },
  { name: 'toolbench', files: ['toolbench-stable-retrieval.json'], description: 'StableToolBench test queries (pooled 2.5k APIs; easier than published ToolBench)' },
];

/** Index options of an evaluation, as `tool-search eval` sets them: no response byte cap, so the cap never hides a rank. */
export const EVAL_INDEX_OPTIONS = { maxResponseBytes: 1 << 20, maxSearchLimit: 100 } as const;

export function measureQuality(dataDir: string, only?: readonly SnapshotName[]): QualityRow[] {
  const rows: QualityRow[] = [];
  for (const dataset of DATASETS) {
    if (only && !only.includes(dataset.name)) continue;
    if (!hasData(dataDir, ...dataset.files)) continue;
    const snapshot = loadSnapshot(dataDir, dataset.name);
    const ours = evaluate(createToolIndex(snapshot.descriptors, EVAL_INDEX_OPTIONS), snapshot.queries, { k: 10 });
    const bm25 = evaluate(createPlainBm25(snapshot.descriptors), snapshot.queries, { k: 10 });
    rows.push({
      dataset: dataset.name,
      description: dataset.description,
      tools: snapshot.descriptors.length,
      queries: snapshot.queries.length,
      ours: ours.metrics,
      bm25: bm25.metrics,
    });
  }
  return rows;
}

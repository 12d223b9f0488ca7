/**
 * Hybrid ranking measured: lexical, dense and fused (RRF) side by side on the
 * shared query sets, with embeddings from `mock-openai`'s `/v1/embeddings`
 * over real HTTP through the official client (no hosted embedder is reachable
 * here). The mock's vectors are feature hashing of words and trigrams, so
 * "dense" here is a second lexical signal, not a semantic one: this measures
 * the machinery (batching, cache, fusion) and what RRF does with two
 * rankings, not what a real embedding model would add.
 */
import { startMockOpenAI } from '@tool-search/mock-openai';
import { compareRankings, type RankingComparison } from '@tool-search/plugin-embeddings';
import { loadSnapshot, splitDev, type EvalQuery, type SnapshotName } from '@tool-search/search';
import { hasData, sampleSnapshot, type EvalSample } from './catalogs.js';
import { EVAL_INDEX_OPTIONS } from './quality.js';
import { msSince } from './stats.js';

export interface HybridRow extends RankingComparison {
  readonly dataset: string;
  readonly queries: number;
  /** Embedding the catalog through HTTP, batches of 64 (ms). */
  readonly embedMs: number;
}

const SETS: readonly { name: SnapshotName; file: string }[] = [
  { name: 'mcp-catalog', file: 'mcp-catalog-queries.json' },
  { name: 'livemcpbench', file: 'livemcpbench-retrieval.json' },
  { name: 'toolbench', file: 'toolbench-stable-retrieval.json' },
];

export async function measureHybrid(
  dataDir: string,
  only?: readonly SnapshotName[],
  sample?: EvalSample,
): Promise<HybridRow[]> {
  const mock = await startMockOpenAI();
  const rows: HybridRow[] = [];
  try {
    for (const set of SETS) {
      if ((only && !only.includes(set.name)) || !hasData(dataDir, set.file)) continue;
      const snapshot = sampleSnapshot(loadSnapshot(dataDir, set.name), sample);
      const options = { baseURL: mock.url, model: 'mock-embedding' };
      const subsets: Record<string, readonly EvalQuery[]> =
        set.name === 'mcp-catalog' ? { 'held-out': splitDev(snapshot.queries).heldOut } : {};
      const start = process.hrtime.bigint();
      const result = await compareRankings(snapshot.descriptors, snapshot.queries, options, {
        indexOptions: EVAL_INDEX_OPTIONS,
        subsets,
      });
      const embedMs = msSince(start);
      rows.push({
        dataset: set.name,
        queries: snapshot.queries.length,
        embedMs,
        model: result.model,
        lexical: result.lexical,
        dense: result.dense,
        fused: result.fused,
      });
      for (const [name, subset] of Object.entries(result.subsets)) {
        rows.push({ dataset: `${set.name} (${name})`, queries: subsets[name]!.length, embedMs: 0, ...subset });
      }
    }
  } finally {
    await mock.close();
  }
  return rows;
}

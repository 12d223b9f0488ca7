/**
 * Search latency: index build time and retained heap for growing fake
 * catalogs, then per-query latency (p50, p99) on the built index. The index
 * builds on its first search, so "build" is `createToolIndex` + one query.
 */
import { deepFreeze } from '@tool-search/kernel';
import { createToolIndex, isIndexBuilt, prepareIndex, type ToolIndex } from '@tool-search/search';
import { fakeDescriptors, LATENCY_QUERIES } from './catalogs.js';
import { collectGarbage, median, msSince, percentile } from './stats.js';

export interface LatencyRow {
  readonly tools: number;
  readonly buildRuns: number;
  readonly buildMsMedian: number;
  /**
   * Build over the same frozen descriptors again: what a new run over an unchanged catalog pays (the kernel
   * hands out the same frozen descriptor objects run after run, and the index caches per-descriptor terms).
   */
  readonly rebuildMsMedian: number;
  /** Heap retained by the built index, MiB (undefined without --expose-gc). */
  readonly heapMiB?: number;
  /** Memory held by the built index: heap + external (which counts its typed arrays' ArrayBuffers), MiB. */
  readonly memoryMiB?: number;
  /** Of which ArrayBuffers (the postings), MiB. */
  readonly arrayBuffersMiB?: number;
  /**
   * New catalogs (fresh descriptor objects) indexed the way a deployment does it (`prepareIndex` when the run is
   * materialized, the build off the request path), then searched: the first search's median, and the p99 of all
   * searches with those first ones included.
   */
  readonly firstQueryMsMedian: number;
  readonly queryMsP99WithFirst: number;
  readonly queries: number;
  readonly queryMsP50: number;
  readonly queryMsP99: number;
}

export interface LatencyOptions {
  readonly buildRuns: number;
  readonly queryRounds: number;
  /** Extra queries (e.g. the shared task queries) mixed with the built-in phrasings. */
  readonly extraQueries?: readonly string[];
}

export async function measureLatency(total: number, options: LatencyOptions): Promise<LatencyRow> {
  const descriptors = fakeDescriptors(total);
  const builds: number[] = [];
  let index: ToolIndex | undefined;
  let heapMiB: number | undefined;
  let memoryMiB: number | undefined;
  let arrayBuffersMiB: number | undefined;
  for (let i = 0; i < options.buildRuns; i++) {
    index = undefined;
    const gc = collectGarbage();
    const before = process.memoryUsage();
    const start = process.hrtime.bigint();
    index = createToolIndex(descriptors);
    index.search('warm up the index');
    builds.push(msSince(start));
    if (gc && collectGarbage()) {
      const after = process.memoryUsage();
      heapMiB = (after.heapUsed - before.heapUsed) / 1024 ** 2;
      memoryMiB = (after.heapUsed + after.external - before.heapUsed - before.external) / 1024 ** 2;
      arrayBuffersMiB = (after.arrayBuffers - before.arrayBuffers) / 1024 ** 2;
    }
  }
  const frozen = descriptors.map((tool) => deepFreeze(structuredClone(tool)));
  createToolIndex(frozen).search('fill the per-descriptor cache');
  const rebuilds: number[] = [];
  for (let i = 0; i < options.buildRuns; i++) {
    const start = process.hrtime.bigint();
    createToolIndex(frozen).search('warm up the index');
    rebuilds.push(msSince(start));
  }
  const queries = [...LATENCY_QUERIES, ...(options.extraQueries ?? [])];
  const samples: number[] = [];
  for (let round = 0; round < options.queryRounds; round++) {
    for (const query of queries) {
      const start = process.hrtime.bigint();
      index!.search(query);
      samples.push(msSince(start));
    }
  }
  // First searches over new catalogs, each prepared as a mode does when it materializes the run.
  const firsts: number[] = [];
  for (let i = 0; i < options.buildRuns; i++) {
    const run = { catalog: descriptors.map((tool) => ({ ...tool })) };
    prepareIndex(run);
    const deadline = Date.now() + 120_000;
    while (!isIndexBuilt(run) && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
    const start = process.hrtime.bigint();
    prepareIndex(run).search(queries[i % queries.length]!);
    firsts.push(msSince(start));
  }
  return {
    tools: total,
    firstQueryMsMedian: median(firsts),
    queryMsP99WithFirst: percentile([...samples, ...firsts], 99),
    ...(memoryMiB !== undefined ? { memoryMiB } : {}),
    ...(arrayBuffersMiB !== undefined ? { arrayBuffersMiB } : {}),
    buildRuns: builds.length,
    buildMsMedian: median(builds),
    rebuildMsMedian: median(rebuilds),
    ...(heapMiB !== undefined ? { heapMiB } : {}),
    queries: samples.length,
    queryMsP50: percentile(samples, 50),
    queryMsP99: percentile(samples, 99),
  };
}

/**
 * Search latency: index build time and retained heap for growing fake
 * catalogs, then per-query latency (p50, p99) on the built index. The index
 * builds on its first search, so "build" is `createToolIndex` + one query.
 */
import { deepFreeze } from '@tool-search/kernel';
import { createToolIndex, type ToolIndex } from '@tool-search/search';
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

export function measureLatency(total: number, options: LatencyOptions): LatencyRow {
  const descriptors = fakeDescriptors(total);
  const builds: number[] = [];
  let index: ToolIndex | undefined;
  let heapMiB: number | undefined;
  for (let i = 0; i < options.buildRuns; i++) {
    index = undefined;
    const gc = collectGarbage();
    const before = process.memoryUsage().heapUsed;
    const start = process.hrtime.bigint();
    index = createToolIndex(descriptors);
    index.search('warm up the index');
    builds.push(msSince(start));
    if (gc && collectGarbage()) heapMiB = (process.memoryUsage().heapUsed - before) / 1024 ** 2;
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
  return {
    tools: total,
    buildRuns: builds.length,
    buildMsMedian: median(builds),
    rebuildMsMedian: median(rebuilds),
    ...(heapMiB !== undefined ? { heapMiB } : {}),
    queries: samples.length,
    queryMsP50: percentile(samples, 50),
    queryMsP99: percentile(samples, 99),
  };
}

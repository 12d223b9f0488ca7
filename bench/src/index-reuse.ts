/**
 * Index reuse across runs: a fake catalog listed through a real kernel, one
 * run that builds the index, then new runs over the unchanged catalog (the
 * kernel hands them the same frozen descriptors) and runs with a narrower
 * policy. Measured: `indexForRun(run)` plus its first search, per new run;
 * the kernel's own `createRun` is shown apart. The reused results are
 * compared with a fresh build over copies of the descriptors.
 */
import { createKernel, type KernelPlugin, type ToolDefinition, type ToolDescriptor } from '@tool-search/kernel';
import { createToolIndex, indexBuildCount, indexForRun } from '@tool-search/search';
import { fakeDescriptors, LATENCY_QUERIES } from './catalogs.js';
import { median, msSince } from './stats.js';

export interface ReuseResult {
  readonly tools: number;
  readonly runs: number;
  /** The first run: builds the index. */
  readonly firstMs: number;
  /** New runs over the unchanged catalog, same policy (median). */
  readonly reuseMs: number;
  /** New runs with a narrower policy (every tenth tool hidden), same index (median). */
  readonly restrictedMs: number;
  /** `kernel.createRun` itself (median), for context: listing, validation and policy, not the index. */
  readonly createRunMs: number;
  /** Index builds during the new runs (0 = every one reused the first run's index). */
  readonly rebuilds: number;
  /** The reused index answered every latency query exactly like a fresh build over copied descriptors. */
  readonly identical: boolean;
  /** The restricted runs never returned a hidden tool. */
  readonly hiddenNeverShown: boolean;
}

const QUERY = 'read a file';

export async function measureIndexReuse(total: number, runs: number): Promise<ReuseResult> {
  const definitions: ToolDefinition[] = fakeDescriptors(total).map(
    ({ id: _id, catalogMode: _mode, ...definition }) => definition,
  );
  const source: KernelPlugin = {
    name: 'bench-catalog',
    apply: ({ hooks }) => hooks.listTools.tap((sink) => sink.add(definitions)),
  };
  const policy: KernelPlugin = {
    name: 'bench-policy',
    apply: ({ hooks }) =>
      hooks.filterPolicy.tap((tools: readonly ToolDescriptor[], ctx) =>
        ctx.run.request.agentId === 'restricted' ? tools.filter((_, i) => i % 10 !== 0) : tools,
      ),
  };
  const kernel = createKernel({ plugins: [source, policy] });
  const first = await kernel.createRun({ agentId: 'open' });
  const firstStart = process.hrtime.bigint();
  indexForRun(first).search(QUERY);
  const firstMs = msSince(firstStart);
  const builds = indexBuildCount();
  const createRun: number[] = [];
  const reuse: number[] = [];
  const restricted: number[] = [];
  let hiddenNeverShown = true;
  for (let i = 0; i < runs; i++) {
    for (const agentId of ['open', 'restricted']) {
      const created = process.hrtime.bigint();
      const run = await kernel.createRun({ agentId });
      createRun.push(msSince(created));
      const start = process.hrtime.bigint();
      const index = indexForRun(run);
      index.search(QUERY);
      (agentId === 'open' ? reuse : restricted).push(msSince(start));
      if (agentId === 'restricted') {
        const visible = new Set(run.catalog.map((tool) => tool.id));
        hiddenNeverShown &&= LATENCY_QUERIES.every((query) =>
          index.search(query).hits.every((hit) => visible.has(hit.id)),
        );
      }
      await run.close();
    }
  }
  const rebuilds = indexBuildCount() - builds;
  const reused = indexForRun(first);
  const fresh = createToolIndex(first.catalog.map((tool) => structuredClone(tool)));
  const identical = LATENCY_QUERIES.every(
    (query) => JSON.stringify(reused.search(query)) === JSON.stringify(fresh.search(query)),
  );
  await first.close();
  return {
    tools: total,
    runs,
    firstMs,
    reuseMs: median(reuse),
    restrictedMs: median(restricted),
    createRunMs: median(createRun),
    rebuilds,
    identical,
    hiddenNeverShown,
  };
}

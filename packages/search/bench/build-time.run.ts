/**
 * Index build time at ~11,000 tools (the real MCP catalog ×3), through a real
 * kernel so descriptors are deep-frozen and reused across runs as in
 * production. Prints, not asserts (no timing assertions anywhere):
 * `npx vitest run --config bench/vitest.config.ts`. Cold = the first build in
 * the process (JIT cold, term cache empty); warm = a new run over the same
 * descriptors (term cache hit); fresh = new, unfrozen descriptor objects (no
 * cache, JIT warm). Build = `indexForRun` + the first search.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { it } from 'vitest';
import { createKernel, type KernelPlugin, type ToolDefinition } from '@tool-search/kernel';
import { createToolIndex, indexForRun, loadSnapshot } from '../src/index.js';

const dataDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'shared', 'data');
const RUNS = 9;

function copies(times: number): ToolDefinition[] {
  const tools = loadSnapshot(dataDir, 'mcp-catalog').descriptors;
  const out: ToolDefinition[] = [];
  for (let c = 0; c < times; c++) {
    for (const tool of tools) {
      out.push({ name: tool.name, source: 'mcp', owner: c === 0 ? tool.owner : `${tool.owner}-${c}`, description: tool.description, inputSchema: tool.inputSchema });
    }
  }
  return out;
}

function ms(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

it.skipIf(!existsSync(path.join(dataDir, 'mcp-catalog.json')))('index build time, real catalog ×3', { timeout: 300_000 }, async () => {
  const definitions = copies(3);
  const source: KernelPlugin = { name: 'bench-catalog', apply: (api) => api.hooks.listTools.tap((sink) => sink.add(definitions)) };
  const kernel = createKernel({ plugins: [source] });
  const request = { agentId: 'bench', provider: 'openai', model: 'bench', sessionId: 'bench', sandboxed: true } as const;
  const runs: Awaited<ReturnType<typeof kernel.createRun>>[] = [];
  for (let i = 0; i <= RUNS; i++) runs.push(await kernel.createRun({ ...request, sessionId: `bench-${i}` }));
  const cold = ms(() => indexForRun(runs[0]!).search('read a file'));
  const warm = runs.slice(1).map((run) => ms(() => indexForRun(run).search('read a file')));
  const fresh = Array.from({ length: RUNS }, () => {
    const tools = runs[0]!.catalog.map((tool) => ({ ...tool }));
    return ms(() => createToolIndex(tools).search('read a file'));
  });
  console.log(
    `\n${runs[0]!.catalog.length} tools: cold ${cold.toFixed(0)} ms, warm (same descriptors) median ${median(warm).toFixed(0)} ms, ` +
      `fresh descriptors median ${median(fresh).toFixed(0)} ms`,
  );
  for (const run of runs) await run.close();
  await kernel.close();
});

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createToolIndex, evaluate, loadSnapshot } from '@tool-search/search';
import { EVAL_INDEX_OPTIONS } from '../src/commands/eval-run.js';
import { cli, folder, smallCatalog } from './helpers.js';

const QUERIES = [
  { query: 'read a text file from the workspace', relevant: ['core:core:read'] },
  { query: 'run a shell command', relevant: ['core:core:exec', 'core:core:bash'] },
  { query: 'fetch a web page and extract its text', relevant: ['core:core:web_fetch'] },
];

const toPairs = (queries: typeof QUERIES) =>
  queries.map((q) => ({ ...q, relevant: q.relevant.map((id) => id.replace(/^core:core:/, 'core::')) }));

interface EvalJson {
  metrics: Record<string, number>;
  queries: { query: string; relevant: string[]; ranked: string[] }[];
}

describe('tool-search eval', () => {
  it('prints { metrics, queries } with kernel ids for the live catalog', async () => {
    const cwd = smallCatalog(20);
    writeFileSync(join(cwd, 'q.json'), JSON.stringify(QUERIES));
    const { code, stdout } = await cli(['eval', '--queries', 'q.json', '--json'], cwd);
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as EvalJson;
    expect(Object.keys(out)).toEqual(['metrics', 'queries']);
    expect(Object.keys(out.metrics)).toEqual(['recallAt1', 'recallAt5', 'recallAt10', 'mrr']);
    expect(out.queries.map((q) => Object.keys(q))).toEqual(QUERIES.map(() => ['query', 'relevant', 'ranked']));
    expect(out.queries[0]!.ranked).toHaveLength(10);
    expect(out.queries[0]!.ranked.every((id) => /^(core|plugin):[^:]+:[^:]+$/.test(id))).toBe(true);
    expect(out.metrics.recallAt10).toBeGreaterThan(0);
  });

  it('shows --limit ranked ids per query', async () => {
    const cwd = smallCatalog(20);
    writeFileSync(join(cwd, 'q.json'), JSON.stringify(QUERIES));
    const out = JSON.parse((await cli(['eval', '-q', 'q.json', '--limit', '3', '--json'], cwd)).stdout) as EvalJson;
    expect(out.queries.map((q) => q.ranked.length)).toEqual([3, 3, 3]);
  });

  it('prints metrics, misses and ranked ids as text', async () => {
    const cwd = smallCatalog(20);
    writeFileSync(join(cwd, 'q.json'), JSON.stringify(QUERIES));
    const { code, stdout } = await cli(['eval', '--queries', 'q.json'], cwd);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Recall@1 [\d.]+ {2}Recall@5 [\d.]+ {2}Recall@10 [\d.]+ {2}MRR [\d.]+/);
    expect(stdout).toContain('Misses');
    expect(stdout).toContain('core:core:read');
  });

  it('evaluates a snapshot written by tools export --full with server::tool ids, as the live catalog ranks', async () => {
    const cwd = smallCatalog(20);
    const exported = await cli(['tools', 'export', '--full', '--json'], cwd);
    expect(exported.code).toBe(0);
    writeFileSync(join(cwd, 'catalog.json'), exported.stdout);
    writeFileSync(join(cwd, 'q.json'), JSON.stringify(toPairs(QUERIES)));
    writeFileSync(join(cwd, 'live.json'), JSON.stringify(QUERIES));
    const offline = JSON.parse(
      (await cli(['eval', '--catalog', 'catalog.json', '--queries', 'q.json', '--json'], cwd)).stdout,
    ) as EvalJson;
    const live = JSON.parse((await cli(['eval', '--queries', 'live.json', '--json'], cwd)).stdout) as EvalJson;
    expect(offline.queries[0]!.ranked.every((id) => id.includes('::'))).toBe(true);
    expect(offline.metrics.recallAt10).toBe(live.metrics.recallAt10);
  });

  it('writes the export to a file with --out', async () => {
    const cwd = smallCatalog(5);
    const { code } = await cli(['tools', 'export', '--full', '--out', 'snap.json'], cwd);
    expect(code).toBe(0);
    const snapshot = JSON.parse(readFileSync(join(cwd, 'snap.json'), 'utf8')) as {
      tools: { id: string; inputSchema: unknown }[];
    };
    expect(snapshot.tools.find((tool) => tool.id === 'core::read')?.inputSchema).toMatchObject({ required: ['path'] });
  });

  it('rejects a query file that is not a list of { query, relevant } (exit 1)', async () => {
    const cwd = folder({ 'q.json': JSON.stringify({ query: 'x' }) });
    expect((await cli(['eval', '--queries', 'q.json'], cwd)).code).toBe(1);
  });

  it('rejects --catalog together with --config (exit 1)', async () => {
    const cwd = smallCatalog(5);
    writeFileSync(join(cwd, 'q.json'), JSON.stringify(QUERIES));
    const { code } = await cli(
      ['eval', '--queries', 'q.json', '--catalog', 'c.json', '--config', 'tool-search.json'],
      cwd,
    );
    expect(code).toBe(1);
  });

  it('rejects an unreadable snapshot with SNAPSHOT_INVALID (exit 1)', async () => {
    const cwd = folder({ 'q.json': JSON.stringify(toPairs(QUERIES)), 'c.json': '{ "servers": [] }' });
    const { code, stderr } = await cli(['eval', '--queries', 'q.json', '--catalog', 'c.json'], cwd);
    expect(code).toBe(1);
    expect(stderr).toContain('SNAPSHOT_INVALID');
  });
});

const dataDir = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../../shared/data');

/** The shared sets that load as snapshots, with their queries converted to `{ query, relevant }`. */
const SHARED = [
  {
    name: 'mcp-catalog' as const,
    catalog: 'mcp-catalog.json',
    queries: () =>
      (
        JSON.parse(readFileSync(join(dataDir, 'mcp-catalog-queries.json'), 'utf8')) as {
          queries: { query: string; labels: { id: string }[] }[];
        }
      ).queries.map((q) => ({
        query: q.query,
        relevant: q.labels.map((l) => l.id),
      })),
  },
  {
    name: 'livemcpbench' as const,
    catalog: 'livemcpbench-retrieval.json',
    queries: () =>
      (
        JSON.parse(readFileSync(join(dataDir, 'livemcpbench-retrieval.json'), 'utf8')) as {
          queries: { query: string; relevant_ids: string[] }[];
        }
      ).queries.map((q) => ({
        query: q.query,
        relevant: q.relevant_ids,
      })),
  },
];

if (!existsSync(join(dataDir, 'mcp-catalog-queries.json')))
  console.warn(
    `skipping eval on shared/data: ${dataDir}/mcp-catalog-queries.json is missing (the public tool-retrieval data set — 3,675 real MCP tool definitions and labeled queries — is not in this repository: put it at ../shared/data beside the checkout; see "Shared data" in the root README)`,
  );
describe.skipIf(!existsSync(join(dataDir, 'mcp-catalog-queries.json')))('tool-search eval on shared/data', () => {
  for (const set of SHARED) {
    it(`prints the benchmark numbers for ${set.name}`, async () => {
      const cwd = folder({ 'q.json': JSON.stringify(set.queries()) });
      const { code, stdout } = await cli(
        ['eval', '--catalog', join(dataDir, set.catalog), '--queries', 'q.json', '--json'],
        cwd,
      );
      expect(code).toBe(0);
      // What `npm run bench` computes (bench/src/quality.ts): the same snapshot, index options and metrics.
      const snapshot = loadSnapshot(dataDir, set.name);
      const bench = evaluate(createToolIndex(snapshot.descriptors, EVAL_INDEX_OPTIONS), snapshot.queries, {
        k: 10,
      }).metrics;
      const { metrics } = JSON.parse(stdout) as EvalJson;
      expect(metrics).toEqual({
        recallAt1: bench.recallAt1,
        recallAt5: bench.recallAt5,
        recallAt10: bench.recallAt10,
        mrr: bench.mrr,
      });
    });
  }
});

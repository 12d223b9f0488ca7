/**
 * Catalogs the benches measure: the fake catalog (25 core tools plus
 * generated plugin tools, so a size counts every listed tool) and the real
 * MCP catalog snapshot in shared/data, when that folder exists.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ToolDescriptor } from '@tool-search/kernel';
import type { Snapshot } from '@tool-search/search';
import { CORE_TOOLS, FAKE_CATALOG_OWNER, generateFakeTool } from '@tool-search/plugin-fake-catalog';

/** `shared/data` next to the repo; override with TOOL_SEARCH_BENCH_DATA. */
export function defaultDataDir(): string {
  return process.env['TOOL_SEARCH_BENCH_DATA'] ?? fileURLToPath(new URL('../../../shared/data/', import.meta.url));
}

export function hasData(dataDir: string, ...files: string[]): boolean {
  return files.every((file) => existsSync(`${dataDir}/${file}`));
}

/** How much of a real catalog a quick run measures: the first `queries` queries and up to `tools` tools. */
export interface EvalSample {
  readonly queries: number;
  readonly tools: number;
}

/**
 * The same snapshot, smaller (the quick plan): its first `queries` queries, every tool those queries name as relevant,
 * and the first other tools up to `tools` in all, in catalog order. Without a sample, the snapshot as it is.
 */
export function sampleSnapshot(snapshot: Snapshot, sample?: EvalSample): Snapshot {
  if (!sample) return snapshot;
  const queries = snapshot.queries.slice(0, sample.queries);
  const needed = new Set(queries.flatMap((query) => query.relevant));
  let others = Math.max(0, sample.tools - needed.size);
  const descriptors = snapshot.descriptors.filter((tool) => needed.has(tool.id) || others-- > 0);
  return { ...snapshot, descriptors, queries };
}

/** Plugin tools to add to the 25 core tools so the catalog lists `total` tools. */
export function fakePluginCount(total: number): number {
  return Math.max(0, total - CORE_TOOLS.length);
}

/** The fake catalog's descriptors without a kernel (for index benches): same texts, same ids. */
export function fakeDescriptors(total: number): ToolDescriptor[] {
  const core = CORE_TOOLS.slice(0, total).map((spec) => descriptor(spec, 'core', 'core'));
  const plugins = Array.from({ length: fakePluginCount(total) }, (_, i) =>
    descriptor(generateFakeTool(i + 1, 1), 'plugin', FAKE_CATALOG_OWNER),
  );
  return [...core, ...plugins];
}

function descriptor(
  spec: Pick<ToolDescriptor, 'name' | 'description' | 'inputSchema' | 'annotations'>,
  source: 'core' | 'plugin',
  owner: string,
): ToolDescriptor {
  return {
    id: `${source}:${owner}:${spec.name}`,
    name: spec.name,
    source,
    owner,
    description: spec.description,
    inputSchema: spec.inputSchema,
    ...(spec.annotations ? { annotations: spec.annotations } : {}),
    catalogMode: 'catalog',
  };
}

/** Task phrasings used as queries on the fake catalog (latency only: no labels). */
export const LATENCY_QUERIES: readonly string[] = [
  'read a file',
  'send an email to the team about the release',
  'create a calendar event tomorrow at 10',
  'search the web for the latest news',
  'export tickets as csv',
  'list open pull requests',
  'deploy the service to production',
  'get the weather forecast for Oslo',
  'refund an order',
  'post a message in the support channel',
  'schedule a cron job every night',
  'find invoices that are overdue',
  'run a shell command',
  'take a screenshot of the page',
  'summarize the meeting notes',
  'add a row to the spreadsheet',
  'restart the kubernetes deployment',
  'translate this text to french',
  'upload a file to storage',
  'close solved tickets',
];

/**
 * The frameworks row's code path on the smallest shared set (LiveMCPBench, 527 tools): the AI SDK's built-in search,
 * Mastra's and Tool Search's ranker plugged into the AI SDK all answer every query through their real code, and the
 * ranker keeps its lead. Skips, saying why, without the shared data.
 */
import { describe, expect, it } from 'vitest';
import { defaultDataDir, hasData } from '../src/catalogs.js';
import { frameworksTable, measureFrameworks } from '../src/frameworks.js';

const dataDir = defaultDataDir();
const present = hasData(dataDir, 'livemcpbench-retrieval.json');
if (!present) console.warn(`skipping the frameworks benchmark test: no livemcpbench-retrieval.json in ${dataDir} (set TOOL_SEARCH_BENCH_DATA)`);

describe.skipIf(!present)('frameworks benchmark row', () => {
  it('scores the built-in searches and Tool Search plugged into the AI SDK on the same tools and queries', async () => {
    const [row] = await measureFrameworks(dataDir, ['livemcpbench']);
    expect(row).toMatchObject({ dataset: 'livemcpbench', queries: 94 });
    expect(row!.tools).toBeGreaterThan(500);
    for (const metrics of [row!.builtIn, row!.mastra, row!.toolSearch]) expect(metrics.hitAt5).toBeGreaterThan(0);
    expect(row!.toolSearch.hitAt5).toBeGreaterThan(row!.builtIn.hitAt5);
    expect(row!.toolSearch.mrr).toBeGreaterThan(row!.builtIn.mrr);
    expect(row!.toolSearch.hitAt5).toBeGreaterThan(row!.mastra.hitAt5);
    expect(frameworksTable([row!])).toContain('| livemcpbench | ');
  }, 300_000);
});

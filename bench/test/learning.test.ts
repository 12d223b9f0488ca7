/**
 * The learning simulation as a guard of the plugin's defaults: replayed calls never make the held-out queries
 * worse (all of them, and those whose tools were never called), and asking a replayed query again gains.
 * Reads ../shared/data; skips, saying why, without it.
 */
import { describe, expect, it } from 'vitest';
import { defaultDataDir, hasData } from '../src/catalogs.js';
import { measureLearning } from '../src/learning.js';

const data = process.env['TOOL_SEARCH_SHARED_DATA'] ?? defaultDataDir();
const present = hasData(data, 'mcp-catalog.json', 'mcp-catalog-queries.json', 'livemcpbench-retrieval.json');
if (!present) console.warn(`skipping the learning simulation: no shared data in ${data}`);

describe.skipIf(!present)('learning from replayed calls (default settings)', () => {
  it('loses nothing on held-out queries and gains on repeated ones', () => {
    const rows = measureLearning(data, { only: ['mcp-catalog', 'livemcpbench'] });
    expect(rows.map((row) => row.dataset)).toHaveLength(3);
    for (const row of rows) {
      for (const point of row.points) {
        for (const part of ['all', 'unrelated', 'related'] as const) {
          expect(point[part].hitAt5).toBeGreaterThanOrEqual(point.baseline[part].hitAt5);
          expect(point[part].mrr).toBeGreaterThanOrEqual(point.baseline[part].mrr);
        }
      }
      const last = row.points.at(-1)!;
      expect(last.calls).toBe(1000);
      expect(last.seen.mrr).toBeGreaterThan(last.baseline.seen.mrr);
    }
  }, 300_000);
});

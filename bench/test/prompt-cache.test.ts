import { describe, expect, it } from 'vitest';
import { measurePromptCache, promptCacheTable } from '../src/prompt-cache.js';

describe('prompt-cache bench', () => {
  it('reads the ledger of a few turns per mode: identical prefixes and the cached tokens the mock reported', async () => {
    const rows = await measurePromptCache(3, 36, ['direct', 'tools'], ['chat']);
    expect(rows.map((row) => [row.mode, row.ran, row.turns, row.failed])).toEqual([
      ['direct', 'direct', 3, undefined],
      ['tools', 'tools', 3, undefined],
    ]);
    for (const row of rows) {
      expect(row.prefixBytes).toBeGreaterThan(0);
      expect(row.prefixBytes).toBeLessThan(row.bytes);
      expect(row.previousTurnPrefixBytes).toBeGreaterThan(0);
      expect(row.cachedTokens).toBeGreaterThan(0);
      expect(row.cachedTokens).toBeLessThan(row.inputTokens);
    }
    expect(promptCacheTable(rows)).toHaveLength(4);
  });
});

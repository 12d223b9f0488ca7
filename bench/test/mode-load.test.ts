import { describe, expect, it } from 'vitest';
import { measureModeLoad, MODE_LOAD_QUICK, modeLoadSection } from '../src/mode-load.js';

describe('exposure modes under load (quick plan)', () => {
  it('runs every setup through the gateway without errors and reports the code/tools ratio', async () => {
    const result = await measureModeLoad(MODE_LOAD_QUICK);
    expect(result.rows.map((row) => [row.setup, row.turns, row.errors])).toEqual([
      ['direct', 4, 0],
      ['tools', 4, 0],
      ['code, process per run', 4, 0],
      ['code, warm pool of 2', 4, 0],
      ['code, QuickJS worker, maxConcurrent 4', 4, 0],
      ['code, QuickJS worker', 4, 0],
    ]);
    for (const row of result.rows) {
      expect(row.p99Ms).toBeGreaterThanOrEqual(row.p50Ms);
      expect(row.cpuMsPerTurn).toBeGreaterThan(0);
    }
    expect(modeLoadSection(result, '## 9').join('\n')).toMatch(/Fastest code setup \(.+\) \/ tools mode: \*\*[\d.]+×\*\* turns\/s/);
  }, 300_000);
});

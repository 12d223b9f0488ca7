import { describe, expect, it } from 'vitest';
import { controlToolsFor } from '@tool-search/control-tools';

const limitOf = (tools: ReturnType<ReturnType<typeof controlToolsFor>>) =>
  (tools[0]!.inputSchema as { properties: { limit: { maximum: number } } }).properties.limit.maximum;

describe('controlToolsFor', () => {
  const forRun = controlToolsFor({ searchDefaultLimit: 8, maxSearchLimit: 20, callHint: 'x' });

  it('uses the mode’s limits when the run names none, the run’s otherwise', () => {
    expect(limitOf(forRun({}))).toBe(20);
    expect(limitOf(forRun({ searchLimits: { maxSearchLimit: 5 } }))).toBe(5);
    expect(limitOf(forRun({ searchLimits: { maxSearchLimit: 0 } }))).toBe(20);
  });

  it('shares the same frozen tools between runs with the same limits (byte-identical exposures)', () => {
    expect(forRun({})).toBe(forRun({ searchLimits: { searchDefaultLimit: 8, maxSearchLimit: 20 } }));
    expect(forRun({ searchLimits: { maxSearchLimit: 5 } })).toBe(forRun({ searchLimits: { maxSearchLimit: 5 } }));
    expect(Object.isFrozen(forRun({ searchLimits: { maxSearchLimit: 5 } })[0])).toBe(true);
  });
});

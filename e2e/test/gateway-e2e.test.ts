import { describe, expect, it } from 'vitest';
import { runQaSuite, toJson } from '@tool-search/qa';

// The QA scenario `tool-search-gateway-e2e`, at the two catalog sizes the issue names.
describe.each([
  [36, 'mock-openai'],
  [1000, 'mock-openai'],
  [36, 'mock-anthropic'],
  [1000, 'mock-anthropic'],
] as const)('tool-search-gateway-e2e with %i plugin tools over %s', (tools, providerMode) => {
  it('passes every assertion in all four lanes', async () => {
    const result = await runQaSuite({ tools, providerMode });
    const failed = result.assertions.filter((a) => !a.ok);
    expect(failed).toEqual([]);
    expect(result.lanes.map((l) => l.lane)).toEqual(['direct', 'code', 'tools', 'directory']);
    for (const lane of result.lanes) expect(lane.targetCalled).toBe(true);
    const json = toJson(result);
    expect(Object.keys(json.lanes[0]!)).toEqual([
      'lane',
      'toolsDeclared',
      'requestBytes',
      'tokens',
      'searches',
      'describes',
      'calls',
      'targetCalled',
      'ratioToDirect',
      'turn',
    ]);
    for (const lane of result.lanes) expect(lane.turn.requests).toBeGreaterThanOrEqual(2);
    if (tools === 1000) {
      for (const lane of result.lanes.filter((l) => l.lane !== 'direct'))
        expect(lane.ratioToDirect!).toBeLessThan(0.05);
    }
  }, 180_000);
});

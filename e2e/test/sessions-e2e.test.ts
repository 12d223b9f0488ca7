import { describe, expect, it } from 'vitest';
import { runSessionChainScenario } from '@tool-search/qa';

describe('the session chain end to end, through the gateway', () => {
  it('the model fetches a loopback page, saves a note to memory, searches memory, lists its session, then spawns and reads a sub-agent', async () => {
    const result = await runSessionChainScenario();
    expect(result.assertions.filter((a) => !a.ok)).toEqual([]);
    expect(result.assertions.length).toBe(8);
  }, 120_000);
});

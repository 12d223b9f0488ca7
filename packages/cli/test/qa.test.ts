import { describe, expect, it } from 'vitest';
import { cli } from './helpers.js';

// The suite itself is tested by @tool-search/e2e; here only the argument checks.
describe('qa suite', () => {
  it('exits 2 for an unknown scenario', async () => {
    const { code, stderr } = await cli(['qa', 'suite', '--provider-mode', 'mock-openai', '--scenario', 'nope']);
    expect(code).toBe(2);
    expect(stderr).toContain('tool-search-gateway-e2e');
  });

  it('exits 2 for an unknown provider mode', async () => {
    expect(
      (await cli(['qa', 'suite', '--provider-mode', 'real-openai', '--scenario', 'tool-search-gateway-e2e'])).code,
    ).toBe(2);
  });

  it('runs the suite over the Anthropic mock and prints whole-turn totals per lane', async () => {
    const { code, stdout } = await cli(['qa', 'suite', '--provider-mode', 'mock-anthropic', '--tools', '36', '--json']);
    expect(code).toBe(0);
    const lanes = (
      JSON.parse(stdout) as {
        lanes: { lane: string; turn: { requests: number; bytes: number; discoveryRequests: number } }[];
      }
    ).lanes;
    expect(lanes.map((l) => l.lane)).toEqual(['direct', 'code', 'tools', 'directory']);
    expect(lanes.find((l) => l.lane === 'tools')?.turn).toMatchObject({ requests: 3, discoveryRequests: 1 });
    const text = await cli(['qa', 'suite', '--provider-mode', 'mock-anthropic', '--tools', '36']);
    expect(text.stdout).toContain('turn bytes');
  }, 120_000);
});

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
    expect((await cli(['qa', 'suite', '--provider-mode', 'real-openai', '--scenario', 'tool-search-gateway-e2e'])).code).toBe(2);
  });
});

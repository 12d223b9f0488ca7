import { describe, expect, it } from 'vitest';
import { EXPOSURE_MODES } from '@tool-search/config';
import { createToolSearchKernel } from '@tool-search/preset';
import { PresetErrors } from '../src/errors.js';

describe('createToolSearchKernel', () => {
  it('defaults to the fake catalog: 25 core tools and 1,000 plugin tools', async () => {
    const { kernel, toolSearch } = await createToolSearchKernel({});
    const run = await kernel.createRun();
    expect(run.catalog.filter((t) => t.source === 'core')).toHaveLength(25);
    expect(run.catalog.filter((t) => t.source === 'plugin')).toHaveLength(1000);
    expect(toolSearch.mode).toBe('direct');
    await kernel.close();
  });

  it('materializes every exposure mode of the one list', async () => {
    const { kernel } = await createToolSearchKernel({ plugins: { 'fake-catalog': { tools: 5, core: false } } });
    const run = await kernel.createRun();
    for (const mode of EXPOSURE_MODES) {
      const exposure = await run.exposure(mode);
      expect(exposure.mode).toBe(mode);
      expect(exposure.tools.length).toBeGreaterThan(0);
    }
    await kernel.close();
  });

  it('applies the policy from the config', async () => {
    const { kernel } = await createToolSearchKernel({ tools: { profile: 'coding', deny: ['exec'] } });
    const run = await kernel.createRun();
    expect(run.catalog.map((t) => t.name)).toContain('read');
    expect(run.catalog.map((t) => t.name)).not.toContain('exec');
    expect(run.catalog.some((t) => t.source === 'plugin')).toBe(false);
    await kernel.close();
  });

  it('denies calls that need approval when no approver is given (fail closed)', async () => {
    const { kernel } = await createToolSearchKernel({ tools: { approvals: { require: ['read'] } } });
    const run = await kernel.createRun();
    await expect(run.call('read', { path: 'x' })).resolves.toMatchObject({ status: 'blocked' });
    await kernel.close();
  });

  it('refuses an id that is neither built in nor a module it can find, with the config path', async () => {
    await expect(createToolSearchKernel({ plugins: { 'fake-catalgo': {} } })).rejects.toMatchObject({
      code: PresetErrors.PLUGIN_LOAD_FAILED,
      path: '/plugins/fake-catalgo',
      details: { module: 'fake-catalgo', didYouMean: 'fake-catalog' },
    });
  });
});

import { describe, expect, it } from 'vitest';
import { createKernel, ErrorCode } from '@tool-search/kernel';
import { fakeCatalogPlugin } from '@tool-search/plugin-fake-catalog';
import { nativeModePlugin } from '@tool-search/mode-native';

describe('native mode', () => {
  it('exposes tool_search plus every searchable catalog tool by name, and routes a call through the run', async () => {
    const kernel = createKernel({ plugins: [fakeCatalogPlugin({ tools: 12 }), nativeModePlugin()] });
    try {
      const run = await kernel.createRun({ provider: 'anthropic', model: 'm' });
      const exposure = await run.exposure('native');
      expect(exposure.mode).toBe('native');
      const names = exposure.tools.map((t) => t.name);
      expect(names[0]).toBe('tool_search');
      expect(names).toContain('fake_plugin_tool_0003');
      expect(names).not.toContain('tool_call');
      expect(exposure.tools.find((t) => t.name === 'tool_search')?.kind).toBe('control');
      expect(exposure.system).toContain('tool_search');
      const found = await exposure.call('tool_search', { query: 'fake_plugin_tool_0003' });
      expect(found.status).toBe('ok');
      expect(JSON.stringify(found)).toContain('fake_plugin_tool_0003');
      const outcome = await exposure.call('fake_plugin_tool_0003', {});
      expect(outcome.status).toBe('ok');
      await run.close();
    } finally {
      await kernel.close();
    }
  });

  it('rejects bad options at setup with OPTIONS_INVALID', () => {
    expect(() => nativeModePlugin({ maxSearchLimit: 0 })).toThrow(
      expect.objectContaining({ code: ErrorCode.OPTIONS_INVALID }),
    );
    expect(() => nativeModePlugin({ searchDefaultLimit: 9, maxSearchLimit: 3 })).toThrow(/must not exceed/);
  });
});

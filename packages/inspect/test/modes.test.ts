import { describe, expect, it } from 'vitest';
import { createKernel, type KernelPlugin } from '@tool-search/kernel';
import { toolsModePlugin } from '@tool-search/mode-tools';
import { fakeCatalogPlugin } from '@tool-search/plugin-fake-catalog';
import { createInspectData } from '../src/index.js';

/** A stand-in for the coming `native` mode: it exposes the catalog as is, one line of system text. */
const nativeMode: KernelPlugin = {
  name: 'test-native-mode',
  apply({ hooks }) {
    hooks.materialize.for('native').tap((draft, ctx) => {
      draft.tools.push(
        ...ctx.searchable.map((tool) => ({
          name: tool.name,
          description: tool.description,
          inputSchema: tool.inputSchema,
          toolId: tool.id,
        })),
      );
      draft.system.push('native tool search');
      return draft;
    });
  },
};

describe('the exposure comparison', () => {
  it('shows native beside the four modes once a plugin materializes it, and leaves it out before', async () => {
    const without = createKernel({ plugins: [fakeCatalogPlugin({ tools: 3, core: false }), toolsModePlugin()] });
    const withNative = createKernel({
      plugins: [fakeCatalogPlugin({ tools: 3, core: false }), toolsModePlugin(), nativeMode],
    });
    try {
      const before = await createInspectData({ kernel: without, config: {}, countTokens: false }).exposure({});
      expect(before.modes.map((mode) => mode.mode)).toEqual(['direct', 'code', 'tools', 'directory']);
      // Modes the config asks for but no plugin answers stay listed, with their error.
      expect(before.modes.find((mode) => mode.mode === 'code')?.error?.code).toBe('MODE_UNKNOWN');
      const after = await createInspectData({ kernel: withNative, config: {}, countTokens: false }).exposure({});
      const native = after.modes.find((mode) => mode.mode === 'native');
      expect(native).toMatchObject({
        answered: 'native',
        tools: ['fake_plugin_tool_0001', 'fake_plugin_tool_0002', 'fake_plugin_tool_0003'],
        system: 'native tool search',
      });
      expect(native?.bytes.total).toBeGreaterThan(0);
    } finally {
      await without.close();
      await withNative.close();
    }
  });
});

/**
 * A downstream tool's `_meta` decides who sees it: `anthropic/alwaysLoad` pins it visible in every mode (direct-only),
 * an MCP Apps `_meta.ui.visibility` without "model" hides it from the model (hidden: no exposure, no search, not by
 * name), yet the front end still calls it by id. Policy wins over both. A real SDK server (fixtures/visibility-server.mjs).
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel, type KernelPlugin } from '@tool-search/kernel';
import { catalogModeOf, isAppOnly, mcpPlugin } from '../src/index.js';

const SERVER = fileURLToPath(new URL('./fixtures/visibility-server.mjs', import.meta.url));
const schema = { type: 'object', properties: {} } as const;

/** A search-like mode: one control tool listing the searchable tools by id (what a search can find). */
const searchMode: KernelPlugin = {
  name: 'test-search-mode',
  apply({ hooks }) {
    hooks.materialize.for('tools').tap((draft, ctx) => {
      const ids = ctx.searchable.map((tool) => tool.id);
      draft.tools.push({
        name: 'tool_search',
        description: 'Lists the searchable tools',
        inputSchema: schema,
        handler: async () => ({ content: [{ type: 'text', text: ids.join('\n') }] }),
      });
      return draft;
    });
  },
};

/** Denies the tool ids it is given, read at each run (a stand-in for the policy package). */
function denyPlugin(denied: () => readonly string[]): KernelPlugin {
  return {
    name: 'test-deny',
    apply({ hooks }) {
      hooks.filterPolicy.tap((tools) => tools.filter((tool) => !denied().includes(tool.id)));
    },
  };
}

describe('catalogModeOf', () => {
  it('reads MCP Apps visibility and anthropic/alwaysLoad', () => {
    expect(catalogModeOf(undefined)).toBe('catalog');
    expect(catalogModeOf({ ui: { visibility: ['app'] } })).toBe('hidden');
    expect(catalogModeOf({ ui: { visibility: [] } })).toBe('hidden');
    expect(catalogModeOf({ ui: { visibility: ['model', 'app'] } })).toBe('catalog');
    expect(catalogModeOf({ ui: { resourceUri: 'ui://x/y.html' } })).toBe('catalog');
    expect(catalogModeOf({ 'anthropic/alwaysLoad': true })).toBe('direct-only');
    expect(catalogModeOf({ 'anthropic/alwaysLoad': 'yes' })).toBe('catalog');
    // App-only wins: the model never sees it, pinned or not.
    expect(catalogModeOf({ 'anthropic/alwaysLoad': true, ui: { visibility: ['app'] } })).toBe('hidden');
    expect(isAppOnly({ ui: { visibility: ['model'] } })).toBe(false);
  });
});

describe('pinned and app-only downstream tools', () => {
  let deny: readonly string[] = [];
  let kernel: Kernel;
  beforeAll(() => {
    const servers = { shop: { command: process.execPath, args: [SERVER] } };
    kernel = createKernel({ plugins: [mcpPlugin({ servers }), searchMode, denyPlugin(() => deny)] });
  });
  afterAll(() => kernel.close());

  it('shows the pinned tool in the exposure, never the app-only one, and searches neither', async () => {
    deny = [];
    const run = await kernel.createRun();
    try {
      const modes = Object.fromEntries(run.catalog.map((tool) => [tool.name, tool.catalogMode]));
      expect(modes).toEqual({
        pinned_clock: 'direct-only',
        cart_update: 'hidden',
        show_cart: 'catalog',
        plain_weather: 'catalog',
      });
      const exposure = await run.exposure('tools');
      expect(exposure.tools.map((tool) => tool.name).sort()).toEqual(['pinned_clock', 'tool_search']);
      const found = await exposure.call('tool_search', {});
      const text = found.status === 'ok' ? (found.result.content[0] as { text: string }).text : '';
      expect(text.split('\n').sort()).toEqual(['mcp:shop:plain_weather', 'mcp:shop:show_cart']);
      expect((await exposure.call('pinned_clock', {})).status).toBe('ok');
    } finally {
      await run.close();
    }
  });

  it('lets the front end call the app-only tool by id, and nothing else reach it', async () => {
    deny = [];
    const run = await kernel.createRun();
    try {
      const ok = await run.call('mcp:shop:cart_update', { quantity: 2 }, { origin: 'api' });
      expect(ok).toMatchObject({ status: 'ok' });
      expect(ok.status === 'ok' && ok.result.content[0]).toEqual({
        type: 'text',
        text: JSON.stringify({ tool: 'cart_update', args: { quantity: 2 } }),
      });
      // The model's paths: direct, tool_call, code; and the bare name, which reaches hidden tools from nowhere.
      for (const origin of ['direct', 'tool_call', 'code', 'directory'] as const)
        await expect(run.call('mcp:shop:cart_update', {}, { origin })).rejects.toMatchObject({ code: 'UNKNOWN_TOOL' });
      await expect(run.call('cart_update', {}, { origin: 'api' })).rejects.toMatchObject({ code: 'UNKNOWN_TOOL' });
      const exposure = await run.exposure('tools');
      expect(await exposure.call('cart_update', {})).toMatchObject({
        status: 'error',
        error: { code: 'UNKNOWN_TOOL' },
      });
    } finally {
      await run.close();
    }
  });

  it('keeps a denied pinned tool hidden, and a denied app-only tool uncallable', async () => {
    deny = ['mcp:shop:pinned_clock', 'mcp:shop:cart_update'];
    const run = await kernel.createRun();
    try {
      const exposure = await run.exposure('tools');
      expect(exposure.tools.map((tool) => tool.name)).toEqual(['tool_search']);
      await expect(run.call('mcp:shop:cart_update', {}, { origin: 'api' })).rejects.toMatchObject({
        code: 'UNKNOWN_TOOL',
      });
    } finally {
      await run.close();
    }
  });
});

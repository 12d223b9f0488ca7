/** Issue 13: the built-in demo catalog is the default only when nothing else is configured. */
import { describe, expect, it } from 'vitest';
import type { KernelPlugin } from '@tool-search/kernel';
import { createToolSearchKernel, usesDemoCatalog } from '@tool-search/preset';

const composerSource: KernelPlugin = {
  name: 'composer-source',
  apply: ({ hooks }) =>
    hooks.listTools.tap((sink) =>
      sink.add({
        name: 'own_tool',
        source: 'plugin',
        owner: 'composer',
        description: 'mine',
        inputSchema: { type: 'object' },
        execute: () => ({ content: [] }),
      }),
    ),
};

async function sources(config: Parameters<typeof createToolSearchKernel>[0], plugins: KernelPlugin[] = []) {
  const preset = await createToolSearchKernel(config, { plugins });
  const run = await preset.kernel.createRun();
  const owners = [...new Set(run.catalog.map((tool) => tool.owner))].sort();
  await preset.kernel.close();
  return { owners, demo: preset.demoCatalog, count: run.catalog.length };
}

describe('the built-in demo catalog', () => {
  it('is the default with nothing configured, and says so (demoCatalog)', async () => {
    expect(await sources({})).toMatchObject({ demo: true, count: 1025 });
  });

  it('is not used with plugins: {} (nothing at all is listed)', async () => {
    expect(await sources({ plugins: {} })).toEqual({ owners: [], demo: false, count: 0 });
  });

  it('is not used when the composer passes plugins of its own', async () => {
    expect(await sources({}, [composerSource])).toEqual({ owners: ['composer'], demo: false, count: 1 });
  });

  it('is not used when MCP servers are configured', () => {
    expect(usesDemoCatalog({ mcp: { servers: { fs: { command: 'node', args: ['server.js'] } } } })).toBe(false);
    expect(usesDemoCatalog({ mcp: { servers: {} } })).toBe(true);
  });

  it('is used when named explicitly, without the notice', async () => {
    expect(await sources({ plugins: { 'fake-catalog': { tools: 3, core: false } } })).toMatchObject({
      demo: false,
      count: 3,
    });
  });
});

/** The tool list: paginated, cached per connection, refreshed after `notifications/tools/list_changed`. */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel, type ToolCallOutcome } from '@tool-search/kernel';
import { mcpPlugin } from '../src/index.js';
import { fixture } from './helpers.js';

function listings(outcome: ToolCallOutcome): unknown {
  return outcome.status === 'ok' ? (outcome.result.structuredContent as { listings: number }).listings : outcome;
}

describe('the MCP tool list', () => {
  let kernel: Kernel;
  const changed: string[] = [];

  beforeAll(() => {
    kernel = createKernel({
      plugins: [mcpPlugin({ servers: { dyn: fixture('dynamic') }, onToolsChanged: (server) => changed.push(server) })],
    });
  });
  afterAll(() => kernel.close());

  it('follows nextCursor until the last page', async () => {
    const run = await kernel.createRun();
    expect(run.catalog.map((tool) => tool.name).sort()).toEqual([
      'add_tool',
      'annotated',
      'echo',
      'fail',
      'list_count',
    ]);
  });

  it('gives a second run the same descriptor objects (so per-tool work is reused)', async () => {
    const first = await kernel.createRun();
    const second = await kernel.createRun();
    expect(second.tool('mcp:dyn:echo')).toBe(first.tool('mcp:dyn:echo'));
  });

  it('is cached: a second run does not list again', async () => {
    await kernel.createRun();
    const run = await kernel.createRun();
    expect(listings(await run.call('mcp:dyn:list_count', {}))).toBe(1);
  });

  it('is refreshed for the next run after tools/list_changed', async () => {
    const run = await kernel.createRun();
    await run.call('mcp:dyn:add_tool', {});
    expect(run.tool('mcp:dyn:added_1')).toBeUndefined();

    const next = await kernel.createRun();
    expect(changed).toContain('dyn');
    expect(next.tool('mcp:dyn:added_1')).toMatchObject({ source: 'mcp', owner: 'dyn' });
    expect(listings(await next.call('mcp:dyn:list_count', {}))).toBe(2);
  });

  it('carries title and annotations for an approval plugin', async () => {
    const run = await kernel.createRun();
    expect(run.tool('mcp:dyn:annotated')).toMatchObject({
      title: 'Annotated tool',
      annotations: { readOnlyHint: false, destructiveHint: true },
    });
  });
});

describe('a list_changed that arrives while a listing is on its way', () => {
  it('is not lost: the stale answer is not cached, and the next run lists again', async () => {
    const server = {
      command: process.execPath,
      args: [fileURLToPath(new URL('./fixtures/racing-list-server.mjs', import.meta.url))],
    };
    const kernel = createKernel({ plugins: [mcpPlugin({ servers: { racing: server } })] });
    try {
      const first = await kernel.createRun();
      expect(first.catalog.map((tool) => tool.name)).toEqual(['change']);
      await first.call('mcp:racing:change', {});
      // The list_changed after the call emptied the cache; this run's listing races the change and reads the old list.
      await kernel.createRun();
      // Before the fix the stale answer was cached and new_tool stayed invisible until another notification.
      const next = await kernel.createRun();
      expect(next.catalog.map((tool) => tool.name).sort()).toEqual(['change', 'new_tool']);
    } finally {
      await kernel.close();
    }
  });
});

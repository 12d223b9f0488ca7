/** Connections across runs and kernels: shared, closed on shutdown, never leaked. */
import { describe, expect, it } from 'vitest';
import { createKernel } from '@tool-search/kernel';
import { mcpPlugin } from '../src/index.js';
import { fixture, isAlive, nodeServer } from './helpers.js';

describe('MCP server lifecycle', () => {
  it('starts each server once for runs created at the same time', async () => {
    const plugin = mcpPlugin({ servers: { a: fixture('crash-on-call'), b: fixture('dynamic') } });
    const kernel = createKernel({ plugins: [plugin] });
    try {
      const runs = await Promise.all([kernel.createRun(), kernel.createRun(), kernel.createRun()]);
      expect(runs.map((run) => run.catalog.length)).toEqual([7, 7, 7]);
      expect(plugin.servers().map((server) => server.pids.length)).toEqual([1, 1]);
    } finally {
      await kernel.close();
    }
  });

  it('ends every server process on kernel.close()', async () => {
    const plugin = mcpPlugin({
      servers: {
        everything: nodeServer('server-everything', 'stdio'),
        memory: nodeServer('server-memory'),
        dyn: fixture('dynamic'),
      },
    });
    const kernel = createKernel({ plugins: [plugin] });
    await kernel.createRun();
    const pids = plugin.servers().map((server) => server.pid);
    expect(pids.every((pid) => typeof pid === 'number' && isAlive(pid))).toBe(true);
    await kernel.close();
    expect(pids.filter((pid) => pid !== undefined && isAlive(pid))).toEqual([]);
  });

  it('refuses to list after shutdown with MCP_SERVER_UNAVAILABLE, starting nothing', async () => {
    const plugin = mcpPlugin({ servers: { dyn: fixture('dynamic') } });
    const kernel = createKernel({ plugins: [plugin] });
    await kernel.close();
    const run = await kernel.createRun();
    expect(run.diagnostics).toContainEqual(
      expect.objectContaining({ code: 'MCP_SERVER_UNAVAILABLE', details: { server: 'dyn' } }),
    );
    expect(plugin.servers()[0]?.pids).toEqual([]);
  });
});

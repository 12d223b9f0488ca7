/** Calls that go wrong: an MCP error result, a server dying mid-call, a server that never answers. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel } from '@tool-search/kernel';
import { mcpPlugin, type McpPlugin } from '../src/index.js';
import { fixture, isAlive } from './helpers.js';

const kernels: Kernel[] = [];
afterEach(async () => {
  await Promise.all(kernels.splice(0).map((kernel) => kernel.close()));
});

function kernelWith(plugin: ReturnType<typeof mcpPlugin>): Kernel {
  const kernel = createKernel({ plugins: [plugin] });
  kernels.push(kernel);
  return kernel;
}

describe('MCP tool calls', () => {
  it('returns an MCP error result as the tool result, with isError', async () => {
    const run = await kernelWith(mcpPlugin({ servers: { dyn: fixture('dynamic') } })).createRun();
    const outcome = await run.call('mcp:dyn:fail', { message: 'nope' });
    expect(outcome).toMatchObject({
      status: 'ok',
      result: { isError: true, content: [{ type: 'text', text: 'failed: nope' }] },
    });
  });

  it('turns a server dying mid-call into MCP_SERVER_UNAVAILABLE', async () => {
    const run = await kernelWith(mcpPlugin({ servers: { fragile: fixture('crash-on-call') } })).createRun();
    const outcome = await run.call('mcp:fragile:crash', {});
    expect(outcome).toMatchObject({ status: 'error', error: { code: 'MCP_SERVER_UNAVAILABLE' } });
  });

  it('answers later calls to the dead server with MCP_SERVER_UNAVAILABLE without waiting', async () => {
    const run = await kernelWith(mcpPlugin({ servers: { fragile: fixture('crash-on-call') } })).createRun();
    await run.call('mcp:fragile:crash', {});
    expect(await run.call('mcp:fragile:echo', { message: 'hi' })).toMatchObject({
      status: 'error',
      error: { code: 'MCP_SERVER_UNAVAILABLE' },
    });
  });

  it('reconnects a server that died on the next run', async () => {
    const plugin = mcpPlugin({ servers: { fragile: fixture('crash-on-call') } });
    const kernel = kernelWith(plugin);
    const first = await kernel.createRun();
    const firstPid = plugin.servers()[0]?.pid;
    await first.call('mcp:fragile:crash', {});
    expect(plugin.servers()[0]).toMatchObject({
      state: 'failed',
      lastError: { code: 'MCP_SERVER_UNAVAILABLE', reason: 'exit' },
    });

    const second = await kernel.createRun();
    expect(await second.call('mcp:fragile:echo', { message: 'back' })).toMatchObject({
      status: 'ok',
      result: { content: [{ type: 'text', text: 'back' }] },
    });
    expect(plugin.servers()[0]?.pid).not.toBe(firstPid);
  });
});

// Servers that never answer ignore stdin closing, so each shutdown waits for SIGTERM: share them, with a short grace.
describe('MCP tool calls the server never answers', () => {
  let plugin: McpPlugin;
  let overridden: McpPlugin;
  let kernel: Kernel;
  let kernelWithOverride: Kernel;

  beforeAll(() => {
    plugin = mcpPlugin({ callTimeoutMs: 300, shutdownGraceMs: 200, servers: { slow: fixture('hang-call') } });
    overridden = mcpPlugin({
      callTimeoutMs: 600_000,
      shutdownGraceMs: 200,
      servers: { slow: { ...fixture('hang-call'), timeoutMs: 300 } },
    });
    kernel = createKernel({ plugins: [plugin] });
    kernelWithOverride = createKernel({ plugins: [overridden] });
  });
  afterAll(async () => {
    await Promise.all([kernel.close(), kernelWithOverride.close()]);
  });

  it('gives up on a call the server never answers with TOOL_TIMEOUT', async () => {
    const run = await kernel.createRun();
    const outcome = await run.call('mcp:slow:sleep_forever', {});
    expect(outcome).toMatchObject({ status: 'error', error: { code: 'TOOL_TIMEOUT' } });
  });

  it('uses the per-server timeoutMs over callTimeoutMs', async () => {
    const run = await kernelWithOverride.createRun();
    expect(await run.call('mcp:slow:sleep_forever', {})).toMatchObject({
      status: 'error',
      error: { code: 'TOOL_TIMEOUT' },
    });
  });

  it('keeps the server usable after a timed-out call', async () => {
    const run = await kernel.createRun();
    await run.call('mcp:slow:sleep_forever', {});
    expect(await run.call('mcp:slow:echo', { message: 'still here' })).toMatchObject({ status: 'ok' });
  });

  it('cancels a call in flight when the run is closed', async () => {
    const run = await kernel.createRun();
    const pending = run.call('mcp:slow:sleep_forever', {});
    await run.close();
    expect(await pending).toMatchObject({ status: 'error', error: { code: 'TOOL_CALL_ABORTED' } });
  });
});

describe('MCP server processes', () => {
  it('leaves no process behind after a crash, a timeout and a shutdown', async () => {
    // The hang-call server ignores stdin closing: a short grace gets it to SIGTERM sooner (what is checked is that it ends).
    const plugin = mcpPlugin({
      callTimeoutMs: 300,
      shutdownGraceMs: 200,
      servers: { fragile: fixture('crash-on-call'), slow: fixture('hang-call') },
    });
    const kernel = createKernel({ plugins: [plugin] });
    const run = await kernel.createRun();
    await run.call('mcp:fragile:crash', {});
    await run.call('mcp:slow:sleep_forever', {});
    await kernel.createRun();
    const pids = plugin.servers().flatMap((server) => server.pids);
    expect(pids.length).toBe(3);
    await kernel.close();
    expect(pids.filter(isAlive)).toEqual([]);
    expect(plugin.servers().map((server) => server.state)).toEqual(['closed', 'closed']);
  });
});

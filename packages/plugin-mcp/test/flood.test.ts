/**
 * A hostile server written on the official SDK (fixtures/flooding-server.mjs):
 * a flood of list_changed notifications reaches the plugin's listeners a
 * bounded number of times and costs a bounded number of re-listings, and a
 * stderr flood while calls run leaves calls answered and keeps only a
 * bounded tail for error messages.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createKernel, type Kernel, type ToolCallOutcome } from '@tool-search/kernel';
import { mcpPlugin, type McpPlugin } from '../src/index.js';
import { LIST_CHANGED_WINDOW_MS } from '../src/coalesce.js';

const FLOODING = fileURLToPath(new URL('./fixtures/flooding-server.mjs', import.meta.url));
const server = { command: process.execPath, args: [FLOODING] };
const kernels: Kernel[] = [];
afterEach(async () => {
  await Promise.all(kernels.splice(0).map((kernel) => kernel.close()));
});

function start(onToolsChanged?: (server: string) => void): { kernel: Kernel; plugin: McpPlugin } {
  const plugin = mcpPlugin({ servers: { flood: server }, ...(onToolsChanged ? { onToolsChanged } : {}) });
  const kernel = createKernel({ plugins: [plugin] });
  kernels.push(kernel);
  return { kernel, plugin };
}

const structured = (outcome: ToolCallOutcome): Record<string, number> =>
  outcome.status === 'ok'
    ? (outcome.result.structuredContent as Record<string, number>)
    : (expect.fail(JSON.stringify(outcome)) as never);
/** Polls until `counts` has not changed for two coalescing windows (the trailing call comes within one), 30 s at most. */
async function settled(counts: () => readonly number[]): Promise<void> {
  let last = counts().join();
  let since = Date.now();
  for (
    const deadline = Date.now() + 30_000;
    Date.now() - since < 2 * LIST_CHANGED_WINDOW_MS && Date.now() < deadline;
  ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (counts().join() !== last) [last, since] = [counts().join(), Date.now()];
  }
}

describe('a server flooding list_changed', () => {
  it('reaches listeners a bounded number of times, the last change included', async () => {
    const changes: string[] = [];
    const { kernel, plugin } = start((name) => changes.push(name));
    const events: string[] = [];
    plugin.downstream.on(
      (event) =>
        void ((event.type === 'resources-changed' || event.type === 'prompts-changed') && events.push(event.type)),
    );
    const run = await kernel.createRun();
    const started = Date.now();
    expect(await run.call('mcp:flood:flood_list_changed', { count: 3000 })).toMatchObject({ status: 'ok' });
    const flooded = Date.now() - started;
    // The first notification of a quiet period passes at once; the rest collapse into one call per window, the last one trailing.
    await expect.poll(() => changes.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    await settled(() => [changes.length, events.length]);
    // Not a speed goal: the bound grows with however long the flood took on this machine (windows it spanned, plus the leading and trailing calls).
    const bound = Math.ceil(flooded / LIST_CHANGED_WINDOW_MS) + 3;
    for (const count of [
      changes.length,
      events.filter((t) => t === 'resources-changed').length,
      events.filter((t) => t === 'prompts-changed').length,
    ]) {
      expect(count).toBeGreaterThanOrEqual(1);
      expect(count).toBeLessThanOrEqual(Math.min(bound, 300));
    }
  });

  it('costs one re-listing for the next run, not one per notification', async () => {
    const { kernel } = start();
    const run = await kernel.createRun();
    const before = structured(await run.call('mcp:flood:listings', {})).listings!;
    await run.call('mcp:flood:flood_list_changed', { count: 2000 });
    const next = await kernel.createRun();
    expect(next.tool('mcp:flood:echo')).toBeDefined();
    expect(structured(await next.call('mcp:flood:listings', {})).listings).toBe(before + 1);
  });
});

describe('a server flooding stderr while calls run', () => {
  it('answers every call meanwhile and keeps only a bounded tail of stderr', async () => {
    const { kernel, plugin } = start();
    const run = await kernel.createRun();
    expect(await run.call('mcp:flood:flood_stderr', { megabytes: 48 })).toMatchObject({ status: 'ok' });
    for (let i = 0; i < 20; i++) {
      const outcome = await run.call('mcp:flood:echo', { message: `call ${i}` });
      expect(outcome).toMatchObject({ status: 'ok', result: { content: [{ type: 'text', text: `call ${i}` }] } });
    }
    await expect
      .poll(async () => structured(await run.call('mcp:flood:stderr_written', {})).written, {
        timeout: 60_000,
        interval: 200,
      })
      .toBeGreaterThanOrEqual(48 * 1024 * 1024);
    const crashed = await run.call('mcp:flood:crash', {});
    expect(crashed).toMatchObject({ status: 'error', error: { code: 'MCP_SERVER_UNAVAILABLE' } });
    const message = (crashed as { error: { message: string } }).error.message;
    // A few lines of at most 200 characters: the 48 MB did not follow the error around.
    expect(message.length).toBeLessThan(1_500);
    const status = plugin.servers().find((s) => s.name === 'flood');
    expect(JSON.stringify(status ?? {}).length).toBeLessThan(4_000);
  }, 90_000);
});

describe('a server listing huge resources and prompts', () => {
  it('keeps at most maxToolsPerServer items of each listing, with an MCP_LIST_TRUNCATED warning', async () => {
    const warnings: Record<string, unknown>[] = [];
    const plugin = mcpPlugin({
      servers: { huge: { command: process.execPath, args: [FLOODING, 'huge-lists'] } },
      maxToolsPerServer: 2_000,
      maxListPages: 4,
    });
    const logger = {
      debug: () => undefined,
      info: () => undefined,
      error: () => undefined,
      warn: (_message: string, data?: Record<string, unknown>) => void (data && warnings.push(data)),
    };
    const kernel = createKernel({ plugins: [plugin], logger });
    kernels.push(kernel);
    await kernel.createRun();
    const peer = plugin.downstream.peer('huge')!;
    const resources = await peer.listResources();
    expect(resources).toHaveLength(2_000);
    expect(resources.at(-1)?.uri).toBe('flood://r/1999');
    expect(await peer.listPrompts()).toHaveLength(2_000);
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          code: 'MCP_LIST_TRUNCATED',
          server: 'huge',
          list: 'resources',
          limit: 'maxToolsPerServer',
          kept: 2_000,
        }),
        expect.objectContaining({
          code: 'MCP_LIST_TRUNCATED',
          server: 'huge',
          list: 'prompts',
          limit: 'maxToolsPerServer',
          kept: 2_000,
        }),
      ]),
    );
  });

  it('stops following resource pages at maxListPages', async () => {
    const plugin = mcpPlugin({
      servers: { huge: { command: process.execPath, args: [FLOODING, 'huge-lists'] } },
      maxToolsPerServer: 100_000,
      maxListPages: 3,
    });
    const kernel = createKernel({ plugins: [plugin] });
    kernels.push(kernel);
    await kernel.createRun();
    expect(await plugin.downstream.peer('huge')!.listResources()).toHaveLength(15_000);
  });
});

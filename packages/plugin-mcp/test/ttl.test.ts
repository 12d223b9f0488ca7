/**
 * `ttlMs` on 2026-07-28 lists: a listing is reused only until its `ttlMs`
 * runs out, then read again, even when the server sent no `list_changed`.
 * A real v2 SDK server (test/fixtures/ttl-server.mjs) whose list changes
 * silently: with `ttlMs: 0` the next run sees the new tool; with an hour,
 * the cached list stands.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createKernel, type Kernel } from '@tool-search/kernel';
import { mcpPlugin } from '../src/index.js';

const TTL_SERVER = fileURLToPath(new URL('./fixtures/ttl-server.mjs', import.meta.url));

let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.close();
  kernel = undefined;
});

async function idsAfterBump(ttlMs: number): Promise<{ before: string[]; after: string[] }> {
  kernel = createKernel({
    plugins: [
      mcpPlugin({
        connectTimeoutMs: 30_000,
        servers: { ttl: { command: process.execPath, args: [TTL_SERVER, String(ttlMs)] } },
      }),
    ],
  });
  const first = await kernel.createRun();
  const before = first.catalog.map((tool) => tool.id).sort();
  const outcome = await first.call('mcp:ttl:bump', {});
  expect(outcome.status).toBe('ok');
  await first.close();
  const second = await kernel.createRun();
  const after = second.catalog.map((tool) => tool.id).sort();
  await second.close();
  return { before, after };
}

describe('ttlMs of a 2026-07-28 tools/list', () => {
  it('0: the list is read again at the next run, no list_changed needed', async () => {
    const { before, after } = await idsAfterBump(0);
    expect(before).toEqual(['mcp:ttl:bump']);
    expect(after).toEqual(['mcp:ttl:bump', 'mcp:ttl:n_1']);
  }, 60_000);

  it('an hour: the cached list stands until it expires', async () => {
    const { before, after } = await idsAfterBump(3_600_000);
    expect(before).toEqual(['mcp:ttl:bump']);
    expect(after).toEqual(['mcp:ttl:bump']);
  }, 60_000);
});

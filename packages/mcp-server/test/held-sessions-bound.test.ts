/**
 * The MCP sessions one replica holds are bounded: past `maxHeldSessions` the least recently used copy closes, and its
 * next request rebuilds it from its record (the miss path), in the same run session.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { serveHttp } from '../src/index.js';
import { call, text } from './helpers.js';
import { connectBalanced, whoamiKernel, type Balanced } from './replicas-kit.js';

describe('held MCP sessions bound', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
  });

  it('stays at maxHeldSessions under many sessions; an evicted session is rebuilt on its next request', async () => {
    const kernel = whoamiKernel();
    cleanup.push(() => kernel.close());
    const server = await serveHttp({ kernel, mode: 'directory', refreshIntervalMs: 0, maxHeldSessions: 3 });
    cleanup.push(() => server.close());
    const clients: { balanced: Balanced; runSession: string }[] = [];
    for (let i = 0; i < 8; i++) {
      const balanced = await connectBalanced({ a: server.url, b: server.url }, 'a');
      cleanup.push(() => balanced.client.close());
      clients.push({ balanced, runSession: text(await call(balanced.client, 'whoami')) });
      expect(server.sessions).toBeLessThanOrEqual(3);
    }
    expect(server.sessions).toBe(3);
    // The first session's copy was closed here; its record brings it back, in the same run session.
    const first = clients[0]!;
    expect(text(await call(first.balanced.client, 'whoami'))).toBe(first.runSession);
    expect(server.sessions).toBe(3);
    // The most recently used copies stayed: the newest answers from the copy held here.
    const newest = clients[7]!;
    expect(text(await call(newest.balanced.client, 'whoami'))).toBe(newest.runSession);
  });
});

/**
 * What a downstream server sends during and after calls, behind `serve mcp`
 * over HTTP with real SDK clients: logs it sends after session A's call
 * reach no other session (they name no request), its logs
 * during A's call reach A, and a flood of 5,000 logs and 5,000 progress
 * notifications reaches the caller within the session's budget (the latest
 * progress and one line counting what was held back included), for a
 * 2025-era session and a 2026-07-28 request alike, while the server keeps
 * answering. A downstream request during calls of two 2026-07-28 requests
 * (one agent) goes to neither client. Downstream: fixtures/flooding-server.mjs
 * over stdio.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as ModernClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  CallToolResultSchema,
  LoggingMessageNotificationSchema,
  ResourceListChangedNotificationSchema,
  type LoggingMessageNotification,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpDownstream } from '@tool-search/plugin-mcp';
import type { Kernel } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';
import { NOTIFICATION_BUDGET, serveHttp, type HttpMcpHandle } from '@tool-search/mcp-server';
import { call, connectHttp, text, type Connected } from './helpers.js';

const FLOODING = fileURLToPath(new URL('./fixtures/flooding-server.mjs', import.meta.url));
const FLOOD = 5_000;

interface Watched {
  readonly connected: Connected;
  readonly logs: LoggingMessageNotification['params'][];
  /** resources/list_changed notifications seen (the fixture's marker after its late logs). */
  markers: number;
}

/** The most notifications a budget lets through in `ms`, plus the held progress and the closing line. */
function budgetFor(ms: number): number {
  const { burst, perSecond } = NOTIFICATION_BUDGET;
  return burst + Math.ceil((ms / 1000) * perSecond) + 2;
}

describe('downstream notifications behind serve mcp', () => {
  let kernel: Kernel;
  let downstream: McpDownstream;
  let handle: HttpMcpHandle;
  const sessions: Watched[] = [];

  beforeAll(async () => {
    const preset = await createToolSearchKernel({
      mcpServers: { flood: { command: process.execPath, args: [FLOODING] } },
      tools: {
        toolSearch: {
          mode: 'directory',
          visible: ['echo', 'flood_logs', 'log_later', 'gate_ask', 'open_gate', 'waiting'],
        },
      },
    });
    kernel = preset.kernel;
    downstream = preset.mcpDownstream!;
    handle = await serveHttp({ kernel, mode: 'directory', refreshIntervalMs: 0, downstream });
    for (let i = 0; i < 2; i++) {
      const connected = await connectHttp(handle.url);
      const watched: Watched = { connected, logs: [], markers: 0 };
      connected.client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => {
        watched.logs.push(params);
      });
      connected.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
        watched.markers++;
      });
      sessions.push(watched);
    }
  }, 60_000);
  afterAll(async () => {
    await Promise.all(sessions.map(({ connected }) => connected.close()));
    await handle?.close();
    await kernel?.close();
  });

  const fromFlood = (logs: readonly LoggingMessageNotification['params'][], prefix: string) =>
    logs.filter((log) => String(log.data).startsWith(prefix));

  it("gives no other session the logs a server sends after session A's call", async () => {
    const [a, b] = sessions as [Watched, Watched];
    const late: string[] = [];
    const off = downstream.on((event) => void (event.type === 'log' && late.push(String(event.params.data))));
    const markers = [a.markers, b.markers];
    expect(text(await call(a.connected.client, 'log_later', { count: 3_000 }))).toBe('will send 3000');
    // Every late log reached Tool Search, and each client got the marker the server sent after them.
    await expect.poll(() => late.filter((data) => data.startsWith('later ')).length, { timeout: 30_000 }).toBe(3_000);
    await expect.poll(() => a.markers > markers[0]! && b.markers > markers[1]!, { timeout: 30_000 }).toBe(true);
    off();
    expect(fromFlood(b.logs, 'later ')).toEqual([]);
  }, 60_000);

  it("gives A its call's logs, and a flood within the session's budget; the server keeps answering", async () => {
    const [a, b] = sessions as [Watched, Watched];
    const progress: Progress[] = [];
    const started = Date.now();
    const result = await a.connected.client.request(
      { method: 'tools/call', params: { name: 'flood_logs', arguments: { count: FLOOD } } },
      CallToolResultSchema,
      { onprogress: (update) => void progress.push(update), timeout: 120_000 },
    );
    const took = Date.now() - started;
    expect(text(result)).toBe(`sent ${FLOOD}`);
    const closing = () => a.logs.find((log) => log.logger === 'tool-search' && log.level === 'warning');
    await expect.poll(closing, { timeout: 10_000 }).toBeDefined();
    const forwarded = fromFlood(a.logs, 'flood ');
    expect(forwarded.length).toBeGreaterThan(0);
    expect(forwarded[0]).toMatchObject({ logger: 'flood:flood', data: 'flood 1' });
    // Not a speed goal: the bound is the budget over however long the flood took on this machine.
    expect(forwarded.length + progress.length).toBeLessThanOrEqual(budgetFor(took));
    expect(progress.at(-1)?.progress).toBe(FLOOD);
    expect(fromFlood(b.logs, 'flood ')).toEqual([]);
    expect(text(await call(a.connected.client, 'echo', { message: 'still here' }))).toBe('still here');
    expect(text(await call(b.connected.client, 'echo', { message: 'me too' }))).toBe('me too');
  }, 120_000);

  it('holds a 2026-07-28 request to the same budget, its latest progress included', async () => {
    const client = new ModernClient(
      { name: 'modern-flood', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
    try {
      const progress: Progress[] = [];
      const started = Date.now();
      const result = await client.callTool(
        { name: 'flood_logs', arguments: { count: FLOOD } },
        { onprogress: (update) => void progress.push(update), timeout: 120_000 },
      );
      const took = Date.now() - started;
      expect(text(result as never)).toBe(`sent ${FLOOD}`);
      await expect.poll(() => progress.at(-1)?.progress, { timeout: 10_000 }).toBe(FLOOD);
      expect(progress.length).toBeLessThanOrEqual(budgetFor(took));
      expect(text((await client.callTool({ name: 'echo', arguments: { message: 'after' } })) as never)).toBe('after');
    } finally {
      await client.close();
    }
  }, 120_000);

  it("never asks one 2026-07-28 request's client what another request's call asks (same agent)", async () => {
    const asked = { a: [] as string[], b: [] as string[] };
    const connect = async (who: 'a' | 'b') => {
      const client = new ModernClient(
        { name: `modern-${who}`, version: '1.0.0' },
        { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      client.setRequestHandler('elicitation/create', async (request) => {
        asked[who].push((request.params as { message: string }).message);
        return { action: 'accept', content: {} };
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
      return client;
    };
    const [a, b] = [await connect('a'), await connect('b')];
    try {
      const calls = [
        a.callTool({ name: 'gate_ask', arguments: { label: 'from a' } }),
        b.callTool({ name: 'gate_ask', arguments: { label: 'from b' } }),
      ];
      const waiting = async () => Number(text((await a.callTool({ name: 'waiting', arguments: {} })) as never));
      await expect.poll(waiting, { timeout: 30_000 }).toBe(2);
      await a.callTool({ name: 'open_gate', arguments: {} });
      await Promise.all(calls);
      // Both calls were in flight on one server: each request is a session of its own, so neither is guessed.
      expect(asked.a).not.toContain('from b');
      expect(asked.b).not.toContain('from a');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 60_000);
});

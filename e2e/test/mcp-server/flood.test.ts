/**
 * A downstream server flooding list_changed behind `serve mcp`: the client
 * stays served while it floods, gets a bounded number of list_changed
 * notifications, and the downstream server is re-listed a bounded number
 * of times (not once per notification per session).
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Kernel } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';
import { serveHttp, type HttpMcpHandle } from '@tool-search/mcp-server';
import { call, connectHttp, text, type Connected } from './helpers.js';

const FLOODING = fileURLToPath(new URL('./fixtures/flooding-server.mjs', import.meta.url));
const COUNT = 2_000;

describe('serve mcp in front of a server flooding list_changed', () => {
  let kernel: Kernel;
  let handle: HttpMcpHandle;
  const clients: Connected[] = [];
  const listeners = new Set<() => void>();

  beforeAll(async () => {
    const preset = await createToolSearchKernel(
      {
        mcpServers: { flood: { command: process.execPath, args: [FLOODING] } },
        tools: { toolSearch: { mode: 'directory', visible: ['echo', 'flood', 'listings'] } },
      },
      { onMcpToolsChanged: () => listeners.forEach((listener) => listener()) },
    );
    kernel = preset.kernel;
    handle = await serveHttp({
      kernel,
      mode: 'directory',
      refreshIntervalMs: 0,
      ...(preset.mcpDownstream ? { downstream: preset.mcpDownstream } : {}),
      onCatalogChange: (listener) => (listeners.add(listener), () => void listeners.delete(listener)),
    });
    for (let i = 0; i < 3; i++) clients.push(await connectHttp(handle.url));
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await handle?.close();
    await kernel?.close();
  });

  it('answers calls meanwhile, and notifies clients and re-lists a bounded number of times', async () => {
    const notes = clients.map(() => ({ resources: 0, prompts: 0 }));
    clients.forEach(({ client }, i) => {
      client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void notes[i]!.resources++);
      client.setNotificationHandler(PromptListChangedNotificationSchema, () => void notes[i]!.prompts++);
    });
    const before = Number(text(await call(clients[0]!.client, 'listings')));
    const started = Date.now();
    const flood = call(clients[0]!.client, 'flood', { count: COUNT });
    // The other sessions are served while the flood runs.
    for (let i = 0; i < 10; i++)
      expect(text(await call(clients[1 + (i % 2)]!.client, 'echo', { message: `during ${i}` }))).toBe(`during ${i}`);
    expect(text(await flood)).toBe(`sent ${COUNT}`);
    const flooded = Date.now() - started;
    await expect.poll(() => notes.every((n) => n.resources > 0 && n.prompts > 0), { timeout: 10_000 }).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // the trailing notifications
    // Bounded by the windows the flood spanned on this machine (250 ms each, plus leading and trailing), never one per notification.
    const bound = Math.min(Math.ceil(flooded / 250) + 3, COUNT / 10);
    for (const n of notes) {
      expect(n.resources).toBeLessThanOrEqual(bound);
      expect(n.prompts).toBeLessThanOrEqual(bound);
    }
    const relisted = Number(text(await call(clients[0]!.client, 'listings'))) - before;
    expect(relisted).toBeGreaterThanOrEqual(1);
    expect(relisted).toBeLessThanOrEqual(bound * clients.length);
  }, 60_000);
});

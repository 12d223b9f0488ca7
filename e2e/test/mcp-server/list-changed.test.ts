/**
 * A downstream `notifications/tools/list_changed` reaches the catalog on the
 * next refresh, and when that changes what `tools/list` answers, the client
 * gets `notifications/tools/list_changed` from us.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Kernel } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';
import { serveHttp, type HttpMcpHandle } from '@tool-search/mcp-server';
import { call, connectHttp, DYNAMIC_FIXTURE, text, type Connected } from './helpers.js';

describe('list_changed', () => {
  let kernel: Kernel;
  let handle: HttpMcpHandle;
  let client: Connected;
  let notified: Promise<void>;

  beforeAll(async () => {
    ({ kernel } = await createToolSearchKernel({
      mcp: { servers: { dyn: { command: process.execPath, args: [DYNAMIC_FIXTURE] } } },
      // `added_1` does not exist yet: it becomes visible once the downstream server adds it.
      tools: { toolSearch: { mode: 'directory', visible: ['added_1'] } },
    }));
    handle = await serveHttp({ kernel, mode: 'directory', refreshIntervalMs: 50 });
    client = await connectHttp(handle.url);
    notified = new Promise((resolve) =>
      client.client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
  });
  afterAll(async () => {
    await client?.close();
    await handle?.close();
    await kernel?.close();
  });

  it('starts without the tool', async () => {
    const { tools } = await client.client.listTools();
    expect(tools.map((tool) => tool.name)).not.toContain('added_1');
  });

  it('notifies the client after a downstream tool appears, and lists it', async () => {
    const added = await call(client.client, 'tool_call', { id: 'mcp:dyn:add_tool', args: {} });
    expect(text(added)).toBe('added_1');
    await notified;
    const { tools } = await client.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('added_1');
  });

  it('routes a call to the new tool', async () => {
    expect(text(await call(client.client, 'added_1'))).toBe('added_1 ran');
  });
});

/**
 * A downstream server that dies mid-session: the call fails clearly with
 * MCP_SERVER_UNAVAILABLE, and the refresh it triggers reconnects the server
 * for the next call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Kernel } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';
import { createToolSearchMcpServer, type ToolSearchMcpServer } from '@tool-search/mcp-server';
import { call, connectInMemory, DYNAMIC_FIXTURE, errorCode, text } from './helpers.js';

describe('a downstream server that dies', () => {
  let kernel: Kernel;
  let mcp: ToolSearchMcpServer;
  let client: Client;

  beforeAll(async () => {
    ({ kernel } = await createToolSearchKernel({
      mcp: { servers: { dyn: { command: process.execPath, args: [DYNAMIC_FIXTURE] } } },
    }));
    mcp = await createToolSearchMcpServer({ kernel, mode: 'tools', refreshIntervalMs: 0 });
    ({ client } = await connectInMemory(mcp));
  });
  afterAll(async () => {
    await mcp?.close();
    await kernel?.close();
  });

  it('fails the call that killed it with MCP_SERVER_UNAVAILABLE', async () => {
    const result = await call(client, 'tool_call', { id: 'mcp:dyn:crash', args: {} });
    expect(errorCode(result)).toBe('MCP_SERVER_UNAVAILABLE');
  });

  it('answers again once the refresh that failure triggered reconnected it', async () => {
    await mcp.refresh(); // joins the refresh already running, if any
    const result = await call(client, 'tool_call', { id: 'mcp:dyn:add_tool', args: {} });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe('added_1');
  });
});

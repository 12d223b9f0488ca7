/**
 * `serveHttp` in-process, driven by the SDK client over Streamable HTTP,
 * in front of the real reference servers (one kernel for every session).
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kernel } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';
import { serveHttp, type HttpMcpHandle } from '@tool-search/mcp-server';
import {
  call,
  connectHttp,
  createWorkspace,
  hitIds,
  NOTE_TEXT,
  text,
  type Connected,
  type Workspace,
} from './helpers.js';

describe('serve mcp over Streamable HTTP', () => {
  let workspace: Workspace;
  let kernel: Kernel;
  let open: HttpMcpHandle;
  let guarded: HttpMcpHandle;
  let client: Connected;
  const TOKEN = 'test-token-0123456789';

  beforeAll(async () => {
    workspace = await createWorkspace();
    ({ kernel } = await createToolSearchKernel({ mcp: { servers: workspace.servers() } }));
    open = await serveHttp({ kernel, mode: 'tools', refreshIntervalMs: 0 });
    guarded = await serveHttp({ kernel, mode: 'tools', refreshIntervalMs: 0, token: TOKEN });
    client = await connectHttp(open.url);
  });
  afterAll(async () => {
    await client?.close();
    await open?.close();
    await guarded?.close();
    await kernel?.close();
    await workspace?.remove();
  });

  it('binds to loopback by default', () => {
    expect(open.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('lists only the control tools', async () => {
    const { tools } = await client.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['tool_call', 'tool_describe', 'tool_search']);
  });

  it('finds a downstream tool and reaches it', async () => {
    expect(hitIds(await call(client.client, 'tool_search', { query: 'echo back a message' }))[0]).toBe(
      'mcp:everything:echo',
    );
    const result = await call(client.client, 'tool_call', {
      id: 'mcp:everything:echo',
      args: { message: 'over http' },
    });
    expect(text(result)).toContain('over http');
  });

  it('reads the temp file through server-filesystem', async () => {
    const result = await call(client.client, 'tool_call', {
      id: 'mcp:filesystem:read_text_file',
      args: { path: workspace.note },
    });
    expect(text(result)).toContain(NOTE_TEXT);
  });

  it('gives every client its own MCP session', async () => {
    const second = await connectHttp(open.url);
    try {
      expect(open.sessions).toBe(2);
      expect((await second.client.listTools()).tools.length).toBe(3);
    } finally {
      await (second.client.transport as { terminateSession?: () => Promise<void> }).terminateSession?.();
      await second.close();
    }
    expect(open.sessions).toBe(1);
  });

  it('answers a request for an unknown session with 404', async () => {
    const response = await post(
      open.url,
      { 'mcp-session-id': 'no-such-session' },
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    );
    expect(response.status).toBe(404);
  });

  it('refuses a first request that is not initialize', async () => {
    const response = await post(open.url, {}, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(response.status).toBe(400);
    expect(open.sessions).toBe(1);
  });

  it('refuses a non-loopback Host header (DNS rebinding)', async () => {
    const response = await post(open.url, { host: 'attacker.example:80' }, initialize());
    expect(response.status).toBe(403);
  });

  it('refuses a request from a non-loopback Origin', async () => {
    const response = await post(open.url, { origin: 'https://attacker.example' }, initialize());
    expect(response.status).toBe(403);
  });

  it('requires the bearer token when one is set', async () => {
    expect((await post(guarded.url, {}, initialize())).status).toBe(401);
    expect((await post(guarded.url, { authorization: 'Bearer wrong-token-0123456789' }, initialize())).status).toBe(
      401,
    );
    const authorized = await connectHttp(guarded.url, { token: TOKEN });
    try {
      expect((await authorized.client.listTools()).tools.length).toBe(3);
    } finally {
      await authorized.close();
    }
  });

  it('closes a session its client abandoned, and answers it with 404 afterwards', async () => {
    // Long enough that a loaded machine finishes initialize before the session counts as idle.
    const short = await serveHttp({ kernel, mode: 'tools', refreshIntervalMs: 0, sessionIdleMs: 1_000 });
    const idle = await connectHttp(short.url);
    try {
      expect(short.sessions).toBe(1);
      while (short.sessions > 0) await new Promise((resolve) => setTimeout(resolve, 25));
      await expect(idle.client.listTools()).rejects.toMatchObject({ code: 404 });
    } finally {
      await idle.close();
      await short.close();
    }
  });

  it('refuses to bind beyond loopback without a token', async () => {
    await expect(serveHttp({ kernel, host: '0.0.0.0' })).rejects.toMatchObject({ code: 'OPTIONS_INVALID' });
  });
});

function initialize(): unknown {
  return {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  };
}

/** A raw POST (node:http, so the Host header can be set). */
function post(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let data = '';
      res.on('data', (chunk: Buffer) => (data += String(chunk)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
    });
    req.end(JSON.stringify(body));
  });
}

/**
 * API keys on `serveHttp`, driven by the official SDK client over
 * Streamable HTTP: no key and a wrong key get 401, a key's session acts as
 * the agent it allows (x-agent-id picks among them, 403 otherwise), a
 * session opened by one key is refused to another (on the replica that
 * holds it and on one that would rebuild it from the shared record), and a
 * non-loopback bind without keys refuses to start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createApiKeys, hashApiKey } from '@tool-search/auth';
import type { Kernel } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';
import { MemoryStateStore } from '@tool-search/state';
import { serveHttp, type HttpMcpHandle } from '@tool-search/mcp-server';
import { call, hitIds } from './helpers.js';

const KEY_A = 'key-a-0123456789abcdef';
const KEY_B = 'key-b-0123456789abcdef';
const TOOL = 'fake_plugin_tool_0003';

describe('serve mcp --http with API keys', () => {
  let kernel: Kernel;
  let state: MemoryStateStore;
  let first: HttpMcpHandle;
  let second: HttpMcpHandle;
  const clients: Client[] = [];

  beforeAll(async () => {
    ({ kernel } = await createToolSearchKernel({
      plugins: { 'fake-catalog': { tools: 12 } },
      agents: { list: [{ id: 'ops', default: true }, { id: 'ci', tools: { deny: ['*'] } }, { id: 'admin' }] },
    }));
    const auth = createApiKeys({
      keys: [
        { name: 'a', hash: hashApiKey(KEY_A), agents: ['ops', 'ci'] },
        { name: 'b', hash: hashApiKey(KEY_B), agents: ['*'] },
      ],
    });
    state = new MemoryStateStore();
    first = await serveHttp({ kernel, mode: 'tools', refreshIntervalMs: 0, auth, state });
    second = await serveHttp({ kernel, mode: 'tools', refreshIntervalMs: 0, auth, state: state.asReplica('second') });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await first?.close();
    await second?.close();
    await state?.close();
    await kernel?.close();
  });

  async function connect(
    url: string,
    headers: Record<string, string>,
  ): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
    const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
    const client = new Client({ name: 'auth-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return { client, transport };
  }

  /** A raw JSON-RPC POST on an existing session. */
  function post(url: string, headers: Record<string, string>, body: unknown): Promise<Response> {
    return fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
        ...headers,
      },
      body: JSON.stringify(body),
    });
  }
  const listTools = { jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} };

  it('refuses to initialize without a key or with a wrong key (401, code in error.data)', async () => {
    await expect(connect(first.url, {})).rejects.toMatchObject({ code: 401 });
    await expect(connect(first.url, { authorization: 'Bearer wrong-key-0123456789abcdef' })).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('AUTH_INVALID'),
    });
    const raw = await post(
      first.url,
      {},
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      },
    );
    expect(raw.status).toBe(401);
    expect(await raw.json()).toMatchObject({ error: { data: { code: 'AUTH_REQUIRED' } } });
    expect(first.sessions).toBe(0);
  });

  it("runs a session as its key's first agent, or the allowed agent x-agent-id picks", async () => {
    const ops = await connect(first.url, { authorization: `Bearer ${KEY_A}` });
    expect(hitIds(await call(ops.client, 'tool_search', { query: TOOL })).some((id) => id.endsWith(TOOL))).toBe(true);
    const ci = await connect(first.url, { 'x-api-key': KEY_A, 'x-agent-id': 'ci' });
    expect(hitIds(await call(ci.client, 'tool_search', { query: TOOL }))).toEqual([]);
  });

  it('refuses an agent the key does not allow (403) and lets a "*" key pick it', async () => {
    await expect(connect(first.url, { authorization: `Bearer ${KEY_A}`, 'x-agent-id': 'admin' })).rejects.toMatchObject(
      { code: 403, message: expect.stringContaining('AUTH_FORBIDDEN') },
    );
    const admin = await connect(first.url, { authorization: `Bearer ${KEY_B}`, 'x-agent-id': 'admin' });
    expect(hitIds(await call(admin.client, 'tool_search', { query: TOOL })).some((id) => id.endsWith(TOOL))).toBe(true);
  });

  it('refuses a session opened by key A to key B and to no key, here and on another replica', async () => {
    const { client, transport } = await connect(first.url, { authorization: `Bearer ${KEY_A}` });
    const session = transport.sessionId!;
    for (const url of [first.url, second.url]) {
      const stolen = await post(url, { authorization: `Bearer ${KEY_B}`, 'mcp-session-id': session }, listTools);
      expect(stolen.status).toBe(403);
      expect(await stolen.json()).toMatchObject({ error: { data: { code: 'AUTH_FORBIDDEN' } } });
      expect((await post(url, { 'mcp-session-id': session }, listTools)).status).toBe(401);
      const deleted = await fetch(url, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${KEY_B}`, 'mcp-session-id': session },
      });
      expect(deleted.status).toBe(403);
    }
    // The owner goes on, on both replicas (the second rebuilds the session from its record, bound to key A).
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('tool_search');
    const elsewhere = await post(
      second.url,
      { authorization: `Bearer ${KEY_A}`, 'mcp-session-id': session },
      listTools,
    );
    expect(elsewhere.status).toBe(200);
  });

  it('refuses to bind beyond loopback without keys, naming the fix', async () => {
    await expect(serveHttp({ kernel, host: '0.0.0.0' })).rejects.toMatchObject({
      code: 'OPTIONS_INVALID',
      message: expect.stringContaining('auth.keys'),
    });
  });

  it('stays keyless on loopback without keys', async () => {
    const open = await serveHttp({ kernel, mode: 'tools', refreshIntervalMs: 0 });
    try {
      const { client } = await connect(open.url, {});
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('tool_search');
    } finally {
      await open.close();
    }
  });
});

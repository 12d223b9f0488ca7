/**
 * Both protocol eras against `serveHttp`, with the v2 client SDK as an
 * independent peer: a client pinned to 2026-07-28 is served statelessly
 * (`server/discover`, lists with `ttlMs` and `cacheScope: "private"`,
 * `tools/list` in name order, calls through the run, resources and prompts
 * namespaced), and a downstream 2025-era server's elicitation reaches it as
 * an `input_required` round trip; a client pinned to 2025-11-25 still gets a
 * session and a pushed elicitation. Raw HTTP checks the headers the
 * 2026-07-28 transport requires.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import type { Kernel } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';
import { ECHO_MAX_CHARS, McpServerErrors, serveHttp, type HttpMcpHandle } from '@tool-search/mcp-server';
import { CONFORMANCE_FIXTURE } from './conformance-kit.js';

const MODERN_FIXTURE = fileURLToPath(
  new URL('../../../packages/plugin-mcp/test/fixtures/modern-server.mjs', import.meta.url),
);
const MODERN = '2026-07-28';

let kernel: Kernel;
let http: HttpMcpHandle;
const clients: Client[] = [];

beforeAll(async () => {
  const preset = await createToolSearchKernel({
    mcpServers: {
      conf: { command: process.execPath, args: [CONFORMANCE_FIXTURE] },
      modern: { command: process.execPath, args: [MODERN_FIXTURE] },
    },
  });
  kernel = preset.kernel;
  http = await serveHttp({
    kernel,
    mode: 'directory',
    refreshIntervalMs: 0,
    ...(preset.mcpDownstream ? { downstream: preset.mcpDownstream } : {}),
  });
}, 60_000);
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await http?.close();
  await kernel?.close();
});

const asked: string[] = [];

async function connect(
  mode: 'legacy' | { pin: string },
  capabilities: Record<string, object> = { elicitation: {} },
): Promise<Client> {
  const client = new Client({ name: 'v2-peer', version: '1.0.0' }, { capabilities, versionNegotiation: { mode } });
  if (capabilities.elicitation) {
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: 'accept', content: { response: 'yes', go: true } };
    });
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  clients.push(client);
  return client;
}

const text = (result: unknown) =>
  ((result as CallToolResult).content ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');

/** A raw 2026-07-28 request: the `_meta` envelope and the headers the transport requires. */
async function raw(
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(http.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': {
            name: 'raw',
            version: '1.0.0',
          },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  const type = response.headers.get('content-type') ?? '';
  const payload = await response.text();
  const json = type.includes('event-stream')
    ? (payload
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)))
        .at(-1) as Record<string, unknown>)
    : (JSON.parse(payload) as Record<string, unknown>);
  return { status: response.status, body: json };
}

describe('a v2 client pinned to 2026-07-28', () => {
  it('negotiates by server/discover, with no session', async () => {
    const client = await connect({ pin: MODERN });
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(http.sessions).toBe(0);
  });

  it('lists tools in name order and calls through the run', async () => {
    const client = await connect({ pin: MODERN });
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual([...names].sort());
    expect(names).toContain('tool_search');
    const found = await client.callTool({
      name: 'tool_call',
      arguments: { id: 'mcp:modern:echo', args: { message: 'hi' } },
    });
    expect(text(found)).toBe('echo: hi');
    expect(http.sessions).toBe(0);
  });

  it("answers a 2025-era server's elicitation through an input_required round trip", async () => {
    const client = await connect({ pin: MODERN });
    asked.length = 0;
    const result = await client.callTool({
      name: 'tool_call',
      arguments: {
        id: 'mcp:conf:test_elicitation',
        args: { message: 'Proceed?' },
      },
    });
    expect(text(result)).toBe('User response: action=accept, content={"response":"yes","go":true}');
    expect(asked).toEqual(['Proceed?']);
  });

  it("answers a 2026-07-28 server's input_required through its own round trip", async () => {
    const client = await connect({ pin: MODERN });
    asked.length = 0;
    const result = await client.callTool({
      name: 'tool_call',
      arguments: { id: 'mcp:modern:confirm', args: {} },
    });
    expect(text(result)).toContain('confirmed:');
    expect(asked).toEqual(['Go ahead?']);
  });

  it('refuses elicitation for a client that did not declare it', async () => {
    const client = await connect({ pin: MODERN }, {});
    asked.length = 0;
    const result = await client.callTool({
      name: 'tool_call',
      arguments: {
        id: 'mcp:conf:test_elicitation',
        args: { message: 'Proceed?' },
      },
    });
    expect(asked).toEqual([]);
    expect(text(result)).not.toContain('action=accept');
  });

  it('gets resources and prompts namespaced', async () => {
    const client = await connect({ pin: MODERN });
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toContain('tool-search://conf/test://static-text');
    const read = await client.readResource({
      uri: 'tool-search://conf/test://static-text',
    });
    expect(read.contents[0]?.uri).toBe('test://static-text');
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toContain('conf:test_simple_prompt');
  });
});

describe('raw 2026-07-28 requests', () => {
  it('every list carries ttlMs and cacheScope "private"', async () => {
    for (const method of ['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list']) {
      const { status, body } = await raw(method);
      expect(status, method).toBe(200);
      const result = body.result as { ttlMs?: unknown; cacheScope?: unknown };
      expect(result.cacheScope, method).toBe('private');
      expect(typeof result.ttlMs, method).toBe('number');
    }
  });

  it('a missing or mismatched Mcp-Method header is a clear JSON-RPC error', async () => {
    const mismatch = await raw('tools/list', {}, { 'mcp-method': 'prompts/list' });
    expect(mismatch.status).toBe(400);
    expect((mismatch.body.error as { code: number }).code).toBe(-32020);
    const response = await fetch(http.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/list',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': MODERN,
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error?: { code?: number } }).error?.code).toBeTypeOf('number');
  });

  it('a tools/call whose Mcp-Name disagrees with the body is refused', async () => {
    const { status, body } = await raw(
      'tools/call',
      { name: 'tool_search', arguments: { query: 'echo' } },
      { 'mcp-name': 'tool_call' },
    );
    expect(status).toBe(400);
    expect((body.error as { code: number }).code).toBe(-32020);
  });

  it("a missing resource is the era's code: -32602 with data.uri for 2026-07-28 (-32002 before)", async () => {
    const uri = 'tool-search://conf/test://no-such-resource';
    const { body } = await raw('resources/read', { uri }, { 'mcp-name': uri });
    const error = body.error as { code: number; data?: { uri?: string } };
    expect(error.code).toBe(-32602);
    expect(error.data?.uri).toBe(uri);
  });

  it('an unknown requestState is InvalidParams, naming the fix', async () => {
    const { body } = await raw(
      'tools/call',
      {
        name: 'tool_search',
        arguments: { query: 'echo' },
        requestState: 'forged',
      },
      { 'mcp-name': 'tool_search' },
    );
    expect((body.error as { code: number }).code).toBe(-32602);
  });

  it('refuses a 1 MB requestState with a coded error that does not echo it, and cuts an echoed one', async () => {
    const call = (requestState: string) =>
      raw(
        'tools/call',
        { name: 'tool_search', arguments: { query: 'echo' }, requestState },
        { 'mcp-name': 'tool_search' },
      );
    const huge = await call('A'.repeat(1_000_000));
    const error = huge.body.error as { code: number; data?: { code?: string; details?: { length?: number } } };
    expect(error.code).toBe(-32602);
    expect(error.data?.code).toBe(McpServerErrors.MCP_REQUEST_STATE_INVALID);
    expect(error.data?.details?.length).toBe(1_000_000);
    expect(JSON.stringify(huge.body).length).toBeLessThan(2_000);
    // Under the refusal bound: unknown, and echoed only cut to the echo bound.
    const long = await call('B'.repeat(ECHO_MAX_CHARS + 1));
    expect((long.body.error as { code: number }).code).toBe(-32602);
    expect(JSON.stringify(long.body)).not.toContain('B'.repeat(ECHO_MAX_CHARS + 1));
  });
});

describe('a v2 client pinned to 2025-11-25', () => {
  it('gets a session, and a pushed elicitation from a 2025-era server', async () => {
    const client = await connect('legacy');
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(http.sessions).toBe(1);
    asked.length = 0;
    const result = await client.callTool({
      name: 'tool_call',
      arguments: {
        id: 'mcp:conf:test_elicitation',
        args: { message: 'Old way?' },
      },
    });
    expect(text(result)).toContain('action=accept');
    expect(asked).toEqual(['Old way?']);
  });

  it('cuts a long resource URI it echoes in a not-found error', async () => {
    const client = await connect('legacy');
    const uri = `tool-search://conf/test://${'x'.repeat(100_000)}`;
    const error = await client.readResource({ uri }).then(
      () => expect.fail('read a resource that is not there'),
      (error: { code?: number; message: string; data?: unknown }) => error,
    );
    expect(error.message).toContain('Resource not found');
    expect(error.message.length + JSON.stringify(error.data).length).toBeLessThan(2_000);
  });
});

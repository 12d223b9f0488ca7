/**
 * Who a downstream tool is for, through serve mcp (issue 44, items 3 and 6), with a real SDK server
 * (packages/plugin-mcp/test/fixtures/visibility-server.mjs) behind the preset, in `tools` mode, for 2025-era and
 * 2026-07-28 clients:
 * - `_meta["anthropic/alwaysLoad"]` pins a tool: listed next to the control tools; denied by policy, it stays hidden;
 * - an MCP Apps app-only tool (`_meta.ui.visibility: ["app"]`) is neither listed nor found by `tool_search` nor
 *   reachable through `tool_call`, yet a `tools/call` by its name (what the app's host sends) runs it;
 * - Claude Code (`clientInfo.name` "claude-code") or a client declaring `experimental.toolReference` gets the
 *   catalog listed (to defer and load natively) and `tool_reference` blocks in search results' `_meta`; a plain client
 *   gets neither.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Kernel } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';
import { serveHttp, TOOL_REFERENCES_META_KEY, type HttpMcpHandle } from '@tool-search/mcp-server';

const SHOP = fileURLToPath(
  new URL('../../../packages/plugin-mcp/test/fixtures/visibility-server.mjs', import.meta.url),
);
const CONTROL = ['tool_call', 'tool_describe', 'tool_search'];

interface Served {
  kernel: Kernel;
  http: HttpMcpHandle;
}

async function serve(deny: string[] = [], toolReferences = true): Promise<Served> {
  const { kernel, mcpDownstream } = await createToolSearchKernel({
    mcpServers: { shop: { command: process.execPath, args: [SHOP] } },
    tools: { toolSearch: { mode: 'tools' }, ...(deny.length ? { deny } : {}) },
  });
  const http = await serveHttp({
    kernel,
    mode: 'tools',
    refreshIntervalMs: 0,
    toolReferences,
    ...(mcpDownstream ? { downstream: mcpDownstream } : {}),
  });
  return { kernel, http };
}

const served: Served[] = [];
const clients: Client[] = [];
let open: Served;
let denied: Served;
let plainOnly: Served;

beforeAll(async () => {
  open = await serve();
  denied = await serve(['mcp:shop:pinned_clock', 'mcp:shop:cart_update']);
  plainOnly = await serve([], false);
  served.push(open, denied, plainOnly);
}, 60_000);
afterAll(async () => {
  // closing at the end: a client already gone is fine
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  for (const { http, kernel } of served) {
    await http.close();
    await kernel.close();
  }
});

type Era = 'legacy' | { pin: '2026-07-28' };

async function connect(
  url: string,
  era: Era,
  name: string,
  experimental?: Record<string, Record<string, never>>,
): Promise<Client> {
  const client = new Client(
    { name, version: '1.0.0' },
    { versionNegotiation: { mode: era }, ...(experimental ? { capabilities: { experimental } } : {}) },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return client;
}

const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name).sort();
const texts = (result: { content?: unknown }) =>
  ((result.content ?? []) as { type: string; text?: string }[]).filter((block) => block.type === 'text');
/** The `tool_reference` blocks of a result: in `_meta` (MCP content has no such type), never in `content`. */
const references = (result: { content?: unknown; _meta?: Record<string, unknown> }) => {
  expect(JSON.stringify(result.content)).not.toContain('tool_reference');
  return (result._meta?.[TOOL_REFERENCES_META_KEY] ?? []) as { type: string; tool_name: string }[];
};

describe.each([
  ['2025-11-25', 'legacy'],
  ['2026-07-28', { pin: '2026-07-28' }],
] as const)('pinned and app-only tools behind serve mcp (a %s client)', (_label, era) => {
  let plain: Client;
  beforeAll(async () => {
    plain = await connect(open.http.url, era, 'app-host');
  });

  it('lists the pinned tool next to the control tools, and never the app-only one', async () => {
    expect(await names(plain)).toEqual(['pinned_clock', ...CONTROL].sort());
    const pinned = (await plain.listTools()).tools.find((tool) => tool.name === 'pinned_clock');
    expect(pinned?._meta?.['anthropic/alwaysLoad']).toBe(true);
  });

  it('finds the app-only tool by no search, and gives plain text results', async () => {
    const result = await plain.callTool({ name: 'tool_search', arguments: { query: 'update cart item quantity' } });
    const ids = ((result.structuredContent as { hits: { id: string }[] }).hits ?? []).map((hit) => hit.id);
    expect(ids).toContain('mcp:shop:show_cart');
    expect(ids).not.toContain('mcp:shop:cart_update');
    expect(JSON.stringify(result.content)).not.toContain('cart_update');
    expect(references(result)).toEqual([]);
  });

  it('refuses the app-only tool to tool_call (the model) but runs it for the app, by name', async () => {
    const viaModel = await plain.callTool({ name: 'tool_call', arguments: { id: 'mcp:shop:cart_update', args: {} } });
    expect(viaModel.isError).toBe(true);
    expect((viaModel.structuredContent as { error: { code: string } }).error.code).toBe('UNKNOWN_TOOL');
    const viaApp = await plain.callTool({ name: 'cart_update', arguments: { quantity: 3 } });
    expect(viaApp.isError).toBeFalsy();
    expect(texts(viaApp)[0]?.text).toBe(JSON.stringify({ tool: 'cart_update', args: { quantity: 3 } }));
  });

  it('keeps a denied pinned tool hidden and a denied app-only tool uncallable', async () => {
    const client = await connect(denied.http.url, era, 'app-host');
    expect(await names(client)).toEqual(CONTROL);
    const result = await client.callTool({ name: 'cart_update', arguments: { quantity: 1 } });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as { error: { code: string } }).error.code).toBe('UNKNOWN_TOOL');
  });

  it('gives Claude Code the catalog to defer and tool_reference blocks for what a search found', async () => {
    const claude = await connect(open.http.url, era, 'claude-code');
    expect(await names(claude)).toEqual(['pinned_clock', 'plain_weather', 'show_cart', ...CONTROL].sort());
    const result = await claude.callTool({ name: 'tool_search', arguments: { query: 'weather forecast city' } });
    expect(texts(result)[0]?.text).toContain('mcp:shop:plain_weather');
    expect(references(result)).toContainEqual({ type: 'tool_reference', tool_name: 'plain_weather' });
    expect(JSON.stringify(references(result))).not.toContain('cart_update');
    // The tool it loaded natively is called by its listed name.
    const called = await claude.callTool({ name: 'plain_weather', arguments: { quantity: 1 } });
    expect(texts(called)[0]?.text).toBe(JSON.stringify({ tool: 'plain_weather', args: { quantity: 1 } }));
  });

  it('treats a client declaring experimental.toolReference the same way', async () => {
    const other = await connect(open.http.url, era, 'some-agent', { toolReference: {} });
    expect(await names(other)).toContain('plain_weather');
    const result = await other.callTool({ name: 'tool_search', arguments: { query: 'weather forecast city' } });
    expect(references(result)).toContainEqual({ type: 'tool_reference', tool_name: 'plain_weather' });
  });

  it('gives Claude Code the plain list and results when toolReferences is false', async () => {
    const claude = await connect(plainOnly.http.url, era, 'claude-code');
    expect(await names(claude)).toEqual(['pinned_clock', ...CONTROL].sort());
    const result = await claude.callTool({ name: 'tool_search', arguments: { query: 'weather forecast city' } });
    expect(references(result)).toEqual([]);
  });
});

describe('an alwaysVisible pin of the whole server', () => {
  it('pins its tools for the model, except the app-only one', async () => {
    const { kernel, mcpDownstream } = await createToolSearchKernel({
      mcp: { servers: { shop: { command: process.execPath, args: [SHOP], alwaysVisible: true } } },
      tools: { toolSearch: { mode: 'tools' } },
    });
    const http = await serveHttp({
      kernel,
      mode: 'tools',
      refreshIntervalMs: 0,
      ...(mcpDownstream ? { downstream: mcpDownstream } : {}),
    });
    served.push({ kernel, http });
    const client = await connect(http.url, 'legacy', 'app-host');
    expect(await names(client)).toEqual(['pinned_clock', 'plain_weather', 'show_cart', ...CONTROL].sort());
  });
});

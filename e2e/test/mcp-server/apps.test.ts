/**
 * MCP Apps through the aggregator: a real server declaring an app with
 * `@modelcontextprotocol/ext-apps` (test/fixtures/app-server.mjs) sits behind
 * serve mcp. Its tool keeps its `_meta`, with the UI reference
 * (`_meta.ui.resourceUri` and the older `_meta["ui/resourceUri"]`) rewritten
 * to the namespaced URI under which `resources/list` shows the `ui://`
 * resource, and reading that URI returns the HTML view and its `_meta`
 * unchanged, for 2025-era and 2026-07-28 clients alike.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Kernel } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';
import { serveHttp, type HttpMcpHandle } from '@tool-search/mcp-server';

const APP_FIXTURE = fileURLToPath(new URL('./fixtures/app-server.mjs', import.meta.url));
const VIEW = 'ui://weather/view.html';
const NAMESPACED = `tool-search://weather/${VIEW}`;

let kernel: Kernel;
let http: HttpMcpHandle;
const clients: Client[] = [];

beforeAll(async () => {
  // The app's tool stays directly visible (tools.toolSearch.visible), as a host that renders it would configure.
  const preset = await createToolSearchKernel({
    mcpServers: { weather: { command: process.execPath, args: [APP_FIXTURE] } },
    tools: { toolSearch: { visible: ['mcp:weather:show_weather'] } },
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

describe.each([
  ['2025-11-25', 'legacy'],
  ['2026-07-28', { pin: '2026-07-28' }],
] as const)('an MCP App behind serve mcp (a %s client)', (_label, mode) => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'app-host', version: '1.0.0' }, { versionNegotiation: { mode } });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    clients.push(client);
  });

  it("lists the app's tool with its UI reference namespaced", async () => {
    const tool = (await client.listTools()).tools.find((candidate) => candidate.name === 'show_weather');
    expect(tool?._meta?.ui).toEqual({ resourceUri: NAMESPACED });
    expect(tool?._meta?.['ui/resourceUri']).toBe(NAMESPACED);
  });

  it('lists and reads the ui:// resource under that URI, contents intact', async () => {
    const listed = (await client.listResources()).resources.find((resource) => resource.uri === NAMESPACED);
    expect(listed?.mimeType).toBe('text/html;profile=mcp-app');
    const read = await client.readResource({ uri: NAMESPACED });
    expect(read.contents).toEqual([
      {
        uri: VIEW,
        mimeType: 'text/html;profile=mcp-app',
        text: '<!doctype html><html><body><h1>Weather</h1><script>/* app */</script></body></html>',
        _meta: { ui: { prefersBorder: true } },
      },
    ]);
  });

  it('calls the tool, structured content intact', async () => {
    const result = await client.callTool({ name: 'show_weather', arguments: {} });
    expect(result.structuredContent).toEqual({ sky: 'sunny', celsius: 21 });
  });
});

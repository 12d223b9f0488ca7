/** server-everything, the MCP reference server, over stdio, Streamable HTTP and the older HTTP+SSE. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel, type Run } from '@tool-search/kernel';
import { mcpPlugin, type McpPlugin } from '../src/index.js';
import { nodeServer, startEverythingHttp, type HttpServer } from './helpers.js';

describe('server-everything over stdio', () => {
  let plugin: McpPlugin;
  let kernel: Kernel;
  let run: Run;

  beforeAll(async () => {
    plugin = mcpPlugin({
      servers: { everything: { ...nodeServer('server-everything', 'stdio'), env: { TS_FIXTURE_ENV: 'from-config' } } },
    });
    kernel = createKernel({ plugins: [plugin] });
    run = await kernel.createRun();
  });
  afterAll(() => kernel.close());

  it('lists its tools as mcp:everything:<tool> with the server in meta', () => {
    const echo = run.tool('mcp:everything:echo');
    expect(echo).toMatchObject({ name: 'echo', source: 'mcp', owner: 'everything', meta: { mcpServer: 'everything' } });
    expect(run.catalog.every((tool) => tool.id.startsWith('mcp:everything:'))).toBe(true);
    expect(run.diagnostics.filter((d) => d.level === 'error')).toEqual([]);
  });

  it('carries MCP annotations as the server sent them', () => {
    expect(run.tool('mcp:everything:echo')?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(run.tool('mcp:everything:toggle-simulated-logging')?.annotations).toMatchObject({ readOnlyHint: false });
  });

  it('forwards a call and returns the server result', async () => {
    const outcome = await run.call('mcp:everything:echo', { message: 'hello' });
    expect(outcome.status).toBe('ok');
    if (outcome.status !== 'ok') return;
    expect(outcome.result.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('hello') });
  });

  it('keeps structured content and the output schema', async () => {
    expect(run.tool('mcp:everything:get-structured-content')?.outputSchema).toBeDefined();
    const outcome = await run.call('mcp:everything:get-structured-content', { location: 'Chicago' });
    expect(outcome.status).toBe('ok');
    if (outcome.status !== 'ok') return;
    expect(outcome.result.structuredContent).toMatchObject({ temperature: expect.any(Number) });
  });

  it('passes the configured env to the server process', async () => {
    const outcome = await run.call('mcp:everything:get-env', {});
    expect(outcome.status).toBe('ok');
    if (outcome.status !== 'ok') return;
    expect(JSON.stringify(outcome.result.content)).toContain('from-config');
  });

  it('cancels a running call when the caller aborts', async () => {
    const controller = new AbortController();
    const pending = run.call(
      'mcp:everything:trigger-long-running-operation',
      { duration: 30, steps: 3 },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 200);
    const outcome = await pending;
    expect(outcome).toMatchObject({ status: 'error', error: { code: 'TOOL_CALL_ABORTED' } });
  });

  it('reports the stdio transport, the child pid and the negotiated protocol version', () => {
    expect(plugin.servers()).toEqual([
      expect.objectContaining({
        name: 'everything',
        state: 'connected',
        transport: 'stdio',
        pid: expect.any(Number),
        protocolVersion: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      }),
    ]);
  });
});

describe('server-everything over HTTP', () => {
  const started: HttpServer[] = [];
  afterAll(async () => {
    await Promise.all(started.map((server) => server.stop()));
  });

  it('lists and calls over Streamable HTTP', async () => {
    const server = await startEverythingHttp('streamableHttp');
    started.push(server);
    const plugin = mcpPlugin({ servers: { remote: { url: server.url } } });
    const kernel = createKernel({ plugins: [plugin] });
    try {
      const run = await kernel.createRun();
      expect(run.tool('mcp:remote:echo')).toBeDefined();
      const outcome = await run.call('mcp:remote:echo', { message: 'over http' });
      expect(outcome).toMatchObject({
        status: 'ok',
        result: { content: [{ type: 'text', text: expect.stringContaining('over http') }] },
      });
      expect(plugin.servers()[0]).toMatchObject({
        state: 'connected',
        transport: 'streamable-http',
        protocolVersion: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      });
    } finally {
      await kernel.close();
    }
  });

  it('falls back to HTTP+SSE when the server only speaks that', async () => {
    const server = await startEverythingHttp('sse');
    started.push(server);
    const plugin = mcpPlugin({ servers: { legacy: { url: server.url } } });
    const kernel = createKernel({ plugins: [plugin] });
    try {
      const run = await kernel.createRun();
      const outcome = await run.call('mcp:legacy:get-sum', { a: 2, b: 3 });
      expect(outcome).toMatchObject({
        status: 'ok',
        result: { content: [{ type: 'text', text: expect.stringContaining('5') }] },
      });
      expect(plugin.servers()[0]).toMatchObject({ state: 'connected', transport: 'sse' });
    } finally {
      await kernel.close();
    }
  });
});

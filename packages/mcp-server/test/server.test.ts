/**
 * `createToolSearchMcpServer` against a small in-memory kernel, over the SDK's
 * in-memory transport: when a refresh replaces the run, what the client is
 * told, and that a refresh never cancels a call in flight.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createKernel, type Kernel, type KernelPlugin, type ToolDefinition } from '@tool-search/kernel';
import { createToolSearchMcpServer, type ToolSearchMcpServer } from '../src/index.js';
import { connectInMemory, errorCode, text } from './helpers.js';

const schema = { type: 'object', properties: {} } as const;

/** A source whose tool list the test edits, a `tools` mode with one fixed control tool, a `directory` mode that shows every tool. */
function testKernel(state: { tools: ToolDefinition[] }, extra: KernelPlugin[] = []): Kernel {
  const plugin: KernelPlugin = {
    name: 'test-plugin',
    apply({ hooks }) {
      hooks.listTools.tap((sink) => sink.add(state.tools));
      hooks.materialize.for('tools').tap((draft) => {
        draft.tools.push({
          name: 'fixed',
          description: 'A control tool',
          inputSchema: schema,
          handler: async () => ({ content: [{ type: 'text', text: 'fixed' }] }),
        });
        return draft;
      });
      hooks.materialize.for('directory').tap((draft, ctx) => {
        draft.tools.push(
          ...ctx.searchable.map((tool) => ({
            name: tool.name,
            description: tool.description,
            inputSchema: tool.inputSchema,
            toolId: tool.id,
          })),
        );
        return draft;
      });
    },
  };
  return createKernel({ plugins: [plugin, ...extra] });
}

function tool(name: string, execute?: ToolDefinition['execute']): ToolDefinition {
  return {
    name,
    source: 'plugin',
    owner: 'test',
    description: `The ${name} tool`,
    inputSchema: schema,
    execute: execute ?? (() => ({ content: [{ type: 'text', text: name }] })),
  };
}

async function callTool(client: Client, name: string): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: {} })) as CallToolResult;
}

describe('createToolSearchMcpServer', () => {
  let state: { tools: ToolDefinition[] };
  let kernel: Kernel;
  let mcp: ToolSearchMcpServer | undefined;

  beforeEach(() => {
    state = { tools: [tool('alpha')] };
    kernel = testKernel(state);
  });
  afterEach(async () => {
    await mcp?.close();
    await kernel.close();
  });

  it('keeps its run when a refresh finds nothing changed', async () => {
    mcp = await createToolSearchMcpServer({ kernel, mode: 'directory', refreshIntervalMs: 0 });
    const before = mcp.exposure();
    expect(await mcp.refresh()).toBe(false);
    expect(mcp.exposure()).toBe(before);
  });

  it('tells the client when a refresh changed the tool list', async () => {
    mcp = await createToolSearchMcpServer({ kernel, mode: 'directory', refreshIntervalMs: 0 });
    const { client, notifications } = await connectInMemory(mcp);
    state.tools = [tool('alpha'), tool('beta')];
    expect(await mcp.refresh()).toBe(true);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['alpha', 'beta']);
    await client.ping(); // the notification was sent before refresh() resolved; a round trip delivers it
    expect(notifications()).toBe(1);
  });

  it('replaces the run but stays silent when only the hidden catalog changed', async () => {
    mcp = await createToolSearchMcpServer({ kernel, mode: 'tools', refreshIntervalMs: 0 });
    const { client, notifications } = await connectInMemory(mcp);
    const before = mcp.exposure();
    state.tools = [tool('alpha'), tool('beta')];
    expect(await mcp.refresh()).toBe(false);
    expect(mcp.exposure()).not.toBe(before);
    await client.ping();
    expect(notifications()).toBe(0);
  });

  it('lets a call in flight finish when a refresh replaces its run', async () => {
    let release!: () => void;
    let started!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const running = new Promise<void>((resolve) => (started = resolve));
    state.tools = [
      tool('slow', async () => (started(), await gate, { content: [{ type: 'text', text: 'slow done' }] })),
    ];
    mcp = await createToolSearchMcpServer({ kernel, mode: 'directory', refreshIntervalMs: 0 });
    const { client } = await connectInMemory(mcp);
    const pending = callTool(client, 'slow');
    await running;
    state.tools = [...state.tools, tool('beta')];
    expect(await mcp.refresh()).toBe(true);
    release();
    const result = await pending;
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe('slow done');
  });

  it('uses one session id for every run of an MCP session', async () => {
    const sessions: string[] = [];
    await kernel.close();
    kernel = testKernel(state, [
      { name: 'session-spy', apply: ({ hooks }) => hooks.runStart.tap((run) => void sessions.push(run.sessionId)) },
    ]);
    mcp = await createToolSearchMcpServer({ kernel, mode: 'directory', refreshIntervalMs: 0 });
    state.tools = [tool('alpha'), tool('beta')];
    await mcp.refresh();
    expect(sessions.length).toBe(2);
    expect(new Set(sessions)).toEqual(new Set([mcp.sessionId]));
  });

  it('starts a fresh run after a guard stopped the current one', async () => {
    await kernel.close();
    const stopper: KernelPlugin = {
      name: 'stopper',
      apply: ({ hooks }) =>
        hooks.beforeToolCall.tap((call) =>
          call.tool.name === 'stop' ? { action: 'block', reason: 'loop', stopRun: true } : undefined,
        ),
    };
    state.tools = [tool('alpha'), tool('stop')];
    kernel = testKernel(state, [stopper]);
    mcp = await createToolSearchMcpServer({ kernel, mode: 'directory', refreshIntervalMs: 0 });
    const { client } = await connectInMemory(mcp);
    expect(errorCode(await callTool(client, 'stop'))).toBe('TOOL_CALL_BLOCKED');
    expect(errorCode(await callTool(client, 'alpha'))).toBe('RUN_STOPPED');
    await mcp.refresh();
    expect(text(await callTool(client, 'alpha'))).toBe('alpha');
  });

  it('calls refresh on a catalog-change signal', async () => {
    let signal: (() => void) | undefined;
    let unsubscribed = false;
    mcp = await createToolSearchMcpServer({
      kernel,
      mode: 'directory',
      refreshIntervalMs: 0,
      onCatalogChange: (listener) => {
        signal = listener;
        return () => void (unsubscribed = true);
      },
    });
    const { client } = await connectInMemory(mcp);
    const notified = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    state.tools = [tool('alpha'), tool('gamma')];
    signal?.();
    await notified;
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['alpha', 'gamma']);
    await mcp.close();
    expect(unsubscribed).toBe(true);
  });
});

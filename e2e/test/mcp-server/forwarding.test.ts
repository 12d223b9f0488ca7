/**
 * What a downstream server sends back during a call reaches the calling
 * client through serve mcp: progress under the client's token (directly, by
 * hidden directory name, through tool_call and openclaw.tools.call in code),
 * the call's logs tagged with the server and filtered by logging/setLevel
 * (which is passed on; logs outside calls reach no session), sampling and elicitation when the client declared them (refused
 * otherwise), and cancellation both ways. Real downstream: the conformance
 * fixture over stdio.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  type CallToolResult,
  type LoggingMessageNotification,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { type Kernel } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';
import { createToolSearchMcpServer, type McpMode, type ToolSearchMcpServer } from '@tool-search/mcp-server';
import { CONFORMANCE_FIXTURE } from './conformance-kit.js';
import { errorCode, text } from './helpers.js';
import { McpErrors } from '@tool-search/plugin-mcp';

// These wait for a notification or a log line, not for a time: the bound only ends a hung test on a loaded machine.
const EVENT = { timeout: 30_000, interval: 20 };

interface Session {
  readonly client: Client;
  readonly logs: LoggingMessageNotification['params'][];
  readonly mcp: ToolSearchMcpServer;
}

describe('forwarding through serve mcp', () => {
  let kernel: Kernel;
  let downstream: Parameters<typeof createToolSearchMcpServer>[0]['downstream'];
  const open: Session[] = [];

  beforeAll(async () => {
    const preset = await createToolSearchKernel({
      mcpServers: { conf: { command: process.execPath, args: [CONFORMANCE_FIXTURE] } },
    });
    kernel = preset.kernel;
    downstream = preset.mcpDownstream;
  });
  afterAll(async () => {
    await Promise.all(open.map(async ({ client, mcp }) => (await client.close(), await mcp.close())));
    await kernel.close();
  });

  async function session(
    mode: McpMode,
    capabilities: Record<string, object> = {},
    setup: (client: Client) => void = () => {},
  ): Promise<Session> {
    const mcp = await createToolSearchMcpServer({
      kernel,
      mode,
      refreshIntervalMs: 0,
      ...(downstream ? { downstream } : {}),
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.server.connect(serverSide);
    const client = new Client({ name: 'forwarding-test', version: '1.0.0' }, { capabilities });
    const logs: LoggingMessageNotification['params'][] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => void logs.push(params));
    setup(client);
    await client.connect(clientSide);
    const opened = { client, logs, mcp };
    open.push(opened);
    return opened;
  }

  async function withProgress(
    client: Client,
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ result: CallToolResult; progress: Progress[] }> {
    const progress: Progress[] = [];
    const result = await client.request(
      { method: 'tools/call', params: { name, arguments: args } },
      CallToolResultSchema,
      { onprogress: (p) => void progress.push(p) },
    );
    return { result, progress };
  }

  it('returns progress under the client token by hidden name, through tool_call and from code', async () => {
    const directory = await session('directory');
    const hidden = await withProgress(directory.client, 'test_tool_with_progress', {});
    expect(text(hidden.result)).toBe('progress token: received');
    expect(hidden.progress.map((p) => p.progress)).toEqual([0, 50, 100]);

    const tools = await session('tools');
    const viaToolCall = await withProgress(tools.client, 'tool_call', {
      id: 'mcp:conf:test_tool_with_progress',
      args: {},
    });
    expect(viaToolCall.progress).toEqual(
      [0, 50, 100].map((progress) => ({ progress, total: 100, message: `Completed step ${progress} of 100` })),
    );

    const code = await session('code');
    const fromCode = await withProgress(code.client, 'tool_search_code', {
      code: `const r = await openclaw.tools.call('mcp:conf:test_tool_with_progress', {}); return r.content[0].text;`,
    });
    expect((fromCode.result.structuredContent as { value?: unknown }).value).toBe('progress token: received');
    expect(fromCode.progress.map((p) => p.progress)).toEqual([0, 50, 100]);
  });

  it('asks the downstream server for no progress when the client did not', async () => {
    const { client } = await session('directory');
    expect(text((await client.callTool({ name: 'test_tool_with_progress', arguments: {} })) as CallToolResult)).toBe(
      'progress token: none',
    );
  });

  it('forwards the call logs tagged with the server, passes logging/setLevel on and filters by it', async () => {
    const { client, logs } = await session('directory');
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    expect(logs.map((log) => [log.logger, log.data])).toEqual([
      ['conf:conformance-downstream', 'Tool execution started'],
      ['conf:conformance-downstream', 'Tool processing data'],
      ['conf:conformance-downstream', 'Tool execution completed'],
    ]);
    logs.length = 0;
    // The downstream server logs its new level outside any call: it got the request; that log is nobody's, so it
    // reaches the downstream listeners and no session.
    const seen: string[] = [];
    const off = downstream!.on((event) => void (event.type === 'log' && seen.push(String(event.params.data))));
    await client.setLoggingLevel('debug');
    await vi.waitFor(() => expect(seen).toContain('Log level set to: debug'), EVENT);
    off();
    await client.setLoggingLevel('error');
    logs.length = 0;
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    expect(logs).toEqual([]);
  });

  it('passes on the most verbose level any session asks for, and each session filters its own', async () => {
    const seen: string[] = [];
    const off = downstream!.on((event) => void (event.type === 'log' && seen.push(String(event.params.data))));
    const a = await session('directory');
    const b = await session('directory');
    await a.client.setLoggingLevel('debug');
    await vi.waitFor(() => expect(seen).toContain('Log level set to: debug'), EVENT);
    await b.client.setLoggingLevel('error');
    await vi.waitFor(() => expect(seen.filter((data) => data === 'Log level set to: debug')).toHaveLength(2), EVENT);
    // The server logs at debug for both; its info lines reach A's call, not B's (B asked for errors only).
    await a.client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    await b.client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    expect(a.logs.map((log) => log.data)).toContain('Tool processing data');
    expect(b.logs).toEqual([]);
    // Logs outside calls (the level announcements) reached neither session.
    expect(a.logs.map((log) => log.data)).not.toContain('Log level set to: debug');
    await a.client.close();
    await a.mcp.close();
    await vi.waitFor(() => expect(seen).toContain('Log level set to: error'), EVENT);
    off();
  });

  it('forwards sampling and elicitation to a client that declared them', async () => {
    const { client } = await session('directory', { sampling: {}, elicitation: {} }, (c) => {
      c.setRequestHandler(CreateMessageRequestSchema, (request) => ({
        role: 'assistant',
        model: 'test-model',
        content: { type: 'text', text: `echo ${(request.params.messages[0]!.content as { text: string }).text}` },
      }));
      c.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { response: 'yes' } }));
    });
    expect(
      text((await client.callTool({ name: 'test_sampling', arguments: { prompt: 'hi' } })) as CallToolResult),
    ).toBe('LLM response: echo hi');
    expect(
      text((await client.callTool({ name: 'test_elicitation', arguments: { message: 'ok?' } })) as CallToolResult),
    ).toBe('User response: action=accept, content={"response":"yes"}');
  });

  it('refuses sampling and elicitation for a client that did not declare them', async () => {
    const { client } = await session('directory');
    for (const [name, args] of [
      ['test_sampling', { prompt: 'hi' }],
      ['test_elicitation', { message: 'ok?' }],
    ] as const) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(errorCode(result)).toBe(McpErrors.MCP_CALL_FAILED);
    }
  });

  it('cancels the downstream call when the client cancels', async () => {
    const { client } = await session('directory');
    const before = Number(
      text((await client.callTool({ name: 'test_cancelled_count', arguments: {} })) as CallToolResult),
    );
    const controller = new AbortController();
    const slow = client.callTool({ name: 'test_slow', arguments: {} }, undefined, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 300));
    controller.abort();
    await expect(slow).rejects.toThrow();
    await vi.waitFor(async () => {
      expect(
        Number(text((await client.callTool({ name: 'test_cancelled_count', arguments: {} })) as CallToolResult)),
      ).toBe(before + 1);
    }, EVENT);
  });

  it('cancels the client request when the downstream server gives up on it', async () => {
    let aborted = false;
    const { client } = await session('directory', { sampling: {} }, (c) => {
      c.setRequestHandler(CreateMessageRequestSchema, (request, extra) => {
        const answer = { role: 'assistant', model: 'none', content: { type: 'text', text: 'answer' } } as const;
        if ((request.params.messages[0]!.content as { text: string }).text !== 'never mind') return answer;
        return new Promise((resolve) =>
          extra.signal.addEventListener('abort', () => {
            aborted = true;
            resolve(answer);
          }),
        );
      });
    });
    // The SDK ignores notifications/cancelled for request id 0 (a falsy check): the first request to this client is a plain one.
    expect(
      text((await client.callTool({ name: 'test_sampling', arguments: { prompt: 'hi' } })) as CallToolResult),
    ).toBe('LLM response: answer');
    expect(text((await client.callTool({ name: 'test_sampling_gives_up', arguments: {} })) as CallToolResult)).toBe(
      'gave up',
    );
    await vi.waitFor(() => expect(aborted).toBe(true), EVENT);
  });
});

/** The 2026-07-28-only fixture of plugin-mcp's tests (v2 SDK; refuses the legacy `initialize`). */
const MODERN_FIXTURE = fileURLToPath(
  new URL('../../../packages/plugin-mcp/test/fixtures/modern-server.mjs', import.meta.url),
);

describe('a 2025-era client calling through to a 2026-07-28-only server', () => {
  let kernel: Kernel;
  let mcp: ToolSearchMcpServer;
  let client: Client;

  beforeAll(async () => {
    const preset = await createToolSearchKernel({
      mcpServers: { modern: { command: process.execPath, args: [MODERN_FIXTURE] } },
    });
    kernel = preset.kernel;
    mcp = await createToolSearchMcpServer({
      kernel,
      mode: 'directory',
      refreshIntervalMs: 0,
      ...(preset.mcpDownstream ? { downstream: preset.mcpDownstream } : {}),
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.server.connect(serverSide);
    client = new Client({ name: 'legacy-client', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: 'accept', content: { go: true } };
    });
    await client.connect(clientSide);
  }, 60_000);
  const asked: string[] = [];
  afterAll(async () => {
    await client?.close();
    await mcp?.close();
    await kernel?.close();
  });

  it("gets the server's input_required elicitation as an ordinary elicitation request", async () => {
    expect(text((await client.callTool({ name: 'echo', arguments: { message: 'hi' } })) as CallToolResult)).toBe(
      'echo: hi',
    );
    expect(text((await client.callTool({ name: 'confirm', arguments: {} })) as CallToolResult)).toBe(
      'confirmed: {"go":true}',
    );
    expect(asked).toEqual(['Go ahead?']);
  });
});

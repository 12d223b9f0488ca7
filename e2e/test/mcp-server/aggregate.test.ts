/**
 * Resources, templates, prompts and completions of two downstream servers
 * (the conformance fixture twice, over stdio) through serve mcp: namespaced
 * reversibly, original names routed when one server owns them and refused
 * as ambiguous otherwise, subscriptions answered under the client's URI,
 * policy applied by server, and results (structuredContent, outputSchema,
 * _meta) passed through unchanged.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  ErrorCode as McpErrorCode,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Kernel } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';
import { createToolSearchMcpServer, RESOURCE_NOT_FOUND, type ToolSearchMcpServer } from '@tool-search/mcp-server';
import { CONFORMANCE_FIXTURE } from './conformance-kit.js';
import type { Config } from './helpers.js';

// These wait for a notification or a log line, not for a time: the bound only ends a hung test on a loaded machine.
const EVENT = { timeout: 30_000, interval: 20 };

const fixture = { command: process.execPath, args: [CONFORMANCE_FIXTURE] };
const kernels: Kernel[] = [];
const sessions: { client: Client; mcp: ToolSearchMcpServer }[] = [];

type Preset = Awaited<ReturnType<typeof createToolSearchKernel>>;

async function start(config: Config): Promise<Preset> {
  const preset = await createToolSearchKernel(config);
  kernels.push(preset.kernel);
  return preset;
}

/** A client session on its own MCP server, over a new kernel of `config` or over one kernel several sessions share. */
async function connect(
  from: Config | Promise<Preset>,
): Promise<{ client: Client; updated: string[]; logs: string[]; downstreamLogs: string[] }> {
  const { kernel, mcpDownstream } = await (from instanceof Promise ? from : start(from));
  const downstreamLogs: string[] = [];
  mcpDownstream?.on((event) => void (event.type === 'log' && downstreamLogs.push(event.server)));
  const mcp = await createToolSearchMcpServer({
    kernel,
    mode: 'directory',
    refreshIntervalMs: 0,
    ...(mcpDownstream ? { downstream: mcpDownstream } : {}),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.server.connect(serverSide);
  const client = new Client({ name: 'aggregate-test', version: '1.0.0' });
  const updated: string[] = [];
  const logs: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, ({ params }) => void updated.push(params.uri));
  client.setNotificationHandler(
    LoggingMessageNotificationSchema,
    ({ params }) => void logs.push(`${params.logger} ${String(params.data)}`),
  );
  await client.connect(clientSide);
  sessions.push({ client, mcp });
  return { client, updated, logs, downstreamLogs };
}

afterEach(async () => {
  await Promise.all(sessions.splice(0).map(async ({ client, mcp }) => (await client.close(), await mcp.close())));
});
afterAll(async () => {
  await Promise.all(kernels.map((kernel) => kernel.close()));
});

describe('resources and prompts of two servers', () => {
  // One kernel (two fixture processes) for the four tests, each its own client session on its own MCP server, as
  // serve mcp --http gives each client: a server process start is ~0.5 s of CPU, and these tests are not about it.
  let shared: Promise<Preset>;
  beforeAll(() => {
    shared = start({ mcpServers: { conf: fixture, conf2: fixture } });
    shared.catch(() => undefined); // awaited by each test, which fails with it
  });

  it('lists them namespaced and reads by the namespaced name', async () => {
    const { client } = await connect(shared);
    const uris = (await client.listResources()).resources.map((r) => r.uri);
    expect(uris).toEqual(
      expect.arrayContaining(['tool-search://conf/test://static-text', 'tool-search://conf2/test://static-text']),
    );
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    expect(templates).toEqual([
      'tool-search://conf/test://template/{id}/data',
      'tool-search://conf2/test://template/{id}/data',
    ]);
    const read = await client.readResource({ uri: 'tool-search://conf2/test://template/7/data' });
    expect(read.contents).toEqual([
      {
        uri: 'test://template/7/data',
        mimeType: 'application/json',
        text: '{"id":"7","templateTest":true,"data":"Data for ID: 7"}',
      },
    ]);

    const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
    expect(prompts).toEqual(expect.arrayContaining(['conf:test_simple_prompt', 'conf2:test_prompt_with_arguments']));
    const prompt = await client.getPrompt({
      name: 'conf2:test_prompt_with_arguments',
      arguments: { arg1: 'a', arg2: 'b' },
    });
    expect(prompt.messages[0]!.content).toEqual({ type: 'text', text: "Prompt with arguments: arg1='a', arg2='b'" });
  });

  it('refuses an original name two servers own, naming the namespaced ones', async () => {
    const { client } = await connect(shared);
    await expect(client.readResource({ uri: 'test://static-text' })).rejects.toMatchObject({
      code: McpErrorCode.InvalidParams,
      data: { candidates: ['tool-search://conf/test://static-text', 'tool-search://conf2/test://static-text'] },
    });
    await expect(client.getPrompt({ name: 'test_simple_prompt' })).rejects.toMatchObject({
      code: McpErrorCode.InvalidParams,
    });
    await expect(client.readResource({ uri: 'tool-search://conf/test://missing' })).rejects.toMatchObject({
      code: RESOURCE_NOT_FOUND,
    });
  });

  it('routes completions to the server of the prompt', async () => {
    const { client } = await connect(shared);
    const result = await client.complete({
      ref: { type: 'ref/prompt', name: 'conf2:test_prompt_with_arguments' },
      argument: { name: 'language', value: 'p' },
    });
    expect(result.completion.values).toEqual(['python', 'perl', 'php']);
  });

  it('sends resources/updated under the URI the client subscribed with, until it unsubscribes', async () => {
    const { client, updated } = await connect(shared);
    await client.subscribeResource({ uri: 'tool-search://conf2/test://watched-resource' });
    await vi.waitFor(() => expect(updated).toEqual(['tool-search://conf2/test://watched-resource']), EVENT);
    await client.unsubscribeResource({ uri: 'tool-search://conf2/test://watched-resource' });
  });
});

describe('policy on resources, prompts and logs', () => {
  it('shows nothing of a server whose tools are all denied; its original names go to the other one', async () => {
    const { client, logs, downstreamLogs } = await connect({
      mcpServers: { conf: fixture, secret: fixture },
      tools: { deny: ['mcp:secret:*'] },
    });
    expect((await client.listResources()).resources.every((r) => r.uri.startsWith('tool-search://conf/'))).toBe(true);
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'tool-search://conf/test://template/{id}/data',
    ]);
    expect((await client.listPrompts()).prompts.every((p) => p.name.startsWith('conf:'))).toBe(true);
    await expect(client.readResource({ uri: 'tool-search://secret/test://static-text' })).rejects.toMatchObject({
      code: RESOURCE_NOT_FOUND,
    });
    await expect(client.getPrompt({ name: 'secret:test_simple_prompt' })).rejects.toMatchObject({
      code: McpErrorCode.InvalidParams,
    });
    await expect(
      client.complete({
        ref: { type: 'ref/prompt', name: 'secret:test_prompt_with_arguments' },
        argument: { name: 'language', value: 'p' },
      }),
    ).rejects.toMatchObject({
      code: McpErrorCode.InvalidParams,
    });
    await expect(
      client.subscribeResource({ uri: 'tool-search://secret/test://watched-resource' }),
    ).rejects.toMatchObject({ code: RESOURCE_NOT_FOUND });
    expect((await client.readResource({ uri: 'test://static-text' })).contents[0]).toMatchObject({
      text: 'This is the content of the static text resource.',
    });

    // Both servers log their new level outside any call: nobody's, so neither reaches the client (the hidden one's
    // never could: no call of its tools is allowed, and logs reach a session only through its calls).
    await client.setLoggingLevel('debug');
    await vi.waitFor(() => expect(downstreamLogs).toContain('secret'), EVENT);
    await vi.waitFor(() => expect(downstreamLogs).toContain('conf'), EVENT);
    await client.ping();
    expect(logs).toEqual([]);
  });
});

describe('results pass through unchanged', () => {
  it('keeps outputSchema and _meta in tools/list and structuredContent and _meta in results', async () => {
    const { client } = await connect({
      mcpServers: { conf: fixture },
      tools: { toolSearch: { mode: 'directory', visible: ['test_structured'] } },
    });
    const listed = (await client.listTools()).tools.find((tool) => tool.name === 'test_structured');
    expect(listed).toMatchObject({
      outputSchema: { type: 'object', properties: { answer: { type: 'number' } } },
      _meta: { 'example.com/origin': 'fixture' },
    });
    const result = (await client.callTool({ name: 'test_structured', arguments: {} })) as CallToolResult;
    expect(result).toEqual({
      content: [{ type: 'text', text: '{"answer":42}' }],
      structuredContent: { answer: 42 },
      _meta: { 'example.com/trace': 'abc' },
    });
    const mixed = (await client.callTool({ name: 'test_multiple_content_types', arguments: {} })) as CallToolResult;
    expect(mixed.content.map((part) => part.type)).toEqual(['text', 'image', 'resource', 'resource_link']);
  });
});

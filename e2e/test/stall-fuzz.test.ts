/**
 * Nothing one input can send stalls a front end: while each hostile input is
 * in flight, a small concurrent request must still be answered within a
 * second. Long words, long messages, huge enums, backtracking patterns and
 * deep JSON go to the gateway (HTTP), the MCP server (Streamable HTTP, the
 * official SDK client) and the kernel. Before the bounds, the long word
 * stalled the gateway 29 s and the pattern 40 s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JsonSchema, Kernel, KernelPlugin, ToolDefinition } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';
import { startGatewayServer, type GatewayServer } from '@tool-search/gateway';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { serveHttp, type HttpMcpHandle } from '@tool-search/mcp-server';

const LIVENESS_MS = 1_000;

function nested(depth: number): JsonSchema {
  let schema: JsonSchema = { type: 'string' };
  for (let i = 0; i < depth; i++) schema = { type: 'object', properties: { x: schema } };
  return schema;
}

function deepValue(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { x: value };
  return value;
}

const ok = (text: string) => ({ content: [{ type: 'text' as const, text: `FAKE_TOOL_OK ${text}` }] });
const hostileTools: ToolDefinition[] = [
  {
    name: 'evil_pattern',
    source: 'plugin',
    owner: 'fuzz',
    description: 'A tool whose argument pattern backtracks',
    inputSchema: { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } },
    execute: () => ok('evil'),
  },
  {
    name: 'huge_enum',
    source: 'plugin',
    owner: 'fuzz',
    description: 'A tool with a 100,000-value enum',
    inputSchema: { type: 'object', properties: { v: { enum: Array.from({ length: 100_000 }, (_, i) => `v${i}`) } } },
    execute: () => ok('enum'),
  },
  {
    name: 'deep_schema',
    source: 'plugin',
    owner: 'fuzz',
    description: 'A 3,000-deep schema',
    inputSchema: nested(3_000),
    execute: () => ok('deep'),
  },
  {
    name: 'echo',
    source: 'plugin',
    owner: 'fuzz',
    description: 'Echoes its text argument length',
    inputSchema: { type: 'object', properties: { text: {} } },
    execute: (args) => ok(String(JSON.stringify(args).length)),
  },
];
const hostileSource: KernelPlugin = {
  name: 'fuzz-source',
  apply: ({ hooks }) => hooks.listTools.tap((sink) => sink.add(hostileTools)),
};

/** Runs `hostile` while probing with `probe` every 50 ms; returns the slowest probe. */
async function slowestProbeDuring(hostile: () => Promise<unknown>, probe: () => Promise<unknown>): Promise<number> {
  let done = false;
  let slowest = 0;
  const probing = (async () => {
    do {
      const started = performance.now();
      await probe();
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } while (!done);
  })();
  try {
    await hostile().catch(() => undefined);
  } finally {
    done = true;
  }
  await probing;
  return slowest;
}

let kernel: Kernel;
let mock: MockOpenAI;
let gateway: GatewayServer;
let mcp: HttpMcpHandle;

beforeAll(async () => {
  ({ kernel } = await createToolSearchKernel(
    { plugins: { 'fake-catalog': { tools: 20, core: true } } },
    { plugins: [hostileSource] },
  ));
  mock = await startMockOpenAI();
  gateway = await startGatewayServer({
    kernel,
    client: new OpenAI({ baseURL: mock.url, apiKey: 'mock', maxRetries: 0 }),
    model: 'mock-model',
    mode: 'direct',
  });
  mcp = await serveHttp({ kernel, mode: 'directory', refreshIntervalMs: 0 });
});

afterAll(async () => {
  await mcp?.close();
  await gateway?.close();
  await mock?.close();
  await kernel?.close();
});

const longWord = 'z'.repeat(200_000);
const script = (target: string, args: unknown) => `tool search qa check target=${target} args=${JSON.stringify(args)}`;

describe('gateway: a concurrent request is answered within a second', () => {
  const post = (body: unknown) =>
    fetch(`${gateway.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }).then((r) => r.text());
  const probe = () => fetch(`${gateway.url}/models`).then((r) => r.text());

  it.each([
    ['a user message of one 200,000-character word', { messages: [{ role: 'user', content: longWord }] }],
    ['a long message of many words', { messages: [{ role: 'user', content: 'word '.repeat(300_000) }] }],
    [
      'a tool call whose argument backtracks the pattern',
      { messages: [{ role: 'user', content: script('evil_pattern', { s: `${'a'.repeat(31)}!` }) }] },
    ],
    [
      'a tool call with a 100,000-character argument',
      { messages: [{ role: 'user', content: script('echo', { text: longWord.slice(0, 100_000) }) }] },
    ],
    [
      'a client tool with a 100,000-value enum',
      {
        messages: [{ role: 'user', content: 'hi' }],
        tools: [
          {
            type: 'function',
            function: {
              name: 'client_enum',
              parameters: { type: 'object', properties: { v: { enum: Array.from({ length: 100_000 }, (_, i) => i) } } },
            },
          },
        ],
      },
    ],
    [
      'a client tool with a backtracking pattern',
      {
        messages: [{ role: 'user', content: 'hi' }],
        tools: [
          {
            type: 'function',
            function: {
              name: 'client_pattern',
              parameters: { type: 'object', properties: { s: { type: 'string', pattern: '^(a|aa)+$' } } },
            },
          },
        ],
      },
    ],
    // Built as text: JSON.stringify itself overflows the stack on a value this deep.
    [
      'deeply nested message content',
      `{"messages":[{"role":"user","content":${'['.repeat(50_000)}"x"${']'.repeat(50_000)}}]}`,
    ],
  ])('%s', async (_name, body) => {
    expect(await slowestProbeDuring(() => post(body), probe)).toBeLessThan(LIVENESS_MS);
  });
});

describe('MCP server: a concurrent request is answered within a second', () => {
  async function connect(): Promise<Client> {
    const client = new Client({ name: 'fuzz', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url)));
    return client;
  }

  it.each([
    ['a backtracking pattern argument', 'evil_pattern', { s: `${'a'.repeat(31)}!` }],
    ['a 200,000-character word argument', 'echo', { text: longWord }],
    ['a 2,000-deep JSON argument', 'echo', { text: deepValue(2_000) }],
  ])('%s', async (_name, tool, args) => {
    const hostile = await connect();
    const prober = await connect();
    try {
      const slowest = await slowestProbeDuring(
        () => hostile.callTool({ name: tool, arguments: args as Record<string, unknown> }),
        () => prober.listTools(),
      );
      expect(slowest).toBeLessThan(LIVENESS_MS);
    } finally {
      await hostile.close();
      await prober.close();
    }
  });
});

describe('kernel: hostile schemas and arguments cost bounded work', () => {
  it('lists a catalog with a huge enum and a deep schema without them, and rejects a backtracking argument', async () => {
    const run = await kernel.createRun({});
    expect(run.tool('huge_enum')).toBeUndefined();
    expect(run.tool('deep_schema')).toBeUndefined();
    expect(run.tool('echo')).toBeDefined();
    const slowest = await slowestProbeDuring(
      () => run.call('evil_pattern', { s: `${'a'.repeat(5_000)}!` }),
      () => new Promise((resolve) => setImmediate(resolve)),
    );
    expect(slowest).toBeLessThan(LIVENESS_MS);
    await expect(run.call('evil_pattern', { s: `${'a'.repeat(31)}!` })).rejects.toMatchObject({
      code: 'TOOL_ARGUMENTS_INVALID',
    });
    await run.close();
  });
});

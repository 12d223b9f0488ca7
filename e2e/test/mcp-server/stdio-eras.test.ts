/**
 * `serveStdio` follows the same negotiation as HTTP: the client's first line
 * picks the era. A v2 client pinned to 2026-07-28 (opening with
 * `server/discover`) and one pinned to 2025-11-25 (opening with
 * `initialize`) both list and call; the modern one also answers a 2025-era
 * downstream server's elicitation through `input_required`. The streams are
 * real Node streams carrying newline-delimited JSON, as stdio does.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type CallToolResult, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import type { Kernel } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';
import { serveStdio, type StdioMcpHandle } from '@tool-search/mcp-server';
import { CONFORMANCE_FIXTURE } from './conformance-kit.js';

/** A client transport over a pair of streams, one JSON-RPC message a line (the stdio framing). */
class StreamTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private buffer = '';
  constructor(
    private readonly input: PassThrough,
    private readonly output: PassThrough,
  ) {}
  async start(): Promise<void> {
    this.input.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('utf8');
      for (let newline = this.buffer.indexOf('\n'); newline >= 0; newline = this.buffer.indexOf('\n')) {
        const line = this.buffer.slice(0, newline);
        this.buffer = this.buffer.slice(newline + 1);
        if (line.trim()) this.onmessage?.(JSON.parse(line) as JSONRPCMessage);
      }
    });
  }
  async send(message: JSONRPCMessage): Promise<void> {
    this.output.write(`${JSON.stringify(message)}\n`);
  }
  async close(): Promise<void> {
    this.output.end();
    this.onclose?.();
  }
}

let kernel: Kernel;
let downstream: Awaited<ReturnType<typeof createToolSearchKernel>>['mcpDownstream'];
const handles: StdioMcpHandle[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  const preset = await createToolSearchKernel({
    mcpServers: { conf: { command: process.execPath, args: [CONFORMANCE_FIXTURE] } },
  });
  kernel = preset.kernel;
  downstream = preset.mcpDownstream;
}, 60_000);
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await Promise.all(handles.map((handle) => handle.close()));
  await kernel?.close();
});

const asked: string[] = [];

async function open(mode: 'legacy' | { pin: string }): Promise<Client> {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const handle = await serveStdio({
    kernel,
    mode: 'directory',
    refreshIntervalMs: 0,
    stdin: toServer,
    stdout: toClient,
    ...(downstream ? { downstream } : {}),
  });
  handles.push(handle);
  const client = new Client(
    { name: 'v2-stdio-peer', version: '1.0.0' },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push((request.params as { message: string }).message);
    return { action: 'accept', content: { response: 'yes' } };
  });
  await client.connect(new StreamTransport(toClient, toServer));
  clients.push(client);
  return client;
}

const text = (result: unknown) =>
  ((result as CallToolResult).content ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');

describe.each([
  ['pinned to 2026-07-28', { pin: '2026-07-28' }, '2026-07-28'],
  ['pinned to 2025-11-25', 'legacy', '2025-11-25'],
] as const)('serve mcp over stdio, a v2 client %s', (_label, mode, version) => {
  it('negotiates its era, lists and calls', async () => {
    const client = await open(mode);
    expect(client.getNegotiatedProtocolVersion()).toBe(version);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('tool_search');
    expect(text(await client.callTool({ name: 'test_simple_text', arguments: {} }))).toContain(
      'This is a simple text response for testing.',
    );
  });

  it("answers a downstream server's elicitation", async () => {
    const client = await open(mode);
    asked.length = 0;
    const result = await client.callTool({ name: 'test_elicitation', arguments: { message: `Via ${version}?` } });
    expect(text(result)).toBe('User response: action=accept, content={"response":"yes"}');
    expect(asked).toEqual([`Via ${version}?`]);
  });
});

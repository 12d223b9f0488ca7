/**
 * Approvals for 2026-07-28 clients: a call that needs approval
 * (`tools.approvals`) asks the calling client by an `input_required` round
 * (the approval question is an elicitation-style input request), and its
 * answer resumes the call. Approve: the tool runs once. Deny, or a client
 * that cannot be asked: it never runs. The `requestState` of the parked call
 * resumes it only for the API key that started it; a forged one resumes
 * nothing. Driven by the v2 client SDK (which answers `input_required` from
 * its elicitation handler), in tools and code mode, and raw requests for what a client SDK would not
 * send.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { createApiKeys, hashApiKey } from '@tool-search/auth';
import type { Kernel, KernelPlugin } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';
import { elicitationApprovals, serveHttp, type HttpMcpHandle } from '@tool-search/mcp-server';

const MODERN = '2026-07-28';
const KEY_A = 'key-a-approvals-0123456789';
const KEY_B = 'key-b-approvals-0123456789';
const LAUNCH = 'plugin:test:launch';

/** Every run of `launch`, by its `label`. */
const launched: string[] = [];

const launchPlugin: KernelPlugin = {
  name: 'launch-plugin',
  apply({ hooks }) {
    hooks.listTools.tap((sink) =>
      sink.add([
        {
          name: 'launch',
          source: 'plugin',
          owner: 'test',
          description: 'Launches something irreversible (needs approval)',
          inputSchema: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
          execute: (args) => {
            launched.push(String(args.label));
            return { content: [{ type: 'text', text: `launched ${String(args.label)}` }] };
          },
        },
      ]),
    );
  },
};

let kernel: Kernel;
let http: HttpMcpHandle;
/** The same kernel in code mode, keyless: calls made from the sandbox. */
let codeMode: HttpMcpHandle;
const clients: Client[] = [];

beforeAll(async () => {
  const approvals = elicitationApprovals();
  ({ kernel } = await createToolSearchKernel(
    { tools: { approvals: { require: [LAUNCH] } } },
    { approve: approvals.approve, plugins: [launchPlugin] },
  ));
  const auth = createApiKeys({
    keys: [
      { name: 'a', hash: hashApiKey(KEY_A), agents: ['*'] },
      { name: 'b', hash: hashApiKey(KEY_B), agents: ['*'] },
    ],
  });
  http = await serveHttp({ kernel, mode: 'tools', refreshIntervalMs: 0, approvals, auth });
  codeMode = await serveHttp({ kernel, mode: 'code', refreshIntervalMs: 0, approvals });
}, 60_000);
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await http?.close();
  await codeMode?.close();
  await kernel?.close();
});

type Answer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string | number | boolean> };

async function connect(answer: Answer | undefined, asked: string[] = [], url = http.url): Promise<Client> {
  const capabilities = answer ? { elicitation: {} } : {};
  const client = new Client(
    { name: 'approver', version: '1.0.0' },
    { capabilities, versionNegotiation: { mode: { pin: MODERN } } },
  );
  if (answer) {
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push((request.params as { message: string }).message);
      return answer;
    });
  }
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${KEY_A}` } } }),
  );
  clients.push(client);
  return client;
}

const text = (result: unknown) =>
  ((result as CallToolResult).content ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
const code = (result: unknown) =>
  ((result as CallToolResult).structuredContent as { error?: { code?: string } } | undefined)?.error?.code;
const launch = (label: string) => ({ name: 'tool_call', arguments: { id: LAUNCH, args: { label } } });

/** A raw 2026-07-28 `tools/call` with `key`: the JSON-RPC response body. */
async function rawCall(
  key: string,
  params: Record<string, unknown>,
): Promise<{ result?: Record<string, unknown>; error?: { code: number } }> {
  const response = await fetch(http.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${key}`,
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': String(params.name),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
        },
      },
    }),
  });
  const payload = await response.text();
  if (!(response.headers.get('content-type') ?? '').includes('event-stream')) return JSON.parse(payload);
  const events = payload.split('\n').filter((line) => line.startsWith('data: '));
  return JSON.parse(events.at(-1)!.slice(6));
}

describe('approvals for a 2026-07-28 client', () => {
  it('asks by input_required and runs the approved call once', async () => {
    const asked: string[] = [];
    const client = await connect({ action: 'accept', content: { approve: true } }, asked);
    const result = await client.callTool(launch('approved'));
    expect(text(result)).toBe('launched approved');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain(LAUNCH);
    expect(launched.filter((label) => label === 'approved')).toEqual(['approved']);
    expect(http.sessions).toBe(0);
  });

  it('blocks the call its user declines, and the tool never runs', async () => {
    const asked: string[] = [];
    const client = await connect({ action: 'decline' }, asked);
    const result = await client.callTool(launch('declined'));
    expect(code(result)).toBe('TOOL_CALL_BLOCKED');
    expect(asked).toHaveLength(1);
    expect(launched).not.toContain('declined');
  });

  it('blocks an accept that does not say approve: true', async () => {
    const client = await connect({ action: 'accept', content: { approve: false } });
    expect(code(await client.callTool(launch('half-hearted')))).toBe('TOOL_CALL_BLOCKED');
    expect(launched).not.toContain('half-hearted');
  });

  it('denies without asking a client that did not declare elicitation', async () => {
    const client = await connect(undefined);
    expect(code(await client.callTool(launch('unasked')))).toBe('TOOL_CALL_BLOCKED');
    expect(launched).not.toContain('unasked');
  });

  it("refuses another key's requestState and a forged one; the owner's deny still blocks", async () => {
    const first = await rawCall(KEY_A, launch('contested'));
    expect(first.result?.resultType).toBe('input_required');
    const requestState = first.result?.requestState as string;
    const [key] = Object.keys(first.result?.inputRequests as object);
    expect(typeof requestState).toBe('string');
    const approve = { [key!]: { action: 'accept', content: { approve: true } } };

    const foreign = await rawCall(KEY_B, { ...launch('contested'), requestState, inputResponses: approve });
    expect(foreign.error?.code).toBe(-32602);
    const forged = await rawCall(KEY_A, {
      ...launch('contested'),
      requestState: `${requestState.slice(0, -2)}xx`,
      inputResponses: approve,
    });
    expect(forged.error?.code).toBe(-32602);
    expect(launched).not.toContain('contested');

    const denied = await rawCall(KEY_A, {
      ...launch('contested'),
      requestState,
      inputResponses: { [key!]: { action: 'decline' } },
    });
    expect(code(denied.result)).toBe('TOOL_CALL_BLOCKED');
    expect(launched).not.toContain('contested');
  });

  it('asks for a call made from code mode too (openclaw.tools.call in the sandbox)', async () => {
    const asked: string[] = [];
    const client = await connect({ action: 'accept', content: { approve: true } }, asked, codeMode.url);
    const [tool] = (await client.listTools()).tools;
    if (tool?.name !== 'tool_search_code') {
      console.warn(
        `skipping the code-mode approval check: no sandbox starts here (serve mcp fell back to ${tool?.name})`,
      );
      return;
    }
    const result = await client.callTool({
      name: 'tool_search_code',
      arguments: {
        code: `const r = await openclaw.tools.call('${LAUNCH}', { label: 'from-code' }); return r.content[0].text;`,
      },
    });
    expect((result.structuredContent as { value?: unknown }).value).toBe('launched from-code');
    expect(asked).toHaveLength(1);
    expect(launched.filter((label) => label === 'from-code')).toEqual(['from-code']);
  });
});

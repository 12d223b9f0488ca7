/**
 * Issue 13: client tools are in the catalog in `tools` and `code` mode, and a client tool found by search is callable:
 * `tool_call` / `openclaw.tools.call` hand the call to the gateway's HTTP caller, and the client's result comes back
 * as the result of the model's call. Real gateway, official `openai` client, scripted provider over HTTP.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayServer, type GatewayServer } from '@tool-search/gateway';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { createToolSearchKernel } from '@tool-search/preset';
import type { Kernel } from '@tool-search/kernel';

let provider: MockOpenAI;
const kernels: Kernel[] = [];
const servers: GatewayServer[] = [];

beforeAll(async () => {
  provider = await startMockOpenAI();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await Promise.all(kernels.map((k) => k.close()));
  await provider.close();
});

async function gateway(mode: 'tools' | 'code' | 'directory', extra: object = {}) {
  const { kernel } = await createToolSearchKernel({
    plugins: { 'fake-catalog': { tools: 36, core: true } },
    tools: { toolSearch: { mode, codeTimeoutMs: 20_000 } },
    agents: { list: [{ id: 'support', tools: { profile: 'messaging' } }] },
    ...extra,
  });
  kernels.push(kernel);
  const server = await startGatewayServer({
    kernel,
    client: new OpenAI({ baseURL: provider.url, apiKey: 'mock', maxRetries: 0 }),
    model: 'mock-model',
    mode,
  });
  servers.push(server);
  return { server, client: new OpenAI({ baseURL: server.url, apiKey: 'none', maxRetries: 0 }) };
}

const LOOKUP = [
  {
    type: 'function' as const,
    function: {
      name: 'lookup_order',
      description: 'Look up a customer order by its number on the client',
      parameters: { type: 'object', properties: { order: { type: 'string' } } },
    },
  },
];
const ask = (args = '{"order":"A-17"}') => [
  { role: 'user' as const, content: `tool search qa check target=lookup_order args=${args}` },
];
const sentTools = (index: number) =>
  (provider.requests[index]!.body as { tools?: { function: { name: string } }[] }).tools?.map((t) => t.function.name) ??
  [];

describe.each(['tools', 'code'] as const)('a client tool found by search in %s mode', (mode) => {
  it('is handed to the HTTP caller, and its result comes back as the result of the model call', async () => {
    const { client } = await gateway(mode);
    const firstRequest = provider.requests.length;
    const first = await client.chat.completions.create({ model: 'mock-model', messages: ask(), tools: LOOKUP });
    const choice = first.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    const handed = choice.message.tool_calls?.[0];
    expect(handed?.type === 'function' && handed.function.name).toBe('lookup_order');
    expect(handed?.type === 'function' && JSON.parse(handed.function.arguments)).toEqual({ order: 'A-17' });
    // The client tool is in the catalog, not among the tools the model saw.
    expect(sentTools(firstRequest)).not.toContain('lookup_order');
    expect(
      (first as unknown as { tool_search: { waiting_for_client: string[] } }).tool_search.waiting_for_client,
    ).toEqual([handed!.id]);

    const second = await client.chat.completions.create({
      model: 'mock-model',
      tools: LOOKUP,
      messages: [
        ...ask(),
        { role: 'assistant', content: null, tool_calls: choice.message.tool_calls ?? [] },
        { role: 'tool', tool_call_id: handed!.id, content: 'FAKE_TOOL_OK lookup_order shipped' },
      ],
    });
    expect(second.choices[0]?.finish_reason).toBe('stop');
    expect(second.choices[0]?.message.content).toContain('FAKE_TOOL_OK lookup_order shipped');
    // The provider saw the client's result as the result of the model's own call (tool_call / tool_search_code).
    const last = provider.requests[provider.requests.length - 1]!.body as {
      messages: { role: string; tool_call_id?: string; content?: string }[];
    };
    const answered = last.messages.filter((m) => m.role === 'tool').pop();
    expect(answered?.content).toContain('FAKE_TOOL_OK lookup_order shipped');
    const modelCall = last.messages
      .flatMap((m) => (m as { tool_calls?: { id: string; function: { name: string } }[] }).tool_calls ?? [])
      .find((c) => c.id === answered?.tool_call_id);
    expect(modelCall?.function.name).toBe(mode === 'tools' ? 'tool_call' : 'tool_search_code');
  }, 60_000);
});

describe('client tools and the gateway', () => {
  it('in directory mode stay directly visible, as before', async () => {
    const { client } = await gateway('directory');
    const firstRequest = provider.requests.length;
    const first = await client.chat.completions.create({ model: 'mock-model', messages: ask(), tools: LOOKUP });
    expect(sentTools(firstRequest)).toContain('lookup_order');
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('refuses a client tool named like a control tool (tool_search) with CLIENT_TOOL_COLLISION', async () => {
    const { server } = await gateway('tools');
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'mock-model',
        messages: ask(),
        tools: [{ type: 'function', function: { name: 'tool_search', parameters: { type: 'object' } } }],
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'CLIENT_TOOL_COLLISION' } });
  });

  it('refuses an unknown x-agent-id with AGENT_UNKNOWN and a did-you-mean; no header uses the global policy', async () => {
    const { server, client } = await gateway('tools');
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-agent-id': 'suport' },
      body: JSON.stringify({ model: 'mock-model', messages: ask() }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('AGENT_UNKNOWN');
    expect(body.error.message).toContain('"support"');
    const ok = await client.chat.completions.create({
      model: 'mock-model',
      messages: [{ role: 'user', content: 'tool search qa check target=fake_plugin_tool_0003' }],
    });
    expect(ok.choices[0]?.message.content).toContain('FAKE_TOOL_OK fake_plugin_tool_0003');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { createKernel, type Kernel } from '@tool-search/kernel';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { fakeCatalogPlugin } from '@tool-search/plugin-fake-catalog';
import { toolsModePlugin } from '@tool-search/mode-tools';
import { directoryModePlugin } from '@tool-search/mode-directory';
import { clientToolsPlugin } from '@tool-search/plugin-client-tools';
import { startGatewayServer, type GatewayServer } from '@tool-search/gateway';

let provider: MockOpenAI;
const kernels: Kernel[] = [];
const servers: GatewayServer[] = [];

async function gateway(mode: string, extra: { token?: string } = {}) {
  const kernel = createKernel({
    plugins: [
      fakeCatalogPlugin({ tools: 36, core: true }),
      clientToolsPlugin(),
      toolsModePlugin(),
      directoryModePlugin(),
    ],
  });
  kernels.push(kernel);
  const server = await startGatewayServer({
    kernel,
    log: () => undefined,
    client: new OpenAI({ baseURL: provider.url, apiKey: 'mock', maxRetries: 0 }),
    model: 'mock-model',
    mode,
    ...extra,
  });
  servers.push(server);
  return { server, client: new OpenAI({ baseURL: server.url, apiKey: extra.token ?? 'none', maxRetries: 0 }) };
}

beforeAll(async () => {
  provider = await startMockOpenAI();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await Promise.all(kernels.map((k) => k.close()));
  await provider.close();
});

const ask = (target: string) => [{ role: 'user' as const, content: `tool search qa check target=${target}` }];

describe('gateway over HTTP with the openai client', () => {
  it('runs a direct-mode turn to the final answer', async () => {
    const { client } = await gateway('direct');
    const completion = await client.chat.completions.create({
      model: 'mock-model',
      messages: ask('fake_plugin_tool_0003'),
    });
    expect(completion.choices[0]?.message.content).toContain('FAKE_TOOL_OK fake_plugin_tool_0003');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
  });

  it('runs a tools-mode turn: search, then tool_call, through the run', async () => {
    const { client } = await gateway('tools');
    const first = provider.requests.length;
    const completion = await client.chat.completions.create({
      model: 'mock-model',
      messages: ask('fake_plugin_tool_0005'),
    });
    expect(completion.choices[0]?.message.content).toContain('FAKE_TOOL_OK fake_plugin_tool_0005');
    const sent = provider.requests
      .slice(first)
      .map((r) => (r.body as { tools?: { function: { name: string } }[] }).tools?.map((t) => t.function.name));
    expect(sent[0]).toEqual(['tool_search', 'tool_describe', 'tool_call']);
    expect(sent.length).toBe(3);
  });

  it('hands a client tool call back to the client, then finishes with its result', async () => {
    const { client } = await gateway('tools');
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'client_lookup',
          description: 'Looks something up on the client',
          parameters: { type: 'object', properties: {} },
        },
      },
    ];
    const messages = ask('client_lookup');
    const first = await client.chat.completions.create({ model: 'mock-model', messages, tools });
    const choice = first.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    const call = choice.message.tool_calls?.[0];
    expect(call?.type === 'function' && call.function.name).toBe('client_lookup');
    const second = await client.chat.completions.create({
      model: 'mock-model',
      tools,
      messages: [
        ...messages,
        { role: 'assistant', content: null, tool_calls: choice.message.tool_calls ?? [] },
        { role: 'tool', tool_call_id: call!.id, content: 'FAKE_TOOL_OK client_lookup {}' },
      ],
    });
    expect(second.choices[0]?.message.content).toContain('FAKE_TOOL_OK client_lookup');
  });

  it('refuses a client tool that collides with a catalog tool', async () => {
    const { client } = await gateway('tools');
    const tools = [{ type: 'function' as const, function: { name: 'read', parameters: { type: 'object' } } }];
    await expect(
      client.chat.completions.create({ model: 'mock-model', messages: ask('read'), tools }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('lists the model and rejects bad bodies', async () => {
    const { client, server } = await gateway('direct');
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(['mock-model']);
    const bad = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      body: '{"nope":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
  });

  it('requires the bearer token when one is set', async () => {
    const { server } = await gateway('direct', { token: 'secret-token' });
    const denied = new OpenAI({ baseURL: server.url, apiKey: 'wrong', maxRetries: 0 });
    await expect(denied.models.list()).rejects.toMatchObject({ status: 401 });
    const allowed = new OpenAI({ baseURL: server.url, apiKey: 'secret-token', maxRetries: 0 });
    await expect(allowed.models.list()).resolves.toBeTruthy();
  });

  it('refuses to bind beyond loopback without a token', async () => {
    const kernel = createKernel();
    kernels.push(kernel);
    await expect(
      startGatewayServer({ kernel, client: new OpenAI({ apiKey: 'x' }), model: 'm', mode: 'direct', host: '0.0.0.0' }),
    ).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { anthropicUpstream, createUpstream, openaiUpstream } from '@tool-search/gateway';
import { ask, harness, UPSTREAMS, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

describe.each(UPSTREAMS)('the %s upstream', (kind) => {
  it.each(['direct', 'tools', 'directory'])('reaches the target in %s mode', async (mode) => {
    const { client } = await h.gateway(mode, { upstream: h.upstream(kind) });
    const completion = await client.chat.completions.create({ model: 'm', messages: ask('fake_plugin_tool_0005') });
    expect(completion.choices[0]?.message.content).toContain('FAKE_TOOL_OK fake_plugin_tool_0005');
  });

  it('hands a client tool back and finishes with its result', async () => {
    const { client } = await h.gateway('tools', { upstream: h.upstream(kind) });
    const tools = [
      {
        type: 'function' as const,
        function: { name: 'client_lookup', parameters: { type: 'object', properties: {} } },
      },
    ];
    const first = await client.chat.completions.create({ model: 'm', messages: ask('client_lookup'), tools });
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    const second = await client.chat.completions.create({
      model: 'm',
      tools,
      messages: [
        ...ask('client_lookup'),
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: call.id, content: 'FAKE_TOOL_OK client_lookup {}' },
      ],
    });
    expect(second.choices[0]?.message.content).toContain('FAKE_TOOL_OK client_lookup');
  });
});

describe('the Anthropic upstream request', () => {
  it('carries the exposure in Anthropic tool format, the system text in `system`, and max_tokens', async () => {
    const { client } = await h.gateway('directory', { upstream: h.upstream('anthropic') });
    const from = h.anthropic.requests.length;
    await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'system', content: 'Client rules.' }, ...ask('fake_plugin_tool_0005')],
    });
    const [first] = h.received('anthropic', from);
    const body = first!.body as {
      tools: { name: string; input_schema: unknown }[];
      system: { type: string; text: string; cache_control?: unknown }[];
      max_tokens: number;
      messages: { role: string }[];
    };
    // The control tools, then at most 5 tools ranked from the turn's last user message (directory mode's turn tools).
    expect(body.tools.slice(0, 3).map((t) => t.name)).toEqual(['tool_search', 'tool_describe', 'tool_call']);
    expect(body.tools.length).toBeLessThanOrEqual(3 + 5);
    expect(body.tools[0]?.input_schema).toMatchObject({ type: 'object' });
    // One text block, the prompt-cache breakpoint on it (cache-breakpoints.ts).
    expect(body.system).toEqual([{ type: 'text', text: expect.any(String), cache_control: { type: 'ephemeral' } }]);
    expect(body.system[0]!.text).toContain('Client rules.');
    expect(body.system[0]!.text).toContain('fake_plugin_tool_0005');
    expect(body.max_tokens).toBeGreaterThan(0);
    expect(body.messages.every((m) => m.role === 'user' || m.role === 'assistant')).toBe(true);
  });
});

describe('upstream failures', () => {
  let failing: Server;
  let failingUrl: string;
  beforeAll(async () => {
    failing = createServer((_req, res) => {
      res.writeHead(529, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }));
    });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    failingUrl = `http://127.0.0.1:${(failing.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => failing.close(() => resolve())));

  // A privileged port nothing here listens on: a port freed by a test can be taken by another process at once.
  const closedPort = async () => 'http://127.0.0.1:9';

  it.each(UPSTREAMS)('names the unreachable %s provider URL (502 PROVIDER_FAILED) and logs it', async (kind) => {
    const url = await closedPort();
    const upstream =
      kind === 'openai'
        ? openaiUpstream(new OpenAI({ baseURL: `${url}/v1`, apiKey: 'k', maxRetries: 0 }), 'm')
        : anthropicUpstream(new Anthropic({ baseURL: url, apiKey: 'k', maxRetries: 0 }), 'm');
    const lines: string[] = [];
    const { server } = await h.gateway('tools', { upstream, log: (line) => lines.push(line) });
    const res = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: ask('x') }),
    });
    expect(res.status).toBe(502);
    const body = (await res.json()) as { error: { code: string; details: { url: string; status?: number } } };
    expect(body.error.code).toBe('PROVIDER_FAILED');
    expect(body.error.details.url).toContain(url);
    expect(body.error.details.status).toBeUndefined();
    expect(lines.some((line) => line.includes('PROVIDER_FAILED') && line.includes(url))).toBe(true);
  });

  it.each(UPSTREAMS)('names the %s provider URL and its HTTP status when it fails', async (kind) => {
    const upstream = createUpstream({
      kind,
      baseURL: kind === 'openai' ? `${failingUrl}/v1` : failingUrl,
      apiKey: 'k',
      model: 'm',
    });
    const lines: string[] = [];
    const { client } = await h.gateway('direct', { upstream, log: (line) => lines.push(line) });
    const error = await client.chat.completions.create({ model: 'm', messages: ask('x') }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 502,
      code: 'PROVIDER_FAILED',
      error: { details: { status: 529, provider: kind } },
    });
    expect(lines.some((line) => line.includes(failingUrl) && line.includes('529'))).toBe(true);
  });

  it('sends once more when the provider closed the connection before answering, and only once', async () => {
    let seen = 0;
    let dropAll = false;
    const flaky = createServer((req, res) => {
      seen++;
      if (dropAll || seen === 1) return void req.socket.destroy();
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'x',
            object: 'chat.completion',
            created: 0,
            model: 'm',
            choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}/v1`;
      const { client } = await h.gateway('direct', {
        upstream: createUpstream({ baseURL: url, apiKey: 'k', model: 'm' }),
      });
      const completion = await client.chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(completion.choices[0]?.message.content).toBe('hello');
      expect(seen).toBe(2);
      dropAll = true;
      seen = 0;
      await expect(
        client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      ).rejects.toMatchObject({ status: 502, code: 'PROVIDER_FAILED' });
      expect(seen).toBe(2);
    } finally {
      await new Promise<void>((resolve) => flaky.close(() => resolve()));
    }
  });

  it('refuses a config without a key or a model with a coded error', () => {
    expect(() => createUpstream({ kind: 'anthropic', model: 'm' }, {})).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID' }),
    );
    expect(() => createUpstream({ apiKey: 'k' }, {})).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
  });
});

describe('the toolSearch setting per run', () => {
  it('picks the mode and search limits per agent (toolSearchFor)', async () => {
    const { client } = await h.gateway('direct', {
      toolSearchFor: (party) =>
        party.agentId === 'small'
          ? { mode: 'tools', searchLimits: { maxSearchLimit: 3, searchDefaultLimit: 2 } }
          : undefined,
    });
    const limitSent = async (agent?: string) => {
      const from = h.openai.requests.length;
      const answer = (await client.chat.completions.create(
        { model: 'm', messages: ask('fake_plugin_tool_0005') },
        agent ? { headers: { 'x-agent-id': agent } } : {},
      )) as unknown as {
        tool_search: { mode: string };
      };
      const tools = (h.received('openai', from)[0]!.body.tools ?? []) as {
        function: { name: string; parameters: { properties?: { limit?: { maximum?: number } } } };
      }[];
      return {
        mode: answer.tool_search.mode,
        max: tools.find((t) => t.function.name === 'tool_search')?.function.parameters.properties?.limit?.maximum,
      };
    };
    expect(await limitSent('small')).toEqual({ mode: 'tools', max: 3 });
    expect(await limitSent()).toEqual({ mode: 'direct', max: undefined });
  });

  it("sends the agent's toolSearch description on tool_search to the real OpenAI client's upstream", async () => {
    const words = 'Ops agent: the paging and runbook tools live in this catalog.';
    const { client } = await h.gateway('tools', {
      toolSearchFor: (party) =>
        party.agentId === 'ops' ? { mode: 'tools', searchDescription: words } : { mode: 'tools' },
    });
    const described = async (agent?: string) => {
      const from = h.openai.requests.length;
      await client.chat.completions.create(
        { model: 'm', messages: ask('fake_plugin_tool_0005') },
        agent ? { headers: { 'x-agent-id': agent } } : {},
      );
      const tools = (h.received('openai', from)[0]!.body.tools ?? []) as {
        function: { name: string; description?: string };
      }[];
      return tools.find((t) => t.function.name === 'tool_search')?.function.description ?? '';
    };
    expect((await described('ops')).endsWith(`\n\n${words}`)).toBe(true);
    expect(await described()).not.toContain(words);
  });
});

/**
 * Claude-Code-shaped requests (a few loaded tools, many `defer_loading` tools, the bm25 tool-search server tool)
 * through the gateway's `/v1/messages`, with the official Anthropic client over HTTP: an OpenAI-compatible upstream
 * (the gateway serves the search), an Anthropic upstream that supports it (pass-through), and one that does not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import type { CapabilityRule } from '@tool-search/gateway';
import { harness, type Harness, type UpstreamKind } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const TARGET = 'mcp__tracker__file_ticket_07';
const ask = `tool search qa check target=${TARGET} args={"title":"x"}`;
const deferred = Array.from({ length: 40 }, (_, i) => ({
  name: `mcp__tracker__file_ticket_${String(i).padStart(2, '0')}`,
  description: `File a ticket in tracker queue ${i}`,
  input_schema: { type: 'object' as const, properties: { title: { type: 'string', description: 'ticket title' } } },
  defer_loading: true,
}));
const tools = [
  {
    name: 'Read',
    description: 'Read a file from disk',
    input_schema: { type: 'object' as const, properties: { path: { type: 'string' } } },
  },
  { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
  ...deferred,
] as Anthropic.Messages.ToolUnion[];

type Body = { messages: unknown[]; tools?: { name?: string; function?: { name: string } }[] };

/** The JSON text of `key`'s array in a raw body, as sent (tools follow messages in both upstream formats). */
function arrayText(raw: string, key: 'messages' | 'tools'): string {
  const start = raw.indexOf(`"${key}":[`) + key.length + 3;
  const end = key === 'messages' ? raw.indexOf(',"tools":', start) : raw.lastIndexOf(']') + 1;
  return raw.slice(start, end === -1 ? raw.lastIndexOf(']') + 1 : end);
}

/** Each request's messages and tools, without the closing bracket, start the next request's byte for byte. */
function expectPrefixes(raws: readonly string[]): void {
  expect(raws.length).toBeGreaterThan(1);
  for (let i = 1; i < raws.length; i++) {
    for (const key of ['messages', 'tools'] as const) {
      const before = arrayText(raws[i - 1]!, key);
      expect(arrayText(raws[i]!, key).startsWith(before.slice(0, -1)), `${key} of request ${i} vs ${i + 1}`).toBe(true);
    }
  }
}

const toolNames = (body: Body) => (body.tools ?? []).map((t) => t.function?.name ?? t.name);

async function claudeCodeTurn(kind: UpstreamKind, capabilities?: CapabilityRule[]) {
  const { server } = await h.gateway('tools', {
    upstream: h.upstream(kind),
    ...(capabilities ? { capabilities } : {}),
  });
  const client = new Anthropic({ baseURL: server.url.replace(/\/v1$/, ''), apiKey: 'none', maxRetries: 0 });
  const from = (kind === 'openai' ? h.openai : h.anthropic).requests.length;
  const first = await client.messages.create(
    { model: 'm', max_tokens: 512, messages: [{ role: 'user', content: ask }], tools },
    { headers: { 'x-session-id': `deferred-${kind}-${String(capabilities?.length ?? 0)}` } },
  );
  const call = first.content.find((b): b is Anthropic.Messages.ToolUseBlock => b.type === 'tool_use')!;
  const middle = h.received(kind, from).length + from;
  const second = await client.messages.create(
    {
      model: 'm',
      max_tokens: 512,
      tools,
      messages: [
        { role: 'user', content: ask },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: `FAKE_TOOL_OK ${TARGET}` }] },
      ],
    },
    { headers: { 'x-session-id': `deferred-${kind}-${String(capabilities?.length ?? 0)}` } },
  );
  const requests = h.received(kind, from);
  return { first, second, call, requests, firstTurn: requests.slice(0, middle - from) };
}

describe('/v1/messages with deferred tools', () => {
  it('OpenAI-compatible upstream: the gateway serves the search, answers in Anthropic shapes, appends the found tool', async () => {
    const { first, second, call, requests, firstTurn } = await claudeCodeTurn('openai');
    expect(first.content.map((b) => b.type)).toEqual(['server_tool_use', 'tool_search_tool_result', 'tool_use']);
    const [use, result] = first.content as [
      Anthropic.Messages.ServerToolUseBlock,
      Anthropic.Messages.ToolSearchToolResultBlock,
    ];
    expect(use).toMatchObject({ name: 'tool_search_tool_bm25', input: { query: TARGET } });
    expect(result).toMatchObject({ tool_use_id: use.id, content: { type: 'tool_search_tool_search_result' } });
    expect((result.content as Anthropic.Messages.ToolSearchToolSearchResultBlock).tool_references[0]).toEqual({
      type: 'tool_reference',
      tool_name: TARGET,
    });
    expect(call).toMatchObject({ name: TARGET, input: { title: 'x' } });
    expect(first.stop_reason).toBe('tool_use');
    expect((first as unknown as { tool_search: { deferral: unknown } }).tool_search.deferral).toEqual({
      path: 'served',
      searches: 1,
      loaded: expect.arrayContaining([TARGET]),
    });

    // Upstream: the deferred tools are not sent until found; then only the found ones, appended.
    const bodies = requests.map((r) => r.body as Body);
    expect(toolNames(bodies[0]!)).toContain('tool_search_tool_bm25');
    expect(toolNames(bodies[0]!).some((name) => name?.startsWith('mcp__tracker'))).toBe(false);
    expect(toolNames(bodies[1]!).slice(-5)).toContain(TARGET);
    expect(toolNames(bodies[1]!).filter((name) => name?.startsWith('mcp__tracker')).length).toBeLessThanOrEqual(5);
    expect(firstTurn).toHaveLength(2);

    expect(second.content).toEqual([{ type: 'text', text: expect.stringContaining(`FAKE_TOOL_OK ${TARGET}`) }]);
    // Within the turn and across the client's next request, the earlier prompt stays a byte prefix.
    expectPrefixes(requests.map((r) => r.raw));
  });

  it('Anthropic upstream with support: deferred tools and the search tool pass through untouched', async () => {
    const { first, second, requests } = await claudeCodeTurn('anthropic');
    expect(first.content.map((b) => b.type)).toEqual(['server_tool_use', 'tool_search_tool_result', 'tool_use']);
    expect((first as unknown as { tool_search: { deferral: { path: string } } }).tool_search.deferral.path).toBe(
      'pass-through',
    );
    const sent = requests[0]!.body as { tools: Record<string, unknown>[] };
    expect(sent.tools).toEqual(
      expect.arrayContaining([{ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' }, deferred[7]]),
    );
    // The gateway's own catalog (tools mode) is still there, merged ahead of the client's.
    expect(sent.tools.map((t) => t.name)).toContain('tool_search');
    // The history's search blocks go back upstream as Anthropic's own blocks.
    const history = JSON.stringify((requests[1]!.body as { messages: unknown }).messages);
    expect(history).toContain('"type":"server_tool_use"');
    expect(history).toContain('"type":"tool_search_tool_result"');
    expect(second.content).toEqual([{ type: 'text', text: expect.stringContaining(`FAKE_TOOL_OK ${TARGET}`) }]);
    expectPrefixes(requests.map((r) => r.raw));
  });

  it('Anthropic upstream without support (capability override): the gateway serves the search', async () => {
    const { first, second, requests } = await claudeCodeTurn('anthropic', [
      { provider: 'anthropic', model: 'mock-claude', deferredTools: false },
    ]);
    expect(first.content.map((b) => b.type)).toEqual(['server_tool_use', 'tool_search_tool_result', 'tool_use']);
    expect((first as unknown as { tool_search: { deferral: { path: string } } }).tool_search.deferral.path).toBe(
      'served',
    );
    expect(requests[0]!.raw).not.toContain('defer_loading');
    expect(second.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('FAKE_TOOL_OK') });
    expectPrefixes(requests.map((r) => r.raw));
  });

  it('streams the search blocks in Anthropic events', async () => {
    const { server } = await h.gateway('tools', { upstream: h.upstream('openai') });
    const client = new Anthropic({ baseURL: server.url.replace(/\/v1$/, ''), apiKey: 'none', maxRetries: 0 });
    const final = await client.messages
      .stream({ model: 'm', max_tokens: 512, messages: [{ role: 'user', content: ask }], tools })
      .finalMessage();
    expect(final.content.map((b) => b.type)).toEqual(['server_tool_use', 'tool_search_tool_result', 'tool_use']);
    expect(final.content[2]).toMatchObject({ name: TARGET, input: { title: 'x' } });
  });

  it('refuses deferred tools with no search tool, and a mis-named search tool, with REQUEST_INVALID', async () => {
    const { server } = await h.gateway('tools');
    const client = new Anthropic({ baseURL: server.url.replace(/\/v1$/, ''), apiKey: 'none', maxRetries: 0 });
    await expect(
      client.messages.create({
        model: 'm',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'hi' }],
        tools: deferred as Anthropic.Messages.ToolUnion[],
      }),
    ).rejects.toMatchObject({
      status: 400,
      error: { error: { code: 'REQUEST_INVALID', message: expect.stringContaining('defer_loading') } },
    });
    const misnamed = [
      { type: 'tool_search_tool_bm25_20251119', name: 'other' },
    ] as unknown as Anthropic.Messages.ToolUnion[];
    await expect(
      client.messages.create({
        model: 'm',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'hi' }],
        tools: misnamed,
      }),
    ).rejects.toMatchObject({ status: 400 });
  });
});

describe('the served regex search (hostile patterns from the model)', () => {
  it('answers a catastrophic pattern with invalid_pattern instead of blocking, and keeps serving', async () => {
    const { server } = await h.gateway('tools', { upstream: h.upstream('openai') });
    const client = new Anthropic({ baseURL: server.url.replace(/\/v1$/, ''), apiKey: 'none', maxRetries: 0 });
    const regexTools = [
      { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' },
      { name: 'victim', description: `${'a'.repeat(40)}!`, input_schema: { type: 'object' }, defer_loading: true },
      ...deferred,
    ] as Anthropic.Messages.ToolUnion[];
    const evil = await client.messages.create({
      model: 'm',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'tool search qa check target=(a+)+$' }],
      tools: regexTools,
    });
    expect(evil.content[1]).toMatchObject({
      type: 'tool_search_tool_result',
      content: { type: 'tool_search_tool_result_error', error_code: 'invalid_pattern' },
    });
    const fine = await client.messages.create({
      model: 'm',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'tool search qa check target=mcp__tracker__file_ticket_0[7]' }],
      tools: regexTools,
    });
    expect(fine.content[1]).toMatchObject({
      type: 'tool_search_tool_result',
      content: { tool_references: [{ type: 'tool_reference', tool_name: TARGET }] },
    });
  });
});

describe("/v1/messages with the client's own search tool (custom tool search: tool_reference blocks in a tool_result)", () => {
  const customAsk = `${ask} searchTool=find_tools`;
  const findTools = {
    name: 'find_tools',
    description: 'Search the deferred tools by keywords',
    input_schema: { type: 'object' as const, properties: { query: { type: 'string' } }, required: ['query'] },
  };
  const customTools = [tools[0]!, findTools, ...deferred] as Anthropic.Messages.ToolUnion[];

  /** The client's side of the turn: runs its own search (answers with a tool_reference), then the found tool. */
  async function customSearchTurn(kind: UpstreamKind, capabilities?: CapabilityRule[]) {
    const { server } = await h.gateway('tools', {
      upstream: h.upstream(kind),
      ...(capabilities ? { capabilities } : {}),
    });
    const client = new Anthropic({ baseURL: server.url.replace(/\/v1$/, ''), apiKey: 'none', maxRetries: 0 });
    const headers = { 'x-session-id': `custom-search-${kind}-${String(capabilities?.length ?? 0)}` };
    const from = (kind === 'openai' ? h.openai : h.anthropic).requests.length;
    const messages: Anthropic.Messages.MessageParam[] = [{ role: 'user', content: customAsk }];
    const first = await client.messages.create(
      { model: 'm', max_tokens: 512, messages, tools: customTools },
      { headers },
    );
    const search = first.content.find((b): b is Anthropic.Messages.ToolUseBlock => b.type === 'tool_use')!;
    messages.push({ role: 'assistant', content: first.content });
    messages.push({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: search.id,
          content: [{ type: 'tool_reference', tool_name: TARGET }] as never,
        },
      ],
    });
    const second = await client.messages.create(
      { model: 'm', max_tokens: 512, messages, tools: customTools },
      { headers },
    );
    const call = second.content.find((b): b is Anthropic.Messages.ToolUseBlock => b.type === 'tool_use')!;
    messages.push({ role: 'assistant', content: second.content });
    messages.push({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: call.id, content: `FAKE_TOOL_OK ${TARGET}` }],
    });
    const third = await client.messages.create(
      { model: 'm', max_tokens: 512, messages, tools: customTools },
      { headers },
    );
    return { first, second, third, search, call, requests: h.received(kind, from) };
  }

  for (const [label, kind, capabilities] of [
    ['an OpenAI-compatible upstream', 'openai', undefined],
    [
      'an Anthropic upstream without deferred loading',
      'anthropic',
      [{ provider: 'anthropic', model: 'mock-claude', deferredTools: false }],
    ],
  ] as const) {
    it(`${label}: the referenced deferred tool is expanded on the next request, appended, and called`, async () => {
      const { first, second, third, search, call, requests } = await customSearchTurn(
        kind,
        capabilities ? [...capabilities] : undefined,
      );
      expect(search).toMatchObject({ name: 'find_tools', input: { query: TARGET } });
      expect(first.stop_reason).toBe('tool_use');
      expect(call).toMatchObject({ name: TARGET, input: { title: 'x' } });
      expect(third.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining(`FAKE_TOOL_OK ${TARGET}`) });
      expect((second as unknown as { tool_search: { deferral: unknown } }).tool_search.deferral).toMatchObject({
        path: 'served',
        loaded: [TARGET],
      });

      const bodies = requests.map((r) => r.body as Body);
      expect(bodies).toHaveLength(3);
      // No deferred tool before the search; the custom search tool is in view (not behind tools mode's search).
      expect(toolNames(bodies[0]!)).toContain('find_tools');
      expect(toolNames(bodies[0]!).some((name) => name?.startsWith('mcp__tracker'))).toBe(false);
      // After the client's tool_reference: exactly the referenced tool, appended last.
      expect(toolNames(bodies[1]!).filter((name) => name?.startsWith('mcp__tracker'))).toEqual([TARGET]);
      expect(toolNames(bodies[1]!).at(-1)).toBe(TARGET);
      expect(requests[1]!.raw).not.toContain('defer_loading');
      expectPrefixes(requests.map((r) => r.raw));
    });
  }

  it('an Anthropic upstream with support: the tool_reference blocks pass through as blocks, deferred tools as sent', async () => {
    const { call, third, requests } = await customSearchTurn('anthropic');
    expect(call).toMatchObject({ name: TARGET, input: { title: 'x' } });
    expect(third.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('FAKE_TOOL_OK') });
    const sent = requests[1]!.body as {
      tools: Record<string, unknown>[];
      messages: { role: string; content: unknown }[];
    };
    expect(sent.tools).toEqual(expect.arrayContaining([deferred[7], expect.objectContaining({ name: 'find_tools' })]));
    expect(sent.messages.at(-1)!.content).toEqual([
      expect.objectContaining({ type: 'tool_result', content: [{ type: 'tool_reference', tool_name: TARGET }] }),
    ]);
    expectPrefixes(requests.map((r) => r.raw));
  });

  it('refuses a tool_result block that is neither text nor tool_reference next to a reference, with REQUEST_INVALID', async () => {
    const { server } = await h.gateway('tools', { upstream: h.upstream('openai') });
    const client = new Anthropic({ baseURL: server.url.replace(/\/v1$/, ''), apiKey: 'none', maxRetries: 0 });
    const messages = [
      { role: 'user', content: customAsk },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'find_tools', input: { query: 'x' } }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_1',
            content: [
              { type: 'tool_reference', tool_name: TARGET },
              { type: 'image', source: {} },
            ],
          },
        ],
      },
    ] as Anthropic.Messages.MessageParam[];
    await expect(
      client.messages.create({ model: 'm', max_tokens: 64, messages, tools: customTools }),
    ).rejects.toMatchObject({ status: 400, error: { error: { code: 'REQUEST_INVALID' } } });
  });
});

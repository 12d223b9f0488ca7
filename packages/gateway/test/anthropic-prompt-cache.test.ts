/**
 * Prompt caching on the Anthropic upstream (cache-breakpoints.ts), end to end: the official clients (Anthropic's on
 * `/v1/messages`, OpenAI's on `/v1/chat/completions`) → the gateway → mock-anthropic in its default, documented mode
 * (it caches only requests that carry `cache_control`). Every request carries the documented form (request-level
 * `cache_control`, a breakpoint on the system block and on the last custom tool that is not deferred: 3 of the 4
 * allowed), the tools and system prefix stays put across turns in every mode, and turns 2+ read the cache; with
 * `promptCache: false` nothing is marked and nothing is cached.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nativeModePlugin } from '@tool-search/mode-native';
import { cacheBreakpoints, type MessagesRequest } from '@tool-search/mock-anthropic';
import { anthropicUpstream, createUpstream, MAX_BREAKPOINTS, type TurnLedger } from '@tool-search/gateway';
import { MemoryStateStore } from '@tool-search/state';
import { harness, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

type Tool = { name: string; type?: string; defer_loading?: boolean; cache_control?: unknown };
type Body = { messages: unknown[]; system?: unknown; tools?: Tool[]; cache_control?: unknown };
/** The request's `cache_control` breakpoints, counted as the mock counts them (its limit check). */
const breakpoints = (body: unknown) => cacheBreakpoints(body as MessagesRequest);
type Field = { ledger: TurnLedger };
type Front = 'messages' | 'chat';
const EPHEMERAL = { type: 'ephemeral' } as const;
const TARGETS = ['fake_plugin_tool_0005', 'fake_plugin_tool_0011', 'fake_plugin_tool_0017'];
const ask = (target: string) => `tool search qa check target=${target}`;
// A client's own long system prompt (~2,500 tokens at the mock's 4 characters a token), as agent clients send: with
// it the prefix passes the documented 1,024-token minimum in every mode (a deferred catalog alone is too small).
const SYSTEM = `You answer questions. ${'Rules of the house. '.repeat(500)}`;

async function gateway(mode: string, promptCache = true, state?: MemoryStateStore) {
  const upstream = anthropicUpstream(
    new Anthropic({ baseURL: h.anthropic.url, apiKey: 'mock', maxRetries: 0 }),
    'mock-claude',
    { promptCache },
  );
  return (await h.gateway(mode, { upstream, plugins: [nativeModePlugin()], ...(state ? { state } : {}) })).server;
}

/** One conversation through the official client of `front`, the client keeping its history; each turn's upstream bodies. */
async function conversation(front: Front, mode: string, session: string, promptCache = true, state?: MemoryStateStore) {
  const server = await gateway(mode, promptCache, state);
  const headers = { 'x-session-id': session };
  const history: { role: 'user' | 'assistant'; content: string }[] = [];
  const turns: { field: Field; bodies: Body[] }[] = [];
  for (const target of TARGETS) {
    history.push({ role: 'user', content: ask(target) });
    const from = h.anthropic.requests.length;
    let text: string;
    let field: Field;
    if (front === 'messages') {
      const client = new Anthropic({ baseURL: server.url.replace(/\/v1$/, ''), apiKey: 'none', maxRetries: 0 });
      const answer = await client.messages.create(
        { model: 'm', max_tokens: 512, system: SYSTEM, messages: history },
        { headers },
      );
      text = answer.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
      field = (answer as unknown as { tool_search: Field }).tool_search;
    } else {
      const client = (await import('openai')).default;
      const openai = new client({ baseURL: server.url, apiKey: 'none', maxRetries: 0 });
      const answer = await openai.chat.completions.create(
        { model: 'm', messages: [{ role: 'system', content: SYSTEM }, ...history] },
        { headers },
      );
      text = answer.choices[0]!.message.content ?? '';
      field = (answer as unknown as { tool_search: Field }).tool_search;
    }
    history.push({ role: 'assistant', content: text });
    turns.push({ field, bodies: h.received('anthropic', from).map((r) => r.body as Body) });
  }
  return turns;
}

/** The tools the provider renders into the cached prefix: not deferred, without their marks. */
const renderedTools = (body: Body) =>
  (body.tools ?? []).filter((tool) => tool.defer_loading !== true).map(({ cache_control: _mark, ...tool }) => tool);

function expectDocumentedForm(body: Body) {
  expect(body.cache_control).toEqual(EPHEMERAL);
  expect(body.system).toEqual([{ type: 'text', text: expect.any(String), cache_control: EPHEMERAL }]);
  const marked = (body.tools ?? []).filter((tool) => tool.cache_control !== undefined);
  expect(marked).toHaveLength(1);
  expect(marked[0]!.cache_control).toEqual(EPHEMERAL);
  // A deferred tool is not in the cached prefix: the mark is on a tool that is.
  expect(marked[0]!.defer_loading).toBeUndefined();
  expect(marked[0]!.type ?? 'custom').toBe('custom');
  // No message block is marked: the request-level field moves the conversation's breakpoint.
  expect(JSON.stringify(body.messages)).not.toContain('cache_control');
  expect(breakpoints(body)).toBe(3);
  expect(breakpoints(body)).toBeLessThanOrEqual(MAX_BREAKPOINTS);
}

describe.each(['direct', 'tools', 'native'] as const)('Anthropic prompt caching (%s mode)', (mode) => {
  it.each(['messages', 'chat'] as const)(
    'official %s client → gateway → mock-anthropic (documented mode): marked as documented, turns 2+ read the cache',
    async (front) => {
      const turns = await conversation(front, mode, `anthropic-cache-${mode}-${front}`);
      const first = turns[0]!.bodies[0]!;
      if (mode === 'native') expect((first.tools ?? []).some((tool) => tool.defer_loading === true)).toBe(true);
      for (const [i, { field, bodies }] of turns.entries()) {
        expect(bodies.length).toBeGreaterThan(0);
        for (const body of bodies) {
          expectDocumentedForm(body);
          // The cached prefix stays put: the first request's rendered tools lead every later one, the system text is the same.
          expect(renderedTools(body).slice(0, renderedTools(first).length)).toEqual(renderedTools(first));
          expect(body.system).toEqual(first.system);
        }
        const report = field.ledger.prompt_cache!;
        expect(report.provider).toBe('anthropic');
        if (i > 0) expect(report.cached_tokens, `turn ${i + 1}`).toBeGreaterThan(0);
        // Even the turn's first request reads what the previous turn wrote.
        if (i > 0) expect(field.ledger.requests[0]!.provider_tokens!.cached, `turn ${i + 1}`).toBeGreaterThan(0);
      }
    },
  );

  it('with promptCache: false nothing is marked and nothing is cached', async () => {
    const turns = await conversation('messages', mode, `anthropic-cache-off-${mode}`, false);
    for (const { field, bodies } of turns) {
      for (const body of bodies) expect(breakpoints(body)).toBe(0);
      expect(JSON.stringify(bodies)).not.toContain('cache_control');
      expect(field.ledger.prompt_cache!.cached_tokens).toBe(0);
    }
  });
});

describe('native mode with durable loads (a tool an earlier turn found goes upstream loaded)', () => {
  it('the loaded tools go last: the rendered prefix and its breakpoint stay put, turn 2 reads the cache', async () => {
    const turns = await conversation('chat', 'native', 'anthropic-cache-native-durable', true, new MemoryStateStore());
    const [one, two] = [turns[0]!.bodies[0]!, turns[1]!.bodies[0]!];
    const loaded = (two.tools ?? []).filter((tool) => tool.name.startsWith('fake_') && tool.defer_loading !== true);
    // The first turn's search hits, the target among them.
    expect(loaded.map((tool) => tool.name)).toContain(TARGETS[0]);
    // Last of all the tools, after the deferred catalog: the first turn's rendered tools still lead.
    expect(two.tools!.slice(-loaded.length)).toEqual(loaded);
    expect(renderedTools(two).slice(0, renderedTools(one).length)).toEqual(renderedTools(one));
    for (const { bodies } of turns) for (const body of bodies) expectDocumentedForm(body);
    // The turn's first request rewrites from the loaded tools on (they render ahead of the system text: here the stable
    // tools alone are under the 1,024-token minimum); its later requests read.
    expect(turns[1]!.field.ledger.prompt_cache!.cached_tokens).toBeGreaterThan(0);
  });
});

describe('a client’s own cache_control on /v1/messages', () => {
  const marked = { cache_control: EPHEMERAL };
  const request = {
    model: 'm',
    max_tokens: 256,
    cache_control: EPHEMERAL,
    system: [{ type: 'text' as const, text: 'Client rules.', ...marked }],
    tools: [
      { name: 'client_lookup', input_schema: { type: 'object' as const }, ...marked },
      { name: 'client_notes', input_schema: { type: 'object' as const }, ...marked },
    ],
    messages: [
      { role: 'user' as const, content: [{ type: 'text' as const, text: ask('fake_plugin_tool_0005'), ...marked }] },
    ],
  };

  it('is accepted (6 marks, over the limit) and not forwarded: the upstream gets the gateway’s 3, or none when off', async () => {
    expect(breakpoints(request)).toBeGreaterThan(MAX_BREAKPOINTS);
    for (const promptCache of [true, false]) {
      const server = await gateway('tools', promptCache);
      const client = new Anthropic({ baseURL: server.url.replace(/\/v1$/, ''), apiKey: 'none', maxRetries: 0 });
      const from = h.anthropic.requests.length;
      await client.messages.create(request);
      const bodies = h.received('anthropic', from).map((r) => r.body as Body);
      expect(bodies.length).toBeGreaterThan(0);
      for (const body of bodies) expect(breakpoints(body)).toBe(promptCache ? 3 : 0);
    }
  });
});

describe('createUpstream: provider.promptCache', () => {
  it('defaults to on for Anthropic; false sends no cache_control', () => {
    const provider = { kind: 'anthropic' as const, baseURL: h.anthropic.url, apiKey: 'k', model: 'mock-claude' };
    const request = { system: 'Rules.', messages: [{ role: 'user' as const, content: 'hi' }], toolsJson: '[]' };
    expect(createUpstream(provider).body(request)).toContain('"cache_control":{"type":"ephemeral"}');
    expect(createUpstream({ ...provider, promptCache: false }).body(request)).not.toContain('cache_control');
  });
});

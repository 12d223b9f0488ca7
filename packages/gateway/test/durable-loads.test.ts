/**
 * Issue 44 item 5, durable runs at the gateway: the tools a session loaded live in the state store under the session
 * id, so the session's next turn on another replica (two gateways over two kernels sharing one real `redis-server`)
 * offers them without searching again, and the policy still decides. Driven by the official OpenAI client over HTTP
 * against the scripted mock OpenAI upstream (`early=1`: the mock calls the target by name before loading it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { createKernel, type JsonSchema, type KernelPlugin } from '@tool-search/kernel';
import { fakeCatalogPlugin } from '@tool-search/plugin-fake-catalog';
import { nativeModePlugin } from '@tool-search/mode-native';
import { connectRedisState, loadedTools, type StateStore } from '@tool-search/state';
import { redisServerAvailable, startRedisServer, type RedisServerHandle } from '@tool-search/testing';
import { harness, type Harness } from './helpers.js';

const haveRedis = redisServerAvailable();
if (!haveRedis)
  console.warn('skipping the durable loads tests: redis-server is not installed (apt-get install -y redis-server)');

const TARGET = 'fake_plugin_tool_0005';
const CONTROL = ['tool_search', 'tool_describe', 'tool_call'];
type ChatBody = { tools?: { function: { name: string } }[] };
type Field = { session_id: string; tool_calls: { name: string; status: string }[] };
const names = (body: ChatBody) => (body.tools ?? []).map((t) => t.function.name);

const denyTarget: KernelPlugin = {
  name: 'test-deny-target',
  apply: ({ hooks }) => hooks.filterPolicy.tap((tools) => tools.filter((tool) => tool.name !== TARGET)),
};

describe.skipIf(!haveRedis)('a session’s loaded tools across gateway replicas (shared Redis)', () => {
  let h: Harness;
  let redis: RedisServerHandle;
  const stores: StateStore[] = [];
  let ask: string;

  beforeAll(async () => {
    h = await harness();
    redis = await startRedisServer();
    const kernel = createKernel({ plugins: [fakeCatalogPlugin({ tools: 36, core: true })] });
    const schema = (await kernel.createRun()).tool(TARGET)!.inputSchema;
    await kernel.close();
    ask = `tool search qa check target=${TARGET} args=${JSON.stringify(argsFor(schema))}`;
  });
  afterAll(async () => {
    await h?.close();
    await Promise.all(stores.map((store) => store.close()));
    await redis?.stop();
  });

  /** A gateway replica: its own kernel and its own connection to the shared Redis. */
  async function replica(replicaId: string, plugins: KernelPlugin[] = [], mode = 'tools') {
    const state = await connectRedisState({ url: redis.url, keyPrefix: 'durable-test:', replicaId });
    stores.push(state);
    const upstream = h.upstream(mode === 'native' ? 'anthropic' : 'openai');
    return (await h.gateway(mode, { state, upstream, plugins: [nativeModePlugin(), ...plugins] })).client;
  }

  async function turn(client: OpenAI, sessionId: string, messages: ChatCompletionMessageParam[], kind = 'openai') {
    const upstream = kind === 'anthropic' ? 'anthropic' : 'openai';
    const from = h[upstream].requests.length;
    const completion = await client.chat.completions.create(
      { model: 'mock-model', messages },
      { headers: { 'x-session-id': sessionId } },
    );
    const bodies = h.received(upstream, from).map((r) => r.body as unknown as ChatBody);
    const field = (completion as unknown as { tool_search: Field }).tool_search;
    return { completion, bodies, calls: field.tool_calls.map((c) => [c.name, c.status]) };
  }

  it('a tool loaded on replica A is offered by replica B on the session’s next turn: no search', async () => {
    const [a, b] = [await replica('a'), await replica('b')];
    const first: ChatCompletionMessageParam[] = [{ role: 'user', content: `${ask} early=1` }];
    const one = await turn(a, 'durable-1', first);
    // The call before the load loads it on A (issue 44 item 4), then it runs.
    expect(one.calls).toEqual([
      [TARGET, 'error'],
      [TARGET, 'ok'],
    ]);
    const next: ChatCompletionMessageParam[] = [
      ...first,
      { role: 'assistant', content: one.completion.choices[0]!.message.content },
      { role: 'user', content: ask },
    ];
    const two = await turn(b, 'durable-1', next);
    expect(names(two.bodies[0]!)).toEqual([...CONTROL, TARGET]);
    expect(two.calls).toEqual([[TARGET, 'ok']]);
    expect(two.completion.choices[0]?.message.content).toContain(`FAKE_TOOL_OK ${TARGET}`);

    // Another session on B starts from nothing: it searches first.
    const other = await turn(b, 'durable-2', next);
    expect(names(other.bodies[0]!)).toEqual(CONTROL);
    expect(other.calls[0]?.[0]).toBe('tool_search');
  });

  it('native mode (Anthropic upstream): a tool a search found on A goes to B’s upstream loaded, not deferred', async () => {
    const [a, b] = [await replica('na', [], 'native'), await replica('nb', [], 'native')];
    const first: ChatCompletionMessageParam[] = [{ role: 'user', content: ask }];
    const one = await turn(a, 'durable-native', first, 'anthropic');
    expect(one.calls).toEqual([
      ['tool_search', 'ok'],
      [TARGET, 'ok'],
    ]);
    const deferredOf = (body: ChatBody, name: string) =>
      (body as unknown as { tools: { name: string; defer_loading?: boolean }[] }).tools.find((t) => t.name === name)
        ?.defer_loading;
    expect(deferredOf(one.bodies[0]!, TARGET)).toBe(true);
    const two = await turn(
      b,
      'durable-native',
      [...first, { role: 'assistant', content: 'done' }, ...first],
      'anthropic',
    );
    expect(deferredOf(two.bodies[0]!, TARGET)).toBeUndefined();
    expect(deferredOf(two.bodies[0]!, 'fake_plugin_tool_0006')).toBe(true);
    expect(two.calls).toEqual([[TARGET, 'ok']]);
  });

  it('a client’s deferred tools (/v1/messages, served search): a load on A is offered by B though the history lost it', async () => {
    const DEFERRED = 'mcp__tracker__file_ticket_07';
    const schema = { type: 'object', properties: { title: { type: 'string', description: 'ticket title' } } };
    const tools = [
      { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
      ...Array.from({ length: 12 }, (_, i) => ({
        name: `mcp__tracker__file_ticket_${String(i).padStart(2, '0')}`,
        description: `File a ticket in tracker queue ${i}`,
        input_schema: schema,
        defer_loading: true,
      })),
    ] as Anthropic.Messages.ToolUnion[];
    const messagesClient = async (replicaId: string) => {
      const state = await connectRedisState({ url: redis.url, keyPrefix: 'durable-test:', replicaId });
      stores.push(state);
      const { server } = await h.gateway('tools', { state });
      return new Anthropic({ baseURL: server.url.replace(/\/v1$/, ''), apiKey: 'none', maxRetries: 0 });
    };
    const send = async (client: Anthropic) => {
      const from = h.openai.requests.length;
      const message = await client.messages.create(
        {
          model: 'm',
          max_tokens: 512,
          tools,
          messages: [{ role: 'user', content: `tool search qa check target=${DEFERRED} args={"title":"x"}` }],
        },
        { headers: { 'x-session-id': 'durable-deferred' } },
      );
      const bodies = h.received('openai', from).map((r) => r.body as unknown as ChatBody);
      return {
        message,
        bodies,
        deferral: (message as unknown as { tool_search: { deferral: unknown } }).tool_search.deferral,
      };
    };
    const one = await send(await messagesClient('da'));
    expect(one.deferral).toMatchObject({ path: 'served', searches: 1 });
    const loaded = (one.deferral as { loaded: string[] }).loaded;
    expect(loaded).toContain(DEFERRED);
    expect(names(one.bodies[0]!)).not.toContain(DEFERRED);
    // The client sends the turn again without the search in its history (compacted): B still offers the tool.
    const two = await send(await messagesClient('db'));
    expect(names(two.bodies[0]!)).toContain(DEFERRED);
    // The search's whole set, in the order it was loaded, and no search this time.
    expect(two.deferral).toEqual({ path: 'served', searches: 0, loaded });
    expect(two.message.content.find((b) => b.type === 'tool_use')).toMatchObject({
      name: DEFERRED,
      input: { title: 'x' },
    });
  });

  it('a replica whose policy denies the tool now does not offer it, though the session loaded it', async () => {
    const a = await replica('a2');
    const first: ChatCompletionMessageParam[] = [{ role: 'user', content: `${ask} early=1` }];
    expect((await turn(a, 'durable-3', first)).calls.at(-1)).toEqual([TARGET, 'ok']);
    const state = stores.at(-1)!;
    expect(await loadedTools(state).read('durable-3')).toEqual([TARGET]);

    const denying = await replica('c', [denyTarget]);
    const denied = await turn(denying, 'durable-3', [{ role: 'user', content: ask }]);
    for (const body of denied.bodies) expect(names(body)).not.toContain(TARGET);
    expect(denied.calls.some(([name, status]) => name === TARGET && status === 'ok')).toBe(false);
  });
});

/** Arguments the schema accepts: each required property with a value of its type. */
function argsFor(schema: JsonSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, { type?: string; enum?: unknown[] }>;
  const sample = (p: { type?: string; enum?: unknown[] }) =>
    p.enum?.[0] ??
    ({ number: 1, integer: 1, boolean: true, array: [], object: {} } as Record<string, unknown>)[p.type ?? ''] ??
    'x';
  return Object.fromEntries(((schema.required ?? []) as string[]).map((key) => [key, sample(properties[key] ?? {})]));
}

describe('a store that does not answer', () => {
  it('the turn goes on without the loaded tools, and the operator log says why', async () => {
    const h = await harness();
    try {
      const lines: string[] = [];
      const down = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
      const { client } = await h.gateway('tools', {
        loadedTools: { read: down, add: down },
        log: (l) => lines.push(l),
      });
      const completion = await client.chat.completions.create(
        { model: 'mock-model', messages: [{ role: 'user', content: `tool search qa check target=${TARGET}` }] },
        { headers: { 'x-session-id': 'durable-down' } },
      );
      expect(completion.choices[0]?.message.content).toContain(`FAKE_TOOL_OK ${TARGET}`);
      expect(lines).toContain(
        'gateway: the loaded tools of session durable-down could not be read: connect ECONNREFUSED 127.0.0.1:6379',
      );
    } finally {
      await h.close();
    }
  });
});

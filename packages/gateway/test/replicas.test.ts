/**
 * Two gateways over two kernels sharing one real redis-server, driven by the official `openai` client over HTTP
 * against the mock provider: a stored Responses conversation continues on the other replica, and a suspended
 * client-tool hand-off answered on the other replica is a coded 421 naming the replica that holds it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedisState, type StateStore } from '@tool-search/state';
import { redisServerAvailable, startRedisServer, type RedisServerHandle } from '@tool-search/testing';
import { StoredResponses } from '../src/stored-responses.js';
import { harness, type Harness } from './helpers.js';

const haveRedis = redisServerAvailable();
if (!haveRedis) console.warn('skipping the gateway replica tests: no redis-server (apt-get install -y redis-server)');

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
const askLookup = [
  { role: 'user' as const, content: 'tool search qa check target=lookup_order args={"order":"A-17"}' },
];
type Gateway = Awaited<ReturnType<Harness['gateway']>>;

describe.skipIf(!haveRedis)('two gateway replicas sharing one redis-server', () => {
  let h: Harness;
  let redis: RedisServerHandle;
  const states: StateStore[] = [];
  let a: Gateway;
  let b: Gateway;

  beforeAll(async () => {
    h = await harness();
    redis = await startRedisServer();
    for (const replicaId of ['gw-a', 'gw-b']) states.push(await connectRedisState({ url: redis.url, replicaId }));
    a = await h.gateway('tools', { state: states[0]! });
    b = await h.gateway('tools', { state: states[1]! });
  });

  afterAll(async () => {
    await h?.close();
    await Promise.all(states.map((state) => state.close()));
    await redis?.stop();
  });

  it('continues a Responses conversation made on A with previous_response_id on B (the provider sees it)', async () => {
    const first = await a.client.responses.create({ model: 'm', input: 'Remember the word periwinkle.' });
    const from = h.openai.requests.length;
    const second = await b.client.responses.create({
      model: 'm',
      previous_response_id: first.id,
      input: 'Which word did I ask you to remember?',
    });
    const sent = h.received('openai', from).map((request) => JSON.stringify(request.body.messages));
    expect(sent.length).toBeGreaterThan(0);
    expect(sent[0]).toContain('Remember the word periwinkle.');
    expect(sent[0]).toContain('Which word did I ask you to remember?');
    const session = (r: unknown) => (r as { tool_search: { session_id: string } }).tool_search.session_id;
    expect(session(second)).toBe(session(first));
    // And back on A, one more turn: B's stored response is A's to read too.
    const third = await a.client.responses.create({ model: 'm', previous_response_id: second.id, input: 'Thanks.' });
    expect(session(third)).toBe(session(first));
  });

  it('answers an unknown previous_response_id with a coded 404 on either replica', async () => {
    for (const gateway of [a, b])
      await expect(
        gateway.client.responses.create({ model: 'm', input: 'hi', previous_response_id: 'resp_never_made' }),
      ).rejects.toMatchObject({ status: 404, code: 'RESPONSE_NOT_FOUND', param: '/previous_response_id' });
  });

  it('a response over the size bound stays on its replica, and the other names it (RESPONSE_ON_OTHER_REPLICA)', async () => {
    const onA = new StoredResponses({ state: states[0]!, maxBytes: 64 });
    const onB = new StoredResponses({ state: states[1]! });
    const big = { messages: [{ role: 'user' as const, content: 'x'.repeat(100) }], sessionId: 's-big' };
    await onA.put('resp_big', big);
    await expect(onA.get('resp_big')).resolves.toEqual(big);
    await expect(onB.get('resp_big')).rejects.toMatchObject({
      code: 'RESPONSE_ON_OTHER_REPLICA',
      details: { replica: 'gw-a' },
    });
    // Within the bound it goes to the store: a fresh cache on B reads it there, not from A's memory.
    const small = { messages: [{ role: 'user' as const, content: 'hi' }], sessionId: 's-small' };
    await new StoredResponses({ state: states[0]! }).put('resp_small', small);
    await expect(new StoredResponses({ state: states[1]! }).get('resp_small')).resolves.toEqual(small);
  });

  it('a suspended client-tool hand-off answered on B is a coded 421 naming A; answered on A, the turn goes on', async () => {
    const first = await a.client.chat.completions.create({ model: 'mock-model', messages: askLookup, tools: LOOKUP });
    const handed = first.choices[0]?.message.tool_calls?.[0];
    expect(handed?.type === 'function' && handed.function.name).toBe('lookup_order');
    const answer = {
      model: 'mock-model',
      tools: LOOKUP,
      messages: [
        ...askLookup,
        { role: 'assistant' as const, content: null, tool_calls: first.choices[0]!.message.tool_calls ?? [] },
        { role: 'tool' as const, tool_call_id: handed!.id, content: 'FAKE_TOOL_OK lookup_order shipped' },
      ],
    };
    const from = h.openai.requests.length;
    await expect(b.client.chat.completions.create(answer)).rejects.toMatchObject({
      status: 421,
      code: 'TURN_ON_OTHER_REPLICA',
      error: { details: { replica: 'gw-a', callId: handed!.id } },
    });
    // B started nothing: no provider request, no new turn without the model's calls.
    expect(h.received('openai', from)).toHaveLength(0);
    const resumed = await a.client.chat.completions.create(answer);
    expect(resumed.choices[0]?.message.content).toContain('FAKE_TOOL_OK lookup_order shipped');
  });
});

import { afterAll, describe, expect, it, vi } from 'vitest';
import { connectRedisState, memoryReplicas, type StateStore } from '@tool-search/state';
import { startRedisServer, stateBackends } from '@tool-search/testing';
import {
  createSessionHost,
  MemorySessionStore,
  StateSessionStore,
  type MemorySessionStoreOptions,
  type SessionStore,
  type SessionTurnRequest,
} from '@tool-search/sessions';

const line = (content: string) => ({ role: 'user' as const, content, at: 0 });

const backends = stateBackends<StateStore>('the session store tests', {
  memory: memoryReplicas,
  redis: connectRedisState,
});
afterAll(() => backends.close());
const haveRedis = backends.redisAvailable;
/** Fresh state per test, as two replicas see it: in-process views of one store, or two clients on a key prefix of its own. */
const statePair = (kind: 'memory' | 'redis') => backends.pair(kind);
const freshState = async (kind: 'memory' | 'redis') => (await statePair(kind))[0];

type Make = (options?: MemorySessionStoreOptions) => Promise<SessionStore>;
const stores: [string, Make][] = [
  ['MemorySessionStore', async (options) => new MemorySessionStore(options)],
  ['StateSessionStore (memory state)', async (options) => new StateSessionStore(await freshState('memory'), options)],
  ...(haveRedis
    ? [
        [
          'StateSessionStore (redis)',
          async (options?: MemorySessionStoreOptions) => new StateSessionStore(await freshState('redis'), options),
        ] as [string, Make],
      ]
    : []),
];

describe.each(stores)('%s', (_name, make) => {
  it('keeps the newest maxMessages entries but counts all of them', async () => {
    const store = await make({ maxMessages: 3 });
    for (const n of [1, 2, 3, 4, 5]) await store.append('s', line(`m${n}`));
    expect((await store.transcript('s')).map((e) => e.content)).toEqual(['m3', 'm4', 'm5']);
    expect((await store.transcript('s', 2)).map((e) => e.content)).toEqual(['m4', 'm5']);
    expect(await store.get('s')).toMatchObject({ messageCount: 5, key: 'agent:main:s', kind: 'main', status: 'idle' });
  });

  it('cuts long entries and evicts the least recently updated idle session past maxSessions', async () => {
    let clock = 0;
    const store = await make({ maxSessions: 2, maxEntryChars: 4, now: () => ++clock });
    await store.append('a', line('abcdefgh'));
    expect((await store.transcript('a'))[0]!.content).toBe('abcd…');
    await store.upsert('b', { status: 'running' });
    await store.upsert('a', {}); // a is now the most recent
    await store.upsert('c', {});
    // b is running, so it stays; a is the least recently updated idle one.
    expect((await store.list()).map((s) => s.sessionId).sort()).toEqual(['b', 'c']);
    await store.upsert('d', {});
    expect((await store.list()).map((s) => s.sessionId).sort()).toEqual(['b', 'd']);
  });

  it('upsert keeps fields it is not given and re-keys on a new agent', async () => {
    const store = await make();
    await store.upsert('x', { kind: 'spawn', parentId: 'p', label: 'l' });
    const next = await store.upsert('x', { agentId: 'coder', label: undefined });
    expect(next).toMatchObject({ kind: 'spawn', parentId: 'p', label: 'l', agentId: 'coder', key: 'agent:coder:x' });
  });
});

const stateKinds = backends.kinds;
describe.each(stateKinds)('StateSessionStore across replicas (%s state)', (kind) => {
  async function pair(
    options: ConstructorParameters<typeof StateSessionStore>[1] = {},
  ): Promise<[StateSessionStore, StateSessionStore]> {
    const [a, b] = await statePair(kind);
    return [new StateSessionStore(a, options), new StateSessionStore(b, options)];
  }

  it('a session written on one replica is listed, read and continued on the other', async () => {
    let clock = 0;
    const [a, b] = await pair({ now: () => ++clock });
    await a.upsert('s', { agentId: 'coder', kind: 'spawn', label: 'l' });
    await a.append('s', line('from a'));
    await b.append('s', { role: 'assistant', content: 'from b', at: 1, toolCalls: ['read'] });
    expect((await a.transcript('s')).map((e) => e.content)).toEqual(['from a', 'from b']);
    expect((await a.transcript('s'))[1]).toEqual({ role: 'assistant', content: 'from b', at: 1, toolCalls: ['read'] });
    expect(await b.get('s')).toMatchObject({ key: 'agent:coder:s', kind: 'spawn', label: 'l', messageCount: 2 });
    await b.upsert('t', {});
    expect((await a.list()).map((r) => r.sessionId)).toEqual(['t', 's']);
  });

  it('counts appends racing from both replicas', async () => {
    const [a, b] = await pair();
    await a.upsert('s', {});
    await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).append('s', line(`m${i}`))));
    expect(await a.get('s')).toMatchObject({ messageCount: 10 });
    expect(await b.transcript('s')).toHaveLength(10);
  });

  it('forgets a session nobody wrote to within ttlMs, on every replica', async () => {
    // Expiry is the store's (Redis) real clock: instead of fixed sleeps that a loaded machine overruns, "kept" is
    // written every 200 ms (a fifth of the TTL) until "old", written once, is gone everywhere.
    const [a, b] = await pair({ ttlMs: 1_000 });
    await a.append('old', line('x'));
    await a.append('kept', line('y'));
    const written = ['y'];
    const deadline = Date.now() + 30_000;
    while ((await b.get('old')) !== undefined) {
      if (Date.now() > deadline) throw new Error('"old" was never forgotten');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const next = `z${written.length}`;
      await b.append('kept', line(next));
      written.push(next);
    }
    expect(await b.transcript('old')).toEqual([]);
    expect(await a.get('old')).toBeUndefined();
    expect((await b.list()).map((r) => r.sessionId)).toEqual(['kept']);
    expect((await a.transcript('kept')).map((e) => e.content)).toEqual(written);
  });
});

describe('StateSessionStore while Redis is down', () => {
  it.skipIf(!haveRedis)(
    'rejects writes and reads with STATE_UNAVAILABLE instead of hanging or dropping them silently',
    async () => {
      const own = await startRedisServer();
      const state = await connectRedisState({ url: own.url, replicaId: 'a', commandTimeoutMs: 500 });
      try {
        const store = new StateSessionStore(state);
        await store.append('s', line('before'));
        await own.stop();
        await expect(store.append('s', line('during'))).rejects.toMatchObject({ code: 'STATE_UNAVAILABLE' });
        await expect(store.list()).rejects.toMatchObject({ code: 'STATE_UNAVAILABLE' });
      } finally {
        await state.close();
        await own.stop();
      }
    },
  );
});

describe('createSessionHost', () => {
  it('runs turns of one session one after another, sending the kept transcript and the new message', async () => {
    const host = createSessionHost();
    const seen: SessionTurnRequest[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    host.bind(async (request) => {
      seen.push(request);
      if (seen.length === 1) await gate;
      // What the gateway's recorder would do for this turn.
      await host.store.append(request.sessionId, line(request.messages.at(-1)!.content));
      await host.store.append(request.sessionId, { role: 'assistant', content: `re ${seen.length}`, at: 0 });
      return { content: `re ${seen.length}`, finishReason: 'stop', model: 'm', usage: { input: 2, output: 1 } };
    });
    const first = host.turn('s', 'one', {});
    const second = host.turn('s', 'two', { agentId: 'main' });
    await vi.waitFor(() => expect(seen.length).toBe(1));
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(seen.length).toBe(1); // the second waits for the first, which waits on the gate
    release();
    expect((await first).content).toBe('re 1');
    expect((await second).content).toBe('re 2');
    expect(seen[1]!.messages).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 're 1' },
      { role: 'user', content: 'two' },
    ]);
    expect(await host.store.get('s')).toMatchObject({
      status: 'idle',
      turns: 2,
      usage: { input: 4, output: 2 },
      model: 'm',
    });
  });

  it('a failed turn leaves status failed with the error; the next turn still runs', async () => {
    const host = createSessionHost();
    let calls = 0;
    host.bind(async () => {
      if (++calls === 1) throw new Error('provider down');
      return { content: 'ok', finishReason: 'stop', model: 'm' };
    });
    await expect(host.turn('s', 'a', {})).rejects.toThrow('provider down');
    expect(await host.store.get('s')).toMatchObject({ status: 'failed', lastError: 'provider down' });
    expect((await host.turn('s', 'b', {})).content).toBe('ok');
    expect(await host.store.get('s')).toMatchObject({ status: 'idle', turns: 1 });
  });

  it('without a runner a turn is SESSIONS_UNAVAILABLE', async () => {
    const host = createSessionHost();
    expect(host.bound).toBe(false);
    await expect(host.turn('s', 'a', {})).rejects.toMatchObject({ code: 'SESSIONS_UNAVAILABLE' });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startRedisServer, stateBackends } from '@tool-search/testing';
import {
  MemoryStateStore,
  connectRedisState,
  createStateStore,
  memoryReplicas,
  type StateStore,
} from '../src/index.js';
import { StateErrors } from '../src/errors.js';

const backends = stateBackends<StateStore>('the state store tests', {
  memory: memoryReplicas,
  redis: connectRedisState,
});
afterAll(() => backends.close());
const haveRedis = backends.redisAvailable;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(backends.kinds)('%s state store', (kind) => {
  let a: StateStore;
  let b: StateStore;
  beforeAll(async () => {
    [a, b] = await backends.pair(kind);
  });

  it('sets, gets, takes and deletes values across replicas', async () => {
    expect(await a.set('k1', 'v1', { ttlMs: 10_000 })).toBe(true);
    expect(await b.get('k1')).toBe('v1');
    expect(await b.get('missing')).toBeUndefined();
    expect(await a.take('k1')).toBe('v1');
    expect(await b.take('k1')).toBeUndefined();
    await a.set('k2', 'v2', { ttlMs: 10_000 });
    expect(await b.delete('k2')).toBe(true);
    expect(await b.delete('k2')).toBe(false);
  });

  it('gives a lock to exactly one of many racing replicas', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).set('lock', String(i), { ttlMs: 10_000, ifAbsent: true })),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('expires keys after their TTL and renews them with touch', async () => {
    await a.set('short', 'x', { ttlMs: 80 });
    await a.set('renewed', 'y', { ttlMs: 150 });
    await sleep(100);
    expect(await b.touch('renewed', 1_000)).toBe(true);
    await sleep(120);
    expect(await b.get('short')).toBeUndefined();
    expect(await b.get('renewed')).toBe('y');
    expect(await b.touch('short', 1_000)).toBe(false);
  });

  it('sums counters from both replicas', async () => {
    await Promise.all([
      a.increment('c', 'calls', 1, 10_000),
      b.increment('c', 'calls', 2, 10_000),
      b.increment('c', 'errors', 1, 10_000),
    ]);
    expect(await a.counters('c')).toEqual({ calls: 3, errors: 1 });
    expect(await a.counters('none')).toEqual({});
  });

  it('keeps the newest entries of a bounded list', async () => {
    await a.append('list', ['1', '2', '3'], { max: 4, ttlMs: 10_000 });
    expect(await b.append('list', ['4', '5'], { max: 4, ttlMs: 10_000 })).toBe(4);
    expect(await a.range('list')).toEqual(['2', '3', '4', '5']);
    expect(await a.range('list', 2)).toEqual(['4', '5']);
    expect(await a.range('nothing')).toEqual([]);
  });

  it('keeps the highest-scored members of a bounded index, highest first', async () => {
    for (const [member, score] of [
      ['x', 1],
      ['y', 3],
      ['z', 2],
      ['w', 4],
    ] as const)
      await (score % 2 ? a : b).index('idx', member, score, { max: 3, ttlMs: 10_000 });
    expect(await a.members('idx')).toEqual(['w', 'y', 'z']);
    await b.index('idx', 'z', 10, { max: 3, ttlMs: 10_000 });
    expect(await a.members('idx', 2)).toEqual(['z', 'w']);
    await a.unindex('idx', 'z');
    expect(await b.members('idx')).toEqual(['w', 'y']);
  });

  it('delivers a message published on one replica to the subscribers of the other, until they unsubscribe', async () => {
    const got: string[] = [];
    const unsubscribe = await b.subscribe('chan', (message) => got.push(message));
    await a.publish('chan', 'hello');
    await expect.poll(() => got).toEqual(['hello']);
    await unsubscribe();
    await a.publish('chan', 'after');
    await sleep(50);
    expect(got).toEqual(['hello']);
  });

  it('answers ping', async () => {
    expect(await a.ping()).toBe(true);
  });
});

describe.skipIf(!haveRedis)('redis state store outages', () => {
  it('fails with STATE_UNAVAILABLE while Redis is down, at once, and works again after it is back', async () => {
    const server = await startRedisServer();
    const store = await connectRedisState({ url: server.url, commandTimeoutMs: 500, onError: () => undefined });
    try {
      await store.set('k', 'v', { ttlMs: 10_000 });
      await server.stop();
      const started = Date.now();
      await expect(store.get('k')).rejects.toMatchObject({ code: StateErrors.STATE_UNAVAILABLE });
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(await store.ping()).toBe(false);
      await server.start();
      await expect.poll(() => store.ping(), { timeout: 10_000, interval: 100 }).toBe(true);
      expect(await store.get('k')).toBeUndefined(); // a fresh server: the old state is gone, not resurrected
    } finally {
      await store.close();
      await server.stop();
    }
  });

  it('refuses to start against a Redis that is not there, naming the URL without its password', async () => {
    await expect(
      createStateStore(
        { redis: { url: 'redis://:secret@127.0.0.1:1', commandTimeoutMs: 300 } },
        { onError: () => undefined },
      ),
    ).rejects.toMatchObject({
      code: StateErrors.STATE_UNAVAILABLE,
      message: expect.not.stringContaining('secret'),
    });
  });
});

describe('createStateStore', () => {
  it('is in-process without a redis block, with the replica id from config or the environment', async () => {
    const store = await createStateStore({}, { env: { TOOL_SEARCH_REPLICA_ID: 'r7' } });
    expect(store.kind).toBe('memory');
    expect(store.replicaId).toBe('r7');
    expect((await createStateStore({ replicaId: 'cfg' })).replicaId).toBe('cfg');
  });

  it('bounds the in-process store by key count', async () => {
    const store = new MemoryStateStore({ maxKeys: 10 });
    for (let i = 0; i < 100; i++) await store.set(`k${i}`, 'v', { ttlMs: 60_000 });
    expect(store.size).toBe(10);
    expect(await store.get('k99')).toBe('v');
    expect(await store.get('k0')).toBeUndefined();
  });
});

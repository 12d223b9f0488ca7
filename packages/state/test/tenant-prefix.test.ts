/**
 * Two deployments sharing one real redis-server, told apart by `state.redis.keyPrefix` ("a:" and "b:"): neither sees
 * the other's values, locks, counters, lists, indexes or channels, a second replica on the same prefix shares them,
 * and every key the store wrote carries its deployment's prefix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@redis/client';
import { redisServerAvailable, startRedisServer, type RedisServerHandle } from '@tool-search/testing';
import { createStateStore, loadedTools, type StateStore } from '../src/index.js';

const haveRedis = redisServerAvailable();
if (!haveRedis)
  console.warn(
    'skipping the tenant-prefix tests of the Redis store: redis-server is not installed (apt-get install -y redis-server)',
  );

describe.runIf(haveRedis)('deployments sharing one Redis by key prefix', () => {
  let redis: RedisServerHandle;
  let a: StateStore;
  let a2: StateStore;
  let b: StateStore;
  beforeAll(async () => {
    redis = await startRedisServer();
    // Through the config's `state` block, as `tool-search gateway` / `serve mcp` build it.
    const store = (keyPrefix: string, replicaId: string) =>
      createStateStore({ redis: { url: redis.url, keyPrefix }, replicaId });
    [a, a2, b] = await Promise.all([store('a:', 'a-1'), store('a:', 'a-2'), store('b:', 'b-1')]);
  });
  afterAll(async () => {
    await Promise.all([a, a2, b].map((store) => store?.close()));
    await redis?.stop();
  });

  it('keeps values and locks apart; one prefix shares them', async () => {
    await a.set('gateway:session-owner:s1', 'key-a', { ttlMs: 60_000 });
    expect(await b.get('gateway:session-owner:s1')).toBeUndefined();
    expect(await a2.get('gateway:session-owner:s1')).toBe('key-a');
    // A cron lock (`cron:lock:<job>:<slot>`): each deployment's replicas race for their own, not the other's.
    expect(await a.set('cron:lock:job:1', 'a-1', { ttlMs: 60_000, ifAbsent: true })).toBe(true);
    expect(await b.set('cron:lock:job:1', 'b-1', { ttlMs: 60_000, ifAbsent: true })).toBe(true);
    expect(await a2.set('cron:lock:job:1', 'a-2', { ttlMs: 60_000, ifAbsent: true })).toBe(false);
    expect(await b.take('gateway:session-owner:s1')).toBeUndefined();
    expect(await a2.get('gateway:session-owner:s1')).toBe('key-a');
  });

  it('keeps counters, lists and indexes apart', async () => {
    await a.increment('telemetry:counters', 'calls', 3, 60_000);
    await a.append('loop:history:s1', ['x', 'y'], { max: 10, ttlMs: 60_000 });
    await a.index('sessions:index', 's1', 1, { max: 10, ttlMs: 60_000 });
    expect(await b.counters('telemetry:counters')).toEqual({});
    expect(await b.range('loop:history:s1')).toEqual([]);
    expect(await b.members('sessions:index')).toEqual([]);
    expect(await a2.counters('telemetry:counters')).toEqual({ calls: 3 });
    expect(await a2.range('loop:history:s1')).toEqual(['x', 'y']);
    expect(await a2.members('sessions:index')).toEqual(['s1']);
    const loadsA = loadedTools(a);
    await loadsA.add('conversation-1', ['t1']);
    expect(await loadedTools(b).read('conversation-1')).toEqual([]);
    expect(await loadedTools(a2).read('conversation-1')).toEqual(['t1']);
  });

  it('keeps pub/sub channels apart', async () => {
    const heard: Record<string, string[]> = { a2: [], b: [] };
    const offA2 = await a2.subscribe('mcp:relay', (message) => heard.a2!.push(message));
    const offB = await b.subscribe('mcp:relay', (message) => heard.b!.push(message));
    await a.publish('mcp:relay', 'for a');
    await b.publish('mcp:relay', 'for b');
    // Each published message is delivered in order on its connection: waiting for b's own proves a's was not for b.
    await until(() => heard.a2!.length === 1 && heard.b!.length === 1);
    expect(heard).toEqual({ a2: ['for a'], b: ['for b'] });
    await Promise.all([offA2(), offB()]);
  });

  it('writes no key outside its prefix', async () => {
    const raw = createClient({ url: redis.url });
    await raw.connect();
    try {
      const keys = await raw.keys('*');
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.filter((key) => !key.startsWith('a:') && !key.startsWith('b:'))).toEqual([]);
      expect(keys).toEqual(expect.arrayContaining(['a:cron:lock:job:1', 'b:cron:lock:job:1']));
    } finally {
      await raw.close();
    }
  });
});

/** Waits for messages that the subscriber connection delivers asynchronously; no timing is asserted. */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}

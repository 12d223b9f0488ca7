/**
 * Two deployments sharing one real redis-server with their own `state.redis.keyPrefix` ("a:", "b:"): loop history and
 * findings of one are not seen (or cleared) by the other; a second replica on the same prefix shares them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedisState, type StateStore } from '@tool-search/state';
import { redisServerAvailable, startRedisServer, type RedisServerHandle } from '@tool-search/testing';
import { LoopState } from '../src/sessions.js';
import type { HistoryEntry } from '../src/detect.js';

const haveRedis = redisServerAvailable();
if (!haveRedis)
  console.warn(
    'skipping the tenant-prefix test of loop detection state: redis-server is not installed (apt-get install -y redis-server)',
  );

describe.runIf(haveRedis)('loop state of deployments sharing one Redis', () => {
  let redis: RedisServerHandle;
  const states: StateStore[] = [];
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await Promise.all(states.map((state) => state.close()));
    await redis?.stop();
  });
  const loops = async (keyPrefix: string, replicaId: string) => {
    const state = await connectRedisState({ url: redis.url, keyPrefix, replicaId });
    states.push(state);
    return new LoopState(state, 60_000);
  };

  it('each deployment sees only its own loop history; clearing one leaves the other', async () => {
    const [a, a2, b] = await Promise.all([loops('a:', 'a-1'), loops('a:', 'a-2'), loops('b:', 'b-1')]);
    const entry: HistoryEntry = { key: 'k', toolId: 't', name: 'poll', resultHash: 'h' };
    await a.record('s1', entry, 30);
    expect(await b.history('s1')).toEqual([]);
    expect(await a2.history('s1')).toEqual([entry]);
    await b.clear();
    expect(await a2.history('s1')).toEqual([entry]);
  });
});

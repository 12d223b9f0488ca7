/**
 * Two deployments sharing one real redis-server with their own `state.redis.keyPrefix` ("a:", "b:"): each lists and
 * reads only its own sessions and transcripts; a second replica on the same prefix shares them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedisState, type StateStore } from '@tool-search/state';
import { redisServerAvailable, startRedisServer, type RedisServerHandle } from '@tool-search/testing';
import { StateSessionStore } from '../src/index.js';

const haveRedis = redisServerAvailable();
if (!haveRedis)
  console.warn(
    'skipping the tenant-prefix test of the sessions store: redis-server is not installed (apt-get install -y redis-server)',
  );

describe.runIf(haveRedis)('sessions of deployments sharing one Redis', () => {
  let redis: RedisServerHandle;
  const states: StateStore[] = [];
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await Promise.all(states.map((state) => state.close()));
    await redis?.stop();
  });
  const sessions = async (keyPrefix: string, replicaId: string) => {
    const state = await connectRedisState({ url: redis.url, keyPrefix, replicaId });
    states.push(state);
    return new StateSessionStore(state);
  };

  it('each deployment sees only its own sessions; the same prefix shares them', async () => {
    const [a, a2, b] = await Promise.all([sessions('a:', 'a-1'), sessions('a:', 'a-2'), sessions('b:', 'b-1')]);
    await a.append('main', { role: 'user', content: 'from a', at: 1 });
    await b.append('main', { role: 'user', content: 'from b', at: 1 });
    await b.upsert('only-b', {});
    expect((await a.transcript('main')).map((entry) => entry.content)).toEqual(['from a']);
    expect((await b.transcript('main')).map((entry) => entry.content)).toEqual(['from b']);
    expect((await a.list()).map((record) => record.sessionId)).toEqual(['main']);
    expect(await a.get('only-b')).toBeUndefined();
    expect((await a2.transcript('main')).map((entry) => entry.content)).toEqual(['from a']);
    expect((await b.list()).map((record) => record.sessionId).sort()).toEqual(['main', 'only-b']);
  });
});

/**
 * Replicas share what the deployment taught through a real redis-server (the
 * Debian package, started on a free loopback port), and a Redis that dies
 * leaves search working: ranked without the signal, said once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedisState, type StateStore } from '@tool-search/state';
import { redisServerAvailable, startRedisServer, type RedisServerHandle } from '@tool-search/testing';
import { LearningErrors, learningPlugin } from '../src/index.js';
import { diagnostics, eventually, kernelWith, search, TARGET, teach } from './helpers.js';

const available = redisServerAvailable();
if (!available)
  console.warn(
    'skipping the Redis tests of plugin-learning: redis-server is not installed (apt-get install -y redis-server)',
  );

describe.skipIf(!available)('learning shared through Redis', () => {
  let redis: RedisServerHandle;
  const stores: StateStore[] = [];
  const connect = async (replicaId: string, keyPrefix: string): Promise<StateStore> => {
    const store = await connectRedisState({
      url: redis.url,
      keyPrefix,
      replicaId,
      commandTimeoutMs: 1000,
      onError: () => {},
    });
    stores.push(store);
    return store;
  };

  beforeAll(async () => {
    redis = await startRedisServer();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close().catch(() => {})));
    await redis?.stop();
  });

  it("one replica's calls lift the tool on another replica", async () => {
    const a = kernelWith(learningPlugin({ state: await connect('a', 'share:') }));
    const b = kernelWith(learningPlugin({ state: await connect('b', 'share:'), refreshMs: 0 }));
    // B has read the (empty) scope before A learns anything.
    expect((await search(await b.createRun({ sessionId: 'b0' }))).ids.indexOf(TARGET) + 1).toBe(6);
    await teach(a, 3);
    await eventually(async () => (await search(await b.createRun({ sessionId: 'b1' }))).ids[0] === TARGET);
    // A third replica that starts now reads it on its first search.
    const c = kernelWith(learningPlugin({ state: await connect('c', 'share:') }));
    expect((await search(await c.createRun({ sessionId: 'c0' }))).ids[0]).toBe(TARGET);
    await Promise.all([a.close(), b.close(), c.close()]);
  }, 60_000);

  it('ranks without the signal while Redis is down, says so once, and recovers', async () => {
    const seen = diagnostics();
    const kernel = kernelWith(learningPlugin({ state: await connect('solo', 'outage:'), refreshMs: 0 }), seen);
    await teach(kernel, 3);
    await eventually(async () => (await search(await kernel.createRun({ sessionId: 'up' }))).ids[0] === TARGET);

    await redis.stop();
    // The next searches notice (a refresh fails) and rank lexically; none of them fails.
    await eventually(
      async () => (await search(await kernel.createRun({ sessionId: 'down' }))).ids.indexOf(TARGET) + 1 === 6,
    );
    for (let i = 0; i < 5; i++) {
      const run = await kernel.createRun({ sessionId: `down-${i}` });
      expect((await search(run)).ids.indexOf(TARGET) + 1).toBe(6);
      // A call while the store is down is answered as usual (its lesson is lost).
      expect((await run.call(TARGET, {}, { origin: 'tool_call' })).status).toBe('ok');
    }
    const unavailable = seen.seen.filter((d) => d.code === LearningErrors.LEARNING_UNAVAILABLE);
    expect(unavailable).toHaveLength(1);
    expect(unavailable[0]).toMatchObject({ level: 'warning', plugin: '@tool-search/plugin-learning' });

    // Back (empty: persistence is off), the replica learns again.
    await redis.start();
    await eventually(async () => {
      await teach(kernel, 1);
      return (await search(await kernel.createRun({ sessionId: 'back' }))).ids[0] === TARGET;
    }, 30_000);
    await kernel.close();
  }, 90_000);
});

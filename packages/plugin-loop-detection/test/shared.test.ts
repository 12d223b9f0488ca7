import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, ToolSearchError, type ToolCallOutcome } from '@tool-search/kernel';
import { MemoryStateStore, connectRedisState, type StateStore } from '@tool-search/state';
import { redisServerAvailable, startRedisServer, type RedisServerHandle } from '@tool-search/testing';
import { loopDetectionPlugin } from '../src/index.js';
import { createTestRun, statuses } from './fixtures.js';

const haveRedis = redisServerAvailable();
if (!haveRedis) console.warn('skipping the Redis runs of the shared loop-detection tests: redis-server is not installed (apt-get install -y redis-server)');

let redis: RedisServerHandle | undefined;
const opened: StateStore[] = [];
beforeAll(async () => {
  if (haveRedis) redis = await startRedisServer();
});
afterAll(async () => {
  await Promise.all(opened.map((state) => state.close()));
  await redis?.stop();
});

const small = { tools: { loopDetection: { enabled: true, warningThreshold: 3, criticalThreshold: 5, globalCircuitBreakerThreshold: 7, historySize: 10 } } };
let prefixes = 0;

async function statePair(kind: 'memory' | 'redis'): Promise<[StateStore, StateStore]> {
  if (kind === 'memory') {
    const a = new MemoryStateStore({ replicaId: 'a' });
    return [a, a.asReplica('b')];
  }
  const keyPrefix = `loop-test-${process.pid}-${prefixes++}:`;
  const pair: [StateStore, StateStore] = [await connectRedisState({ url: redis!.url, keyPrefix, replicaId: 'a' }), await connectRedisState({ url: redis!.url, keyPrefix, replicaId: 'b' })];
  opened.push(...pair);
  return pair;
}

/** Two replicas (a kernel each) running the same session; calls alternate between them. */
async function replicas(states: readonly [StateStore | undefined, StateStore | undefined]) {
  const plugins = states.map((state) => loopDetectionPlugin({ ...small, ...(state ? { state } : {}) }));
  const runs = await Promise.all(plugins.map(async (plugin) => (await createTestRun([plugin])).run));
  const alternate = async (times: number): Promise<ToolCallOutcome[]> => {
    const outcomes: ToolCallOutcome[] = [];
    for (let i = 0; i < times; i++) outcomes.push(await runs[i % 2]!.call('read_file', { path: 'a' }));
    return outcomes;
  };
  return { plugins, alternate };
}

describe.each(haveRedis ? (['memory', 'redis'] as const) : (['memory'] as const))('loop detection shared by two replicas (%s state)', (kind) => {
  it('blocks a loop that alternates replicas at the critical threshold, and either replica reads the findings', async () => {
    const { plugins, alternate } = await replicas(await statePair(kind));
    const outcomes = await alternate(5);
    expect(statuses(outcomes)).toEqual(['ok', 'ok', 'ok', 'ok', 'blocked']);
    expect(outcomes[4]).toMatchObject({ by: '@tool-search/plugin-loop-detection' });
    expect((await plugins[1]!.getWarnings('session-1')).map((w) => w.level)).toEqual(['warning', 'warning', 'critical']);
    await plugins[0]!.clear();
    expect(await plugins[1]!.getWarnings('session-1')).toEqual([]);
  });
});

describe('without a shared store', () => {
  it('each replica counts alone, so the same alternating loop is not blocked (the control for the test above)', async () => {
    const { plugins, alternate } = await replicas([undefined, undefined]);
    expect(statuses(await alternate(8))).toEqual(Array(8).fill('ok'));
    expect((await plugins[0]!.getWarnings('session-1')).map((w) => w.level)).toEqual(['warning', 'warning']);
  });
});

/** The in-process store, except that writes fail as a store outage would after the read succeeded. */
class WritesFail extends MemoryStateStore {
  override async append(): Promise<number> {
    throw new ToolSearchError(ErrorCode.STATE_UNAVAILABLE, 'state store down');
  }
}

describe('state store failures', () => {
  it.skipIf(!haveRedis)('blocks calls with STATE_UNAVAILABLE while Redis is down (fail closed), and works again once it is back', async () => {
    const own = await startRedisServer();
    const state = await connectRedisState({ url: own.url, replicaId: 'a', commandTimeoutMs: 500 });
    try {
      const { run } = await createTestRun([loopDetectionPlugin({ ...small, state })]);
      expect((await run.call('read_file', { path: 'a' })).status).toBe('ok');
      await own.stop();
      const blocked = await run.call('read_file', { path: 'a' });
      expect(blocked).toMatchObject({ status: 'blocked', by: '@tool-search/plugin-loop-detection' });
      expect(blocked.status === 'blocked' && blocked.reason).toContain(ErrorCode.STATE_UNAVAILABLE);
      await own.start();
      await expect.poll(async () => (await run.call('read_file', { path: 'b' })).status, { timeout: 10_000, interval: 100 }).toBe('ok');
    } finally {
      await state.close();
      await own.stop();
    }
  });

  it('a record that cannot be written after the call is logged, not thrown: the call keeps its result', async () => {
    const { run } = await createTestRun([loopDetectionPlugin({ ...small, state: new WritesFail() })]);
    const outcomes = [await run.call('read_file', { path: 'a' }), await run.call('read_file', { path: 'a' })];
    expect(statuses(outcomes)).toEqual(['ok', 'ok']);
    expect(run.diagnostics.filter((d) => d.hook === 'afterToolCall')).toEqual([]);
  });
});

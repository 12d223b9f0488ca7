import { afterAll, describe, expect, it } from 'vitest';
import { ToolSearchError, type ToolCallOutcome } from '@tool-search/kernel';
import { memoryReplicas, MemoryStateStore, connectRedisState, type StateStore, StateErrors } from '@tool-search/state';
import { startRedisServer, stateBackends } from '@tool-search/testing';
import { loopDetectionPlugin } from '../src/index.js';
import { createTestRun, statuses } from './fixtures.js';

const backends = stateBackends<StateStore>('the shared loop-detection tests', {
  memory: memoryReplicas,
  redis: connectRedisState,
});
afterAll(() => backends.close());
const haveRedis = backends.redisAvailable;

const small = {
  tools: {
    loopDetection: {
      enabled: true,
      warningThreshold: 3,
      criticalThreshold: 5,
      globalCircuitBreakerThreshold: 7,
      historySize: 10,
    },
  },
};

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

describe.each(backends.kinds)('loop detection shared by two replicas (%s state)', (kind) => {
  it('blocks a loop that alternates replicas at the critical threshold, and either replica reads the findings', async () => {
    const { plugins, alternate } = await replicas(await backends.pair(kind));
    const outcomes = await alternate(5);
    expect(statuses(outcomes)).toEqual(['ok', 'ok', 'ok', 'ok', 'blocked']);
    expect(outcomes[4]).toMatchObject({ by: '@tool-search/plugin-loop-detection' });
    expect((await plugins[1]!.getWarnings('session-1')).map((w) => w.level)).toEqual([
      'warning',
      'warning',
      'critical',
    ]);
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
    throw new ToolSearchError(StateErrors.STATE_UNAVAILABLE, 'state store down');
  }
}

describe('state store failures', () => {
  it.skipIf(!haveRedis)(
    'blocks calls with STATE_UNAVAILABLE while Redis is down (fail closed), and works again once it is back',
    async () => {
      const own = await startRedisServer();
      const state = await connectRedisState({ url: own.url, replicaId: 'a', commandTimeoutMs: 500 });
      try {
        const { run } = await createTestRun([loopDetectionPlugin({ ...small, state })]);
        expect((await run.call('read_file', { path: 'a' })).status).toBe('ok');
        await own.stop();
        const blocked = await run.call('read_file', { path: 'a' });
        expect(blocked).toMatchObject({ status: 'blocked', by: '@tool-search/plugin-loop-detection' });
        expect(blocked.status === 'blocked' && blocked.reason).toContain(StateErrors.STATE_UNAVAILABLE);
        await own.start();
        await expect
          .poll(async () => (await run.call('read_file', { path: 'b' })).status, { timeout: 10_000, interval: 100 })
          .toBe('ok');
      } finally {
        await state.close();
        await own.stop();
      }
    },
  );

  it('a record that cannot be written after the call is logged, not thrown: the call keeps its result', async () => {
    const { run } = await createTestRun([loopDetectionPlugin({ ...small, state: new WritesFail() })]);
    const outcomes = [await run.call('read_file', { path: 'a' }), await run.call('read_file', { path: 'a' })];
    expect(statuses(outcomes)).toEqual(['ok', 'ok']);
    expect(run.diagnostics.filter((d) => d.hook === 'afterToolCall')).toEqual([]);
  });
});

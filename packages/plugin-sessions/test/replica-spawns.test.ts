/**
 * Issue 40: `maxChildrenPerAgent` across replicas. Two gateway replicas share one state store (in-process views, and a
 * real redis-server where installed) and so one session store; 12 spawns of one parent session, 6 on each replica, at
 * once, with a limit of 10: the shared store's atomic increment lets exactly 10 through (each replica's own
 * reservations only order its own spawns, and a child just created elsewhere is not running yet in the store).
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createKernel, type Kernel } from '@tool-search/kernel';
import { createSessionHost, StateSessionStore } from '@tool-search/sessions';
import { connectRedisState, memoryReplicas, type StateStore } from '@tool-search/state';
import { stateBackends } from '@tool-search/testing';
import { sessionsPlugin } from '@tool-search/plugin-sessions';
import { code } from './fixtures.js';

const backends = stateBackends<StateStore>('the replica spawn-limit tests', {
  memory: memoryReplicas,
  redis: connectRedisState,
});
const kernels: Kernel[] = [];
afterEach(async () => {
  await Promise.all(kernels.splice(0).map((kernel) => kernel.close()));
  await backends.closeStores();
});
afterAll(() => backends.close());

function replica(state: StateStore, maxChildren: number) {
  const host = createSessionHost({ store: new StateSessionStore(state) });
  const kernel = createKernel({ plugins: [sessionsPlugin({ host, state, limits: { maxChildren } })] });
  kernels.push(kernel);
  host.bind(() => new Promise(() => undefined)); // turns that never finish: every accepted child stays running
  return async (task: string) => {
    const run = await kernel.createRun({ sessionId: 'parent' });
    try {
      return await run.call('sessions_spawn', { task });
    } finally {
      await run.close();
    }
  };
}

describe.each(backends.kinds)('maxChildrenPerAgent across two replicas (%s state)', (kind) => {
  it('accepts exactly 10 of 12 spawns of one session made at once on two replicas', async () => {
    const [stateA, stateB] = await backends.pair(kind);
    const [a, b] = [replica(stateA, 10), replica(stateB, 10)];
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? b : a)(`t${i}`)));
    expect(outcomes.filter((o) => o.status === 'ok')).toHaveLength(10);
    expect(outcomes.filter((o) => o.status !== 'ok').map(code)).toEqual([
      'SUBAGENT_NOT_ALLOWED',
      'SUBAGENT_NOT_ALLOWED',
    ]);
  });

  it('a refused spawn gives its shared slot back', async () => {
    const [stateA, stateB] = await backends.pair(kind);
    const [a, b] = [replica(stateA, 1), replica(stateB, 1)];
    expect((await a('first')).status).toBe('ok');
    expect(code(await b('second'))).toBe('SUBAGENT_NOT_ALLOWED');
    expect(code(await b('third'))).toBe('SUBAGENT_NOT_ALLOWED'); // the refused one did not keep a slot, nor free one
    const counters = await stateA.counters('sessions:spawn-slots:parent');
    expect(counters).toEqual({ children: 1 });
  });
});

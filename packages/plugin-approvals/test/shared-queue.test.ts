import { afterAll, describe, expect, it } from 'vitest';

import { memoryReplicas, connectRedisState, type StateStore, StateErrors } from '@tool-search/state';
import { startRedisServer, stateBackends } from '@tool-search/testing';
import {
  SharedApprovalQueue,
  approvalsPlugin,
  type ApprovalDecision,
  type ApprovalQueueEvent,
  type ApprovalRecord,
} from '../src/index.js';
import { createTestRun } from './fixtures.js';
import { ApprovalsErrors } from '../src/errors.js';

const backends = stateBackends<StateStore>('the shared approval queue tests', {
  memory: memoryReplicas,
  redis: connectRedisState,
});
const haveRedis = backends.redisAvailable;
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
  await backends.close();
});

async function replicas(kind: 'memory' | 'redis', timeoutMs = 30_000) {
  const [stateA, stateB] = await backends.pair(kind);
  const a = new SharedApprovalQueue(stateA);
  const b = new SharedApprovalQueue(stateB);
  closers.unshift(
    () => a.close(),
    () => b.close(),
  );
  const events: ApprovalQueueEvent[] = [];
  b.subscribe((event) => events.push(event));
  const records: ApprovalRecord[] = [];
  const { run, runs } = await createTestRun([
    approvalsPlugin({
      config: { require: ['delete_repo'], timeoutMs },
      approve: a.approve,
      onDecision: (r) => records.push(r),
    }),
  ]);
  return { a, b, run, runs, events, records };
}

const pendingOn = async (queue: SharedApprovalQueue, count = 1) => {
  await expect.poll(async () => (await queue.list()).length, { timeout: 5_000, interval: 20 }).toBe(count);
  return queue.list();
};

describe.each(backends.kinds)('SharedApprovalQueue (%s state)', (kind) => {
  it('a call waiting on A is listed on B, approved through B, and then runs on A', async () => {
    const { a, b, run, runs } = await replicas(kind);
    const pending = run.call('delete_repo', { repo: 'x' }, { origin: 'tool_call' });
    const [approval] = await pendingOn(b);
    expect(approval).toMatchObject({ request: { name: 'delete_repo', args: { repo: 'x' }, origin: 'tool_call' } });
    expect(Date.parse(approval!.expiresAt)).toBeGreaterThan(Date.parse(approval!.createdAt));
    expect(await a.get(approval!.id)).toEqual(approval);
    expect(await b.answer(approval!.id, 'allow')).toBe(true);
    expect((await pending).status).toBe('ok');
    expect(runs.get('delete_repo')).toBe(1);
    expect(await a.list()).toEqual([]);
  });

  it('a deny through B blocks the call on A; the tool does not run', async () => {
    const { b, run, runs } = await replicas(kind);
    const pending = run.call('delete_repo', {});
    const [approval] = await pendingOn(b);
    await b.answer(approval!.id, 'deny');
    expect((await pending).status).toBe('blocked');
    expect(runs.get('delete_repo')).toBeUndefined();
  });

  it('of two answers racing from both replicas exactly one wins', async () => {
    const { a, b, run, runs } = await replicas(kind);
    const pending = run.call('delete_repo', {});
    const [approval] = await pendingOn(a);
    const answers = await Promise.all([
      a.answer(approval!.id, 'allow'),
      b.answer(approval!.id, 'deny'),
      b.answer(approval!.id, 'allow'),
    ]);
    expect(answers.filter(Boolean)).toHaveLength(1);
    const outcome = await pending;
    expect(outcome.status).toBe(answers[1] ? 'blocked' : 'ok');
    expect(runs.get('delete_repo') ?? 0).toBe(answers[1] ? 0 : 1);
  });

  it('B sees requested and settled events from A', async () => {
    const { b, run, events } = await replicas(kind);
    const pending = run.call('delete_repo', {});
    const [approval] = await pendingOn(b);
    await b.answer(approval!.id, 'allow');
    await pending;
    await expect.poll(() => events.map((e) => e.type), { timeout: 5_000 }).toEqual(['requested', 'settled']);
    expect(events[1]).toEqual({ type: 'settled', id: approval!.id, decision: 'allow', by: 'answer' });
  });

  it('a timeout on A withdraws the approval everywhere as a cancelled deny; answering it later is false', async () => {
    const { b, run, events } = await replicas(kind, 100);
    expect((await run.call('delete_repo', {})).status).toBe('blocked');
    await expect
      .poll(() => events.at(-1), { timeout: 5_000 })
      .toMatchObject({ type: 'settled', decision: 'deny', by: 'cancelled' });
    const id = (events[0] as { approval: { id: string } }).approval.id;
    expect(await b.list()).toEqual([]);
    expect(await b.answer(id, 'allow')).toBe(false);
  });

  it('an id naming another of its keys (index, events, a path) is not pending: answering it changes nothing', async () => {
    const { a, b, run } = await replicas(kind);
    const pending = run.call('delete_repo', {});
    const [approval] = await pendingOn(b);
    for (const id of ['index', 'events', `../pending:${approval!.id}`, `pending:${approval!.id}`, '']) {
      expect(await b.answer(id, 'allow')).toBe(false);
      expect(await b.get(id)).toBeUndefined();
    }
    expect(await a.list()).toEqual([approval]);
    await b.answer(approval!.id, 'deny');
    expect((await pending).status).toBe('blocked');
  });

  it('refuses an answer other than allow or deny and leaves the approval pending', async () => {
    const { b, run } = await replicas(kind);
    const pending = run.call('delete_repo', {});
    const [approval] = await pendingOn(b);
    await expect(b.answer(approval!.id, 'yes' as ApprovalDecision)).rejects.toMatchObject({
      code: ApprovalsErrors.APPROVAL_ANSWER_INVALID,
    });
    expect(await b.list()).toHaveLength(1);
    await b.answer(approval!.id, 'deny');
    await pending;
  });
});

describe('SharedApprovalQueue when the store is down', () => {
  it.skipIf(!haveRedis)(
    'denies the call (fail closed) with STATE_UNAVAILABLE in the reason, and asks again once Redis is back',
    async () => {
      const own = await startRedisServer();
      const state = await connectRedisState({ url: own.url, replicaId: 'a', commandTimeoutMs: 500 });
      const queue = new SharedApprovalQueue(state);
      const records: ApprovalRecord[] = [];
      try {
        const { run, runs } = await createTestRun([
          approvalsPlugin({
            config: { require: ['delete_repo'], timeoutMs: 10_000 },
            approve: queue.approve,
            onDecision: (r) => records.push(r),
          }),
        ]);
        await own.stop();
        const outcome = await run.call('delete_repo', {});
        expect(outcome.status).toBe('blocked');
        expect(records[0]).toMatchObject({ decision: 'deny', by: 'error' });
        expect(outcome.status === 'blocked' && outcome.reason).toContain(StateErrors.STATE_UNAVAILABLE);
        expect(runs.get('delete_repo')).toBeUndefined();
        await expect(queue.list()).rejects.toMatchObject({ code: StateErrors.STATE_UNAVAILABLE });
        await own.start();
        await expect.poll(() => state.ping(), { timeout: 10_000, interval: 100 }).toBe(true);
        const again = run.call('delete_repo', {});
        const [approval] = await pendingOn(queue);
        expect(await queue.answer(approval!.id, 'allow')).toBe(true);
        expect((await again).status).toBe('ok');
      } finally {
        await queue.close();
        await state.close();
        await own.stop();
      }
    },
  );
});

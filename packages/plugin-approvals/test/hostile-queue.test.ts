/**
 * Issue 26: the approval queue under attack. Forged and replayed ids settle nothing, an answer scoped to one agent
 * or session cannot settle another's approval (and cannot tell it exists), and a flood of pending approvals is
 * bounded: past the limits a new call is denied at once (APPROVALS_QUEUE_FULL) instead of pushing the others out.
 * The in-process and the shared (memory replicas, and a real redis-server when installed) queues alike.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { connectRedisState, memoryReplicas, type StateStore } from '@tool-search/state';
import { stateBackends } from '@tool-search/testing';
import {
  ApprovalQueue,
  ApprovalsErrors,
  SharedApprovalQueue,
  approvalsPlugin,
  type ApprovalDecision,
  type ApprovalRecord,
  type PendingApproval,
} from '../src/index.js';
import { createTestRun } from './fixtures.js';

interface Queue {
  readonly approve: ApprovalQueue['approve'];
  list(): PendingApproval[] | Promise<PendingApproval[]>;
  answer(
    id: string,
    decision: ApprovalDecision,
    scope?: { agentId?: string; sessionId?: string },
  ): boolean | Promise<boolean>;
}

const backends = stateBackends<StateStore>('the hostile approval queue tests', {
  memory: memoryReplicas,
  redis: connectRedisState,
});
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
  await backends.close();
});

const LIMITS = { maxPending: 6, maxPendingPerSession: 3 };
const kinds = ['in-process', ...backends.kinds.map((kind) => `shared-${kind}`)] as const;

async function queueOf(kind: string): Promise<Queue> {
  if (kind === 'in-process') return new ApprovalQueue(LIMITS);
  const [state] = await backends.pair(kind.slice('shared-'.length) as 'memory' | 'redis');
  const queue = new SharedApprovalQueue(state!, {
    ...LIMITS,
    keyPrefix: `hostile-${Math.random().toString(36).slice(2)}:`,
  });
  closers.unshift(() => queue.close());
  return queue;
}

async function session(queue: Queue, sessionId: string, agentId: string) {
  const records: ApprovalRecord[] = [];
  const { run, runs } = await createTestRun(
    [
      approvalsPlugin({
        config: { require: ['delete_repo'], timeoutMs: 30_000 },
        approve: queue.approve,
        onDecision: (r) => records.push(r),
      }),
    ],
    { sessionId, agentId },
  );
  return { run, runs, records };
}

const pending = async (queue: Queue, count: number) => {
  await expect.poll(async () => (await queue.list()).length, { timeout: 10_000, interval: 20 }).toBe(count);
  return queue.list();
};

describe.each(kinds)('approval queue under attack (%s)', (kind) => {
  it('forged, malformed and replayed ids settle nothing; the call still waits for the real answer', async () => {
    const queue = await queueOf(kind);
    const { run, runs } = await session(queue, 's1', 'main');
    const call = run.call('delete_repo', {});
    const [approval] = await pending(queue, 1);
    for (const forged of [
      '',
      'x',
      '../' + approval!.id,
      approval!.id.toUpperCase(),
      `${approval!.id} `,
      '__proto__',
      'constructor',
      'a'.repeat(10_000),
    ]) {
      expect(await queue.answer(forged, 'allow')).toBe(false);
    }
    expect(runs.get('delete_repo') ?? 0).toBe(0);
    expect(await queue.answer(approval!.id, 'deny')).toBe(true);
    expect((await call).status).toBe('blocked');
    expect(await queue.answer(approval!.id, 'allow')).toBe(false); // replayed: the call stays denied
    expect(runs.get('delete_repo') ?? 0).toBe(0);
  });

  it('an answer scoped to another agent or session cannot settle an approval', async () => {
    const queue = await queueOf(kind);
    const { run, runs } = await session(queue, 's-main', 'main');
    const call = run.call('delete_repo', {});
    const [approval] = await pending(queue, 1);
    expect(await queue.answer(approval!.id, 'allow', { agentId: 'support' })).toBe(false);
    expect(await queue.answer(approval!.id, 'allow', { sessionId: 's-other' })).toBe(false);
    expect(await queue.list()).toHaveLength(1);
    expect(runs.get('delete_repo') ?? 0).toBe(0);
    expect(await queue.answer(approval!.id, 'allow', { agentId: 'MAIN', sessionId: 's-main' })).toBe(true);
    expect((await call).status).toBe('ok');
  });

  it('a flood is bounded per session and in all; older approvals stay listed and answerable', async () => {
    const queue = await queueOf(kind);
    const flooder = await session(queue, 'flood', 'main');
    const first = flooder.run.call('delete_repo', { n: 0 });
    const [oldest] = await pending(queue, 1);
    const floods = Array.from({ length: 20 }, (_, n) => flooder.run.call('delete_repo', { n: n + 1 }));
    await pending(queue, LIMITS.maxPendingPerSession);
    // Other sessions fill up to the total limit; past it they are refused too.
    const others = await Promise.all(['a', 'b', 'c', 'd'].map((id) => session(queue, id, 'main')));
    const otherCalls = others.map((o) => o.run.call('delete_repo', {}));
    await pending(queue, LIMITS.maxPending);
    const refused = [...flooder.records, ...others.flatMap((o) => o.records)].filter((r) => r.by === 'error');
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((r) => r.message?.includes(ApprovalsErrors.APPROVALS_QUEUE_FULL))).toBe(true);
    expect((await queue.list()).some((p) => p.id === oldest!.id)).toBe(true);
    for (const approval of await queue.list()) await queue.answer(approval.id, 'deny');
    const outcomes = await Promise.all([first, ...floods, ...otherCalls]);
    expect(outcomes.every((o) => o.status === 'blocked')).toBe(true);
    expect(flooder.runs.get('delete_repo') ?? 0).toBe(0);
  });
});

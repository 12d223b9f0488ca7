import { describe, expect, it } from 'vitest';

import { ApprovalQueue, approvalsPlugin, type ApprovalDecision, type ApprovalQueueEvent } from '../src/index.js';
import { createTestRun, until } from './fixtures.js';
import { ApprovalsErrors } from '../src/errors.js';

async function setup(timeoutMs = 60_000) {
  const queue = new ApprovalQueue();
  const events: ApprovalQueueEvent[] = [];
  queue.subscribe((event) => events.push(event));
  const { run, runs } = await createTestRun([
    approvalsPlugin({ config: { require: ['delete_repo'], timeoutMs }, approve: queue.approve }),
  ]);
  return { queue, events, run, runs };
}

describe('ApprovalQueue', () => {
  it('lists a waiting call with its request and expiry', async () => {
    const { queue, run } = await setup();
    const pending = run.call('delete_repo', { repo: 'x' }, { origin: 'tool_call' });
    await until(() => queue.size === 1);
    const [approval] = queue.list();
    expect(approval).toMatchObject({ request: { name: 'delete_repo', args: { repo: 'x' }, origin: 'tool_call' } });
    expect(Date.parse(approval!.expiresAt)).toBeGreaterThan(Date.parse(approval!.createdAt));
    expect(queue.get(approval!.id)).toBe(approval);
    queue.answer(approval!.id, 'deny');
    await pending;
  });

  it('runs the call when answered allow', async () => {
    const { queue, run, runs } = await setup();
    const pending = run.call('delete_repo', {});
    await until(() => queue.size === 1);
    expect(queue.answer(queue.list()[0]!.id, 'allow')).toBe(true);
    expect((await pending).status).toBe('ok');
    expect(runs.get('delete_repo')).toBe(1);
    expect(queue.size).toBe(0);
  });

  it('blocks the call when answered deny', async () => {
    const { queue, run, runs } = await setup();
    const pending = run.call('delete_repo', {});
    await until(() => queue.size === 1);
    queue.answer(queue.list()[0]!.id, 'deny');
    expect((await pending).status).toBe('blocked');
    expect(runs.get('delete_repo')).toBeUndefined();
  });

  it('emits requested and settled events', async () => {
    const { queue, events, run } = await setup();
    const pending = run.call('delete_repo', {});
    await until(() => queue.size === 1);
    const id = queue.list()[0]!.id;
    queue.answer(id, 'allow');
    await pending;
    expect(events.map((e) => e.type)).toEqual(['requested', 'settled']);
    expect(events[1]).toEqual({ type: 'settled', id, decision: 'allow', by: 'answer' });
  });

  it('drops an entry the plugin stopped waiting for (timeout) and reports it as a cancelled deny', async () => {
    const { queue, events, run } = await setup(5);
    expect((await run.call('delete_repo', {})).status).toBe('blocked');
    expect(queue.size).toBe(0);
    expect(events.at(-1)).toMatchObject({ type: 'settled', decision: 'deny', by: 'cancelled' });
  });

  it('answers false for an id that is not pending', async () => {
    const { queue } = await setup();
    expect(queue.answer('nope', 'allow')).toBe(false);
  });

  it('refuses an answer other than allow or deny', async () => {
    const { queue, run } = await setup();
    const pending = run.call('delete_repo', {});
    await until(() => queue.size === 1);
    const id = queue.list()[0]!.id;
    expect(() => queue.answer(id, 'yes' as ApprovalDecision)).toThrow(
      expect.objectContaining({ code: ApprovalsErrors.APPROVAL_ANSWER_INVALID }),
    );
    expect(queue.size).toBe(1);
    queue.answer(id, 'deny');
    await pending;
  });

  it('keeps going when a listener throws', async () => {
    const { queue, run } = await setup();
    queue.subscribe(() => {
      throw new Error('closed stream');
    });
    const pending = run.call('delete_repo', {});
    await until(() => queue.size === 1);
    queue.answer(queue.list()[0]!.id, 'allow');
    expect((await pending).status).toBe('ok');
  });
});

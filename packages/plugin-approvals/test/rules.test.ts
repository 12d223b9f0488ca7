// A tool's own approval rule (@tool-search/approval-rules), as exec's `ask` uses it.
import { describe, expect, it, vi } from 'vitest';
import type { KernelPlugin } from '@tool-search/kernel';
import { setCallApprovalRule, takeCallApproval } from '@tool-search/approval-rules';
import { approvalsPlugin, type Approver } from '../src/index.js';
import { createTestRun } from './fixtures.js';

const grants: boolean[] = [];
/** Sets a rule on core:core:exec (ask when the command is "rm") and records whether each call arrived with a grant. */
const ruleSource: KernelPlugin = {
  name: 'rule-source',
  apply({ hooks }) {
    hooks.listTools.tap((_sink, ctx) =>
      setCallApprovalRule(ctx.run, 'core:core:exec', (call) =>
        call.args.command === 'rm' ? '"rm" is not on the allowlist' : undefined,
      ),
    );
    hooks.afterToolCall.tap((call, _outcome, ctx) => {
      grants.push(takeCallApproval(ctx.run, call.callId));
    });
  },
};

describe('approval rules of a tool', () => {
  it('asks when the rule says so, with its reason, and grants the call on allow', async () => {
    grants.length = 0;
    const approve = vi.fn<Approver>(async () => 'allow');
    const { run, runs } = await createTestRun([ruleSource, approvalsPlugin({ approve })]);
    expect((await run.call('exec', { command: 'ls' })).status).toBe('ok');
    expect(approve).not.toHaveBeenCalled();
    expect((await run.call('exec', { command: 'rm' })).status).toBe('ok');
    expect(approve.mock.calls[0]?.[0].reason).toBe('"rm" is not on the allowlist');
    expect(runs.get('exec')).toBe(2);
    expect(grants).toEqual([false, true]);
  });

  it('blocks on deny and grants nothing', async () => {
    grants.length = 0;
    const { run, runs } = await createTestRun([ruleSource, approvalsPlugin({ approve: async () => 'deny' })]);
    expect(await run.call('exec', { command: 'rm' })).toMatchObject({ status: 'blocked' });
    expect(runs.get('exec')).toBeUndefined();
    expect(grants).toEqual([false]);
  });

  it('joins a rule reason with a require match into one question', async () => {
    const approve = vi.fn<Approver>(async () => 'allow');
    const { run } = await createTestRun([ruleSource, approvalsPlugin({ config: { require: ['exec'] }, approve })]);
    await run.call('exec', { command: 'rm' });
    expect(approve).toHaveBeenCalledTimes(1);
    expect(approve.mock.calls[0]?.[0].reason).toBe(
      'matches tools.approvals.require entry "exec"; "rm" is not on the allowlist',
    );
  });
});

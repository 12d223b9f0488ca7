import { describe, expect, it } from 'vitest';
import type { RunInfo, ToolCall, ToolDescriptor } from '@tool-search/kernel';
import {
  callApprovalReason,
  grantCallApproval,
  setCallApprovalRule,
  takeCallApproval,
} from '@tool-search/approval-rules';

const run = (): RunInfo => Object.freeze({ runId: 'r', sessionId: 's', request: {} });
const call = (toolId: string, args: Record<string, unknown> = {}): ToolCall =>
  ({ callId: 'c1', tool: { id: toolId } as ToolDescriptor, args, origin: 'api' }) as ToolCall;

describe('approval rules', () => {
  it('answers with the rule of the called tool in that run only', () => {
    const a = run();
    const b = run();
    setCallApprovalRule(a, 'core:core:exec', (c) =>
      c.args.command === 'rm' ? 'rm is not on the allowlist' : undefined,
    );
    expect(callApprovalReason(a, call('core:core:exec', { command: 'rm' }))).toBe('rm is not on the allowlist');
    expect(callApprovalReason(a, call('core:core:exec', { command: 'ls' }))).toBeUndefined();
    expect(callApprovalReason(a, call('core:core:read'))).toBeUndefined();
    expect(callApprovalReason(b, call('core:core:exec', { command: 'rm' }))).toBeUndefined();
  });

  it('treats a throwing rule as needing approval (fail closed)', () => {
    const a = run();
    setCallApprovalRule(a, 't', () => {
      throw new Error('boom');
    });
    expect(callApprovalReason(a, call('t'))).toContain('boom');
  });

  it('a grant counts once, for that run and call', () => {
    const a = run();
    expect(takeCallApproval(a, 'c1')).toBe(false);
    grantCallApproval(a, 'c1');
    expect(takeCallApproval(run(), 'c1')).toBe(false);
    expect(takeCallApproval(a, 'c1')).toBe(true);
    expect(takeCallApproval(a, 'c1')).toBe(false);
  });
});

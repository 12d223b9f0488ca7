/**
 * Per-call approval rules. A tool source knows which calls of its tools need
 * a human's yes (exec: a command off the allowlist under `ask: "on-miss"`);
 * the approvals plugin owns the approver. Neither imports the other: the
 * source sets a rule for its tool in a run, the approvals plugin asks the rule
 * in `beforeToolCall`, and on an 'allow' grants the call, which the tool
 * checks before it runs. No approvals plugin means no grant: the tool refuses
 * (APPROVAL_REQUIRED), so a missing approver fails closed.
 *
 * State is keyed by the run's `RunInfo` object (the same object in listTools,
 * beforeToolCall and execute), in WeakMaps: it ends with the run.
 */
import type { RunInfo, ToolCall } from '@tool-search/kernel';
import { errorMessage } from '@tool-search/kernel';

/** Returns why this call needs approval, or `undefined` when it does not. Must not throw. */
export type CallApprovalRule = (call: ToolCall, run: RunInfo) => string | undefined;

const rules = new WeakMap<RunInfo, Map<string, CallApprovalRule>>();
const grants = new WeakMap<RunInfo, Set<string>>();

/** Sets the rule for one tool id in one run (call it from `listTools`, which receives the run). */
export function setCallApprovalRule(run: RunInfo, toolId: string, rule: CallApprovalRule): void {
  let byTool = rules.get(run);
  if (!byTool) rules.set(run, (byTool = new Map()));
  byTool.set(toolId, rule);
}

/** The reason a call needs approval according to its tool's rule, if any (a throwing rule counts as "needs approval"). */
export function callApprovalReason(run: RunInfo, call: ToolCall): string | undefined {
  const rule = rules.get(run)?.get(call.tool.id);
  if (!rule) return undefined;
  try {
    return rule(call, run);
  } catch (error) {
    return `the tool's approval rule failed (${errorMessage(error)})`;
  }
}

/** Records that a call was approved (the approvals plugin calls this on 'allow'). */
export function grantCallApproval(run: RunInfo, callId: string): void {
  let set = grants.get(run);
  if (!set) grants.set(run, (set = new Set()));
  set.add(callId);
}

/** Whether the call was approved; consumes the grant, so it counts once. */
export function takeCallApproval(run: RunInfo, callId: string): boolean {
  return grants.get(run)?.delete(callId) ?? false;
}

/**
 * Approvals: before a call to a tool listed in `tools.approvals.require` (or
 * a destructive one, or one whose tool's approval rule asks for it — exec's
 * `ask`, see `@tool-search/approval-rules`), ask an approver and block unless
 * it answers 'allow'; an 'allow' for a rule is granted to the tool.
 * The tap is on `beforeToolCall`, which every path (direct, tool_call, code,
 * directory) goes through, so a denied call cannot be reached another way.
 */
import { ErrorCode, STAGE, ToolSearchError, type KernelPlugin, errorMessage } from '@tool-search/kernel';
import { callApprovalReason, grantCallApproval } from '@tool-search/approval-rules';
import { ask } from './ask.js';
import { resolveApprovalsConfig, type ApprovalsConfig } from './config.js';
import { approvalReason } from './match.js';
import type { ApprovalRecord, ApprovalRequest, Approver } from './types.js';

declare module '@tool-search/kernel' {
  interface RunEventMap {
    /** An approval decision (allow, deny, timeout…); telemetry writes it to the session log. */
    approval: { readonly type: 'approval'; readonly record: ApprovalRecord };
  }
}

export const PLUGIN_NAME = '@tool-search/plugin-approvals';

export interface ApprovalsPluginOptions {
  /** The `tools.approvals` block. */
  readonly config?: ApprovalsConfig;
  /**
   * Asked once per call that needs approval; `ApprovalQueue#approve` hands requests to another process. `null`: no
   * approver is configured, so those calls are denied without asking (and the denial says so).
   */
  readonly approve: Approver | null;
  /** Called with every decision (allowed or denied, and how), for audit logs and telemetry. */
  readonly onDecision?: (record: ApprovalRecord) => void;
}

/** Throws `CONFIG_INVALID` for a bad `config`, `OPTIONS_INVALID` when `approve` is neither a function nor `null`. */
export function approvalsPlugin(options: ApprovalsPluginOptions): KernelPlugin {
  const config = resolveApprovalsConfig(options.config);
  if (typeof options?.approve !== 'function' && options?.approve !== null) {
    throw new ToolSearchError(
      ErrorCode.OPTIONS_INVALID,
      'approvalsPlugin needs an `approve(request)` function (for example `new ApprovalQueue().approve`), or `null` for none',
      { plugin: PLUGIN_NAME },
    );
  }
  const { approve, onDecision } = options;

  return {
    name: PLUGIN_NAME,
    apply({ hooks, logger }) {
      hooks.beforeToolCall.tapPromise({ stage: STAGE.DEFAULT }, async (call, ctx) => {
        // The tool's own rule (exec's `ask`) and the config's `require`: either one means ask.
        const ruleReason = callApprovalReason(ctx.run, call);
        const reasons = [approvalReason(call.tool, config), ruleReason].filter((r): r is string => r !== undefined);
        if (!reasons.length) return undefined;
        const reason = reasons.join('; ');
        const agentId = ctx.run.request.agentId;
        const request: ApprovalRequest = {
          callId: call.callId,
          toolId: call.tool.id,
          name: call.tool.name,
          source: call.tool.source,
          args: JSON.parse(JSON.stringify(call.args)) as Record<string, unknown>,
          origin: call.origin,
          sessionId: ctx.run.sessionId,
          runId: ctx.run.runId,
          ...(agentId !== undefined ? { agentId } : {}),
          reason,
        };
        const record: ApprovalRecord = approve
          ? await ask(approve, request, config.timeoutMs, ctx.signal)
          : { request, decision: 'deny', by: 'unconfigured' };
        logger[record.decision === 'allow' ? 'info' : 'warn'](`${call.tool.id}: ${record.decision} (${record.by})`, {
          callId: call.callId,
          reason,
          ...(record.message ? { message: record.message } : {}),
        });
        ctx.emit({ type: 'approval', record });
        try {
          onDecision?.(record);
        } catch (error) {
          logger.error(`onDecision failed: ${errorMessage(error)}`, { cause: error });
        }
        if (record.decision === 'allow') {
          if (ruleReason !== undefined) grantCallApproval(ctx.run, call.callId);
          return undefined;
        }
        return { action: 'block', reason: denial(call.tool.name, reason, record) };
      });
    },
  };
}

function denial(name: string, reason: string, record: ApprovalRecord): string {
  const why =
    record.by === 'answer'
      ? 'the approver denied it'
      : record.by === 'unconfigured'
        ? 'no approver is configured'
        : (record.message ?? 'it was not approved');
  return (
    `Blocked by approval: ${name} needs approval (${reason}) and ${why}. ` +
    'The tool did not run. Do not retry it or reach it through another tool; tell the user it needs their approval.'
  );
}

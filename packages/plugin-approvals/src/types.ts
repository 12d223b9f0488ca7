/** What an approver is asked and what it answers. */
import type { CallOrigin, ToolSource } from '@tool-search/kernel';

export type ApprovalDecision = 'allow' | 'deny';

/** One call waiting for a human (or a policy service) to allow or deny it. */
export interface ApprovalRequest {
  readonly callId: string;
  readonly toolId: string;
  readonly name: string;
  readonly source: ToolSource;
  /** The validated arguments the tool will run with (a plain copy). */
  readonly args: Record<string, unknown>;
  readonly origin: CallOrigin;
  readonly sessionId: string;
  readonly runId: string;
  readonly agentId?: string;
  /** Why approval is required: the `require` pattern that matched, or `destructiveHint`. */
  readonly reason: string;
}

export interface ApprovalContext {
  /** Aborted when the answer is no longer wanted (timeout, run closed, call cancelled). */
  readonly signal: AbortSignal;
  /** When the request times out and counts as a deny (ISO 8601). */
  readonly expiresAt: string;
}

/** Anything but a resolved `'allow'` (a throw, another value, no answer in time) is a deny. */
export type Approver = (request: ApprovalRequest, context: ApprovalContext) => Promise<ApprovalDecision>;

/** How a request ended, for audit logs and telemetry (`onDecision`). */
export interface ApprovalRecord {
  readonly request: ApprovalRequest;
  readonly decision: ApprovalDecision;
  /**
   * `answer`: the approver answered. `timeout`, `error` (it threw or answered something else), `aborted`: denied
   * without an answer. `unconfigured`: there is no approver (`approve: null`), so nobody was asked.
   */
  readonly by: 'answer' | 'timeout' | 'error' | 'aborted' | 'unconfigured';
  readonly message?: string;
}

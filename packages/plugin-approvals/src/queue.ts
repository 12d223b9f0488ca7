/**
 * Pending approvals that another party answers: the gateway lists them over
 * HTTP, the CLI at a prompt. Pass `queue.approve` to `approvalsPlugin`; each
 * request waits here until `answer(id, decision)` or until the plugin stops
 * waiting (timeout, cancelled call), which removes it as a deny.
 */
import { randomUUID } from 'node:crypto';
import { ToolSearchError } from '@tool-search/kernel';
import { ApprovalsErrors } from './errors.js';
import type { ApprovalContext, ApprovalDecision, ApprovalRequest, Approver } from './types.js';

export interface ApprovalQueueOptions {
  /** Pending approvals at most; past it a new call is denied at once (APPROVALS_QUEUE_FULL). Default 1000. */
  readonly maxPending?: number;
  /** Pending approvals of one session at most (a flooding run cannot crowd out the others). Default 100. */
  readonly maxPendingPerSession?: number;
}

/** Who answers: a front end that knows it answers for one agent or session passes it, and only those match. */
export interface AnswerScope {
  readonly agentId?: string;
  readonly sessionId?: string;
}

export const DEFAULT_MAX_PENDING = 1000;
export const DEFAULT_MAX_PENDING_PER_SESSION = 100;

/** Throws APPROVALS_QUEUE_FULL when a new approval would pass a limit. */
export function checkRoom(
  pending: readonly PendingApproval[],
  request: ApprovalRequest,
  maxPending: number,
  maxPerSession: number,
): void {
  const full = (scope: 'total' | 'session', limit: number) =>
    new ToolSearchError(
      ApprovalsErrors.APPROVALS_QUEUE_FULL,
      `${limit} approvals are already pending${scope === 'session' ? ' for this session' : ''}; answer or let them expire first`,
      {
        details: { scope, limit, sessionId: request.sessionId },
      },
    );
  if (pending.length >= maxPending) throw full('total', maxPending);
  if (pending.filter((p) => p.request.sessionId === request.sessionId).length >= maxPerSession)
    throw full('session', maxPerSession);
}

/** Whether an answer given under `scope` may settle `approval` (no scope: the front end answers for everyone). */
export function inScope(approval: PendingApproval, scope: AnswerScope | undefined): boolean {
  if (!scope) return true;
  if (scope.agentId !== undefined && approval.request.agentId?.toLowerCase() !== scope.agentId.toLowerCase())
    return false;
  if (scope.sessionId !== undefined && approval.request.sessionId !== scope.sessionId) return false;
  return true;
}

export interface PendingApproval {
  readonly id: string;
  readonly request: ApprovalRequest;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601: after this the call is denied without an answer. */
  readonly expiresAt: string;
}

export type ApprovalQueueEvent =
  | { readonly type: 'requested'; readonly approval: PendingApproval }
  /** `answer`: answered through `answer()`. `cancelled`: the plugin stopped waiting (a deny). */
  | {
      readonly type: 'settled';
      readonly id: string;
      readonly decision: ApprovalDecision;
      readonly by: 'answer' | 'cancelled';
    };

export type ApprovalQueueListener = (event: ApprovalQueueEvent) => void;

interface Entry {
  readonly approval: PendingApproval;
  readonly resolve: (decision: ApprovalDecision) => void;
}

/** Throws `APPROVAL_ANSWER_INVALID` unless `decision` is 'allow' or 'deny' (answers come from HTTP or a prompt). */
export function checkAnswer(id: string, decision: unknown): asserts decision is ApprovalDecision {
  if (decision !== 'allow' && decision !== 'deny') {
    throw new ToolSearchError(
      ApprovalsErrors.APPROVAL_ANSWER_INVALID,
      `An approval answer must be "allow" or "deny", got ${JSON.stringify(decision)}`,
      {
        details: { id, decision: String(decision) },
      },
    );
  }
}

export class ApprovalQueue {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<ApprovalQueueListener>();
  private readonly maxPending: number;
  private readonly maxPerSession: number;

  constructor(options: ApprovalQueueOptions = {}) {
    this.maxPending = options.maxPending ?? DEFAULT_MAX_PENDING;
    this.maxPerSession = options.maxPendingPerSession ?? DEFAULT_MAX_PENDING_PER_SESSION;
  }

  /** The approver to hand to `approvalsPlugin({ approve })`; past a limit it throws APPROVALS_QUEUE_FULL (a deny). */
  readonly approve: Approver = (request: ApprovalRequest, context: ApprovalContext) =>
    new Promise<ApprovalDecision>((resolve) => {
      if (context.signal.aborted) return resolve('deny');
      checkRoom(this.list(), request, this.maxPending, this.maxPerSession);
      const approval: PendingApproval = Object.freeze({
        id: randomUUID(),
        request,
        createdAt: new Date().toISOString(),
        expiresAt: context.expiresAt,
      });
      this.entries.set(approval.id, { approval, resolve });
      context.signal.addEventListener(
        'abort',
        () => {
          if (this.entries.delete(approval.id)) {
            resolve('deny');
            this.emit({ type: 'settled', id: approval.id, decision: 'deny', by: 'cancelled' });
          }
        },
        { once: true },
      );
      this.emit({ type: 'requested', approval });
    });

  /** Pending approvals, oldest first. */
  list(): PendingApproval[] {
    return [...this.entries.values()].map((entry) => entry.approval);
  }

  get(id: string): PendingApproval | undefined {
    return this.entries.get(id)?.approval;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Answers a pending approval. Returns false when `id` is not pending (unknown,
   * answered, or expired) or, with a `scope`, belongs to another agent or session. Throws `APPROVAL_ANSWER_INVALID` unless `decision`
   * is 'allow' or 'deny' (input from HTTP or a prompt is checked here).
   */
  answer(id: string, decision: ApprovalDecision, scope?: AnswerScope): boolean {
    checkAnswer(id, decision);
    const entry = typeof id === 'string' ? this.entries.get(id) : undefined;
    // Out of scope looks exactly like unknown: an answerer learns nothing about other agents' approvals.
    if (!entry || !inScope(entry.approval, scope)) return false;
    this.entries.delete(id);
    entry.resolve(decision);
    this.emit({ type: 'settled', id, decision, by: 'answer' });
    return true;
  }

  /** Subscribes to `requested` and `settled` events; returns the unsubscribe function. */
  subscribe(listener: ApprovalQueueListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: ApprovalQueueEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A failing listener (a closed HTTP stream) must not stop the queue or the others.
      }
    }
  }
}

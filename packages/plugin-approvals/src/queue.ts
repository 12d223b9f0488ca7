/**
 * Pending approvals that another party answers: the gateway lists them over
 * HTTP, the CLI at a prompt. Pass `queue.approve` to `approvalsPlugin`; each
 * request waits here until `answer(id, decision)` or until the plugin stops
 * waiting (timeout, cancelled call), which removes it as a deny.
 */
import { randomUUID } from 'node:crypto';
import { ErrorCode, ToolSearchError } from '@tool-search/kernel';
import type { ApprovalContext, ApprovalDecision, ApprovalRequest, Approver } from './types.js';

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
  | { readonly type: 'settled'; readonly id: string; readonly decision: ApprovalDecision; readonly by: 'answer' | 'cancelled' };

export type ApprovalQueueListener = (event: ApprovalQueueEvent) => void;

interface Entry {
  readonly approval: PendingApproval;
  readonly resolve: (decision: ApprovalDecision) => void;
}

/** Throws `APPROVAL_ANSWER_INVALID` unless `decision` is 'allow' or 'deny' (answers come from HTTP or a prompt). */
export function checkAnswer(id: string, decision: unknown): asserts decision is ApprovalDecision {
  if (decision !== 'allow' && decision !== 'deny') {
    throw new ToolSearchError(ErrorCode.APPROVAL_ANSWER_INVALID, `An approval answer must be "allow" or "deny", got ${JSON.stringify(decision)}`, {
      details: { id, decision: String(decision) },
    });
  }
}

export class ApprovalQueue {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<ApprovalQueueListener>();

  /** The approver to hand to `approvalsPlugin({ approve })`. */
  readonly approve: Approver = (request: ApprovalRequest, context: ApprovalContext) =>
    new Promise<ApprovalDecision>((resolve) => {
      if (context.signal.aborted) return resolve('deny');
      const approval: PendingApproval = Object.freeze({ id: randomUUID(), request, createdAt: new Date().toISOString(), expiresAt: context.expiresAt });
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
   * answered, or expired). Throws `APPROVAL_ANSWER_INVALID` unless `decision`
   * is 'allow' or 'deny' (input from HTTP or a prompt is checked here).
   */
  answer(id: string, decision: ApprovalDecision): boolean {
    checkAnswer(id, decision);
    const entry = this.entries.get(id);
    if (!entry) return false;
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

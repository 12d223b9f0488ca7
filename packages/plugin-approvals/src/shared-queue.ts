/**
 * The approval queue over a shared `StateStore` (Redis behind replicas): a
 * call waiting on replica A can be listed and answered through replica B.
 * A pending approval is a record whose TTL is its expiry, listed through a
 * bounded index; an answer `take`s the record (of two answers exactly one
 * wins) and publishes `settled`, which releases the waiter wherever it runs.
 * A store that does not answer makes `approve` throw, which `ask()` turns
 * into a deny: approvals fail closed. A store that comes back empty (Redis
 * restarted without persistence) loses no approval: each replica keeps a
 * marker key while calls wait on it, and when the marker is gone it puts its
 * waiting approvals back, listed and answerable again.
 */
import { randomUUID } from 'node:crypto';
import type { StateStore } from '@tool-search/state';
import {
  checkAnswer,
  checkRoom,
  DEFAULT_MAX_PENDING,
  DEFAULT_MAX_PENDING_PER_SESSION,
  inScope,
  type AnswerScope,
  type ApprovalQueueEvent,
  type ApprovalQueueListener,
  type PendingApproval,
} from './queue.js';
import type { ApprovalContext, ApprovalDecision, ApprovalRequest, Approver } from './types.js';

export interface SharedApprovalQueueOptions {
  /** Prefix of the queue's keys and channel in the store (default `approvals:`). */
  readonly keyPrefix?: string;
  /** Pending approvals at most, on all replicas (default 1000); past it a new call is denied at once (APPROVALS_QUEUE_FULL). */
  readonly maxPending?: number;
  /** Pending approvals of one session at most (default 100). */
  readonly maxPendingPerSession?: number;
  /** While calls wait here, how often to check that the store still holds them (default 1000 ms). */
  readonly checkIntervalMs?: number;
}

/** The listing outlives every entry in it by this much, so a long timeout never loses its line. */
const INDEX_TTL_MS = 24 * 60 * 60 * 1000;

export class SharedApprovalQueue {
  readonly #state: StateStore;
  readonly #prefix: string;
  readonly #maxPending: number;
  readonly #maxPerSession: number;
  readonly #listeners = new Set<ApprovalQueueListener>();
  /** Calls waiting on this replica, by approval id. */
  readonly #waiting = new Map<string, (decision: ApprovalDecision) => void>();
  /** The records of the calls waiting here, to put back if the store loses them. */
  readonly #records = new Map<string, PendingApproval>();
  readonly #checkIntervalMs: number;
  #checker: NodeJS.Timeout | undefined;
  #subscription: Promise<() => Promise<void>> | undefined;

  constructor(state: StateStore, options: SharedApprovalQueueOptions = {}) {
    this.#state = state;
    this.#prefix = options.keyPrefix ?? 'approvals:';
    this.#maxPending = options.maxPending ?? DEFAULT_MAX_PENDING;
    this.#maxPerSession = options.maxPendingPerSession ?? DEFAULT_MAX_PENDING_PER_SESSION;
    this.#checkIntervalMs = options.checkIntervalMs ?? 1000;
  }

  /** The approver to hand to `approvalsPlugin({ approve })`; it throws (a deny) when the store does not answer. */
  readonly approve: Approver = async (request: ApprovalRequest, context: ApprovalContext) => {
    if (context.signal.aborted) return 'deny';
    // Listen before the record is visible, so an answer given at once is not missed.
    await this.#subscribe();
    const now = Date.now();
    const approval: PendingApproval = Object.freeze({
      id: randomUUID(),
      request,
      createdAt: new Date(now).toISOString(),
      expiresAt: context.expiresAt,
    });
    const ttlMs = Math.max(1, Date.parse(context.expiresAt) - now);
    const decided = new Promise<ApprovalDecision>((resolve) => this.#waiting.set(approval.id, resolve));
    try {
      // Puts back what a wiped store lost before marking this replica present again.
      await this.#restoreIfLost();
      // A flood is refused, not allowed to push older approvals out of the listing (they would time out unseen):
      // the room check and the insert run one at a time on this replica; other replicas are checked just after.
      await this.#serially(async () => {
        if (await this.#crowded()) checkRoom(await this.list(), request, this.#maxPending, this.#maxPerSession);
        await this.#put(approval, ttlMs);
      });
    } catch (error) {
      this.#waiting.delete(approval.id);
      await this.#withdraw(approval.id).catch(() => undefined); // the record also expires on its own; the error thrown is what counts
      throw error;
    }
    if (await this.#crowded().catch(() => false)) {
      const all = await this.list().catch(() => [approval]);
      const at = all.findIndex((p) => p.id === approval.id);
      const before = all.slice(0, at < 0 ? all.length : at);
      try {
        checkRoom(before, request, this.#maxPending, this.#maxPerSession);
      } catch (error) {
        this.#waiting.delete(approval.id);
        await this.#withdraw(approval.id).catch(() => undefined); // the record also expires on its own; the error thrown is what counts
        throw error;
      }
    }
    this.#records.set(approval.id, approval);
    this.#checker ??= setInterval(() => void this.#restoreIfLost().catch(() => undefined), this.#checkIntervalMs); // a store outage is retried at the next check
    this.#checker.unref?.();
    if (context.signal.aborted) void this.#cancel(approval.id);
    else context.signal.addEventListener('abort', () => void this.#cancel(approval.id), { once: true });
    return decided;
  };

  /** Pending approvals on every replica, oldest first. */
  async list(): Promise<PendingApproval[]> {
    const ids = (await this.#state.members(this.#key('index'))).reverse();
    const found = await Promise.all(ids.map((id) => this.get(id)));
    await Promise.all(ids.filter((_, i) => !found[i]).map((id) => this.#state.unindex(this.#key('index'), id)));
    return found.filter((approval): approval is PendingApproval => approval !== undefined);
  }

  async get(id: string): Promise<PendingApproval | undefined> {
    const text = await this.#state.get(this.#key(`pending:${id}`));
    return text === undefined ? undefined : (JSON.parse(text) as PendingApproval);
  }

  /**
   * Answers a pending approval, wherever its call waits. Resolves false when
   * `id` is not pending (unknown, answered — here or elsewhere — or expired) or, with a `scope`, belongs to another
   * agent or session.
   * Rejects with `APPROVAL_ANSWER_INVALID` unless `decision` is 'allow' or 'deny'.
   */
  async answer(id: string, decision: ApprovalDecision, scope?: AnswerScope): Promise<boolean> {
    checkAnswer(id, decision);
    if (typeof id !== 'string') return false;
    if (scope) {
      const pending = await this.get(id);
      if (!pending || !inScope(pending, scope)) return false;
    }
    if ((await this.#withdraw(id)) === undefined) return false;
    await this.#publishSettled({ type: 'settled', id, decision, by: 'answer' });
    return true;
  }

  /** `requested` and `settled` events from every replica; returns the unsubscribe function. */
  subscribe(listener: ApprovalQueueListener): () => void {
    this.#listeners.add(listener);
    void this.#subscribe().catch(() => undefined); // retried by the next approve or subscribe
    return () => this.#listeners.delete(listener);
  }

  /** Stops listening to the store (the calls still waiting here are denied by their timeout). */
  async close(): Promise<void> {
    this.#records.clear();
    this.#stopChecking();
    const subscription = this.#subscription;
    this.#subscription = undefined;
    if (subscription) await (await subscription.catch(() => undefined))?.(); // closing: a subscription that never started has nothing to undo
  }

  /** Whether enough approvals are listed that a limit may be reached (a cheap count before reading them all). */
  async #crowded(): Promise<boolean> {
    return (await this.#state.members(this.#key('index'))).length >= Math.min(this.#maxPending, this.#maxPerSession);
  }

  #queue: Promise<unknown> = Promise.resolve();
  /** Runs `task` after the ones started before it on this replica (room checks do not interleave). */
  #serially<T>(task: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(task, task);
    this.#queue = next.catch(() => undefined); // the caller gets the failure through `next`; the chain only orders the tasks
    return next;
  }

  /** The call stopped waiting (timeout, cancelled): withdrawn everywhere, and a deny unless an answer came first. */
  async #cancel(id: string): Promise<void> {
    const resolve = this.#waiting.get(id);
    if (!resolve) return; // answered: the answer already withdrew it
    this.#waiting.delete(id);
    this.#forget(id);
    resolve('deny');
    await this.#withdraw(id).catch(() => undefined); // the record also expires on its own
    await this.#publishSettled({ type: 'settled', id, decision: 'deny', by: 'cancelled' }).catch(() => undefined); // other replicas also see the record expire
  }

  async #withdraw(id: string): Promise<string | undefined> {
    const taken = await this.#state.take(this.#key(`pending:${id}`));
    await this.#state.unindex(this.#key('index'), id);
    return taken;
  }

  async #publishSettled(event: ApprovalQueueEvent): Promise<void> {
    await this.#state.publish(this.#key('events'), JSON.stringify(event));
  }

  #subscribe(): Promise<unknown> {
    this.#subscription ??= this.#state.subscribe(this.#key('events'), (message) => this.#receive(message));
    // A failed subscription is forgotten, so the next call tries again.
    return this.#subscription.catch((error: unknown) => {
      this.#subscription = undefined;
      throw error;
    });
  }

  #receive(message: string): void {
    let event: ApprovalQueueEvent;
    try {
      event = JSON.parse(message) as ApprovalQueueEvent;
    } catch {
      return;
    }
    if (event.type === 'settled') {
      const resolve = this.#waiting.get(event.id);
      this.#waiting.delete(event.id);
      if (resolve && this.#records.has(event.id)) {
        this.#forget(event.id);
        // A restore that raced the answer may have put the record back: take it out again.
        void this.#withdraw(event.id).catch(() => undefined); // the record also expires on its own
      }
      resolve?.(event.decision);
    }
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A failing listener (a closed HTTP stream) must not stop the queue or the others.
      }
    }
  }

  /** Records an approval as pending (its TTL its expiry), lists it, and tells every replica. */
  async #put(approval: PendingApproval, ttlMs: number): Promise<void> {
    await this.#state.set(this.#key(`pending:${approval.id}`), JSON.stringify(approval), { ttlMs, ifAbsent: true });
    await this.#state.index(this.#key('index'), approval.id, Date.parse(approval.createdAt), {
      max: this.#maxPending * 2,
      ttlMs: Math.max(ttlMs, INDEX_TTL_MS),
    });
    await this.#state.publish(
      this.#key('events'),
      JSON.stringify({ type: 'requested', approval } satisfies ApprovalQueueEvent),
    );
  }

  /**
   * This replica's marker is gone while calls wait here: the store lost its data (a restart without
   * persistence). Puts the waiting approvals back, then the marker. A store still down is tried next tick.
   */
  async #restoreIfLost(): Promise<void> {
    if ((await this.#state.get(this.#marker())) !== undefined) return;
    for (const approval of [...this.#records.values()]) {
      const ttlMs = Date.parse(approval.expiresAt) - Date.now();
      if (ttlMs > 0 && this.#waiting.has(approval.id)) await this.#put(approval, ttlMs);
    }
    await this.#state.set(this.#marker(), '1', { ttlMs: INDEX_TTL_MS });
  }

  #forget(id: string): void {
    this.#records.delete(id);
    if (this.#records.size === 0) this.#stopChecking();
  }

  #stopChecking(): void {
    if (this.#checker) clearInterval(this.#checker);
    this.#checker = undefined;
  }

  /** Present while this replica has approvals in the store; its absence means the store was wiped. */
  #marker(): string {
    return this.#key(`replica:${this.#state.replicaId}`);
  }

  #key(name: string): string {
    return `${this.#prefix}${name}`;
  }
}

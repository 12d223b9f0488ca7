/**
 * `SessionHost`: what the session tools need from wherever turns run — the
 * store, and a turn runner the gateway binds when it starts. Turns in one
 * session run one after another; each sends the session's kept transcript
 * plus the new message, and leaves the session's status, turn count and
 * usage in the store.
 */
import { ToolSearchError, errorMessage } from '@tool-search/kernel';
import { MemorySessionStore } from './memory-store.js';
import type { SessionStore, SessionTurnReply, SessionTurnRunner } from './types.js';
import { SessionsErrors } from './errors.js';

export interface SessionTurnOptions {
  /** The run's agent; leave it out when `agents.list` is empty (the kernel refuses ids it does not list). */
  readonly agentId?: string;
  readonly model?: string;
  readonly signal?: AbortSignal;
}

export interface SessionHost {
  readonly store: SessionStore;
  /** Whether a runner is bound (a gateway runs turns here). */
  readonly bound: boolean;
  bind(runner: SessionTurnRunner): void;
  /** Runs one turn in `sessionId` once the turn running there (if any) is done. */
  turn(sessionId: string, message: string, options: SessionTurnOptions): Promise<SessionTurnReply>;
}

export function createSessionHost(options: { store?: SessionStore } = {}): SessionHost {
  const store = options.store ?? new MemorySessionStore();
  const queues = new Map<string, Promise<unknown>>();
  let runner: SessionTurnRunner | undefined;

  async function runOne(sessionId: string, message: string, turn: SessionTurnOptions): Promise<SessionTurnReply> {
    if (!runner)
      throw new ToolSearchError(
        SessionsErrors.SESSIONS_UNAVAILABLE,
        'no gateway runs turns in this process; the session tools work inside `tool-search gateway`',
      );
    const kept = await store.transcript(sessionId);
    const messages = kept.flatMap((entry) =>
      entry.role !== 'tool' && entry.content ? [{ role: entry.role, content: entry.content }] : [],
    );
    messages.push({ role: 'user', content: message });
    await store.upsert(sessionId, { ...(turn.agentId ? { agentId: turn.agentId } : {}), status: 'running' });
    try {
      const reply = await runner({
        sessionId,
        messages,
        ...(turn.agentId ? { agentId: turn.agentId } : {}),
        ...(turn.model ? { model: turn.model } : {}),
        ...(turn.signal ? { signal: turn.signal } : {}),
      });
      const before = await store.get(sessionId);
      const usage = before?.usage ?? { input: 0, output: 0 };
      await store.upsert(sessionId, {
        status: 'idle',
        model: reply.model,
        turns: (before?.turns ?? 0) + 1,
        usage: { input: usage.input + (reply.usage?.input ?? 0), output: usage.output + (reply.usage?.output ?? 0) },
      });
      return reply;
    } catch (error) {
      await store.upsert(sessionId, { status: 'failed', lastError: errorMessage(error) });
      throw error;
    }
  }

  return {
    store,
    get bound() {
      return runner !== undefined;
    },
    bind(next) {
      runner = next;
    },
    turn(sessionId, message, turn) {
      const previous = queues.get(sessionId) ?? Promise.resolve();
      const result = previous.catch(() => undefined).then(() => runOne(sessionId, message, turn)); // the previous turn's failure belongs to its own caller; this one runs regardless
      const settled = result.catch(() => undefined); // the queue only orders turns; the failure reaches the caller through `result`
      queues.set(sessionId, settled);
      void settled.then(() => {
        if (queues.get(sessionId) === settled) queues.delete(sessionId);
      });
      return result;
    },
  };
}

/**
 * Per-session memory in the state store: the last `historySize` finished
 * calls and the findings recorded so far. Replicas behind a balancer share one
 * store (Redis), so a loop that alternates replicas is counted once. Sessions
 * outlive runs (a loop can span turns), so every key expires `ttlMs` after the
 * session's last call, and the set of sessions is a bounded index (for
 * `clear()`).
 */
import type { StateStore } from '@tool-search/state';
import type { HistoryEntry } from './detect.js';
import type { LoopWarning } from './plugin.js';

export const MAX_SESSIONS = 1000;
export const MAX_WARNINGS_PER_SESSION = 100;
/** One day after a session's last call its loop history is gone. */
export const DEFAULT_LOOP_STATE_TTL_MS = 24 * 60 * 60 * 1000;

const PREFIX = 'loop:';
const SESSIONS = `${PREFIX}sessions`;

export class LoopState {
  constructor(
    private readonly state: StateStore,
    private readonly ttlMs: number,
  ) {}

  async history(sessionId: string): Promise<HistoryEntry[]> {
    return parseAll<HistoryEntry>(await this.state.range(key('history', sessionId)));
  }

  async warnings(sessionId: string): Promise<LoopWarning[]> {
    return parseAll<LoopWarning>(await this.state.range(key('warnings', sessionId)));
  }

  async record(sessionId: string, entry: HistoryEntry, historySize: number): Promise<void> {
    await Promise.all([
      this.state.append(key('history', sessionId), [JSON.stringify(entry)], { max: historySize, ttlMs: this.ttlMs }),
      this.#seen(sessionId),
    ]);
  }

  async warn(sessionId: string, warning: LoopWarning): Promise<void> {
    await Promise.all([
      this.state.append(key('warnings', sessionId), [JSON.stringify(warning)], {
        max: MAX_WARNINGS_PER_SESSION,
        ttlMs: this.ttlMs,
      }),
      this.#seen(sessionId),
    ]);
  }

  async clear(sessionId?: string): Promise<void> {
    const ids = sessionId === undefined ? await this.state.members(SESSIONS) : [sessionId];
    await Promise.all(
      ids.flatMap((id) => [
        this.state.delete(key('history', id)),
        this.state.delete(key('warnings', id)),
        this.state.unindex(SESSIONS, id),
      ]),
    );
  }

  #seen(sessionId: string): Promise<void> {
    return this.state.index(SESSIONS, sessionId, Date.now(), { max: MAX_SESSIONS, ttlMs: this.ttlMs });
  }
}

function key(kind: 'history' | 'warnings', sessionId: string): string {
  return `${PREFIX}${kind}:${sessionId}`;
}

function parseAll<T>(lines: readonly string[]): T[] {
  return lines.flatMap((line) => {
    try {
      return [JSON.parse(line) as T];
    } catch {
      return []; // a line another process garbled is skipped, not fatal
    }
  });
}

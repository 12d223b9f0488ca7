/**
 * Per-session memory: the last `historySize` finished calls and the findings
 * recorded so far. Sessions outlive runs (a loop can span turns), so the map
 * is bounded: the least recently used session is forgotten first.
 */
import type { HistoryEntry } from './detect.js';
import type { LoopWarning } from './plugin.js';

export const MAX_SESSIONS = 1000;
export const MAX_WARNINGS_PER_SESSION = 100;

interface SessionState {
  readonly history: HistoryEntry[];
  readonly warnings: LoopWarning[];
}

export class SessionStore {
  private readonly sessions = new Map<string, SessionState>();

  history(sessionId: string): readonly HistoryEntry[] {
    return this.sessions.get(sessionId)?.history ?? [];
  }

  warnings(sessionId: string): readonly LoopWarning[] {
    return [...(this.sessions.get(sessionId)?.warnings ?? [])];
  }

  record(sessionId: string, entry: HistoryEntry, historySize: number): void {
    const { history } = this.touch(sessionId);
    history.push(entry);
    if (history.length > historySize) history.splice(0, history.length - historySize);
  }

  warn(sessionId: string, warning: LoopWarning): void {
    const { warnings } = this.touch(sessionId);
    warnings.push(warning);
    if (warnings.length > MAX_WARNINGS_PER_SESSION) warnings.shift();
  }

  clear(sessionId?: string): void {
    if (sessionId === undefined) this.sessions.clear();
    else this.sessions.delete(sessionId);
  }

  private touch(sessionId: string): SessionState {
    const state = this.sessions.get(sessionId) ?? { history: [], warnings: [] };
    // Re-insert so Map order is least recently used first.
    this.sessions.delete(sessionId);
    this.sessions.set(sessionId, state);
    if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    return state;
  }
}

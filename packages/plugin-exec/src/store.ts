/**
 * Background sessions, scoped per agent: an agent lists, polls and kills only
 * the sessions it started (another agent's id is unknown to it). At most
 * MAX_SESSIONS_PER_AGENT are kept; past that the oldest finished ones go.
 */
import { ToolSearchError } from '@tool-search/kernel';
import type { ExecSession } from './session.js';
import { ExecErrors } from './errors.js';

export const MAX_SESSIONS_PER_AGENT = 32;

export class SessionStore {
  private readonly byAgent = new Map<string, Map<string, ExecSession>>();
  /** Every session still running, foreground ones included, so shutdown reaches them all. */
  private readonly live = new Set<ExecSession>();

  track(session: ExecSession): void {
    this.live.add(session);
    void session.exited.then(() => this.live.delete(session));
  }

  /** Keeps a backgrounded session for `process`. */
  keep(session: ExecSession): void {
    session.backgrounded = true;
    let sessions = this.byAgent.get(session.agent);
    if (!sessions) this.byAgent.set(session.agent, (sessions = new Map()));
    sessions.set(session.id, session);
    for (const old of sessions.values()) {
      if (sessions.size <= MAX_SESSIONS_PER_AGENT) break;
      if (!old.running) sessions.delete(old.id);
    }
  }

  list(agent: string): ExecSession[] {
    return [...(this.byAgent.get(agent)?.values() ?? [])];
  }

  has(agent: string, sessionId: string): boolean {
    return this.byAgent.get(agent)?.has(sessionId) === true;
  }

  get(agent: string, sessionId: string): ExecSession {
    const session = this.byAgent.get(agent)?.get(sessionId);
    if (!session) throw this.unknown(sessionId);
    return session;
  }

  unknown(sessionId: string): ToolSearchError {
    return new ToolSearchError(
      ExecErrors.PROCESS_SESSION_UNKNOWN,
      `No background session "${sessionId}" for this agent; use process list`,
      { details: { sessionId } },
    );
  }

  delete(agent: string, sessionId: string): void {
    this.byAgent.get(agent)?.delete(sessionId);
  }

  /** Kills everything still running and forgets every session (kernel shutdown). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.live].map((session) => session.kill()));
    this.byAgent.clear();
  }
}

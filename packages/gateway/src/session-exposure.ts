/**
 * Prompt-cache stability: within a session the tools and system text sent to
 * the provider stay byte-identical unless the catalog changed. Each turn's
 * exposure is fingerprinted; an unchanged one reuses the session's serialized
 * tools (one string shared by every request of the session), a changed one is
 * reported so the session log marks the request. Bounded: the oldest sessions
 * are forgotten first.
 */
import { createHash } from 'node:crypto';

export interface SessionExposure {
  readonly toolsJson: string;
  readonly system: string;
  readonly fingerprint: string;
  /** The fingerprint this session had before, when it changed on this turn. */
  readonly changedFrom?: string;
}

export class SessionExposures {
  private readonly sessions = new Map<string, { toolsJson: string; system: string; fingerprint: string }>();

  constructor(private readonly max = 1000) {}

  settle(sessionId: string, key: string, toolsJson: string, system: string): SessionExposure {
    const fingerprint = createHash('sha256').update(key).update('\0').update(toolsJson).update('\0').update(system).digest('hex').slice(0, 16);
    const seen = this.sessions.get(sessionId);
    this.sessions.delete(sessionId);
    if (seen && seen.fingerprint === fingerprint) {
      this.sessions.set(sessionId, seen);
      return seen;
    }
    const entry = { toolsJson, system, fingerprint };
    this.sessions.set(sessionId, entry);
    if (this.sessions.size > this.max) this.sessions.delete(this.sessions.keys().next().value as string);
    return seen ? { ...entry, changedFrom: seen.fingerprint } : entry;
  }
}

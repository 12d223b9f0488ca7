/**
 * Entries kept in memory per session, for `snapshot()`: the same entries the
 * log gets, so in-process numbers and the file agree. Bounded twice: the
 * oldest session is dropped first, and within a session the oldest entries
 * (a long-lived session's snapshot covers its newest `maxEntries`).
 */
import type { SessionLogEntry } from '@tool-search/session-log';

export class EntryStore {
  private readonly sessions = new Map<string, SessionLogEntry[]>();

  constructor(
    private readonly maxSessions: number,
    private readonly maxEntries: number,
  ) {}

  add(entry: SessionLogEntry): void {
    let entries = this.sessions.get(entry.sessionId);
    if (!entries) {
      entries = [];
      this.sessions.set(entry.sessionId, entries);
      if (this.sessions.size > this.maxSessions) this.sessions.delete(this.sessions.keys().next().value as string);
    }
    entries.push(entry);
    // Trim in batches, so a full session costs an amortized O(1) per entry.
    if (entries.length > this.maxEntries + Math.ceil(this.maxEntries / 8))
      entries.splice(0, entries.length - this.maxEntries);
  }

  /** A session's entries, or a run's entries; `undefined` when the id is unknown. */
  find(id: string): { scope: 'session' | 'run'; sessionId: string; entries: SessionLogEntry[] } | undefined {
    const session = this.sessions.get(id);
    if (session) return { scope: 'session', sessionId: id, entries: [...session] };
    for (const [sessionId, entries] of this.sessions) {
      const run = entries.filter((entry) => entry.runId === id);
      if (run.length) return { scope: 'run', sessionId, entries: run };
    }
    return undefined;
  }
}

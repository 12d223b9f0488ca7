/**
 * The in-process `SessionStore`: a Map of sessions, each with a bounded
 * transcript (the oldest entries drop first), and a bounded number of
 * sessions (the least recently updated idle one goes first).
 */
import { keptEntry, patchedRecord } from './record.js';
import type { SessionPatch, SessionRecord, SessionStore, TranscriptEntry } from './types.js';

export interface MemorySessionStoreOptions {
  /** Transcript entries kept per session (default 200). */
  readonly maxMessages?: number;
  /** Sessions kept (default 1000). */
  readonly maxSessions?: number;
  /** Longest kept text of one entry, in characters (default 20000). */
  readonly maxEntryChars?: number;
  readonly now?: () => number;
}

interface Slot {
  record: SessionRecord;
  entries: TranscriptEntry[];
}

export class MemorySessionStore implements SessionStore {
  readonly #slots = new Map<string, Slot>();
  readonly #maxMessages: number;
  readonly #maxSessions: number;
  readonly #maxEntryChars: number;
  readonly #now: () => number;

  constructor(options: MemorySessionStoreOptions = {}) {
    this.#maxMessages = options.maxMessages ?? 200;
    this.#maxSessions = options.maxSessions ?? 1000;
    this.#maxEntryChars = options.maxEntryChars ?? 20_000;
    this.#now = options.now ?? Date.now;
  }

  async upsert(sessionId: string, patch: SessionPatch): Promise<SessionRecord> {
    return this.#upsert(sessionId, patch).record;
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    return this.#slots.get(sessionId)?.record;
  }

  async list(): Promise<SessionRecord[]> {
    return [...this.#slots.values()].map((slot) => slot.record).sort((a, b) => b.updatedAt - a.updatedAt);
  }

  async append(sessionId: string, entry: TranscriptEntry): Promise<void> {
    const slot = this.#upsert(sessionId, {});
    slot.entries.push(keptEntry(entry, this.#maxEntryChars));
    if (slot.entries.length > this.#maxMessages) slot.entries.splice(0, slot.entries.length - this.#maxMessages);
    slot.record = { ...slot.record, messageCount: slot.record.messageCount + 1 };
  }

  async transcript(sessionId: string, limit?: number): Promise<TranscriptEntry[]> {
    const entries = this.#slots.get(sessionId)?.entries ?? [];
    return limit === undefined ? [...entries] : entries.slice(Math.max(0, entries.length - limit));
  }

  #upsert(sessionId: string, patch: SessionPatch): Slot {
    const slot = this.#slots.get(sessionId);
    if (slot) {
      slot.record = {
        ...patchedRecord(sessionId, slot.record, patch, this.#now()),
        messageCount: slot.record.messageCount,
      };
      // Re-insert so Map order is least recently updated first (eviction order).
      this.#slots.delete(sessionId);
      this.#slots.set(sessionId, slot);
      return slot;
    }
    const created = {
      record: { ...patchedRecord(sessionId, undefined, patch, this.#now()), messageCount: 0 },
      entries: [] as TranscriptEntry[],
    };
    this.#slots.set(sessionId, created);
    this.#evict();
    return created;
  }

  #evict(): void {
    for (const [id, slot] of this.#slots) {
      if (this.#slots.size <= this.#maxSessions) return;
      if (slot.record.status !== 'running') this.#slots.delete(id);
    }
  }
}

/**
 * The `SessionStore` over a shared `StateStore` (Redis behind replicas), so a
 * session started on one gateway replica continues on another. A record is a
 * JSON value with a TTL, the transcript a bounded list, the listing a bounded
 * index scored by `updatedAt`, and `messageCount` a counter (appends from two
 * replicas both count). Same bounds as `MemorySessionStore`; every key also
 * expires `ttlMs` after the session's last write.
 */
import type { StateStore } from '@tool-search/state';
import { keptEntry, patchedRecord } from './record.js';
import type { SessionPatch, SessionRecord, SessionStore, TranscriptEntry } from './types.js';

/** Seven days: a session nobody writes to for that long is gone on every replica. */
export const DEFAULT_SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface StateSessionStoreOptions {
  /** Transcript entries kept per session (default 200). */
  readonly maxMessages?: number;
  /** Sessions kept (default 1000; the least recently updated idle one goes first). */
  readonly maxSessions?: number;
  /** Longest kept text of one entry, in characters (default 20000). */
  readonly maxEntryChars?: number;
  /** How long a session's keys live after its last write (default 7 days). */
  readonly ttlMs?: number;
  /** Prefix of this store's keys inside the state store (default `sessions:`). */
  readonly keyPrefix?: string;
  readonly now?: () => number;
}

type StoredRecord = Omit<SessionRecord, 'messageCount'>;

export class StateSessionStore implements SessionStore {
  readonly #state: StateStore;
  readonly #maxMessages: number;
  readonly #maxSessions: number;
  readonly #maxEntryChars: number;
  readonly #ttlMs: number;
  readonly #prefix: string;
  readonly #now: () => number;

  constructor(state: StateStore, options: StateSessionStoreOptions = {}) {
    this.#state = state;
    this.#maxMessages = options.maxMessages ?? 200;
    this.#maxSessions = options.maxSessions ?? 1000;
    this.#maxEntryChars = options.maxEntryChars ?? 20_000;
    this.#ttlMs = options.ttlMs ?? DEFAULT_SESSION_TTL_MS;
    this.#prefix = options.keyPrefix ?? 'sessions:';
    this.#now = options.now ?? Date.now;
  }

  async upsert(sessionId: string, patch: SessionPatch): Promise<SessionRecord> {
    const [record, created] = await this.#upsert(sessionId, patch);
    if (created) await this.#evict();
    return this.#withCount(record);
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    const record = await this.#read(sessionId);
    return record && this.#withCount(record);
  }

  async list(): Promise<SessionRecord[]> {
    const ids = await this.#state.members(this.#key('index'));
    const records = await Promise.all(ids.map((id) => this.get(id)));
    // Members whose record expired leave the index here (the index itself is bounded, so this is only tidying).
    await Promise.all(ids.filter((_, i) => !records[i]).map((id) => this.#state.unindex(this.#key('index'), id)));
    return records
      .filter((record): record is SessionRecord => record !== undefined)
      .sort((a, b) => b.updatedAt - a.updatedAt);
  }

  async append(sessionId: string, entry: TranscriptEntry): Promise<void> {
    const [, created] = await this.#upsert(sessionId, {});
    await Promise.all([
      this.#state.append(this.#key('transcript', sessionId), [JSON.stringify(keptEntry(entry, this.#maxEntryChars))], {
        max: this.#maxMessages,
        ttlMs: this.#ttlMs,
      }),
      this.#state.increment(this.#key('count', sessionId), 'messages', 1, this.#ttlMs),
    ]);
    if (created) await this.#evict();
  }

  async transcript(sessionId: string, limit?: number): Promise<TranscriptEntry[]> {
    const lines = await this.#state.range(this.#key('transcript', sessionId), limit);
    return lines.flatMap((line) => {
      const entry = parse<TranscriptEntry>(line);
      return entry ? [entry] : [];
    });
  }

  /** Writes the merged record, re-scores it in the index and renews the session's other keys. */
  async #upsert(sessionId: string, patch: SessionPatch): Promise<[StoredRecord, boolean]> {
    const now = this.#now();
    const before = await this.#read(sessionId);
    const record: StoredRecord = patchedRecord(sessionId, before, patch, now);
    await Promise.all([
      this.#state.set(this.#key('record', sessionId), JSON.stringify(record), { ttlMs: this.#ttlMs }),
      // The index's own bound is a backstop; #evict keeps it at maxSessions and spares running sessions.
      this.#state.index(this.#key('index'), sessionId, now, { max: this.#maxSessions * 2, ttlMs: this.#ttlMs }),
      ...(before
        ? [
            this.#state.touch(this.#key('transcript', sessionId), this.#ttlMs),
            this.#state.touch(this.#key('count', sessionId), this.#ttlMs),
          ]
        : []),
    ]);
    return [record, !before];
  }

  /** Past `maxSessions`, deletes the least recently updated idle sessions (running ones stay). */
  async #evict(): Promise<void> {
    // The common case reads at most maxSessions + 1 members: under the bound, nothing to do.
    if ((await this.#state.members(this.#key('index'), this.#maxSessions + 1)).length <= this.#maxSessions) return;
    const ids = await this.#state.members(this.#key('index'));
    let excess = ids.length - this.#maxSessions;
    for (let i = ids.length - 1; i >= 0 && excess > 0; i--) {
      const record = await this.#read(ids[i]!);
      if (record?.status === 'running') continue;
      await this.#forget(ids[i]!);
      excess--;
    }
  }

  async #forget(sessionId: string): Promise<void> {
    await Promise.all([
      this.#state.unindex(this.#key('index'), sessionId),
      this.#state.delete(this.#key('record', sessionId)),
      this.#state.delete(this.#key('transcript', sessionId)),
      this.#state.delete(this.#key('count', sessionId)),
    ]);
  }

  async #read(sessionId: string): Promise<StoredRecord | undefined> {
    const text = await this.#state.get(this.#key('record', sessionId));
    return text === undefined ? undefined : parse<StoredRecord>(text);
  }

  async #withCount(record: StoredRecord): Promise<SessionRecord> {
    const counts = await this.#state.counters(this.#key('count', record.sessionId));
    return { ...record, messageCount: counts['messages'] ?? 0 };
  }

  #key(kind: 'record' | 'transcript' | 'count' | 'index', sessionId?: string): string {
    return sessionId === undefined ? `${this.#prefix}${kind}` : `${this.#prefix}${kind}:${sessionId}`;
  }
}

/** A value another process wrote: unreadable JSON counts as missing rather than failing every read. */
function parse<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

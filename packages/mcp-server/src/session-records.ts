/**
 * MCP HTTP session records in the shared state store: what another replica
 * needs to serve the next request of a session it has never seen — the
 * client's initialize request (replayed to rebuild the server side) and the
 * run session id (so loop detection and logs continue). One key per session,
 * with the idle timeout as its TTL, renewed by every request.
 */
import type { InitializeRequest } from '@modelcontextprotocol/server';
import { ToolSearchError } from '@tool-search/kernel';
import type { StateStore } from '@tool-search/state';
import { StateErrors } from '@tool-search/state';

export interface SessionRecord {
  /** The client's `initialize` params (protocolVersion, capabilities, clientInfo). */
  readonly initialize: InitializeRequest['params'];
  /** The run session id every run of this MCP session uses, on every replica. */
  readonly runSessionId: string;
  /** When the session was initialized (ms since epoch). */
  readonly created: number;
  /** The replica the client initialized on. */
  readonly replica: string;
  /** The client's last `logging/setLevel` (replayed after the initialize). */
  readonly loggingLevel?: string;
  /** The API key that opened the session (its id, never the key): only that key may use it. */
  readonly keyId?: string;
  /** The agent the session's runs act as (the key and `x-agent-id` at initialize decided it). */
  readonly agentId?: string;
}

export interface SessionRecords {
  /** Throws `STATE_UNAVAILABLE` when the store cannot answer (so does every method). */
  create(sessionId: string, record: SessionRecord): Promise<void>;
  /** Undefined when the session is unknown, expired, deleted or unreadable. */
  get(sessionId: string): Promise<SessionRecord | undefined>;
  /** Merges `patch` into the record; false when the record is gone. */
  update(sessionId: string, patch: Pick<SessionRecord, 'loggingLevel'>): Promise<boolean>;
  /** Renews the TTL; false when the record is gone. */
  touch(sessionId: string): Promise<boolean>;
  /** Returns whether the record existed. */
  delete(sessionId: string): Promise<boolean>;
}

/** The store did not answer (every `SessionRecords` method throws this when it cannot). */
export function isStateUnavailable(error: unknown): boolean {
  return ToolSearchError.isInstance(error) && error.code === StateErrors.STATE_UNAVAILABLE;
}

/** A session with no request for 24 h is forgotten even when the idle timeout is off: every key has a TTL. */
export const RECORD_TTL_WITHOUT_IDLE_MS = 24 * 60 * 60_000;

/** Session ids are visible ASCII (MCP spec); anything else, or longer, never reaches the store. */
const SESSION_ID = /^[\x21-\x7E]{1,128}$/;

export function isSessionId(value: string): boolean {
  return SESSION_ID.test(value);
}

export function sessionRecords(state: StateStore, ttlMs: number): SessionRecords {
  const key = (sessionId: string) => `mcp:session:${sessionId}`;
  return {
    async create(sessionId, record) {
      await state.set(key(sessionId), JSON.stringify(record), { ttlMs });
    },
    async get(sessionId) {
      const raw = await state.get(key(sessionId));
      return raw === undefined ? undefined : decode(raw);
    },
    async update(sessionId, patch) {
      const record = await this.get(sessionId);
      if (record) await state.set(key(sessionId), JSON.stringify({ ...record, ...patch }), { ttlMs });
      return record !== undefined;
    },
    touch: (sessionId) => state.touch(key(sessionId), ttlMs),
    delete: (sessionId) => state.delete(key(sessionId)),
  };
}

/** A record another version (or anyone with store access) wrote in another shape counts as no record: 404, initialize again. */
function decode(raw: string): SessionRecord | undefined {
  try {
    const value = JSON.parse(raw) as Partial<SessionRecord> | null;
    const init = value?.initialize;
    if (
      typeof value?.runSessionId !== 'string' ||
      typeof value.created !== 'number' ||
      typeof value.replica !== 'string'
    )
      return undefined;
    if (
      typeof init?.protocolVersion !== 'string' ||
      typeof init.capabilities !== 'object' ||
      typeof init.clientInfo?.name !== 'string'
    )
      return undefined;
    if (value.loggingLevel !== undefined && typeof value.loggingLevel !== 'string') return undefined;
    if (
      (value.keyId !== undefined && typeof value.keyId !== 'string') ||
      (value.agentId !== undefined && typeof value.agentId !== 'string')
    )
      return undefined;
    return value as SessionRecord;
  } catch {
    return undefined;
  }
}

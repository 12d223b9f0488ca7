/**
 * The MCP sessions one HTTP replica holds, each backed by a record in the
 * state store. A session this replica does not hold but the store does is
 * rebuilt here: a fresh server and transport under the stored session id,
 * initialized by replaying the stored initialize request (a plain web
 * `Request` into the SDK's web-standard transport), its runs under the stored
 * run session id. A local copy whose record is gone (a DELETE on another
 * replica, expiry) is closed. While the store is down, sessions held here
 * keep working; the others cannot be found.
 */
import { randomUUID } from 'node:crypto';
import type { InitializeRequest, JSONRPCMessage } from '@modelcontextprotocol/server';
import { ErrorCode, ToolSearchError } from '@tool-search/kernel';
import { RelayingTransport } from './relay.js';
import { createToolSearchMcpServer, type ToolSearchMcpOptions, type ToolSearchMcpServer } from './server.js';
import { isStateUnavailable, type SessionRecord, type SessionRecords } from './session-records.js';

export interface HttpSession {
  readonly id: string;
  readonly transport: RelayingTransport;
  readonly mcp: ToolSearchMcpServer;
  /** The id of the API key that opened it (undefined on a keyless server). */
  readonly keyId: string | undefined;
  /** When the client last sent a request here (ms since epoch). */
  seen: number;
}

/** Who opens a session: the key (by id) and the agent its runs act as. */
export interface SessionOwner {
  readonly keyId?: string;
  readonly agentId?: string;
}

/** `missing`: 404 (initialize again); `unavailable`: the store did not answer. */
export type FoundSession = HttpSession | 'missing' | 'unavailable';

export interface HttpSessionsOptions {
  readonly server: ToolSearchMcpOptions;
  readonly records: SessionRecords;
  readonly replica: string;
  /** This replica's MCP endpoint URL (the replayed requests' URL). */
  readonly endpoint: () => string;
  /** Sends a relayed message to every replica (the state store's pub/sub). */
  readonly publish: (message: string) => Promise<void>;
  /** Copies held here at once (default 1,000): past it the least recently used closes; its record stays, so its next request rebuilds it. */
  readonly maxHeld?: number;
}

export const DEFAULT_MAX_HELD_SESSIONS = 1000;

export interface HttpSessions {
  /** Sessions held here. */
  readonly size: number;
  /** Records and opens a session for an initialize request; throws `STATE_UNAVAILABLE` when it cannot be recorded. */
  open(initialize: InitializeRequest, owner?: SessionOwner): Promise<HttpSession>;
  /** Whether the key `keyId` may use the session: held here or recorded with that key (`missing`/`unavailable`: cannot tell). */
  usableBy(sessionId: string, keyId: string | undefined): Promise<boolean | 'missing' | 'unavailable'>;
  /** The session for a request: held here (its record renewed), rebuilt from its record, or why not. */
  find(sessionId: string): Promise<FoundSession>;
  holds(sessionId: string): boolean;
  /** Hands a client message this replica has no use for (relay.ts) to the replica that holds the session and waits for it. */
  relay(sessionId: string, message: unknown): Promise<'relayed' | 'missing' | 'unavailable'>;
  /** Shares a session setting the client sent here (`logging/setLevel`): in the record for rebuilds, and with the replicas holding the session. */
  share(session: HttpSession, message: unknown): Promise<void>;
  /** A relayed message from the store's channel: fed to the session's transport when it is for this replica. */
  deliver(raw: string): Promise<void>;
  /** Deletes the record (every replica's copy ends); throws `STATE_UNAVAILABLE`. `local`: the copy held here, to hand the DELETE to. */
  terminate(sessionId: string): Promise<{ readonly existed: boolean; readonly local?: HttpSession }>;
  /** Closes the copy held here and deletes the record: a session whose initialize was refused. */
  discard(sessionId: string): Promise<void>;
  /** Closes copies idle for `idleMs` (their records stay for other replicas) and copies whose record is gone. */
  sweep(idleMs: number): Promise<void>;
  /** Closes every copy held here; records stay (other replicas go on serving them). */
  close(): Promise<void>;
}

export function createHttpSessions(options: HttpSessionsOptions): HttpSessions {
  const { records } = options;
  const local = new Map<string, HttpSession>();
  const rebuilding = new Map<string, Promise<FoundSession>>();
  let closed = false;

  async function start(
    id: string,
    runSessionId: string,
    owner: SessionOwner,
    initialize?: InitializeRequest['params'],
    loggingLevel?: string,
  ): Promise<HttpSession> {
    const request = {
      ...options.server.request,
      sessionId: runSessionId,
      ...(owner.agentId !== undefined ? { agentId: owner.agentId } : {}),
    };
    const mcp = await createToolSearchMcpServer({ ...options.server, request });
    const transport = new RelayingTransport({ sessionIdGenerator: () => id }, options.replica, (outbound) =>
      options.publish(JSON.stringify({ session: id, outbound })),
    );
    transport.onclose = () => {
      if (local.get(id)?.transport === transport) local.delete(id);
      void mcp.close();
    };
    try {
      await mcp.server.connect(transport);
      if (initialize) await replayInitialize(transport, id, initialize, options.endpoint());
      if (loggingLevel) await replaySetting(transport, id, setLevel(loggingLevel), options.endpoint());
    } catch (error) {
      await transport.close().catch(() => undefined); // cleanup: the error thrown is what counts
      throw error;
    }
    // close() ran while this session was being built: nothing would ever close it.
    if (closed) {
      await transport.close().catch(() => undefined); // shutting down: the transport goes either way
      throw new ToolSearchError(ErrorCode.RUN_CLOSED, 'The MCP server is shutting down');
    }
    const session: HttpSession = { id, transport, mcp, keyId: owner.keyId, seen: Date.now() };
    local.set(id, session);
    await evictPastBound();
    return session;
  }

  /** Closes the least recently used copies past `maxHeld` (Map order: `find` moves a copy to the newest end). */
  async function evictPastBound(): Promise<void> {
    const max = options.maxHeld ?? DEFAULT_MAX_HELD_SESSIONS;
    const past = [...local.values()].slice(0, Math.max(0, local.size - max));
    await Promise.all(past.map(drop));
  }

  async function rebuild(id: string): Promise<FoundSession> {
    const record = await unlessUnavailable(() => records.get(id));
    if (record === UNAVAILABLE) return 'unavailable';
    if (!record) return 'missing';
    const session = await start(id, record.runSessionId, ownerOf(record), record.initialize, record.loggingLevel);
    await unlessUnavailable(() => records.touch(id));
    return session;
  }

  async function drop(session: HttpSession): Promise<void> {
    if (local.get(session.id) === session) local.delete(session.id);
    await session.transport.close().catch(() => undefined); // dropping the copy: a transport already closed is fine
    await session.mcp.close();
  }

  return {
    get size() {
      return local.size;
    },
    async open(initialize, owner = {}) {
      const id = randomUUID();
      const runSessionId = options.server.request?.sessionId ?? randomUUID();
      const record: SessionRecord = {
        initialize: initialize.params,
        runSessionId,
        created: Date.now(),
        replica: options.replica,
        ...ownerOf(owner),
      };
      await records.create(id, record);
      try {
        return await start(id, runSessionId, owner);
      } catch (error) {
        await records.delete(id).catch(() => undefined); // the record also expires with its TTL; the error thrown is what counts
        throw error;
      }
    },
    async find(id) {
      const held = local.get(id);
      if (held) {
        // An outage keeps a held session working; a record that is gone ends it here too.
        if ((await unlessUnavailable(() => records.touch(id))) === false) {
          await drop(held);
          return 'missing';
        }
        held.seen = Date.now();
        if (local.get(id) === held) {
          local.delete(id);
          local.set(id, held);
        }
        return held;
      }
      // Two requests of one session arriving together share one rebuild.
      let pending = rebuilding.get(id);
      if (!pending) {
        pending = rebuild(id).finally(() => rebuilding.delete(id));
        rebuilding.set(id, pending);
      }
      return pending;
    },
    async usableBy(id, keyId) {
      const held = local.get(id);
      if (held) return held.keyId === keyId;
      const record = await unlessUnavailable(() => records.get(id));
      if (record === UNAVAILABLE) return 'unavailable';
      return record ? record.keyId === keyId : 'missing';
    },
    holds: (id) => local.has(id),
    async relay(id, message) {
      // A relayed message is a request of the session too: it renews the record.
      const known = await unlessUnavailable(() => records.touch(id));
      if (known === UNAVAILABLE) return 'unavailable';
      if (!known) return 'missing';
      const sent = await unlessUnavailable(() => options.publish(JSON.stringify({ session: id, message })));
      return sent === UNAVAILABLE ? 'unavailable' : 'relayed';
    },
    async share(session, message) {
      const level = isSetLevel(message) ? message.params.level : undefined;
      if (!level) return;
      await unlessUnavailable(() => records.update(session.id, { loggingLevel: level }));
      await unlessUnavailable(() =>
        options.publish(JSON.stringify({ session: session.id, setting: level, from: options.replica })),
      );
    },
    async deliver(raw) {
      const {
        session: id,
        message,
        outbound,
        setting,
        from,
      } = JSON.parse(raw) as {
        session?: unknown;
        message?: unknown;
        outbound?: JSONRPCMessage;
        setting?: string;
        from?: string;
      };
      const held = typeof id === 'string' ? local.get(id) : undefined;
      if (held && outbound) return held.transport.sendRelayed(outbound);
      if (held && typeof setting === 'string' && from !== options.replica)
        return replaySetting(held.transport, held.id, setLevel(setting), options.endpoint());
      const routed = held?.transport.route(message);
      if (!held || routed?.to !== 'here') return;
      await (await post(held.transport, options.endpoint(), routed.message, { 'mcp-session-id': held.id })).text();
    },
    async terminate(id) {
      const existed = await records.delete(id);
      const held = local.get(id);
      if (held && !existed) await drop(held);
      return existed && held ? { existed, local: held } : { existed };
    },
    async discard(id) {
      const held = local.get(id);
      if (held) await drop(held);
      await records.delete(id).catch(() => undefined); // the record also expires with its TTL
    },
    async sweep(idleMs) {
      const now = Date.now();
      for (const session of [...local.values()]) {
        const gone =
          now - session.seen >= idleMs || (await unlessUnavailable(() => records.get(session.id))) === undefined;
        if (gone) await drop(session);
      }
    },
    async close() {
      closed = true;
      await Promise.all([...local.values()].map(drop));
    },
  };
}

const UNAVAILABLE = Symbol('unavailable');

function ownerOf(from: SessionOwner): SessionOwner {
  return {
    ...(from.keyId !== undefined ? { keyId: from.keyId } : {}),
    ...(from.agentId !== undefined ? { agentId: from.agentId } : {}),
  };
}

/** The store's answer, or UNAVAILABLE when it is down (`STATE_UNAVAILABLE`); other errors are bugs and propagate. */
async function unlessUnavailable<T>(ask: () => Promise<T>): Promise<T | typeof UNAVAILABLE> {
  try {
    return await ask();
  } catch (error) {
    if (isStateUnavailable(error)) return UNAVAILABLE;
    throw error;
  }
}

const REPLAY_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

/**
 * Initializes a fresh transport and server as the client once did, through
 * the transport's public `handleRequest`: the server learns the client's
 * capabilities and protocol version, the transport takes the stored session id.
 */
async function replayInitialize(
  transport: RelayingTransport,
  id: string,
  params: InitializeRequest['params'],
  endpoint: string,
): Promise<void> {
  const answer = await post(transport, endpoint, { jsonrpc: '2.0', id: 0, method: 'initialize', params });
  const body = await answer.text();
  if (answer.status !== 200 || transport.sessionId !== id || !body.includes('"result"')) {
    throw new ToolSearchError(
      ErrorCode.INTERNAL_ERROR,
      `Could not rebuild MCP session ${id} from its record (HTTP ${answer.status}): ${body.slice(0, 200)}`,
    );
  }
  const initialized = await post(
    transport,
    endpoint,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { 'mcp-session-id': id },
  );
  if (initialized.status !== 202)
    throw new ToolSearchError(
      ErrorCode.INTERNAL_ERROR,
      `Could not rebuild MCP session ${id}: initialized got HTTP ${initialized.status}`,
    );
}

function setLevel(level: string) {
  return { jsonrpc: '2.0', id: `ts:setting:${randomUUID()}`, method: 'logging/setLevel', params: { level } };
}

function isSetLevel(message: unknown): message is { method: 'logging/setLevel'; params: { level: string } } {
  const candidate = message as { method?: unknown; params?: { level?: unknown } } | null;
  return candidate?.method === 'logging/setLevel' && typeof candidate.params?.level === 'string';
}

/** A setting request the client made elsewhere, applied here too (its answer went to the client from there). */
async function replaySetting(
  transport: RelayingTransport,
  id: string,
  message: object,
  endpoint: string,
): Promise<void> {
  await (await post(transport, endpoint, message, { 'mcp-session-id': id })).text();
}

/** A client message fed to a transport as the POST it would have come in. */
function post(
  transport: RelayingTransport,
  endpoint: string,
  message: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return transport.handleRequest(
    new Request(endpoint, {
      method: 'POST',
      headers: { ...REPLAY_HEADERS, ...headers },
      body: JSON.stringify(message),
    }),
  );
}

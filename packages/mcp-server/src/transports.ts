/**
 * Transports for the Tool Search MCP server: stdio (default) and Streamable
 * HTTP. HTTP binds to loopback unless API keys are given; on loopback
 * without keys, requests must name a loopback Host (and Origin, when a
 * browser sends one), so a web page cannot reach it by DNS rebinding. With
 * keys, the key that opened a session is the only one that may use it, and
 * it decides the session's agent (`x-agent-id` at initialize picks among
 * the agents it allows).
 * HTTP sessions are recorded in a state store, so replicas sharing one
 * (Redis) serve one session alternately (http-sessions.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import { isInitializeRequest, isLegacyRequest, type Server as ModernServer } from '@modelcontextprotocol/server';
import {
  serveStdio as serveModernStdioEntry,
  StdioServerTransport as ModernStdioTransport,
} from '@modelcontextprotocol/server/stdio';
import {
  AuthErrors,
  assertSameLocalUser,
  authStatus,
  createApiKeys,
  type ApiKeys,
  type Principal,
} from '@tool-search/auth';
import { ErrorCode, ToolSearchError, errorMessage, silentLogger } from '@tool-search/kernel';
import { MemoryStateStore, stateHealth, type StateStore, StateErrors } from '@tool-search/state';
import { createHttpSessions, type HttpSession } from './http-sessions.js';
import { createModernHandler, createModernServers, type ModernCaller } from './modern.js';
import { createParkedCalls } from './parked-calls.js';
import { firstLine, isModernOpening } from './stdio-opening.js';
import { RELAY_CHANNEL, RelayingTransport } from './relay.js';
import { BodyError, fromLoopback, LOOPBACK, readJson, reply } from './http-request.js';
import { createToolSearchMcpServer, type ToolSearchMcpOptions, type ToolSearchMcpServer } from './server.js';
import { isSessionId, isStateUnavailable, RECORD_TTL_WITHOUT_IDLE_MS, sessionRecords } from './session-records.js';

export interface StdioServeOptions extends ToolSearchMcpOptions {
  /** Defaults to `process.stdin` / `process.stdout`. */
  readonly stdin?: Readable;
  readonly stdout?: Writable;
}

export interface StdioMcpHandle extends ToolSearchMcpServer {
  /** Settles when the client goes away (stdin ends) or the transport closes. */
  readonly done: Promise<void>;
}

export async function serveStdio(options: StdioServeOptions): Promise<StdioMcpHandle> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const mcp = await createToolSearchMcpServer(options);
  // The client's first message picks the era: `initialize` (or anything without a 2026-07-28 envelope) is a
  // 2025-era session on `mcp.server`; a `server/discover` or an enveloped request, a 2026-07-28 connection.
  let modern: { close(): Promise<void> } | undefined;
  let closed = false;
  // Not awaited: the handle is there before the client says anything.
  const done = firstLine(stdin).then(
    (opening) =>
      new Promise<void>((resolve) => {
        if (closed) return resolve();
        opening.input.once('end', () => resolve());
        opening.input.once('close', () => resolve());
        if (isModernOpening(opening.line)) {
          modern = serveModernStdio(options, opening.input, stdout, resolve);
          return;
        }
        const transport = new ModernStdioTransport(opening.input, stdout);
        transport.onclose = () => resolve();
        void mcp.server.connect(transport);
      }),
  );
  return {
    ...mcp,
    done,
    async close() {
      closed = true;
      await modern?.close();
      await mcp.close();
    },
  };
}

/** A 2026-07-28 stdio connection on the v2 SDK's `serveStdio`: one v2 `Server` for the connection, list changes on its listen streams. */
function serveModernStdio(
  options: StdioServeOptions,
  input: Readable,
  output: Writable,
  ended: () => void,
): { close(): Promise<void> } {
  const core = createModernServers(options);
  const built = new Set<ModernServer>();
  const transport = new ModernStdioTransport(input, output);
  const handle = serveModernStdioEntry(
    async (context) => {
      const server = await core.build(context);
      built.add(server);
      return server;
    },
    { legacy: 'reject', transport, onerror: (error) => options.logger?.debug?.(`2026-07-28 stdio: ${error.message}`) },
  );
  const unsubscribe = core.onChange((change) => {
    for (const server of built) {
      const sent =
        change.kind === 'resource'
          ? server.sendResourceUpdated({ uri: change.uri })
          : change.kind === 'tools'
            ? server.sendToolListChanged()
            : change.kind === 'resources'
              ? server.sendResourceListChanged()
              : server.sendPromptListChanged();
      void Promise.resolve(sent).catch(() => undefined); // a notification to a client that is gone
    }
  });
  const previous = transport.onclose;
  transport.onclose = () => {
    previous?.();
    ended();
  };
  return {
    async close() {
      unsubscribe();
      await handle.close().catch(() => undefined); // closing: the core below is closed either way
      await core.close();
    },
  };
}

export interface HttpServeOptions extends ToolSearchMcpOptions {
  /** Default 0: any free port (read it from `url`). */
  readonly port?: number;
  /** Default 127.0.0.1. Anything but loopback needs `auth` keys (or `token`). */
  readonly host?: string;
  /** API keys (`createApiKeys(config.auth)`): every request carries one; a session is bound to the key that opened it. */
  readonly auth?: ApiKeys;
  /** A legacy single bearer token (`Authorization: Bearer <token>`): one more key, allowed every agent. */
  readonly token?: string;
  /** Largest request body accepted (default 4 MiB). */
  readonly maxBodyBytes?: number;
  /** A session without requests for this long is closed (its runs too); its client gets 404 and initializes again. Default 30 min; 0 = never. */
  readonly sessionIdleMs?: number;
  /** MCP sessions held in this process at once (default 1,000): past it the least recently used is closed here; its record stays, so its next request rebuilds it. */
  readonly maxHeldSessions?: number;
  /** Where session records live: the same Redis-backed store on every replica lets any of them serve a session. Default: in this process; not closed by the server. */
  readonly state?: StateStore;
  /** Extra GET routes (the front end's `/metrics`), tried after the key and loopback checks; `true` when answered. */
  readonly routes?: readonly ((req: IncomingMessage, res: ServerResponse) => Promise<boolean>)[];
}

export interface HttpMcpHandle {
  /** The MCP endpoint, e.g. `http://127.0.0.1:5123/mcp`. */
  readonly url: string;
  /** MCP sessions held by this replica. */
  readonly sessions: number;
  /** Closes every session held here and the listener (not the kernel, not the state store; records stay for other replicas). */
  close(): Promise<void>;
}

const MCP_PATH = '/mcp';
const HEALTH_PATH = '/health';
const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;

/** One MCP server session per client session (`mcp-session-id`), each with its own runs. */
export async function serveHttp(options: HttpServeOptions): Promise<HttpMcpHandle> {
  const host = options.host ?? '127.0.0.1';
  const configured = options.auth ?? createApiKeys(undefined);
  const keys = options.token ? configured.withPlainKey(options.token, 'token') : configured;
  if (!LOOPBACK.has(host) && keys.size === 0) {
    throw new ToolSearchError(
      ErrorCode.OPTIONS_INVALID,
      `Refusing to serve MCP on ${host} without API keys: add auth.keys to the config (\`tool-search auth hash-key\` makes a key and its hash), or bind to 127.0.0.1`,
      { details: { host } },
    );
  }
  // Sessions come later than the first run (the CLI's warm-up): downstream servers must connect able to forward requests.
  options.downstream?.enableForwarding();
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  const ownState = options.state ? undefined : new MemoryStateStore();
  const state = options.state ?? ownState!;
  let url = '';
  const sessions = createHttpSessions({
    server: options,
    records: sessionRecords(state, idleMs > 0 ? idleMs : RECORD_TTL_WITHOUT_IDLE_MS),
    replica: state.replicaId,
    endpoint: () => url,
    publish: (message) => state.publish(RELAY_CHANNEL, message),
    ...(options.maxHeldSessions !== undefined ? { maxHeld: options.maxHeldSessions } : {}),
  });
  // 2026-07-28 requests: stateless, any replica answers them (modern.ts); a retry of a call parked on another replica is relayed there.
  const parked = createParkedCalls({ state, logger: options.logger ?? silentLogger });
  const modern = createModernHandler({ ...options, maxBodyBytes, parked });
  const unsubscribe = await state.subscribe(
    RELAY_CHANNEL,
    (raw) =>
      void sessions.deliver(raw).catch((error: unknown) =>
        (options.logger ?? silentLogger).warn(`a relayed MCP message was not delivered: ${errorMessage(error)}`, {
          cause: error,
        }),
      ),
  );
  await modern.ready;
  // Node request → web `Request` → the session's transport, the way the SDK's own Node transport does it.
  const bound = new WeakMap<IncomingMessage, { readonly session: HttpSession; readonly body: unknown }>();
  const toTransport = getRequestListener(
    (request, { incoming }) => {
      const target = bound.get(incoming as IncomingMessage)!;
      return target.session.transport.handleRequest(request, { parsedBody: target.body });
    },
    { overrideGlobalObjects: false },
  );
  const dispatch = (session: HttpSession, req: IncomingMessage, res: ServerResponse, body: unknown) => {
    bound.set(req, { session, body });
    // A GET is the client's standalone stream for as long as it is served: messages outside calls go out on it.
    return req.method === 'GET' ? session.transport.streaming(() => toTransport(req, res)) : toTransport(req, res);
  };
  const modernBound = new WeakMap<IncomingMessage, { readonly body: unknown; readonly caller: ModernCaller }>();
  const toModern = getRequestListener(
    (request, { incoming }) => {
      const target = modernBound.get(incoming as IncomingMessage)!;
      return modern.fetch(request, target.body, target.caller);
    },
    { overrideGlobalObjects: false },
  );
  let closing = false;

  /** A balancer's health check: which replica answered, whether its state store does (503 when not, or when closing). */
  async function health(res: ServerResponse): Promise<void> {
    const { replica, state: store } = await stateHealth(state);
    const ok = !closing && store.ok;
    const text = JSON.stringify({ replica, sessions: sessions.size, state: { ...store, ok } });
    res
      .writeHead(ok ? 200 : 503, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
      .end(text);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let principal: Principal | undefined;
    try {
      principal = keys.authenticate(req.headers);
    } catch (error) {
      return refuse(res, error);
    }
    if (keys.size === 0 && !fromLoopback(req)) return reply(res, 403, 'Forbidden: Host and Origin must be loopback');
    if (keys.size === 0) {
      // Keyless serves this machine's own user only: another local user needs a key (auth.keys).
      const refused = await assertSameLocalUser(req.socket).then(
        () => undefined,
        (error: unknown) => error,
      );
      if (refused !== undefined) return refuse(res, refused);
    }
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === HEALTH_PATH && req.method === 'GET') return health(res);
    for (const route of options.routes ?? []) if (await route(req, res)) return;
    if (path !== MCP_PATH) return reply(res, 404, `Not found: the MCP endpoint is ${MCP_PATH}`);
    if (closing) return reply(res, 503, 'Shutting down');

    const body = req.method === 'POST' ? await readJson(req, maxBodyBytes) : undefined;
    if (body instanceof BodyError) return reply(res, body.status, body.message, body.rpcCode);
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      // 404 tells a client its session is gone and it should initialize again (MCP spec).
      if (!isSessionId(sessionId)) return reply(res, 404, 'Session not found; initialize a new session');
      // A session id is no bearer token: only the key that opened the session may use it (keyless: no owner to check).
      if (principal) {
        const usable = await sessions.usableBy(sessionId, principal.keyId);
        if (usable === 'unavailable') return unavailable(res);
        if (usable === false)
          return reply(res, 403, 'Forbidden: this MCP session was opened with another API key', -32000, {
            code: AuthErrors.AUTH_FORBIDDEN,
          });
      }
      if (req.method === 'DELETE') return terminate(sessionId, req, res);
      // An answer or a cancel for a session not held here is for the replica that holds it: no rebuild for it.
      if (RelayingTransport.relayable(body) && !sessions.holds(sessionId)) return relay(sessionId, body, res);
      const found = await sessions.find(sessionId);
      if (found === 'missing') return reply(res, 404, 'Session not found; initialize a new session');
      if (found === 'unavailable') return unavailable(res);
      if (req.method !== 'POST' || Array.isArray(body)) return dispatch(found, req, res, body);
      const routed = found.transport.route(body);
      if (routed.to === 'elsewhere') return relay(sessionId, body, res);
      await sessions.share(found, routed.message);
      return dispatch(found, req, res, routed.message);
    }
    // The key decides the agent; x-agent-id may pick among the agents it allows. Keyless, the server's own request.agentId holds.
    let agentId: string | undefined;
    try {
      agentId = principal ? keys.agentFor(principal, headerOf(req, 'x-agent-id'), options.request?.agentId) : undefined;
    } catch (error) {
      return refuse(res, error);
    }
    // Without a session: a 2026-07-28 request (its `_meta` envelope says so) is answered statelessly, on any replica.
    if (
      req.method === 'POST' &&
      !(await isLegacyRequest(classifiable(req), body, { maxRequestBodySize: maxBodyBytes }))
    ) {
      modernBound.set(req, {
        body,
        caller: { ...(principal ? { keyId: principal.keyId } : {}), ...(agentId !== undefined ? { agentId } : {}) },
      });
      return toModern(req, res);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body))
      return reply(res, 400, 'Bad request: no mcp-session-id; send initialize first');

    const owner = { ...(principal ? { keyId: principal.keyId } : {}), ...(agentId !== undefined ? { agentId } : {}) };
    const session = await sessions
      .open(body, owner)
      .catch((error: unknown) => (isStateUnavailable(error) ? undefined : Promise.reject(error)));
    if (!session) return unavailable(res);
    await dispatch(session, req, res, body);
    // An initialize the transport refused (Accept, Content-Type) never opens a session: do not keep its runs or its record.
    if (session.transport.sessionId !== session.id) await sessions.discard(session.id);
  }

  async function terminate(sessionId: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const ended = await sessions
      .terminate(sessionId)
      .catch((error: unknown) => (isStateUnavailable(error) ? undefined : Promise.reject(error)));
    if (!ended) return unavailable(res);
    // The copy held here answers and closes itself; elsewhere the record is all there is.
    if (ended.local) return dispatch(ended.local, req, res, undefined);
    if (!ended.existed) return reply(res, 404, 'Session not found; initialize a new session');
    res.writeHead(200).end();
  }

  async function relay(sessionId: string, message: unknown, res: ServerResponse): Promise<void> {
    const outcome = await sessions.relay(sessionId, message);
    if (outcome === 'missing') return reply(res, 404, 'Session not found; initialize a new session');
    if (outcome === 'unavailable') return unavailable(res);
    res.writeHead(202).end();
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) reply(res, 500, errorMessage(error));
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => {
      http.off('error', reject);
      resolve();
    });
  }).catch(async (error: unknown) => {
    await unsubscribe().catch(() => undefined); // cleanup: the listen error below is what counts
    await modern.close();
    await parked.close();
    await ownState?.close();
    throw error;
  });
  const port = (http.address() as AddressInfo).port;
  url = `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}${MCP_PATH}`;
  // Clients that vanish without a DELETE would keep their runs (and refresh timers) forever.
  const sweep = () => void sessions.sweep(idleMs).catch(() => undefined); // a store outage is retried at the next sweep
  const sweeper = idleMs > 0 ? setInterval(sweep, Math.min(idleMs, 60_000)) : undefined;
  sweeper?.unref();
  return {
    url,
    get sessions() {
      return sessions.size;
    },
    async close() {
      closing = true;
      if (sweeper) clearInterval(sweeper);
      await unsubscribe().catch(() => undefined); // closing: a relay subscription already gone is fine
      await Promise.all([sessions.close(), modern.close()]);
      await parked.close();
      await ownState?.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** 401 (no or wrong key) or 403 (agent not allowed) with the code in `error.data.code`; any other error propagates. */
function refuse(res: ServerResponse, error: unknown): void {
  const status = authStatus(error);
  if (!status || !ToolSearchError.isInstance(error)) throw error;
  reply(res, status, error.message, -32000, { code: error.code });
}

/** The request as the SDK's classifier reads it: method and headers (the body is passed parsed). */
function classifiable(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  return new Request(new URL(req.url ?? '/', 'http://localhost'), { method: req.method ?? 'POST', headers });
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' && value ? value : undefined;
}

/** The store that knows the sessions did not answer: sessions held here go on; this request can try again later. */
function unavailable(res: ServerResponse): void {
  reply(res, 503, 'Session store unavailable (STATE_UNAVAILABLE); retry shortly', -32000, {
    code: StateErrors.STATE_UNAVAILABLE,
  });
}

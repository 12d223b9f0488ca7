/**
 * Transports for the Tool Search MCP server: stdio (default) and Streamable
 * HTTP. HTTP binds to loopback unless a bearer token is given; on loopback
 * without a token, requests must name a loopback Host (and Origin, when a
 * browser sends one), so a web page cannot reach it by DNS rebinding.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, ToolSearchError } from '@tool-search/kernel';
import { createToolSearchMcpServer, type ToolSearchMcpOptions, type ToolSearchMcpServer } from './server.js';

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
  const mcp = await createToolSearchMcpServer(options);
  const transport = new StdioServerTransport(stdin, options.stdout ?? process.stdout);
  const done = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    stdin.once('end', () => resolve());
    stdin.once('close', () => resolve());
  });
  await mcp.server.connect(transport);
  return { ...mcp, done };
}

export interface HttpServeOptions extends ToolSearchMcpOptions {
  /** Default 0: any free port (read it from `url`). */
  readonly port?: number;
  /** Default 127.0.0.1. Anything but loopback needs `token`. */
  readonly host?: string;
  /** Bearer token every request must carry (`Authorization: Bearer <token>`). */
  readonly token?: string;
  /** Largest request body accepted (default 4 MiB). */
  readonly maxBodyBytes?: number;
  /** A session without requests for this long is closed (its runs too); its client gets 404 and initializes again. Default 30 min; 0 = never. */
  readonly sessionIdleMs?: number;
}

export interface HttpMcpHandle {
  /** The MCP endpoint, e.g. `http://127.0.0.1:5123/mcp`. */
  readonly url: string;
  /** Open MCP sessions. */
  readonly sessions: number;
  /** Closes every session and the listener (not the kernel). */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '[::1]', 'localhost']);
const MCP_PATH = '/mcp';

/** One MCP server session per client session (`mcp-session-id`), each with its own runs. */
export async function serveHttp(options: HttpServeOptions): Promise<HttpMcpHandle> {
  const host = options.host ?? '127.0.0.1';
  const loopback = LOOPBACK.has(host);
  if (!loopback && !options.token) {
    throw new ToolSearchError(ErrorCode.OPTIONS_INVALID, `Refusing to serve MCP on ${host} without a bearer token; pass a token or bind to 127.0.0.1`, {
      details: { host },
    });
  }
  // Sessions come later than the first run (the CLI's warm-up): downstream servers must connect able to forward requests.
  options.downstream?.enableForwarding();
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const sessions = new Map<string, Session>();
  const pending = new Set<ToolSearchMcpServer>();
  let closing = false;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (options.token && !authorized(req.headers.authorization, options.token)) return reply(res, 401, 'Unauthorized: send Authorization: Bearer <token>');
    if (!options.token && !fromLoopback(req)) return reply(res, 403, 'Forbidden: Host and Origin must be loopback');
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== MCP_PATH) return reply(res, 404, `Not found: the MCP endpoint is ${MCP_PATH}`);
    if (closing) return reply(res, 503, 'Shutting down');

    const body = req.method === 'POST' ? await readJson(req, maxBodyBytes) : undefined;
    if (body instanceof BodyError) return reply(res, body.status, body.message, body.rpcCode);
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const existing = sessions.get(sessionId);
      // 404 tells a client its session is gone and it should initialize again (MCP spec).
      if (!existing) return reply(res, 404, 'Session not found; initialize a new session');
      existing.seen = Date.now();
      return existing.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) return reply(res, 400, 'Bad request: no mcp-session-id; send initialize first');

    const mcp = await createToolSearchMcpServer(options);
    pending.add(mcp);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, mcp, seen: Date.now() });
        pending.delete(mcp);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      pending.delete(mcp);
      void mcp.close();
    };
    await mcp.server.connect(transport);
    await transport.handleRequest(req, res, body);
    // An initialize the transport refused never opens a session: do not keep its runs.
    if (!transport.sessionId || !sessions.has(transport.sessionId)) {
      pending.delete(mcp);
      await mcp.close();
    }
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) reply(res, 500, error instanceof Error ? error.message : String(error));
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  // Clients that vanish without a DELETE would keep their runs (and refresh timers) forever.
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  const sweeper = idleMs > 0 ? setInterval(() => void closeIdle(sessions, idleMs), Math.min(idleMs, 60_000)) : undefined;
  sweeper?.unref();
  return {
    url: `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}${MCP_PATH}`,
    get sessions() {
      return sessions.size;
    },
    async close() {
      closing = true;
      if (sweeper) clearInterval(sweeper);
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all([...open.map(({ transport }) => transport.close().catch(() => undefined)), ...open.map(({ mcp }) => mcp.close()), ...[...pending].map((mcp) => mcp.close())]);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  readonly mcp: ToolSearchMcpServer;
  /** When the client last sent a request (ms since epoch). */
  seen: number;
}

async function closeIdle(sessions: Map<string, Session>, idleMs: number): Promise<void> {
  const now = Date.now();
  for (const [id, session] of sessions) {
    if (now - session.seen < idleMs) continue;
    sessions.delete(id);
    await session.transport.close().catch(() => undefined);
    await session.mcp.close();
  }
}

function reply(res: ServerResponse, status: number, message: string, rpcCode = -32000): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: rpcCode, message }, id: null }));
}

function authorized(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** DNS-rebinding guard: the Host the browser asked for (and its Origin, if any) must be loopback names. */
function fromLoopback(req: IncomingMessage): boolean {
  const hostname = (value: string) => {
    try {
      return new URL(value.includes('://') ? value : `http://${value}`).hostname;
    } catch {
      return '';
    }
  };
  if (!req.headers.host || !LOOPBACK.has(hostname(req.headers.host))) return false;
  const origin = req.headers.origin;
  return origin === undefined || LOOPBACK.has(hostname(origin));
}

class BodyError {
  constructor(
    readonly status: number,
    readonly message: string,
    readonly rpcCode: number,
  ) {}
}

async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return new BodyError(413, `Request body larger than ${limit} bytes`, -32600);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return new BodyError(400, 'Parse error: the body is not JSON', -32700);
  }
}

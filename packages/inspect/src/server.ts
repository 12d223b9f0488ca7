/**
 * `startInspectServer`: the page's assets and its JSON API over node:http.
 * Loopback by default (then a request needs a loopback Host and, if it has
 * one, a loopback Origin: a page on another site reaches it neither by DNS
 * rebinding nor cross-site, @tool-search/auth's rule); bound anywhere else it
 * requires API keys, sent as `Authorization: Bearer <key>` or, for a
 * browser, once as `/?key=<key>`, which sets an HttpOnly cookie.
 */
import {
  assertLoopbackRequest,
  assertSameLocalUser,
  authStatus,
  isLoopbackHost,
  type ApiKeys,
  type Principal,
} from '@tool-search/auth';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { timingSafeEqual, createHash } from 'node:crypto';
import { ToolSearchError, errorMessage } from '@tool-search/kernel';
import { createInspectData, type InspectDataOptions } from './data.js';
import { InspectErrors } from './errors.js';
import { listSessions, readSession, type SessionSources } from './sessions.js';
import type { InspectRequest, LiveServer, LiveView } from './types.js';

export interface InspectLive {
  /** Each MCP server's state now. */
  servers(): readonly LiveServer[];
  /** Calls `listener` when a server's tool list changed; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
}

export interface InspectServerOptions extends InspectDataOptions {
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /** Default 0 (any free port). */
  readonly port?: number;
  /** Plain keys (a legacy `gateway.auth.token`), allowed every agent. */
  readonly apiKeys?: readonly string[];
  /** The front ends' API keys (`auth.keys`): a key decides which agents the page may open. Keys of either kind are required when `host` is not loopback. */
  readonly auth?: ApiKeys;
  readonly sessions?: SessionSources;
  readonly live?: InspectLive;
  /** The run the page opens on (`--agent`, `--provider`, `--model`). */
  readonly defaults?: InspectRequest;
  /** Folder of the built page; default the package's `assets/`. */
  readonly assetsDir?: string;
}

export interface InspectServer {
  /** `http://host:port/`, with the query the defaults select. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export const DEFAULT_ASSETS_DIR = fileURLToPath(new URL('../assets/', import.meta.url));
const COOKIE = 'tool_search_inspect';
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

export async function startInspectServer(options: InspectServerOptions): Promise<InspectServer> {
  const host = options.host ?? '127.0.0.1';
  const keys = (options.apiKeys ?? []).filter((key) => key.length > 0);
  const apiKeys = options.auth !== undefined && options.auth.size > 0 ? options.auth : undefined;
  const keyed = keys.length > 0 || apiKeys !== undefined;
  if (!isLoopback(host) && !keyed) {
    throw new ToolSearchError(
      InspectErrors.INSPECT_AUTH_REQUIRED,
      `inspect would listen on ${host} without an API key; set auth.keys or gateway.auth.token (or bind 127.0.0.1)`,
      { details: { host } },
    );
  }
  const assetsDir = options.assetsDir ?? DEFAULT_ASSETS_DIR;
  if (!existsSync(join(assetsDir, 'index.html'))) {
    throw new ToolSearchError(
      InspectErrors.INSPECT_ASSETS_MISSING,
      `the page is not built: ${join(assetsDir, 'index.html')} is missing`,
      { details: { assetsDir } },
    );
  }
  const data = createInspectData(options);
  const sessions = options.sessions ?? {};
  const events = new Set<ServerResponse>();
  let version = 0;
  const unsubscribe = options.live?.onChange(() => {
    version++;
    for (const response of events) response.write(`event: tools-changed\ndata: ${version}\n\n`);
  });

  const api: Record<string, (url: URL, request: InspectRequest) => Promise<unknown> | unknown> = {
    '/api/meta': () => ({
      ...data.meta({
        sessions: { ...(sessions.dir !== undefined ? { dir: sessions.dir } : {}), store: sessions.store !== undefined },
      }),
      defaults: options.defaults ?? {},
    }),
    '/api/catalog': (_url, request) => data.catalog(request),
    '/api/tool': (url, request) => data.tool(request, required(url, 'id')),
    '/api/search': (url, request) => data.search(request, required(url, 'q'), limitOf(url)),
    '/api/exposure': (_url, request) => data.exposure(request),
    '/api/sessions': () => listSessions(sessions).then((list) => ({ sessions: list })),
    '/api/session': (url) =>
      readSession(sessions, required(url, 'id'), url.searchParams.get('origin') === 'store' ? 'store' : 'log'),
    '/api/live': (): LiveView => ({ servers: options.live?.servers() ?? [], version }),
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => sendError(res, error));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://inspect.invalid');
    if (isLoopback(host)) assertLoopbackRequest(req.headers, req.url); // AUTH_NOT_LOOPBACK: 403
    if (!keyed) await assertSameLocalUser(req.socket); // AUTH_OTHER_USER: 403, another user of this machine
    let principal: Principal | undefined;
    if (keyed) {
      const offered = url.searchParams.get('key');
      if (offered !== null && url.pathname === '/' && admit(offered) !== undefined) {
        url.searchParams.delete('key');
        res
          .writeHead(303, {
            location: `/${url.search}`,
            'set-cookie': `${COOKIE}=${encodeURIComponent(offered)}; HttpOnly; SameSite=Strict; Path=/`,
          })
          .end();
        return;
      }
      const admitted = admit(presentedKey(req));
      if (admitted === undefined) {
        throw new ToolSearchError(
          InspectErrors.INSPECT_UNAUTHORIZED,
          'this inspect page needs an API key: open it as /?key=<key> or send Authorization: Bearer <key>',
        );
      }
      principal = admitted ?? undefined;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res
        .writeHead(405, { allow: 'GET, HEAD', 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: InspectErrors.INSPECT_INPUT_INVALID, message: 'only GET' } }));
      return;
    }
    if (url.pathname === '/api/events') return openEvents(res);
    const route = api[url.pathname];
    if (route) {
      const body = JSON.stringify(await route(url, scoped(requestOf(url), principal)));
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(body);
      return;
    }
    if (url.pathname.startsWith('/api/'))
      throw new ToolSearchError(InspectErrors.INSPECT_NOT_FOUND, `no API route ${url.pathname}`);
    await sendAsset(res, assetsDir, url.pathname);
  }

  /** The key's principal (`null`: a plain key, any agent), or undefined when the key is not accepted. */
  function admit(offered: string | null): Principal | null | undefined {
    if (offered === null) return undefined;
    if (matches(keys, offered)) return null;
    if (!apiKeys) return undefined;
    try {
      return apiKeys.authenticate({ authorization: `Bearer ${offered}` }) ?? null;
    } catch {
      return undefined;
    }
  }

  /** A keyed page opens only the agents its key allows (AUTH_FORBIDDEN otherwise), as the gateway does. */
  function scoped(request: InspectRequest, who: Principal | undefined): InspectRequest {
    if (!who || !apiKeys) return request;
    const agentId = apiKeys.agentFor(who, request.agentId, options.defaults?.agentId);
    return { ...request, ...(agentId !== undefined ? { agentId } : {}) };
  }

  function openEvents(res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write(`event: hello\ndata: ${version}\n\n`);
    events.add(res);
    res.on('close', () => events.delete(res));
  }

  await listen(server, options.port ?? 0, host);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const shown = isIP(host) === 6 ? `[${host}]` : host;
  const query = new URLSearchParams(
    Object.entries(options.defaults ?? {})
      .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
      .map(([k, v]): [string, string] => [k === 'agentId' ? 'agent' : k, v]),
  );
  return {
    url: `http://${shown}:${port}/${query.size ? `?${query}` : ''}`,
    port,
    async close() {
      unsubscribe?.();
      for (const response of events) response.end();
      events.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `?agent=&provider=&model=`: the run the page looks at. */
function requestOf(url: URL): InspectRequest {
  const pick = (name: string) => {
    const value = url.searchParams.get(name);
    if (value === null || value === '') return undefined;
    if (value.length > 200)
      throw new ToolSearchError(InspectErrors.INSPECT_INPUT_INVALID, `${name} is longer than 200 characters`, {
        details: { parameter: name },
      });
    return value;
  };
  const agentId = pick('agent');
  const provider = pick('provider');
  const model = pick('model');
  return {
    ...(agentId !== undefined ? { agentId } : {}),
    ...(provider !== undefined ? { provider } : {}),
    ...(model !== undefined ? { model } : {}),
  };
}

function required(url: URL, name: string): string {
  const value = url.searchParams.get(name);
  if (value === null || value.trim() === '')
    throw new ToolSearchError(InspectErrors.INSPECT_INPUT_INVALID, `the ${name} parameter is required`, {
      details: { parameter: name },
    });
  if (value.length > 2000)
    throw new ToolSearchError(InspectErrors.INSPECT_INPUT_INVALID, `${name} is longer than 2000 characters`, {
      details: { parameter: name },
    });
  return value;
}

function limitOf(url: URL): number | undefined {
  const raw = url.searchParams.get('limit');
  if (raw === null || raw === '') return undefined;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1)
    throw new ToolSearchError(InspectErrors.INSPECT_INPUT_INVALID, 'limit must be a positive integer', {
      details: { parameter: 'limit' },
    });
  return limit;
}

async function sendAsset(res: ServerResponse, dir: string, pathname: string): Promise<void> {
  const relative = pathname === '/' ? 'index.html' : decodeURIComponent(pathname).replace(/^\/+/, '');
  const file = normalize(join(dir, relative));
  const type = TYPES[extname(file)];
  if (!file.startsWith(normalize(dir.endsWith(sep) ? dir : dir + sep)) || !type || !existsSync(file)) {
    throw new ToolSearchError(InspectErrors.INSPECT_NOT_FOUND, `no page asset ${pathname}`);
  }
  res.writeHead(200, {
    'content-type': type,
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    'content-security-policy':
      "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'",
  });
  res.end(await readFile(file));
}

const STATUS: Record<string, number> = {
  [InspectErrors.INSPECT_UNAUTHORIZED]: 401,
  [InspectErrors.INSPECT_NOT_FOUND]: 404,
  [InspectErrors.INSPECT_INPUT_INVALID]: 400,
};

/** 401/404/400 for inspect's codes, 403 for `AUTH_FORBIDDEN` and `AUTH_NOT_LOOPBACK`, 422 for other codes, else 500. */
function statusOf(error: unknown): number {
  if (!ToolSearchError.isInstance(error)) return 500;
  return STATUS[error.code] ?? authStatus(error) ?? 422;
}

function sendError(res: ServerResponse, error: unknown): void {
  const code = ToolSearchError.isInstance(error) ? error.code : 'INTERNAL_ERROR';
  const status = statusOf(error);
  const message = errorMessage(error);
  if (res.headersSent) {
    res.end();
    return;
  }
  res
    .writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
    .end(JSON.stringify({ error: { code, message } }));
}

/** Whether a bind address is loopback (`127.0.0.0/8`, `::1`, `localhost`). */
export function isLoopback(host: string): boolean {
  return isLoopbackHost(host);
}

function presentedKey(req: IncomingMessage): string | null {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice('Bearer '.length).trim();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === COOKIE) return decodeURIComponent(value.join('='));
  }
  return null;
}

/** Constant-time comparison over digests, so neither the key nor its length leaks through timing. */
function matches(keys: readonly string[], offered: string | null): boolean {
  if (offered === null) return false;
  const digest = createHash('sha256').update(offered).digest();
  return keys.some((key) => timingSafeEqual(createHash('sha256').update(key).digest(), digest));
}

/** Listens; a taken port is one coded line (`INSPECT_PORT_IN_USE`, issue 41), not an `EADDRINUSE` stack. */
function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new ToolSearchError(InspectErrors.INSPECT_PORT_IN_USE, `port ${port} is in use; pick another with --port`, {
              details: { port, host },
              cause: error,
            })
          : error,
      );
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
}

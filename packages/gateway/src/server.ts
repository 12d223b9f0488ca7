/**
 * The gateway's HTTP server: OpenAI Chat Completions (`POST /v1/chat/completions`),
 * the OpenAI Responses API (`POST /v1/responses`) and the Anthropic Messages API
 * (`POST /v1/messages`), whole or streamed, plus `GET /v1/models`. Each request's
 * tools become the run's client tools; a model call to one goes back to the
 * client in that API's form. Loopback by default; binding anywhere else needs
 * a bearer token (`Authorization: Bearer` or Anthropic's `x-api-key`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { ErrorCode, ToolSearchError } from '@tool-search/kernel';
import { preloadTokenizer } from '@tool-search/telemetry';
import { chatFront } from './front/chat.js';
import { serveFront, type FrontEnd } from './front/front.js';
import { createResponsesFront } from './front/responses.js';
import { messagesFront } from './front/messages.js';
import { publicError, readJsonBody, sendJson, statusOf } from './http.js';
import { SessionExposures } from './session-exposure.js';
import { SuspendedTurns } from './suspended-turns.js';
import { resolveUpstream, type TurnOptions } from './turn.js';

export interface GatewayServerOptions extends TurnOptions {
  readonly host?: string;
  /** 0 (default) picks a free port. */
  readonly port?: number;
  /** Bearer token; required when `host` is not a loopback address. */
  readonly token?: string;
  /** Largest request body accepted, in bytes (default 8 MiB); larger ones get a 413. */
  readonly maxBodyBytes?: number;
  /** Extra routes (approvals, health) tried before the built-in ones; return true when handled. */
  readonly routes?: readonly ((req: IncomingMessage, res: ServerResponse, body: () => Promise<unknown>) => Promise<boolean> | boolean)[];
  /** Where upstream failures and internal errors are logged (default: stderr). */
  readonly log?: (line: string) => void;
}

export interface GatewayServer {
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export async function startGatewayServer(options: GatewayServerOptions): Promise<GatewayServer> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host) && !options.token) {
    throw new ToolSearchError(ErrorCode.CONFIG_INVALID, `Refusing to bind the gateway to ${host} without gateway.auth.token; set a token or bind to 127.0.0.1`);
  }
  const maxBodyBytes = options.maxBodyBytes ?? 8 * 1024 * 1024;
  const upstream = resolveUpstream(options);
  const turn: TurnOptions = { ...options, upstream, sessions: options.sessions ?? new SessionExposures() };
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const suspended = new SuspendedTurns();
  const serve = { turn, model: upstream.model, log, suspended };
  const fronts: FrontEnd<any>[] = [chatFront, createResponsesFront(), messagesFront];
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!ToolSearchError.isInstance(error)) log(`gateway: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (res.headersSent) return void res.end();
      const status = statusOf(error);
      sendJson(res, status, chatFront.error(status, publicError(error)));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://gateway');
    const front = req.method === 'POST' ? fronts.find((f) => f.path === url.pathname) : undefined;
    if (options.token && !authorized(req, options.token)) {
      return sendJson(res, 401, (front ?? chatFront).error(401, { code: 'invalid_api_key', message: 'Missing or wrong bearer token' }));
    }
    let cached: Promise<unknown> | undefined;
    const body = () => (cached ??= readJsonBody(req, maxBodyBytes));
    for (const route of options.routes ?? []) if (await route(req, res, body)) return;
    if (req.method === 'GET' && url.pathname === '/v1/models') {
      return sendJson(res, 200, { object: 'list', data: [{ id: upstream.model, object: 'model', created: 0, owned_by: 'tool-search' }] });
    }
    if (front) return serveFront(front, req, res, body, serve);
    return sendJson(res, 404, chatFront.error(404, { code: 'not_found', message: `No route for ${req.method} ${url.pathname}` }));
  }

  // Token counting (ledger, telemetry) would otherwise compile the tokenizer during the first request, stalling all others.
  if (options.countTokens !== false) await preloadTokenizer();
  await listen(server, options.port ?? 0, host);
  const port = (server.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}/v1`,
    port,
    server,
    close: () =>
      new Promise((resolve) => {
        suspended.abandonAll();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Listens, turning a taken port into one coded line instead of an `EADDRINUSE` stack. */
export function listen(server: Server, port: number, host: string, flag = '--port'): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new ToolSearchError(ErrorCode.PORT_IN_USE, `port ${port} is in use; pick another with ${flag}`, { details: { port, host } }));
      else reject(error);
    });
    server.listen(port, host, () => resolve());
  });
}

function authorized(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization;
  const apiKey = req.headers['x-api-key'];
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : typeof apiKey === 'string' ? apiKey : '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

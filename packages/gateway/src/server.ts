/**
 * The gateway's HTTP server: OpenAI Chat Completions (`POST /v1/chat/completions`),
 * the OpenAI Responses API (`POST /v1/responses`) and the Anthropic Messages API
 * (`POST /v1/messages`), whole or streamed, plus `GET /v1/models`. Each request's
 * tools become the run's client tools; a model call to one goes back to the
 * client in that API's form. Loopback by default and keyless there, where a
 * web page's request (a foreign Host or Origin) is refused; binding anywhere
 * else needs API keys (`auth`: `Authorization: Bearer` or Anthropic's
 * `x-api-key`), and a key decides which agents `x-agent-id` may pick. A
 * request with a body must be `application/json`. No CORS: no other site's
 * page may call it (a preflight gets no Access-Control-Allow-* headers).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  assertLoopbackRequest,
  assertSameLocalUser,
  createApiKeys,
  isLoopbackHost,
  type ApiKeys,
  type Principal,
} from '@tool-search/auth';
import { ErrorCode, ToolSearchError } from '@tool-search/kernel';
import { loadedTools, MemoryStateStore, type StateStore } from '@tool-search/state';
import { preloadTokenizer } from '@tool-search/telemetry';
import { chatFront } from './front/chat.js';
import { serveFront, type FrontEnd } from './front/front.js';
import { createResponsesFront } from './front/responses.js';
import { messagesFront } from './front/messages.js';
import { publicError, readJsonBody, requireJsonContent, sendJson, statusOf } from './http.js';
import { SessionExposures } from './session-exposure.js';
import { recordGatewayAddress } from './served.js';
import { sessionOwners } from './session-owners.js';
import { SuspendedTurns } from './suspended-turns.js';
import { StoredResponses } from './stored-responses.js';
import { replicaLocal } from './replica-local.js';
import { resolveUpstream, type TurnOptions } from './turn.js';
import { GatewayErrors } from './errors.js';

export interface GatewayServerOptions extends TurnOptions {
  readonly host?: string;
  /** 0 (default) picks a free port. */
  readonly port?: number;
  /** API keys (`createApiKeys(config.auth)`): each request must carry one, and it decides the agents `x-agent-id` may pick. Keys or `token` are required when `host` is not loopback. */
  readonly auth?: ApiKeys;
  /** A legacy single bearer token: one more key, allowed every agent. */
  readonly token?: string;
  /**
   * The replicas' shared store: with keys, each session's owning key; and each session's loaded tools (unless
   * `loadedTools` says otherwise), so its next turn on any replica offers them. Default: owners in this process, loaded
   * tools not kept. Not closed by the server.
   */
  readonly state?: StateStore;
  /** Largest request body accepted, in bytes (default 8 MiB); larger ones get a 413. */
  readonly maxBodyBytes?: number;
  /** Extra routes (approvals, health) tried before the built-in ones; return true when handled. `principal`: the request's key (with keys). */
  readonly routes?: readonly ((
    req: IncomingMessage,
    res: ServerResponse,
    body: () => Promise<unknown>,
    principal?: Principal,
  ) => Promise<boolean> | boolean)[];
  /** Where upstream failures and internal errors are logged (default: stderr). */
  readonly log?: (line: string) => void;
  /** The agent a request naming none runs as (`agents.list` default; default `main`): its main session is `main`. */
  readonly defaultAgentId?: string;
}

export interface GatewayServer {
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  close(): Promise<void>;
}

export async function startGatewayServer(options: GatewayServerOptions): Promise<GatewayServer> {
  const host = options.host ?? '127.0.0.1';
  const configured = options.auth ?? createApiKeys(undefined);
  const keys = options.token ? configured.withPlainKey(options.token, 'token') : configured;
  if (!isLoopbackHost(host) && keys.size === 0) {
    throw new ToolSearchError(
      ErrorCode.CONFIG_INVALID,
      `Refusing to bind the gateway to ${host} without API keys: add auth.keys to the config (\`tool-search auth hash-key\` makes a key and its hash), or bind to 127.0.0.1`,
      { details: { host } },
    );
  }
  const maxBodyBytes = options.maxBodyBytes ?? 8 * 1024 * 1024;
  const upstream = resolveUpstream(options);
  const loaded = options.loadedTools ?? (options.state ? loadedTools(options.state) : undefined);
  const turn: TurnOptions = {
    ...options,
    upstream,
    sessions: options.sessions ?? new SessionExposures(),
    ...(loaded ? { loadedTools: loaded } : {}),
  };
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const suspended = new SuspendedTurns();
  const owners = keys.size > 0 ? sessionOwners(options.state ?? new MemoryStateStore()) : undefined;
  const serve = {
    turn,
    model: upstream.model,
    log,
    suspended,
    ...replicaLocal(options, log),
    ...(owners ? { owners } : {}),
    ...(options.defaultAgentId ? { defaultAgentId: options.defaultAgentId } : {}),
  };
  // biome-ignore lint/suspicious/noExplicitAny: the fronts differ in their request type; each is only called with its own parsed body
  const fronts: FrontEnd<any>[] = [
    chatFront,
    createResponsesFront(new StoredResponses({ ...(options.state ? { state: options.state } : {}), log })),
    messagesFront,
  ];
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!ToolSearchError.isInstance(error))
        log(`gateway: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (res.headersSent) return void res.end();
      const status = statusOf(error);
      sendJson(res, status, chatFront.error(status, publicError(error)));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://gateway');
    const front = req.method === 'POST' ? fronts.find((f) => f.path === url.pathname) : undefined;
    // Who is asking, and as which agent: a key allows some agents, x-agent-id picks among them (401 / 403 otherwise).
    let agentId: string | undefined;
    let principal: Principal | undefined;
    try {
      // Keyless means loopback: still, a web page on this machine must not reach it (DNS rebinding, cross-site): 403.
      if (keys.size === 0) assertLoopbackRequest(req.headers, req.url);
      // … nor another user of this machine: a key is what lets anyone else in (403 AUTH_OTHER_USER).
      if (keys.size === 0) await assertSameLocalUser(req.socket);
      principal = keys.authenticate(req.headers);
      agentId = keys.agentFor(principal, header(req, 'x-agent-id'));
      // A page may POST text/plain or a form to any site without a preflight; JSON from another site needs one (415).
      requireJsonContent(req);
    } catch (error) {
      if (!ToolSearchError.isInstance(error)) throw error;
      const status = statusOf(error);
      return sendJson(res, status, (front ?? chatFront).error(status, publicError(error)));
    }
    let cached: Promise<unknown> | undefined;
    const body = () => (cached ??= readJsonBody(req, maxBodyBytes));
    for (const route of options.routes ?? []) if (await route(req, res, body, principal)) return;
    if (req.method === 'GET' && url.pathname === '/v1/models') {
      return sendJson(res, 200, {
        object: 'list',
        data: [{ id: upstream.model, object: 'model', created: 0, owned_by: 'tool-search' }],
      });
    }
    if (front) return serveFront(front, req, res, body, serve, { agentId, keyId: principal?.keyId });
    return sendJson(
      res,
      404,
      chatFront.error(404, { code: 'not_found', message: `No route for ${req.method} ${url.pathname}` }),
    );
  }

  // Token counting (ledger, telemetry) would otherwise compile the tokenizer during the first request, stalling all others.
  if (options.countTokens !== false) await preloadTokenizer();
  await listen(server, options.port ?? 0, host);
  const port = (server.address() as AddressInfo).port;
  const forgetAddress = recordGatewayAddress(options.kernel, { host, port });
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}/v1`,
    port,
    server,
    close: () =>
      new Promise((resolve) => {
        suspended.abandonAll();
        forgetAddress();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Listens, turning a taken port into one coded line instead of an `EADDRINUSE` stack. */
export function listen(server: Server, port: number, host: string, flag = '--port'): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE')
        reject(
          new ToolSearchError(GatewayErrors.PORT_IN_USE, `port ${port} is in use; pick another with ${flag}`, {
            details: { port, host },
          }),
        );
      else reject(error);
    });
    server.listen(port, host, () => resolve());
  });
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' && value ? value : undefined;
}

/**
 * The browser step of an OAuth login (RFC 8252 loopback redirect): a one-use
 * HTTP listener on 127.0.0.1 that waits for `?code=…&state=…`, and
 * `mcpLogin`, which connects one server with it so the whole flow (discovery,
 * registration, PKCE, the exchange) runs exactly as a normal connect would.
 */
import { createServer, type Server } from 'node:http';
import { ErrorCode, silentLogger, ToolSearchError } from '@tool-search/kernel';
import { ServerConnection } from './connection.js';
import type { McpAuthorizationResponse, McpAuthorizer } from './oauth-session.js';
import {
  DEFAULT_SHUTDOWN_GRACE_MS,
  DEFAULT_MAX_LIST_PAGES,
  DEFAULT_MAX_TOOLS_PER_SERVER,
  isHttpConfig,
  type McpServerConfig,
} from './options.js';
import type { McpTokenStore } from './token-store.js';
import { McpErrors } from './errors.js';

export interface LoopbackAuthorizerOptions {
  /** Shows the URL to the user (print it, open a browser). */
  readonly open: (url: URL, server: string) => void | Promise<void>;
  /** How long to wait for the browser to come back. Default 5 minutes. */
  readonly timeoutMs?: number;
}

export interface LoopbackAuthorizer extends McpAuthorizer {
  /** Stops listening. */
  close(): Promise<void>;
}

const DEFAULT_LOGIN_TIMEOUT_MS = 5 * 60_000;
const LOGIN_MARGIN_MS = 10_000;

export function loopbackAuthorizer(options: LoopbackAuthorizerOptions): LoopbackAuthorizer {
  let listener: { server: Server; url: string } | undefined;
  let waiting:
    | {
        state: string | undefined;
        resolve: (answer: string | McpAuthorizationResponse) => void;
        reject: (error: Error) => void;
      }
    | undefined;

  const answer = (query: URLSearchParams): { status: number; text: string } => {
    if (!waiting) return { status: 404, text: 'No login is waiting for this redirect.' };
    if (waiting.state !== undefined && query.get('state') !== waiting.state)
      return { status: 400, text: 'The state does not match this login; it was ignored.' };
    const error = query.get('error');
    const code = query.get('code');
    if (error || !code) {
      waiting.reject(
        new Error(
          `the authorization server answered ${error ?? 'without a code'}${query.get('error_description') ? `: ${query.get('error_description')}` : ''}`,
        ),
      );
      return { status: 400, text: `Login failed: ${error ?? 'no code'}. You can close this window.` };
    }
    const iss = query.get('iss');
    waiting.resolve(iss !== null ? { code, iss } : code);
    return { status: 200, text: 'Logged in to the MCP server. You can close this window and return to Tool Search.' };
  };

  return {
    async redirectUrl(_server, registered) {
      if (listener) return listener.url;
      const wanted = loopbackPort(registered);
      const server = createServer((request, response) => {
        const url = new URL(request.url ?? '/', 'http://127.0.0.1');
        const { status, text } =
          url.pathname === new URL(listener!.url).pathname
            ? answer(url.searchParams)
            : { status: 404, text: 'Not found.' };
        response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
        response.end(`${text}\n`);
      });
      await new Promise<void>((resolve, reject) => {
        server.once('error', (error) =>
          reject(
            new ToolSearchError(
              McpErrors.MCP_AUTH_FAILED,
              `cannot listen on the loopback redirect port ${wanted?.port ?? 0}: ${error.message}`,
              { cause: error },
            ),
          ),
        );
        server.listen(wanted?.port ?? 0, '127.0.0.1', () => resolve());
      });
      const port = (server.address() as { port: number }).port;
      listener = { server, url: wanted ? registered! : `http://127.0.0.1:${port}/callback` };
      return listener.url;
    },

    async authorize(server, url, state) {
      const code = new Promise<string | McpAuthorizationResponse>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error('nobody came back to the redirect URL in time')),
          options.timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS,
        );
        const settle =
          <T>(fn: (value: T) => void) =>
          (value: T) => {
            clearTimeout(timer);
            waiting = undefined;
            fn(value);
          };
        waiting = { state, resolve: settle(resolve), reject: settle(reject) };
      });
      await options.open(url, server);
      return code;
    },

    async close() {
      const server = listener?.server;
      listener = undefined;
      if (server) await new Promise((resolve) => server.close(resolve));
    },
  };
}

export interface McpLoginOptions {
  readonly store: McpTokenStore;
  readonly authorizer: McpAuthorizer;
  /** How long the browser step may take (give the authorizer the same); the connect gets 10 s more. Default 5 minutes. */
  readonly timeoutMs?: number;
}

/** Forgets the server's tokens, connects it with the authorizer and lists its tools: the new tokens are in the store. */
export async function mcpLogin(
  server: string,
  config: McpServerConfig,
  options: McpLoginOptions,
): Promise<{ readonly toolCount: number }> {
  if (!isHttpConfig(config)) {
    throw new ToolSearchError(
      ErrorCode.OPTIONS_INVALID,
      `MCP server "${server}" is a stdio server (command); only HTTP servers (url) log in`,
      { details: { server } },
    );
  }
  const record = await options.store.load(server);
  if (record) {
    const { tokens: _forgotten, ...kept } = record;
    await options.store.save(server, kept);
  }
  const connection = new ServerConnection(server, config, {
    // Past the browser wait, so a user who never comes back gets the authorizer's MCP_AUTH_FAILED, not a connect timeout.
    connectTimeoutMs: (options.timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS) + LOGIN_MARGIN_MS,
    callTimeoutMs: options.timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS,
    shutdownGraceMs: DEFAULT_SHUTDOWN_GRACE_MS,
    limits: { maxTools: DEFAULT_MAX_TOOLS_PER_SERVER, maxPages: DEFAULT_MAX_LIST_PAGES },
    logger: silentLogger,
    tokenStore: options.store,
    authorizer: options.authorizer,
  });
  try {
    const listing = await connection.listTools();
    return { toolCount: listing.tools.length };
  } finally {
    await connection.close();
  }
}

/** Logs out: forgets everything stored for the server (tokens, registration, discovery). */
export function mcpLogout(server: string, store: McpTokenStore): Promise<boolean> {
  return store.delete(server);
}

function loopbackPort(registered: string | undefined): { port: number } | undefined {
  if (!registered) return undefined;
  const url = new URL(registered);
  const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
  return loopback && url.port ? { port: Number(url.port) } : undefined;
}

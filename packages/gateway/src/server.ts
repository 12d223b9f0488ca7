/**
 * An OpenAI-compatible HTTP front for the turn loop: `POST /v1/chat/completions`
 * and `GET /v1/models`. A request's `messages` become the turn; its `tools`
 * become the run's client tools, and a model call to one comes back to the
 * client as `tool_calls`. Loopback by default; binding anywhere else needs a
 * bearer token.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { ErrorCode, ToolSearchError } from '@tool-search/kernel';
import type { SuspendedTurn } from './handoff.js';
import { runTurn, type ClientFunctionTool, type TurnOptions, type TurnResult } from './turn.js';

export interface GatewayServerOptions extends TurnOptions {
  readonly host?: string;
  /** 0 (default) picks a free port. */
  readonly port?: number;
  /** Bearer token; required when `host` is not a loopback address. */
  readonly token?: string;
  /** Largest request body accepted, in bytes (default 8 MiB). */
  readonly maxBodyBytes?: number;
  /** Extra routes (approvals, health) tried before the built-in ones; return true when handled. */
  readonly routes?: readonly ((req: IncomingMessage, res: ServerResponse, body: () => Promise<unknown>) => Promise<boolean> | boolean)[];
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
  // Turns waiting for the results of client calls made inside tool_call or code, by handed-off call id.
  const suspended = new Map<string, SuspendedTurn<TurnResult>>();
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => sendError(res, 500, 'server_error', error instanceof Error ? error.message : String(error)));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (options.token && !authorized(req.headers.authorization, options.token)) {
      return sendError(res, 401, 'invalid_api_key', 'Missing or wrong bearer token');
    }
    const url = new URL(req.url ?? '/', 'http://gateway');
    let cached: Promise<unknown> | undefined;
    const body = () => (cached ??= readJson(req, maxBodyBytes));
    for (const route of options.routes ?? []) if (await route(req, res, body)) return;
    if (req.method === 'GET' && url.pathname === '/v1/models') {
      return sendJson(res, 200, { object: 'list', data: [{ id: options.model, object: 'model', created: 0, owned_by: 'tool-search' }] });
    }
    if (req.method === 'POST' && url.pathname === '/v1/chat/completions') return completions(req, res, await body());
    return sendError(res, 404, 'not_found', `No route for ${req.method} ${url.pathname}`);
  }

  async function completions(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const request = body as { messages?: unknown; tools?: unknown; stream?: unknown; user?: unknown };
    if (!request || !Array.isArray(request.messages)) return sendError(res, 400, 'invalid_request_error', '`messages` must be an array');
    if (request.stream) return sendError(res, 400, 'invalid_request_error', 'Streaming is not supported by the Tool Search gateway; send stream: false');
    const clientTools = Array.isArray(request.tools) ? (request.tools as ClientFunctionTool[]) : [];
    const sessionHeader = req.headers['x-session-id'];
    const sessionId = typeof sessionHeader === 'string' && sessionHeader ? sessionHeader : randomUUID();
    const agentHeader = req.headers['x-agent-id'];
    try {
      const waiting = resumable(request.messages, suspended);
      const result = waiting
        ? await waiting.turn.resume(waiting.results)
        : await runTurn(options, {
            messages: request.messages,
            clientTools,
            sessionId,
            ...(typeof agentHeader === 'string' ? { agentId: agentHeader } : {}),
          });
      if (result.suspended) for (const id of result.suspended.callIds) suspended.set(id, result.suspended);
      res.setHeader('x-session-id', result.sessionId);
      sendJson(res, 200, {
        id: `chatcmpl-${result.runId}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: options.model,
        choices: [{ index: 0, message: result.message, finish_reason: result.finishReason, logprobs: null }],
        tool_search: { mode: result.mode, session_id: result.sessionId, requests: result.requests, tool_calls: result.toolCalls, ...(result.suspended ? { waiting_for_client: result.suspended.callIds } : {}) },
      });
    } catch (error) {
      if (ToolSearchError.isInstance(error)) return sendError(res, 400, error.code, error.message);
      throw error;
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}/v1`,
    port,
    server,
    close: () => new Promise((resolve) => {
      for (const turn of suspended.values()) turn.abandon();
      suspended.clear();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** The suspended turn whose handed-off calls the trailing `tool` messages answer, with their results (removed from `waiting`). */
function resumable(messages: readonly unknown[], waiting: Map<string, SuspendedTurn<TurnResult>>): { turn: SuspendedTurn<TurnResult>; results: Map<string, string> } | undefined {
  const results = new Map<string, string>();
  let turn: SuspendedTurn<TurnResult> | undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as { role?: unknown; tool_call_id?: unknown; content?: unknown } | null;
    if (message?.role !== 'tool' || typeof message.tool_call_id !== 'string') break;
    const owner = waiting.get(message.tool_call_id);
    if (!owner || (turn && owner !== turn)) continue;
    turn = owner;
    results.set(message.tool_call_id, contentText(message.content));
  }
  if (!turn) return undefined;
  for (const id of turn.callIds) waiting.delete(id);
  return { turn, results };
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: { text?: unknown }) => (typeof part?.text === 'string' ? part.text : '')).join('');
  return '';
}

function authorized(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new ToolSearchError(ErrorCode.CONFIG_INVALID, `Request body exceeds ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, code: string, message: string): void {
  if (res.headersSent) return void res.end();
  sendJson(res, status, { error: { message, type: code, code } });
}

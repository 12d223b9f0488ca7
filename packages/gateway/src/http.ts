/**
 * HTTP plumbing shared by the front ends: a bounded body reader (past the
 * limit the rest is drained unbuffered, so the answer is a 413 and the
 * keep-alive connection stays usable), JSON replies, server-sent events, and
 * the HTTP status of each coded error.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authStatus } from '@tool-search/auth';
import { ErrorCode, ToolSearchError, errorMessage } from '@tool-search/kernel';
import { GatewayErrors } from './errors.js';
import { StateErrors } from '@tool-search/state';

/** Throws `REQUEST_NOT_JSON` (415) unless a request that may carry a body (any method but GET, HEAD, OPTIONS) says `application/json`. */
export function requireJsonContent(req: IncomingMessage): void {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return;
  const type = req.headers['content-type'];
  if (type?.split(';')[0]!.trim().toLowerCase() === 'application/json') return;
  throw new ToolSearchError(
    GatewayErrors.REQUEST_NOT_JSON,
    `A ${req.method} request must be sent as Content-Type: application/json (got ${type === undefined ? 'none' : JSON.stringify(type)})`,
    { details: { contentType: type ?? null } },
  );
}

export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= limit) chunks.push(chunk as Buffer);
    else chunks.length = 0;
  }
  if (size > limit) {
    throw new ToolSearchError(
      GatewayErrors.REQUEST_TOO_LARGE,
      `The request body is ${size} bytes; the limit is ${limit} (gateway maxBodyBytes)`,
      { details: { size, limit } },
    );
  }
  if (size === 0) return undefined;
  const text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)).toString('utf8');
  chunks.length = 0;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ToolSearchError(GatewayErrors.REQUEST_INVALID, `The request body is not JSON: ${errorMessage(error)}`, {
      details: { path: '' },
      cause: error,
    });
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** HTTP status for an error that ends a request: 400 for a refused request, 413, 415, 502 for the provider, 500 otherwise. */
export function statusOf(error: unknown): number {
  if (!ToolSearchError.isInstance(error)) return 500;
  const auth = authStatus(error);
  if (auth) return auth;
  if (error.code === GatewayErrors.REQUEST_TOO_LARGE) return 413;
  if (error.code === GatewayErrors.REQUEST_NOT_JSON) return 415;
  if (error.code === GatewayErrors.RESPONSE_NOT_FOUND) return 404;
  // 421 Misdirected Request: another replica can answer it (not retried by the official clients, unlike 409).
  if (error.code === GatewayErrors.RESPONSE_ON_OTHER_REPLICA || error.code === GatewayErrors.TURN_ON_OTHER_REPLICA)
    return 421;
  if (error.code === ErrorCode.PROVIDER_FAILED) return 502;
  if (error.code === StateErrors.STATE_UNAVAILABLE) return 503;
  return 400;
}

/** What a client may see of an error: coded errors as they are, anything else without internals. */
export function publicError(error: unknown): { code: string; message: string; details?: Record<string, unknown> } {
  if (ToolSearchError.isInstance(error))
    return { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
  return { code: 'internal_error', message: 'The gateway failed while handling the request; see its log' };
}

export interface EventStream {
  /** A `data:` event (OpenAI) or a named `event:` + `data:` (Anthropic, Responses). */
  send(data: unknown, event?: string): void;
  /** An SSE comment: keeps proxies and clients from timing out while server-side steps run. */
  comment(text: string): void;
  end(): void;
}

export function openEventStream(res: ServerResponse, headers: Record<string, string> = {}): EventStream {
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  res.flushHeaders();
  const write = (text: string) => {
    if (!res.writableEnded && !res.destroyed) res.write(text);
  };
  return {
    send: (data, event) =>
      write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`),
    comment: (text) => write(`: ${text}\n\n`),
    end: () => {
      if (!res.writableEnded) res.end();
    },
  };
}

/** Aborts when the client goes away before the answer is complete (the turn and its tool calls stop). */
export function abortOnDisconnect(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished)
      controller.abort(new ToolSearchError(ErrorCode.TOOL_CALL_ABORTED, 'The client disconnected'));
  });
  return controller.signal;
}

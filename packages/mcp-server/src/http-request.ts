/**
 * The HTTP edges of `serveHttp`: the loopback guard, a bounded JSON
 * body, and JSON-RPC error replies.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export const LOOPBACK = new Set(['127.0.0.1', '::1', '[::1]', 'localhost']);

/** `data` carries a Tool Search error code where one applies (`{ code: 'STATE_UNAVAILABLE' }`). */
export function reply(
  res: ServerResponse,
  status: number,
  message: string,
  rpcCode = -32000,
  data?: Record<string, unknown>,
): void {
  const error = { code: rpcCode, message, ...(data ? { data } : {}) };
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error, id: null }));
}

/** DNS-rebinding guard: the Host the browser asked for (and its Origin, if any) must be loopback names. */
export function fromLoopback(req: IncomingMessage): boolean {
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

export class BodyError {
  constructor(
    readonly status: number,
    readonly message: string,
    readonly rpcCode: number,
  ) {}
}

export async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
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

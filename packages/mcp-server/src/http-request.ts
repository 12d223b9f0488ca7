/**
 * The HTTP edges of `serveHttp`: the loopback guard, a bounded JSON
 * body, and JSON-RPC error replies.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { foreignBrowserHeader } from '@tool-search/auth';

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

/** DNS-rebinding and cross-site guard (the rule every keyless front end shares): a loopback Host, and a loopback Origin if any. */
export function fromLoopback(req: IncomingMessage): boolean {
  return foreignBrowserHeader(req.headers, req.url) === undefined;
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

/**
 * The first line a stdio client writes decides the protocol era of the
 * connection. It is read here and handed on, with everything after it, as
 * a fresh stream, so the transport that serves the era reads it as if it
 * had been first.
 */
import { PassThrough, type Readable } from 'node:stream';
import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';

export interface Opening {
  /** The first line (without its newline); empty when the input ended first. */
  readonly line: string;
  /** The whole input again, first line included. */
  readonly input: Readable;
}

export function firstLine(stdin: Readable): Promise<Opening> {
  return new Promise((resolve) => {
    const input = new PassThrough();
    const chunks: Buffer[] = [];
    let settled = false;
    const settle = (line: string) => {
      if (settled) return;
      settled = true;
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      input.write(Buffer.concat(chunks));
      stdin.pipe(input);
      resolve({ line, input });
    };
    const onData = (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      chunks.push(buffer);
      const all = Buffer.concat(chunks);
      const newline = all.indexOf(0x0a);
      if (newline >= 0) {
        stdin.pause();
        settle(all.subarray(0, newline).toString('utf8'));
      }
    };
    const onEnd = () => {
      if (!settled) {
        settled = true;
        input.end(Buffer.concat(chunks));
        resolve({ line: Buffer.concat(chunks).toString('utf8'), input });
      }
    };
    stdin.on('data', onData);
    stdin.once('end', onEnd);
  });
}

/** A `server/discover`, or a request whose `_meta` carries the 2026-07-28 protocol version. */
export function isModernOpening(line: string): boolean {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return false;
  }
  if (!message || typeof message !== 'object' || Array.isArray(message)) return false;
  const { method, params } = message as {
    method?: unknown;
    params?: { _meta?: Record<string, unknown> };
  };
  if (method === 'initialize') return false;
  if (method === 'server/discover') return true;
  return typeof params?._meta?.[PROTOCOL_VERSION_META_KEY] === 'string';
}

/** HTTP helpers the scripted mocks share (this one and `@tool-search/mock-anthropic`). */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

export function parseJson(raw: string): unknown {
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

export function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Listens on 127.0.0.1 (0 = a free port). */
export function listenLocal(server: Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** A request as received: what the mocks record (before they add their `step`). */
export interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly raw: string;
  readonly body: unknown;
}

/**
 * Serves `handle` on 127.0.0.1 with each body read and parsed first
 * (`unreadable` answers a body that could not be read). Resolves to the
 * origin (`http://127.0.0.1:PORT`) and a close that drops open connections.
 */
export async function serveLocal(
  port: number,
  handle: (res: ServerResponse, received: Received) => void,
  unreadable: (res: ServerResponse, error: unknown) => void,
): Promise<{ readonly origin: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    readBody(req).then(
      (raw) => {
        const path = (req.url ?? '/').split('?')[0] ?? '/';
        handle(res, { method: req.method ?? 'GET', path, headers: { ...req.headers }, raw, body: parseJson(raw) });
      },
      (error: unknown) => unreadable(res, error),
    );
  });
  await listenLocal(server, port);
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

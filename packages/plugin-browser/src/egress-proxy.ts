/**
 * The browser's only way out when private addresses are not allowed: Chromium is launched with
 * `--proxy-server=<this proxy>` and `--proxy-bypass-list=<-loopback>` (loopback goes through it too), so every
 * request it makes — navigations, redirects, subresources, fetch/XHR, WebSockets — is connected here, with
 * `@tool-search/net-guard`'s lookup deciding on the address actually used (no DNS-rebinding window). Chromium
 * resolves no names itself behind an HTTP proxy. Refusals are kept so a navigation can say why it failed.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, type Socket } from 'node:net';
import {
  guardedLookup,
  ipLiteral,
  refusedAddress,
  type AddressAllowed,
  type AddressRule,
} from '@tool-search/net-guard';
import { ToolSearchError } from '@tool-search/kernel';

export interface Refusal {
  readonly host: string;
  readonly address: string;
  readonly at: number;
  readonly error: ToolSearchError;
}

export interface EgressProxy {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Most recent last; at most 200 kept. */
  readonly refusals: readonly Refusal[];
  close(): Promise<void>;
}

export const REFUSED_HEADER = 'x-tool-search-refused';
const MAX_REFUSALS = 200;

export async function startEgressProxy(rule: AddressRule, allowed: AddressAllowed): Promise<EgressProxy> {
  const refusals: Refusal[] = [];
  const lookup = guardedLookup(rule, allowed);
  const sockets = new Set<Socket>();

  /** A literal host never reaches a lookup: check it here. Returns the refusal, if any. */
  const refuse = (host: string, error?: unknown): Refusal | undefined => {
    let refusal: ToolSearchError | undefined;
    if (error && ToolSearchError.isInstance(error)) refusal = error;
    else if (!error) {
      const literal = ipLiteral(host);
      if (literal !== undefined && !allowed(literal)) refusal = refusedAddress(host, literal, rule);
    }
    if (!refusal) return undefined;
    const entry = {
      host,
      address: String((refusal.details as { address?: unknown } | undefined)?.address ?? host),
      at: Date.now(),
      error: refusal,
    };
    refusals.push(entry);
    if (refusals.length > MAX_REFUSALS) refusals.shift();
    return entry;
  };

  const server: Server = createServer((req, res) => forward(req, res));
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => tunnel(req, client, head));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  function forward(req: IncomingMessage, res: ServerResponse): void {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (target.protocol !== 'http:') {
      res.writeHead(400).end();
      return;
    }
    const host = target.hostname.replace(/^\[|\]$/g, '');
    const early = refuse(host);
    if (early) return refused(res, early);
    const headers = { ...req.headers };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    const upstream = httpRequest(
      {
        host,
        port: target.port || 80,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers,
        lookup,
      },
      (response) => {
        res.writeHead(response.statusCode ?? 502, response.rawHeaders);
        response.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      const refusal = refuse(host, error);
      if (refusal) return refused(res, refusal);
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(upstream);
  }

  function tunnel(req: IncomingMessage, client: Socket, head: Buffer): void {
    const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(req.url ?? '');
    if (!match) return void client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    const [, host, port] = match as unknown as [string, string, string];
    if (refuse(host)) return void client.end(`HTTP/1.1 403 Forbidden\r\n${REFUSED_HEADER}: privateAddress\r\n\r\n`);
    const upstream = connect({ host, port: Number(port), lookup });
    upstream.on('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', (error) => {
      const refusal = refuse(host, error);
      if (client.writable && !upstream.readableEnded)
        client.end(
          refusal
            ? `HTTP/1.1 403 Forbidden\r\n${REFUSED_HEADER}: privateAddress\r\n\r\n`
            : 'HTTP/1.1 502 Bad Gateway\r\n\r\n',
        );
    });
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    refusals,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function refused(res: ServerResponse, refusal: Refusal): void {
  const body = `Refused: ${refusal.error.message}\n`;
  res
    .writeHead(403, {
      'content-type': 'text/plain; charset=utf-8',
      [REFUSED_HEADER]: 'privateAddress',
      'content-length': Buffer.byteLength(body),
    })
    .end(body);
}

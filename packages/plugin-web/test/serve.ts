import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestServer {
  readonly url: string;
  readonly port: number;
  readonly hits: Map<string, number>;
  readonly requests: IncomingMessage[];
  close(): Promise<void>;
}

/** A loopback HTTP server; `routes` maps a path to a handler. Counts hits per path. */
export async function serve(
  routes: Record<string, (req: IncomingMessage, res: ServerResponse, body: string) => void>,
): Promise<TestServer> {
  const hits = new Map<string, number>();
  const requests: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      requests.push(req);
      const route = routes[path];
      if (!route) {
        res.writeHead(404).end('not found');
        return;
      }
      route(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    requests,
    close: () => new Promise((resolve) => server.closeAllConnections() ?? server.close(() => resolve())),
  };
}

export const ARTICLE = `<!doctype html><html><head><title>Tide tables for Brest</title><script>alert(1)</script></head>
<body><nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<article><h1>Tide tables for Brest</h1>
<p>High tide in Brest today is at 06:42 and 19:03, with a coefficient of 95. Spring tides bring the highest water of the month,
and harbour masters publish these tables so that sailors can plan their departures around the strongest currents.</p>
<p>Low tide follows roughly six hours and twelve minutes after each high tide. The tidal range this week exceeds six metres,
which makes the Rade de Brest one of the most dramatic tidal basins on the Atlantic coast of France.</p>
<h2>Notes</h2><ul><li>Times are local.</li><li>Heights are in metres.</li></ul></article>
<footer>Copyright 2026</footer></body></html>`;

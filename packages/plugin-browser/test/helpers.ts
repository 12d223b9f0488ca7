/** Loopback pages for the browser tests, and what the tests read back (hits, posted forms, Chromium processes). */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { createKernel, type Kernel, type Run } from '@tool-search/kernel';
import { browserPlugin, type BrowserPluginOptions } from '../src/index.js';

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface TestServer {
  readonly port: number;
  readonly origin: string;
  readonly hits: Map<string, number>;
  close(): Promise<void>;
}

export async function serve(routes: Record<string, Handler>, host = '127.0.0.1'): Promise<TestServer> {
  const hits = new Map<string, number>();
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const route = routes[path];
      if (!route) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      open.add(res);
      res.on('close', () => open.delete(res));
      route(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    origin: `http://${host}:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const html =
  (body: string, title = 'Test page') =>
  (_req: IncomingMessage, res: ServerResponse) =>
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`);

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `tool-search-browser-${prefix}-`));
}

/** Pids of live processes whose command line contains `needle` (a profile's user-data folder names its Chromium). */
export function processesWith(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (cmdline.includes(needle) && !/\) Z /.test(stat)) pids.push(Number(entry));
    } catch {
      // gone while reading
    }
  }
  return pids;
}

/** Polls until `check` holds or the generous deadline passes (no fixed sleeps: CI is loaded). */
export async function eventually(check: () => boolean | Promise<boolean>, deadlineMs = 30_000): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const kernels: Kernel[] = [];
// Closing the kernel runs the plugin's shutdown: every browser a test file started is closed with it.
afterAll(async () => {
  await Promise.all(kernels.splice(0).map((kernel) => kernel.close()));
});

export async function browserRun(options: BrowserPluginOptions): Promise<Run> {
  const kernel = createKernel({ plugins: [browserPlugin(options)] });
  kernels.push(kernel);
  return kernel.createRun({});
}

/** The browser (main) processes of a profile: its Chromium processes that are not helpers (`--type=renderer`…). */
export function browserProcesses(userDataDir: string): number[] {
  return processesWith(userDataDir).filter((pid) => {
    try {
      return !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=');
    } catch {
      return false;
    }
  });
}

type Outcome = Awaited<ReturnType<Run['call']>>;

/** The structured result of an ok call; a failed call fails the test with its error. */
export function ok(outcome: Outcome): Record<string, unknown> {
  if (outcome.status !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(outcome).slice(0, 2000)}`);
  return outcome.result.structuredContent as Record<string, unknown>;
}

export function errorCode(outcome: Outcome): string {
  if (outcome.status !== 'error') throw new Error(`expected an error, got ${JSON.stringify(outcome).slice(0, 1000)}`);
  return outcome.error.code;
}

/** The ref of the first snapshot line matching `pattern` (e.g. /textbox "Name"/). */
export function refOf(snapshot: string, pattern: RegExp): string {
  const line = snapshot.split('\n').find((entry) => pattern.test(entry));
  const ref = line && /\[ref=(e\d+)\]/.exec(line)?.[1];
  if (!ref) throw new Error(`no ref for ${pattern} in:\n${snapshot.slice(0, 3000)}`);
  return ref;
}

/** Loopback pages for the browser tests, and what the tests read back (hits, posted forms, Chromium processes). */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { findChromium } from '@tool-search/chromium';
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

/**
 * The browser (main) processes of a profile: its Chromium processes that are not helpers (`--type=renderer`…), nor
 * the bwrap that starts Chromium as its own user when the tests run as root.
 */
export function browserProcesses(userDataDir: string): number[] {
  return processesWith(userDataDir).filter((pid) => {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      return !cmdline.includes('--type=') && !/(^|\/)bwrap$/.test(cmdline.split('\0')[0] ?? '');
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

const found = findChromium(undefined);
/** The system Chromium, when there is one. */
export const CHROMIUM_PATH = 'path' in found ? found.path : undefined;

/** True (after saying what is skipped and what to install) when no Chromium is here. */
export function chromiumMissing(what: string): boolean {
  if (CHROMIUM_PATH) return false;
  console.warn(`skipping ${what}: chromium is not installed (apt-get install -y chromium)`);
  return true;
}

/** True (after saying what is skipped and what to install) when bubblewrap is not here. */
export function bwrapMissing(what: string): boolean {
  if (spawnSync('bwrap', ['--version']).status === 0) return false;
  console.warn(`skipping ${what}: bwrap is not installed (apt-get install -y bubblewrap)`);
  return true;
}

/** Root with setpriv here: a test can run a process as uid 65534. Says why not otherwise. */
export function canDropToNobody(what: string): boolean {
  if (process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0) return true;
  console.warn(`skipping ${what}: it needs root to drop to uid 65534 with setpriv (util-linux)`);
  return false;
}

/** The TCP ports and Unix socket paths the given processes listen on (from /proc/net, by socket inode). */
export function listeningSockets(pids: readonly number[]): { ports: number[]; unixPaths: string[] } {
  const inodes = new Set<string>();
  for (const pid of pids) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone meanwhile
    }
    for (const fd of fds) {
      try {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
        if (inode) inodes.add(inode);
      } catch {
        // closed meanwhile
      }
    }
  }
  const ports = ['tcp', 'tcp6'].flatMap((table) =>
    procLines(`/proc/net/${table}`)
      .map((fields) => ({ local: fields[1] ?? '', state: fields[3], inode: fields[9] ?? '' }))
      .filter((entry) => entry.state === '0A' && inodes.has(entry.inode))
      .map((entry) => Number.parseInt(entry.local.split(':').at(-1) ?? '', 16)),
  );
  // /proc/net/unix: Num RefCount Protocol Flags(00010000 = listening) Type St Inode Path
  const unixPaths = procLines('/proc/net/unix')
    .filter((fields) => fields[3] === '00010000' && inodes.has(fields[6] ?? '') && fields[7])
    .map((fields) => fields[7]!);
  return { ports, unixPaths };
}

function procLines(file: string): string[][] {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((line) => line.trim().split(/\s+/));
  } catch {
    return [];
  }
}

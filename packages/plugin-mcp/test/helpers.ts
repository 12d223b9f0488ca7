/** Shared test helpers: where the real servers live, free ports, child processes, liveness checks. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpStdioServerConfig } from '../src/index.js';
import { isRunning } from '../src/process-group.js';

const require = createRequire(import.meta.url);

/** The `dist/index.js` of an installed reference server package. */
export function serverBin(pkg: 'server-everything' | 'server-memory' | 'server-filesystem'): string {
  return join(dirname(require.resolve(`@modelcontextprotocol/${pkg}/package.json`)), 'dist', 'index.js');
}

export function nodeServer(
  pkg: 'server-everything' | 'server-memory' | 'server-filesystem',
  ...args: string[]
): McpStdioServerConfig {
  return { command: process.execPath, args: [serverBin(pkg), ...args] };
}

const FIXTURE = fileURLToPath(new URL('./fixtures/misbehaving-server.mjs', import.meta.url));

export type FixtureMode =
  | 'exit-on-start'
  | 'exit-late'
  | 'garbage'
  | 'hang-list'
  | 'hang-call'
  | 'crash-on-call'
  | 'bad-schema'
  | 'dynamic'
  | 'stubborn'
  | 'bad-tools'
  | 'deep-schema'
  | 'endless-pages'
  | 'many-tools'
  | 'huge-result'
  | 'asks';

export const FIXTURE_PATH = FIXTURE;

export function fixture(mode: FixtureMode): McpStdioServerConfig {
  // A shell, not node: it closes its stdin within a millisecond of starting (our first write fails with EPIPE), and
  // only 200 ms later writes its last words to stderr and exits.
  if (mode === 'exit-late')
    return {
      command: 'sh',
      args: ['-c', 'exec 0<&-; sleep 0.2; echo "fixture: the licence file is missing" >&2; exit 4'],
    };
  return { command: process.execPath, args: [FIXTURE, mode] };
}

/** Running and not a zombie (PID 1 here does not reap orphans, so `kill(pid, 0)` alone would say yes). */
export const isAlive = isRunning;

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

export interface HttpServer {
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts server-everything over HTTP (`streamableHttp` or the older `sse`) on a free port. */
export async function startEverythingHttp(transport: 'streamableHttp' | 'sse'): Promise<HttpServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [serverBin('server-everything'), transport], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      output += String(chunk);
      if (/listening on port|running on port/i.test(output)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything ${transport} exited with ${code}: ${output}`)));
  });
  const path = transport === 'sse' ? '/sse' : '/mcp';
  return {
    url: `http://127.0.0.1:${port}${path}`,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

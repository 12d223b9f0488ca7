/**
 * A real `redis-server` for tests (the Debian package): started on a free
 * loopback port with persistence off, stopped (and awaited) by `stop()`.
 * `redisServerAvailable()` lets a test skip cleanly where it is not installed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export interface RedisServerHandle {
  readonly url: string;
  readonly port: number;
  /** Stops the server (SIGTERM, then SIGKILL after a second) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port (after `stop`), empty. */
  start(): Promise<void>;
}

export function redisServerAvailable(binary = 'redis-server'): boolean {
  return spawnSync(binary, ['--version'], { stdio: 'ignore' }).status === 0;
}

export async function startRedisServer(options: { binary?: string; port?: number } = {}): Promise<RedisServerHandle> {
  if (options.port !== undefined) return startOn(options.binary ?? 'redis-server', options.port);
  // A port found free can be taken by another process before redis binds it: try a few.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(options.binary ?? 'redis-server', await freePort());
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

async function startOn(binary: string, port: number): Promise<RedisServerHandle> {
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    const started = spawn(
      binary,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child = started;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(
        () => reject(new Error(`redis-server did not start on port ${port}: ${output.slice(-500)}`)),
        10_000,
      );
      started.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      started.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      started.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      started.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}: ${output.slice(-500)}`));
      });
    });
    started.stdout!.resume();
  }

  async function stop(): Promise<void> {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGTERM');
    const timer = setTimeout(() => running.kill('SIGKILL'), 1_000);
    await exited;
    clearTimeout(timer);
  }

  await start();
  return { url: `redis://127.0.0.1:${port}`, port, stop, start };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Replicas as a platform team runs them: real `tool-search` processes (the
 * built CLI) sharing one config, each with its own replica id, behind a tiny
 * round-robin balancer that sends every request to the next replica in turn
 * (no stickiness, so a session's requests alternate). Used by the replica
 * tests and the load benchmark.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The built CLI's entry in this repository (`npm run build` makes it; the CLI depends on this package, so not the reverse). */
export function cliBin(): string {
  return fileURLToPath(new URL('../../packages/cli/bin/tool-search.js', import.meta.url));
}

export interface Replica {
  readonly id: string;
  /** What the process printed as its endpoint (`…/v1` for the gateway, `…/mcp` for `serve mcp --http`). */
  readonly url: string;
  /** `http://host:port`, for the balancer. */
  readonly origin: string;
  readonly child: ChildProcess;
  /** stdout and stderr so far (for failure messages). */
  output(): string;
  /** Sends a signal (default SIGTERM) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface ReplicaOptions {
  readonly id: string;
  /** Arguments after the binary, e.g. `['gateway', '--config', file, '--approvals', 'http']`. */
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** How long to wait for the endpoint line (default 30 s). */
  readonly startTimeoutMs?: number;
}

const ENDPOINT = /(https?:\/\/(?:127\.0\.0\.1|\[::1\]|localhost):\d+\/(?:v1|mcp))\b/;

/** Starts one `tool-search` process and resolves once it printed its endpoint URL. */
export async function startReplica(options: ReplicaOptions): Promise<Replica> {
  const child = spawn(process.execPath, [cliBin(), ...options.args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env, TOOL_SEARCH_REPLICA_ID: options.id },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not left behind: a replica that did not come up in time is stopped before the caller hears about it.
      child.kill('SIGKILL');
      reject(
        new Error(
          `replica ${options.id} printed no endpoint within ${options.startTimeoutMs ?? 30_000} ms:\n${output}`,
        ),
      );
    }, options.startTimeoutMs ?? 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = ENDPOINT.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`replica ${options.id} exited (${code ?? signal}) before it listened:\n${output}`));
    });
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return {
    id: options.id,
    url,
    origin: new URL(url).origin,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      // A graceful stop takes ~1.5 s on a quiet machine (flushing exports, closing servers); a loaded CI machine gets more.
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface RoundRobin {
  readonly url: string;
  /** Which replica (index) each request went to, in order. */
  readonly routed: readonly number[];
  /** Takes a replica out of the rotation (it died); requests go to the others. */
  remove(index: number): void;
  close(): Promise<void>;
}

/**
 * Forwards each request to the next origin in turn, streaming both ways (SSE
 * included). A replica that refuses the connection is skipped for that
 * request, as a balancer's health check would.
 */
export async function startRoundRobin(origins: readonly string[]): Promise<RoundRobin> {
  const live = origins.map(() => true);
  const routed: number[] = [];
  let next = 0;
  const pick = (): number | undefined => {
    for (let tried = 0; tried < origins.length; tried++) {
      const index = next++ % origins.length;
      if (live[index]) return index;
    }
    return undefined;
  };
  const server: Server = createServer((req, res) => {
    const index = pick();
    if (index === undefined) return void res.writeHead(502).end('no replica');
    routed.push(index);
    const target = new URL(req.url ?? '/', origins[index]);
    const upstream = httpRequest(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      if (!res.headersSent)
        res.writeHead(502, { 'content-type': 'text/plain' }).end(`replica ${index}: ${error.message}`);
      else res.destroy(error);
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    routed,
    remove(index) {
      live[index] = false;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface ReplicaSet {
  readonly replicas: readonly Replica[];
  readonly balancer: RoundRobin;
  /** Closes the balancer and stops every replica. */
  stop(): Promise<void>;
}

/** One replica per id (started together), and a round-robin balancer in front of them. */
export async function startReplicaSet(
  ids: readonly string[],
  options: (id: string) => Omit<ReplicaOptions, 'id'>,
): Promise<ReplicaSet> {
  const replicas = await Promise.all(ids.map((id) => startReplica({ id, ...options(id) })));
  const balancer = await startRoundRobin(replicas.map((replica) => replica.origin));
  return {
    replicas,
    balancer,
    async stop() {
      await balancer.close();
      await Promise.all(replicas.map((replica) => replica.stop()));
    },
  };
}

/**
 * Replicas under load (issues 19 and 47), measured the way users run them: real `tool-search gateway` processes (the
 * built CLI), a real `redis-server` on loopback, the official `openai` client over HTTP, and the scripted provider
 * (`@tool-search/mock-openai`) in a process of its own, so neither the gateway nor the client pays for it. N concurrent
 * sessions send turns one after another (every turn one tool call and an answer, so two provider requests) to one
 * replica with in-process state, one replica with Redis state, and two replicas with Redis behind a round-robin
 * balancer (a session's turns alternate). Beside it, the cost of the Redis store per tool call: `run.call` through the
 * preset with an in-process store and with Redis, alternating blocks so both see the same load. One call of
 * `measureGatewayRun` / `measurePerCall` is one run; the headline (headline-rows.ts) interleaves several.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import type { ToolSearchConfig } from '@tool-search/config';
import { startReplicaSet, type Replica, type ReplicaSet } from '@tool-search/e2e';
import { startMockOpenAI } from '@tool-search/mock-openai';
import { createToolSearchKernel } from '@tool-search/preset';
import { connectRedisState, MemoryStateStore, type StateStore } from '@tool-search/state';
import { redisServerAvailable, type RedisServerHandle } from '@tool-search/testing';
import { processCpuMs } from './cli-startup.js';
import { bareSpawn } from './code-mode.js';
import type { HeadlineFile, HeadlineRow, Spread } from './headline.js';
import { driveSessions, turnStats, type LoadSample, type TurnStats } from './load-driver.js';
import { median, msSince, percentile, round } from './stats.js';

export interface ReplicaLoadPlan {
  readonly sessions: number;
  /** Turns per session and block, sent one after another. */
  readonly turns: number;
  /** Alternating blocks per run: each setup serves `sessions` × `turns` turns in every block. */
  readonly blocks: number;
  /** `run.call`s per store and run in the per-call comparison. */
  readonly calls: number;
}

export const REPLICA_LOAD_FULL: ReplicaLoadPlan = { sessions: 20, turns: 5, blocks: 3, calls: 1000 };
export const REPLICA_LOAD_QUICK: ReplicaLoadPlan = { sessions: 2, turns: 2, blocks: 1, calls: 100 };

export interface ReplicaSetupRow extends TurnStats {
  readonly setup: string;
  readonly replicas: number;
  readonly state: 'memory' | 'redis';
  /** CPU time of the gateway process(es) per turn, from /proc: what a turn costs, which load changes less than turns/s. */
  readonly gatewayCpuMsPerTurn: number;
}

export interface GatewayRun {
  readonly setups: readonly ReplicaSetupRow[];
  /** Median of bare `node -e 0` spawns, one before each block, for the machine-relative throughput. */
  readonly nodeMs: number;
}

export interface StoreCallRow {
  readonly state: 'memory' | 'redis';
  readonly calls: number;
  /** Median of one `run.call`, µs. */
  readonly callUs: number;
  readonly p99Us: number;
}

const CLI_DIST = fileURLToPath(new URL('../../packages/cli/dist/bin.js', import.meta.url));
const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));
const FAKE_TOOLS = 100;

/** Why the Redis rows cannot be measured here, or undefined. */
export function redisUnavailable(): string | undefined {
  return redisServerAvailable() ? undefined : 'redis-server is not installed (apt-get install -y redis-server)';
}

/** Why the gateway rows cannot be measured here, or undefined. */
export function gatewayUnavailable(): string | undefined {
  return (
    redisUnavailable() ??
    (existsSync(CLI_DIST) ? undefined : `the built CLI is missing (${CLI_DIST}); run \`npm run build\``)
  );
}

/**
 * One run of the three setups on fresh gateway processes, all started first, then measured in alternating blocks
 * (block 1: each setup in turn, block 2: …), so a change in the shared machine's load lands on every setup alike; an
 * idle replica takes no CPU from the one under load. The provider runs in its own process, or with `providerInBench`
 * in this one beside the client (how the figures before issue 47 were taken, for comparison).
 */
export async function measureGatewayRun(
  redis: RedisServerHandle,
  plan: ReplicaLoadPlan,
  { providerInBench = false }: { readonly providerInBench?: boolean } = {},
): Promise<GatewayRun> {
  const provider = providerInBench
    ? await startMockOpenAI({ record: { maxRequests: 0 } })
    : await startProviderProcess();
  const dir = await mkdtemp(join(tmpdir(), 'tool-search-replica-load-'));
  try {
    const configs = await writeConfigs(dir, provider.url, redis.url);
    const memory = await startGateways(configs.memory, 1);
    try {
      // One pair of Redis replicas serves both Redis setups: the first replica asked alone, then both behind the balancer.
      const pair = await startGateways(configs.redis, 2);
      try {
        return await measureBlocks(
          [
            { setup: '1 replica, in-process state', set: memory, count: 1, state: 'memory' },
            { setup: '1 replica, Redis state', set: pair, count: 1, state: 'redis' },
            { setup: '2 replicas, Redis state, round-robin', set: pair, count: 2, state: 'redis' },
          ],
          plan,
        );
      } finally {
        await pair.stop();
      }
    } finally {
      await memory.stop();
    }
  } finally {
    await provider.close();
    await rm(dir, { recursive: true, force: true });
  }
}

interface Setup {
  readonly setup: string;
  readonly set: ReplicaSet;
  /** The first replica asked directly (1), or the first `count` behind the balancer. */
  readonly count: number;
  readonly state: 'memory' | 'redis';
}

async function measureBlocks(setups: readonly Setup[], plan: ReplicaLoadPlan): Promise<GatewayRun> {
  const clients = setups.map(({ set, count }) => {
    // One replica is asked directly: the balancer's hop is part of the two-replica setup only.
    const baseURL = count > 1 ? `${set.balancer.url}/v1` : set.replicas[0]!.url;
    return new OpenAI({ baseURL, apiKey: 'unused-on-loopback', maxRetries: 0, timeout: 30_000 });
  });
  // One warm-up turn per replica and setup: the first request pays for the tokenizer and the run cache.
  for (const [s, { count }] of setups.entries())
    for (let i = 0; i < count; i++) await turn(clients[s]!, `warm-${i}`, 0);
  const samples = setups.map((): LoadSample[] => []);
  const cpuMs = setups.map(() => 0);
  const spawns: number[] = [];
  for (let block = 0; block < plan.blocks; block++) {
    spawns.push(await bareSpawn());
    for (const [s, client] of clients.entries()) {
      const gateways = setups[s]!.set.replicas.slice(0, setups[s]!.count);
      const before = gatewaysCpuMs(gateways);
      samples[s]!.push(
        await driveSessions(plan, async (session, index) =>
          (await turn(client, `load-${block}-${session}`, index)) ? undefined : 'no tool result in the answer',
        ),
      );
      cpuMs[s]! += gatewaysCpuMs(gateways) - before;
    }
  }
  return {
    setups: setups.map(({ setup, count, state }, s) => {
      const stats = turnStats(samples[s]!);
      return { setup, replicas: count, state, ...stats, gatewayCpuMsPerTurn: round(cpuMs[s]! / stats.turns, 2) };
    }),
    nodeMs: median(spawns),
  };
}

/** CPU time (user + system) of the gateway processes so far, from /proc (Linux; NaN elsewhere). */
function gatewaysCpuMs(gateways: readonly Replica[]): number {
  return gateways.reduce((total, { child }) => total + (processCpuMs(child.pid ?? -1) ?? Number.NaN), 0);
}

/** The two gateway configs: in-process state, and Redis state under a key prefix of this run's own. */
async function writeConfigs(dir: string, providerURL: string, redisURL: string) {
  const base: ToolSearchConfig = {
    plugins: { 'fake-catalog': { tools: FAKE_TOOLS, core: true } },
    tools: { toolSearch: false, loopDetection: { enabled: true } },
    provider: { baseURL: providerURL, apiKey: 'mock', model: 'mock-model' },
  };
  const write = async (name: string, config: ToolSearchConfig) => {
    const file = join(dir, `${name}.json`);
    await writeFile(file, JSON.stringify(config));
    return file;
  };
  return {
    memory: await write('memory', base),
    redis: await write('redis', {
      ...base,
      state: { redis: { url: redisURL, keyPrefix: `bench-${process.pid}-${Date.now()}:` } },
    }),
  };
}

/** `count` replicas of `tool-search gateway` on `config` (the built CLI), behind a round-robin balancer. */
function startGateways(config: string, count: number): Promise<ReplicaSet> {
  return startReplicaSet(
    Array.from({ length: count }, (_, i) => `bench-${i}`),
    () => ({ args: ['gateway', '--config', config, '--approvals', 'deny'] }),
  );
}

/**
 * The scripted provider as its own process (`startMockOpenAI` from the bench folder, which resolves the workspace
 * package); it prints its URL and stops when its stdin closes.
 */
async function startProviderProcess(): Promise<{ url: string; close(): Promise<void> }> {
  const script = [
    "const { startMockOpenAI } = await import('@tool-search/mock-openai');",
    'const server = await startMockOpenAI({ record: { maxRequests: 0 } });',
    'process.stdout.write(`${server.url}\\n`);',
    "process.stdin.on('end', () => server.close().then(() => process.exit(0)));",
    'process.stdin.resume();',
  ].join('\n');
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: BENCH_DIR,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = /^(http:\/\/\S+)\n/.exec(output);
      if (line) resolve(line[1]!);
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the mock provider exited (${code}) before listening: ${output}`)));
  });
  return {
    url,
    async close() {
      child.stdin.end();
      await exited;
    },
  };
}

/** One turn: the scripted model reads a file (a distinct one per turn, so no loop guard fires) and answers. */
async function turn(client: OpenAI, session: string, index: number): Promise<boolean> {
  const steps = JSON.stringify([{ tool: 'read', args: { path: `notes-${index}.txt` } }]);
  const completion = await client.chat.completions.create(
    { model: 'mock-model', messages: [{ role: 'user', content: `tool search qa steps ${steps}` }] },
    { headers: { 'x-session-id': session } },
  );
  return (completion.choices[0]?.message.content ?? '').includes('FAKE_TOOL_OK');
}

/** `run.call` through the preset with each store, in alternating blocks of 100 (the first block a warm-up). */
export async function measurePerCall(redis: RedisServerHandle, calls: number): Promise<StoreCallRow[]> {
  // Loop detection on (it is off by default): its history read before and write after each call is the store's real per-call cost.
  const config: ToolSearchConfig = {
    plugins: { 'fake-catalog': { tools: FAKE_TOOLS, core: true } },
    tools: { loopDetection: { enabled: true } },
  };
  const stores: { state: 'memory' | 'redis'; store: StateStore }[] = [
    { state: 'memory', store: new MemoryStateStore() },
    {
      state: 'redis',
      store: await connectRedisState({ url: redis.url, keyPrefix: `bench-call-${process.pid}-${Date.now()}:` }),
    },
  ];
  const setups = await Promise.all(
    stores.map(async ({ state, store }) => {
      const { kernel } = await createToolSearchKernel(config, { state: store });
      const run = await kernel.createRun({ provider: 'openai', model: 'gpt-4.1', sessionId: `bench-${state}` });
      return { state, store, kernel, run, samples: [] as number[] };
    }),
  );
  try {
    const block = Math.min(100, calls);
    for (let done = 0; done < calls + block; done += block) {
      for (const setup of setups) {
        for (let i = done; i < done + block; i++) {
          const args = { path: `notes-${i}.txt`, offset: 1 + (i % 50) };
          const start = process.hrtime.bigint();
          await setup.run.call('core:core:read', args, { origin: 'api' });
          // The first block is a warm-up (JIT, connections).
          if (done > 0) setup.samples.push(msSince(start) * 1000);
        }
      }
    }
    return setups.map(({ state, samples }) => ({
      state,
      calls: samples.length,
      callUs: round(median(samples), 1),
      p99Us: round(percentile(samples, 99), 1),
    }));
  } finally {
    for (const setup of setups) {
      await setup.run.close();
      await setup.kernel.close();
      await setup.store.close();
    }
  }
}

/** Why the figures before issue 47 differ: stated beside the new ones, so the old claim is not read as today's. */
export const EARLIER_CLAIM = [
  'Until issue 47 this section said 65.3 turns/s for one replica with in-process state, 1.14× and 1.03× for the Redis',
  'setups, and 3.87× per call: one run each inside the full bench (2026-12-02, load average 1.26 at its start), the scripted',
  'provider in the bench process beside the client, each setup measured once for a few seconds after the other, 3,000',
  'calls per store. An independent rerun measured 49.7 turns/s (0.76×) and 5.91×. Neither is a constant of the code: on',
  "2026-12-07, on that evening's code at 1-minute loads of 10–23 from other test runs, one replica served 18–70 turns/s",
  "from run to run (the gateway's own CPU 11.5–13.8 ms per turn) and the per-call ratio was 4.2–6.5×; before the setups",
  'alternated in blocks, one run to the next moved the Redis / in-process throughput ratio from 0.59 to 2.25. The table',
  'above is what came out on the code of its run date, at the load shown with each run.',
];

/** The BENCHMARKS.md section (numbered by the caller), from the headline's gateway and Redis rows. */
export function replicaLoadSection(h: HeadlineFile, heading: string): string[] {
  const row = (id: string) => h.rows.find((r) => r.id === id);
  const perCall = row('redis-per-call');
  const memory = row('gateway-turns-per-node');
  const oneRedis = row('gateway-redis-vs-memory');
  const two = row('gateway-two-vs-one');
  const out = [heading, ''];
  if (memory && oneRedis && two) {
    const setup = (name: string, r: HeadlineRow, label: string) =>
      `| ${name} | **${cell(r.detail[`${label} turns/s`])}** | ${cell(r.detail[`${label} p50 ms`])} ms | ${cell(r.detail[`${label} p99 ms`])} ms | ${cell(r.detail[`${label} gateway CPU ms/turn`])} ms | ${cell(r.detail[`${label} errors`])} |`;
    out.push(
      'Measured the way users run it: real `tool-search gateway` processes from the built CLI (`tool-search gateway --config',
      '<file> --approvals deny`; 100 fake tools plus the core tools, direct mode, loop detection on), a real `redis-server` on a',
      'free loopback port, the official `openai` client over HTTP from the bench process, and the scripted provider',
      `(\`@tool-search/mock-openai\`) in a process of its own. Every run starts fresh gateways for the three setups, then`,
      `measures them in ${REPLICA_LOAD_FULL.blocks} alternating blocks of ${REPLICA_LOAD_FULL.sessions} concurrent sessions × ${REPLICA_LOAD_FULL.turns} turns (every turn one \`read\` call and an`,
      'answer: two provider requests), so load that changes during a run lands on every setup; all on the same 2 cores.',
      `Median (min–max) of the headline's ${h.runs} interleaved runs (load average at each: ${memory.load.join(', ')}).`,
      '',
      '| setup | turns/s | p50 per turn | p99 per turn | gateway CPU per turn | errors |',
      '|---|---|---|---|---|---|',
      setup('1 replica, in-process state', memory, 'in-process'),
      setup('1 replica, Redis state', oneRedis, 'Redis'),
      setup('2 replicas, Redis state, round-robin', two, '2 replicas'),
      '',
      `Throughput, 1 replica with Redis / in-process: **${ratioCell(oneRedis)}**; 2 replicas with Redis / 1 in-process: **${ratioCell(two)}**`,
      '(two replicas share the same two cores as the provider and the client here, so this shows the cost of sharing, not the gain',
      `of a second machine). Turns per \`node -e 0\` time (1 replica, in-process): **${ratioCell(memory)}**, with \`node -e 0\` at ${cell(memory.detail['node -e 0 ms'])} ms.`,
      '',
    );
  } else
    out.push(`Replica load not measured: ${h.skipped?.['gateway-turns-per-node'] ?? 'no headline gateway rows'}.`, '');
  if (perCall) {
    out.push(
      'Cost of the shared store per tool call: `run.call` through the preset with loop detection on (its history is read before',
      'and written after every call), telemetry counters and every other guard, with an in-process store and with Redis on',
      `loopback, ${REPLICA_LOAD_FULL.calls} calls each per run in alternating blocks of 100 (load average at each run: ${perCall.load.join(', ')}).`,
      '',
      '| state | median per call | p99 |',
      '|---|---|---|',
      `| in-process | ${cell(perCall.detail['in-process µs'])} µs | ${cell(perCall.detail['in-process p99 µs'])} µs |`,
      `| Redis | ${cell(perCall.detail['Redis µs'])} µs | ${cell(perCall.detail['Redis p99 µs'])} µs |`,
      '',
      `Redis / in-process per call: **${ratioCell(perCall)}**.`,
      '',
    );
  } else out.push(`Per-call store cost not measured: ${h.skipped?.['redis-per-call'] ?? 'no headline row'}.`, '');
  return [...out, ...EARLIER_CLAIM, ''];
}

function cell(s: Spread | undefined): string {
  if (!s) return 'n/a';
  return s.min === s.max ? `${s.median}` : `${s.median} (${s.min}–${s.max})`;
}

function ratioCell(r: HeadlineRow): string {
  return `${r.ratio.median}× (${r.ratio.min}–${r.ratio.max}×)`;
}

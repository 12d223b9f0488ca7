/**
 * Replicas under load (issue 19): N concurrent sessions, each sending turns
 * one after another (every turn one tool call and an answer, so two provider
 * requests), against real `tool-search gateway` processes: one replica with
 * in-process state, one replica with Redis state, and two replicas with Redis
 * behind a round-robin balancer (a session's turns alternate). Throughput,
 * p50/p99 per turn and errors per setup, in one run on one machine; the
 * provider is the scripted mock in this process. Beside it, the cost of the
 * Redis store per tool call: `run.call` through the preset with an in-process
 * store and with Redis, alternating blocks so both see the same load.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import type { ToolSearchConfig } from '@tool-search/config';
import { startReplicaSet, type ReplicaSet } from '@tool-search/e2e';
import { startMockOpenAI } from '@tool-search/mock-openai';
import { createToolSearchKernel } from '@tool-search/preset';
import { connectRedisState, MemoryStateStore, type StateStore } from '@tool-search/state';
import { redisServerAvailable, startRedisServer, type RedisServerHandle } from '@tool-search/testing';
import { driveSessions, turnStats } from './load-driver.js';
import { median, msSince, percentile, round } from './stats.js';

export interface ReplicaLoadPlan {
  readonly sessions: number;
  readonly turns: number;
  /** `run.call`s per store in the per-call comparison. */
  readonly calls: number;
}

export const REPLICA_LOAD_FULL: ReplicaLoadPlan = { sessions: 20, turns: 5, calls: 3000 };
export const REPLICA_LOAD_QUICK: ReplicaLoadPlan = { sessions: 2, turns: 2, calls: 100 };

export interface ReplicaSetupRow {
  readonly setup: string;
  readonly replicas: number;
  readonly state: 'memory' | 'redis';
  readonly turns: number;
  readonly errors: number;
  readonly turnsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export interface StoreCallRow {
  readonly state: 'memory' | 'redis';
  readonly calls: number;
  /** Median of one `run.call`, µs. */
  readonly callUs: number;
  readonly p99Us: number;
}

export interface ReplicaLoadResult {
  readonly plan: ReplicaLoadPlan;
  readonly skipped?: string;
  readonly setups: readonly ReplicaSetupRow[];
  readonly perCall: readonly StoreCallRow[];
  /** Redis / memory, median per call. */
  readonly perCallRatio?: number;
}

const CLI_DIST = fileURLToPath(new URL('../../packages/cli/dist/bin.js', import.meta.url));
const FAKE_TOOLS = 100;

export async function measureReplicaLoad(plan: ReplicaLoadPlan): Promise<ReplicaLoadResult> {
  if (!redisServerAvailable())
    return {
      plan,
      skipped: 'redis-server is not installed (apt-get install -y redis-server)',
      setups: [],
      perCall: [],
    };
  const redis = await startRedisServer();
  try {
    const perCall = await measurePerCall(redis, plan.calls);
    const redisRow = perCall.find((row) => row.state === 'redis')!;
    const memoryRow = perCall.find((row) => row.state === 'memory')!;
    const perCallRatio = round(redisRow.callUs / memoryRow.callUs, 2);
    if (!existsSync(CLI_DIST))
      return {
        plan,
        skipped: `the built CLI is missing (${CLI_DIST}); run \`npm run build\``,
        setups: [],
        perCall,
        perCallRatio,
      };
    const setups = await measureSetups(redis, plan);
    return { plan, setups, perCall, perCallRatio };
  } finally {
    await redis.stop();
  }
}

async function measureSetups(redis: RedisServerHandle, plan: ReplicaLoadPlan): Promise<ReplicaSetupRow[]> {
  const provider = await startMockOpenAI();
  const dir = await mkdtemp(join(tmpdir(), 'tool-search-replica-load-'));
  const base: ToolSearchConfig = {
    plugins: { 'fake-catalog': { tools: FAKE_TOOLS, core: true } },
    tools: { toolSearch: false, loopDetection: { enabled: true } },
    provider: { baseURL: provider.url, apiKey: 'mock', model: 'mock-model' },
  };
  const configFile = async (name: string, config: ToolSearchConfig) => {
    const file = join(dir, `${name}.json`);
    await writeFile(file, JSON.stringify(config));
    return file;
  };
  const memoryConfig = await configFile('memory', base);
  const redisConfig = await configFile('redis', {
    ...base,
    state: { redis: { url: redis.url, keyPrefix: `bench-${process.pid}:` } },
  });
  const rows: ReplicaSetupRow[] = [];
  const start = (file: string, count: number) =>
    startReplicaSet(
      Array.from({ length: count }, (_, i) => `bench-${i}`),
      () => ({ args: ['gateway', '--config', file, '--approvals', 'deny'] }),
    );
  try {
    const memory = await start(memoryConfig, 1);
    try {
      rows.push(await measureSetup('1 replica, in-process state', memory, 1, 'memory', plan));
    } finally {
      await memory.stop();
    }
    // One pair of Redis replicas serves both Redis setups: the first replica asked alone (the second sits idle), then
    // both behind the balancer. A replica start is about a second of CPU; an idle replica takes none from the other.
    const pair = await start(redisConfig, 2);
    try {
      rows.push(await measureSetup('1 replica, Redis state', pair, 1, 'redis', plan));
      rows.push(await measureSetup('2 replicas, Redis state, round-robin', pair, 2, 'redis', plan));
    } finally {
      await pair.stop();
    }
  } finally {
    await provider.close();
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}

/** `count` replicas of `set` under load: the first one asked directly, or the first `count` behind the balancer. */
async function measureSetup(
  setup: string,
  set: ReplicaSet,
  count: number,
  state: 'memory' | 'redis',
  plan: ReplicaLoadPlan,
): Promise<ReplicaSetupRow> {
  // One replica is asked directly: the balancer's hop is part of the two-replica setup only.
  const baseURL = count > 1 ? `${set.balancer.url}/v1` : set.replicas[0]!.url;
  const client = new OpenAI({ baseURL, apiKey: 'unused-on-loopback', maxRetries: 0, timeout: 30_000 });
  // One warm-up turn per replica: the first request pays for the tokenizer and the run cache.
  for (let i = 0; i < count; i++) await turn(client, `warm-${i}`, 0);
  const sample = await driveSessions(plan, async (session, index) =>
    (await turn(client, `load-${session}`, index)) ? undefined : 'no tool result in the answer',
  );
  return { setup, replicas: count, state, ...turnStats([sample]) };
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

/** `run.call` through the preset with each store, in alternating blocks. */
async function measurePerCall(redis: RedisServerHandle, calls: number): Promise<StoreCallRow[]> {
  // Loop detection on (it is off by default): its history read before and write after each call is the store's real per-call cost.
  const config: ToolSearchConfig = {
    plugins: { 'fake-catalog': { tools: FAKE_TOOLS, core: true } },
    tools: { loopDetection: { enabled: true } },
  };
  const stores: { state: 'memory' | 'redis'; store: StateStore }[] = [
    { state: 'memory', store: new MemoryStateStore() },
    { state: 'redis', store: await connectRedisState({ url: redis.url, keyPrefix: `bench-call-${process.pid}:` }) },
  ];
  const setups = await Promise.all(
    stores.map(async ({ state, store }) => {
      const { kernel } = await createToolSearchKernel(config, { state: store });
      const run = await kernel.createRun({ provider: 'openai', model: 'gpt-4.1', sessionId: `bench-${state}` });
      return { state, store, kernel, run, samples: [] as number[] };
    }),
  );
  try {
    const block = 100;
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

/** The BENCHMARKS.md section (numbered by the report). */
export function replicaLoadSection(r: ReplicaLoadResult, heading: string): string[] {
  const out = [heading, ''];
  if (r.perCall.length) {
    out.push(
      'Cost of the shared store per tool call: `run.call` through the preset with loop detection on (its history is read before',
      'and written after every call), telemetry counters and every other guard, with an in-process store and with Redis on',
      `loopback, ${r.plan.calls} calls each in alternating blocks of 100.`,
      '',
      '| state | calls | median per call | p99 |',
      '|---|---|---|---|',
      ...r.perCall.map((row) => `| ${row.state} | ${row.calls} | ${row.callUs} µs | ${row.p99Us} µs |`),
      '',
      `Redis / in-process per call: **${r.perCallRatio}×**.`,
      '',
    );
  }
  if (r.skipped) return [...out, `Replica load skipped: ${r.skipped}.`, ''];
  return [
    ...out,
    `${r.plan.sessions} concurrent sessions × ${r.plan.turns} turns each (every turn: one \`read\` call and an answer, two provider requests; loop detection on), against real`,
    '`tool-search gateway` processes; the scripted provider runs in the bench process, all on the same 2 cores.',
    '',
    '| setup | turns | errors | turns/s | p50 per turn | p99 per turn |',
    '|---|---|---|---|---|---|',
    ...r.setups.map(
      (row) =>
        `| ${row.setup} | ${row.turns} | ${row.errors} | ${row.turnsPerSecond} | ${row.p50Ms} ms | ${row.p99Ms} ms |`,
    ),
    '',
    ...ratioLine(r.setups),
  ];
}

function ratioLine(rows: readonly ReplicaSetupRow[]): string[] {
  const one = rows.find((row) => row.replicas === 1 && row.state === 'memory');
  const two = rows.find((row) => row.replicas === 2);
  const oneRedis = rows.find((row) => row.replicas === 1 && row.state === 'redis');
  if (!one || !two || !oneRedis) return [];
  return [
    `Throughput, 1 replica with Redis / in-process: **${round(oneRedis.turnsPerSecond / one.turnsPerSecond, 2)}×**; 2 replicas with Redis / 1 in-process: **${round(two.turnsPerSecond / one.turnsPerSecond, 2)}×**`,
    '(two replicas share the same two cores as the provider and the client here, so this shows the cost of sharing, not the gain of a second machine).',
    '',
  ];
}

// A cron job fires once per slot across two real gateway replicas sharing a real redis-server; a background exec
// session stays on the replica that started it.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startMockOpenAI, type MockOpenAI, type RecordedRequest } from '@tool-search/mock-openai';
import { startRedisServer, type RedisServerHandle } from '@tool-search/testing';
import { scriptedTurn } from '../src/gateway-replicas.js';
import { startReplicaSet, type Replica, type ReplicaSet, type RoundRobin } from '../src/replicas.js';
import { REPLICA_BUDGET_MS, REPLICA_START_MS, replicaPrerequisites } from './replica-prerequisites.js';

const { built, redis: haveRedis } = replicaPrerequisites('the cron replica e2e test');

const TICK = `cron tick ${process.pid}`;
const EVERY_MS = 2000;
const steps = (list: readonly object[]) => `tool search qa steps ${JSON.stringify(list)}`;

let redis: RedisServerHandle;
let mock: MockOpenAI;
let set: ReplicaSet | undefined;
let replicas: readonly Replica[] = [];
let balancer: RoundRobin;

beforeAll(async () => {
  if (!built || !haveRedis) return;
  redis = await startRedisServer();
  mock = await startMockOpenAI();
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'cron-replicas-')));
  mkdirSync(join(base, 'workspace'));
  const config = {
    provider: { baseURL: mock.url, apiKey: 'mock', model: 'mock-model' },
    plugins: { core: { workspace: join(base, 'workspace') } },
    tools: { toolSearch: false, exec: { security: 'full', ask: 'off' } },
    state: { redis: { url: redis.url, keyPrefix: `cron-e2e-${process.pid}:` } },
    cron: { minIntervalMs: 1000 }, // the job fires every 2 s (the default minimum is 60 s)
  };
  writeFileSync(join(base, 'tool-search.json'), JSON.stringify(config));
  // Each replica has a state folder of its own: a job only reaches the other one through Redis.
  set = await startReplicaSet(['gw-a', 'gw-b'], (id) => ({
    args: ['gateway', '--config', join(base, 'tool-search.json'), '--approvals', 'deny'],
    cwd: base,
    env: { TOOL_SEARCH_STATE_DIR: join(base, `state-${id}`) },
    startTimeoutMs: REPLICA_START_MS,
  }));
  ({ replicas, balancer } = set);
}, REPLICA_BUDGET_MS);

afterAll(async () => {
  await set?.stop();
  await mock?.close();
  await redis?.stop();
});

/** One scripted model turn through the balancer; the cron tool's last result, parsed. */
async function cron(args: Record<string, unknown>): Promise<Record<string, any>> {
  const client = new OpenAI({ baseURL: `${balancer.url}/v1`, apiKey: 'unused-on-loopback', maxRetries: 0 });
  const completion = await client.chat.completions.create({
    model: 'mock-model',
    messages: [{ role: 'user', content: steps([{ tool: 'cron', args }]) }],
  });
  const text = (completion.choices[0]?.message.content ?? '').replace(/^Steps done\. Last result: /, '');
  return JSON.parse(text) as Record<string, any>;
}

/** Cron turns the upstream saw: requests whose last user message is the job's payload. */
function cronTurns(): number {
  const lastUser = (r: RecordedRequest) =>
    ((r.body as { messages?: { role: string; content: unknown }[] } | undefined)?.messages ?? [])
      .filter((m) => m.role === 'user')
      .at(-1)?.content;
  return mock.requests.filter((r) => r.path === '/v1/chat/completions' && lastUser(r) === TICK).length;
}

describe.skipIf(!built || !haveRedis)('cron and exec across two gateway replicas', () => {
  it('a job added through one replica fires exactly once per slot across both', async () => {
    const { job } = await cron({
      action: 'add',
      job: {
        name: 'tick',
        schedule: { kind: 'every', everyMs: EVERY_MS },
        payload: { kind: 'agentTurn', message: TICK },
      },
    });
    expect(balancer.routed).toEqual([0]); // added on gw-a
    const listed = await cron({ action: 'list' }); // served by gw-b
    expect(listed.jobs.map((j: { jobId: string }) => j.jobId)).toEqual([job.jobId]);
    await vi.waitFor(() => expect(cronTurns()).toBeGreaterThanOrEqual(4), { timeout: 30_000, interval: 250 });
    await cron({ action: 'update', jobId: job.jobId, patch: { enabled: false } });
    // Settled: every turn the upstream saw is one logged run (a run is logged after its turn).
    let runs: { scheduledAt: string; replica: string; trigger: string; status: string }[] = [];
    await vi.waitFor(
      async () => {
        runs = (await cron({ action: 'runs', jobId: job.jobId, limit: 100 })).runs;
        expect(runs.length).toBe(cronTurns());
      },
      { timeout: 15_000, interval: 500 },
    );
    expect(runs.length).toBeGreaterThanOrEqual(4);
    expect(
      runs.every((r) => r.trigger === 'schedule' && r.status === 'ok' && ['gw-a', 'gw-b'].includes(r.replica)),
    ).toBe(true);
    const slots = runs.map((r) => Date.parse(r.scheduledAt)).sort((x, y) => x - y);
    expect(new Set(slots).size).toBe(slots.length); // no slot ran twice
    expect(slots.slice(1).map((slot, i) => slot - slots[i]!)).toEqual(slots.slice(1).map(() => EVERY_MS)); // and none was skipped
  }, 90_000);

  it('a background exec session stays on its replica: process through the other one names the owner', async () => {
    const first = balancer.routed.length;
    const owner = replicas[first % 2]!.id;
    const started = await scriptedTurn(balancer.url, 'exec-owner', [
      { tool: 'exec', args: { command: 'sleep 1; echo finished', background: true } },
    ]);
    const sessionId = /\(session ([0-9a-f-]{36})\)/.exec(started.content)?.[1];
    expect(sessionId, started.content).toBeDefined();
    const elsewhere = await scriptedTurn(balancer.url, 'exec-owner', [
      { tool: 'process', args: { action: 'poll', sessionId } },
    ]);
    expect(balancer.routed.slice(first)).toEqual([first % 2, (first + 1) % 2]);
    expect(elsewhere.toolCalls).toEqual([expect.objectContaining({ name: 'process', status: 'error' })]);
    expect(elsewhere.content).toContain('PROCESS_ON_OTHER_REPLICA');
    expect(elsewhere.content).toContain(`replica "${owner}"`);
    const home = await scriptedTurn(balancer.url, 'exec-owner', [
      { tool: 'process', args: { action: 'poll', sessionId } },
    ]);
    expect(home.toolCalls).toEqual([expect.objectContaining({ name: 'process', status: 'ok' })]);
  }, 60_000);
});

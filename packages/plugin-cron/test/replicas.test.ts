// Cron across replicas: two gateways' cron plugins over one shared store (in-process views, and a real redis-server).
// Most of these tests wait for whole-second slots, so every suite runs its tests side by side (describe.concurrent):
// each test has its own stores (its own Redis key prefix) and closes its own replicas when it ends.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi, type TestContext } from 'vitest';
import OpenAI from 'openai';
import { createKernel, ToolSearchError, type Kernel, type ToolCallOutcome } from '@tool-search/kernel';
import { openaiUpstream, sessionTurnRunner } from '@tool-search/gateway';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { createSessionHost, type SessionHost } from '@tool-search/sessions';
import { sessionsPlugin } from '@tool-search/plugin-sessions';
import { connectRedisState, MemoryStateStore, type StateStore, StateErrors } from '@tool-search/state';
import { redisServerAvailable, startRedisServer, type RedisServerHandle } from '@tool-search/testing';
import { cronPlugin, slotOf } from '@tool-search/plugin-cron';
import { CronErrors } from '../src/errors.js';

const haveRedis = redisServerAvailable();
if (!haveRedis)
  console.warn(
    'skipping the Redis half of the cron replica tests: redis-server is not installed (apt-get install -y redis-server)',
  );

let mock: MockOpenAI;
let redis: RedisServerHandle | undefined;
beforeAll(async () => {
  mock = await startMockOpenAI();
  if (haveRedis) redis = await startRedisServer();
});
afterAll(async () => {
  await mock.close();
  await redis?.stop();
});

interface Replica {
  readonly id: string;
  readonly host: SessionHost;
  readonly kernel: Kernel;
  cron(args: Record<string, unknown>): Promise<ToolCallOutcome>;
  /** Cron sessions (one per run) this replica ran. */
  cronSessions(): Promise<number>;
}

/** What a test closes when it ends: its replicas' kernels, then their stores (the test context's own hook). */
type Finished = TestContext['onTestFinished'];

function replica(finished: Finished, state: StateStore, resyncMs?: number): Replica {
  const host = createSessionHost();
  const kernel = createKernel({
    plugins: [
      sessionsPlugin({ host }),
      cronPlugin({
        host,
        dir: mkdtempSync(join(tmpdir(), 'cron-')),
        state,
        jobsIn: 'state',
        minIntervalMs: 1000, // the tests' jobs fire every second or two
        ...(resyncMs ? { resyncMs } : {}),
      }),
    ],
  });
  finished(async () => {
    await kernel.close();
    await state.close();
  });
  host.bind(
    sessionTurnRunner({
      kernel,
      mode: 'direct',
      countTokens: false,
      upstream: openaiUpstream(new OpenAI({ baseURL: mock.url, apiKey: 'mock', maxRetries: 0 }), 'mock-model'),
    }),
  );
  return {
    id: state.replicaId,
    host,
    kernel,
    async cron(args) {
      const run = await kernel.createRun({ sessionId: 'owner' });
      try {
        return await run.call('cron', args);
      } finally {
        await run.close();
      }
    },
    cronSessions: async () => (await host.store.list()).filter((s) => s.kind === 'cron').length,
  };
}

let prefixes = 0;
/** Two replicas, both up (subscribed and loaded: a cron call waits for that), and a way to start one more. */
async function pair(
  finished: Finished,
  kind: 'memory' | 'redis',
): Promise<[Replica, Replica, (replicaId: string) => Promise<Replica>]> {
  let join: (replicaId: string) => Promise<Replica>;
  if (kind === 'memory') {
    const a = new MemoryStateStore({ replicaId: 'gw-a' });
    join = async (replicaId) => replica(finished, replicaId === 'gw-a' ? a : a.asReplica(replicaId));
  } else {
    const keyPrefix = `cron-test-${process.pid}-${prefixes++}:`;
    join = async (replicaId) => replica(finished, await connectRedisState({ url: redis!.url, keyPrefix, replicaId }));
  }
  const replicas = [await join('gw-a'), await join('gw-b')] as const;
  await Promise.all(replicas.map((r) => r.cron({ action: 'status' })));
  return [...replicas, join];
}

function data(outcome: ToolCallOutcome): Record<string, any> {
  if (outcome.status !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(outcome)}`);
  return outcome.result.structuredContent as Record<string, any>;
}
const code = (outcome: ToolCallOutcome) => (outcome.status === 'error' ? outcome.error.code : outcome.status);
const yearly = { kind: 'cron', expr: '0 9 1 1 *', tz: 'Europe/Berlin' };
const ids = (jobs: { jobId: string }[]) => jobs.map((j) => j.jobId);

describe.concurrent.each(haveRedis ? (['memory', 'redis'] as const) : (['memory'] as const))(
  'cron over a shared %s store',
  (kind) => {
    it('a job added on one replica exists on the other; updates and removal reach both', async ({ onTestFinished }) => {
      const [a, b] = await pair(onTestFinished, kind);
      const job = data(
        await a.cron({
          action: 'add',
          job: { name: 'report', schedule: yearly, payload: { kind: 'agentTurn', message: 'report' } },
        }),
      ).job;
      await vi.waitFor(async () => expect(ids(data(await b.cron({ action: 'list' })).jobs)).toEqual([job.jobId]), {
        timeout: 10_000,
        interval: 50,
      });
      expect(data(await b.cron({ action: 'status' }))).toMatchObject({ store: kind, replica: 'gw-b', jobs: 1 });
      data(await b.cron({ action: 'update', jobId: job.jobId, patch: { enabled: false } }));
      await vi.waitFor(
        async () =>
          expect(data(await a.cron({ action: 'list', includeDisabled: true })).jobs[0]).toMatchObject({
            enabled: false,
          }),
        { timeout: 10_000, interval: 50 },
      );
      expect(data(await a.cron({ action: 'list' })).jobs).toEqual([]);
      data(await a.cron({ action: 'remove', jobId: job.jobId }));
      await vi.waitFor(
        async () => expect(code(await b.cron({ action: 'runs', jobId: job.jobId }))).toBe(CronErrors.CRON_JOB_UNKNOWN),
        { timeout: 10_000, interval: 50 },
      );
    });

    it('a replica started later loads the jobs already in the store', async ({ onTestFinished }) => {
      const [a, , join] = await pair(onTestFinished, kind);
      const job = data(
        await a.cron({ action: 'add', job: { schedule: yearly, payload: { kind: 'agentTurn', message: 'x' } } }),
      ).job;
      const late = await join('gw-c');
      expect(ids(data(await late.cron({ action: 'list' })).jobs)).toEqual([job.jobId]);
    });

    it('each scheduled slot runs exactly once across both replicas; with one gone the other runs them', async ({
      onTestFinished,
    }) => {
      const [a, b] = await pair(onTestFinished, kind);
      const { jobId } = data(
        await a.cron({
          action: 'add',
          job: { schedule: { kind: 'every', everyMs: 1000 }, payload: { kind: 'agentTurn', message: 'tick' } },
        }),
      ).job;
      await vi.waitFor(async () => expect(ids(data(await b.cron({ action: 'list' })).jobs)).toEqual([jobId]), {
        timeout: 10_000,
        interval: 50,
      });
      const runs = async () =>
        data(await b.cron({ action: 'runs', jobId, limit: 500 })).runs as {
          scheduledAt: string;
          replica: string;
          trigger: string;
          status: string;
        }[];
      await vi.waitFor(async () => expect((await runs()).length).toBeGreaterThanOrEqual(3), {
        timeout: 20_000,
        interval: 200,
      });
      await a.kernel.close(); // replica A goes away; B keeps the schedule
      await vi.waitFor(
        async () => expect((await runs()).filter((r) => r.replica === 'gw-b').length).toBeGreaterThanOrEqual(2),
        { timeout: 20_000, interval: 200 },
      );
      data(await b.cron({ action: 'update', jobId, patch: { enabled: false } }));
      // Settled: every turn either replica ran is one logged run, and no slot appears twice.
      await vi.waitFor(
        async () => expect((await a.cronSessions()) + (await b.cronSessions())).toBe((await runs()).length),
        { timeout: 10_000, interval: 200 },
      );
      const log = await runs();
      expect(log.every((r) => r.trigger === 'schedule' && r.status === 'ok')).toBe(true);
      expect(new Set(log.map((r) => r.scheduledAt)).size).toBe(log.length);
      expect(log.every((r) => Date.parse(r.scheduledAt) % 1000 === 0)).toBe(true);
    }, 40_000);
  },
);

/** The store with one operation replaced (the rest bound to it). */
function withOverride<T extends object>(store: T, name: string, replacement: unknown): T {
  return new Proxy(store, {
    get(target, prop) {
      if (prop === name) return replacement;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** A replica's store whose change messages never arrive. */
const deafened = (store: StateStore) => withOverride(store, 'subscribe', async () => async () => undefined);

describe.skipIf(!haveRedis).concurrent('cron while Redis is down', () => {
  it("list answers from the replica's copy, changes fail with STATE_UNAVAILABLE, no slot runs without its lock; runs resume after", async ({
    onTestFinished,
  }) => {
    const own = await startRedisServer();
    try {
      const state = await connectRedisState({
        url: own.url,
        keyPrefix: 'cron-outage:',
        replicaId: 'gw-a',
        commandTimeoutMs: 500,
      });
      const a = replica(onTestFinished, state);
      const { jobId } = data(
        await a.cron({
          action: 'add',
          job: { schedule: { kind: 'every', everyMs: 1000 }, payload: { kind: 'agentTurn', message: 'tick' } },
        }),
      ).job;
      await own.stop(); // before the first slot (a whole second past the next whole second)
      expect(ids(data(await a.cron({ action: 'list' })).jobs)).toEqual([jobId]);
      expect(
        code(await a.cron({ action: 'add', job: { schedule: yearly, payload: { kind: 'agentTurn', message: 'x' } } })),
      ).toBe(StateErrors.STATE_UNAVAILABLE);
      expect(code(await a.cron({ action: 'update', jobId, patch: { enabled: false } }))).toBe(
        StateErrors.STATE_UNAVAILABLE,
      );
      expect(code(await a.cron({ action: 'runs', jobId }))).toBe(StateErrors.STATE_UNAVAILABLE);
      await new Promise((resolve) => setTimeout(resolve, 2500)); // two or three slots come and go without a lock
      expect(await a.cronSessions()).toBe(0);
      await own.start(); // empty; the replica still schedules its copy of the job
      await vi.waitFor(async () => expect(await a.cronSessions()).toBeGreaterThanOrEqual(1), {
        timeout: 15_000,
        interval: 250,
      });
      data(
        await a.cron({ action: 'add', job: { schedule: yearly, payload: { kind: 'agentTurn', message: 'again' } } }),
      );
      // The restarted Redis lost the job: the store is the truth, so the replica drops its copy after that run.
      await vi.waitFor(async () => expect(ids(data(await a.cron({ action: 'list' })).jobs)).not.toContain(jobId), {
        timeout: 10_000,
        interval: 250,
      });
    } finally {
      await own.stop();
    }
  }, 40_000);
});

describe.concurrent('cron slots and locks', () => {
  it('replicas firing a few ms apart name the same slot', () => {
    const anchor = Date.parse('2026-12-01T12:00:00.400Z');
    const every = { kind: 'every', everyMs: 2000 } as const;
    const slot = Date.parse('2026-12-01T12:00:05.000Z');
    expect(slotOf(every, anchor, slot + 3)).toBe(slot);
    expect(slotOf(every, anchor, slot + 480)).toBe(slot);
    expect(slotOf(every, anchor, slot + 2000)).toBe(slot + 2000);
    expect(slotOf({ kind: 'cron', expr: '* * * * * *' }, anchor, slot + 999)).toBe(slot);
    expect(slotOf({ kind: 'at', at: '2026-12-02T00:00:00.000Z' }, anchor, slot)).toBe(
      Date.parse('2026-12-02T00:00:00.000Z'),
    );
  });

  it('a replica that missed the change messages catches up on its periodic reload', async ({ onTestFinished }) => {
    const shared = new MemoryStateStore({ replicaId: 'gw-a' });
    const deaf = deafened(shared.asReplica('gw-b'));
    const a = replica(onTestFinished, shared);
    const b = replica(onTestFinished, deaf, 200);
    const { jobId } = data(
      await a.cron({ action: 'add', job: { schedule: yearly, payload: { kind: 'agentTurn', message: 'x' } } }),
    ).job;
    await vi.waitFor(async () => expect(ids(data(await b.cron({ action: 'list' })).jobs)).toEqual([jobId]), {
      timeout: 5_000,
      interval: 100,
    });
    data(await a.cron({ action: 'remove', jobId }));
    await vi.waitFor(async () => expect(data(await b.cron({ action: 'list' })).jobs).toEqual([]), {
      timeout: 5_000,
      interval: 100,
    });
  });

  it('a job id another replica just added is found in the store before its change message arrives', async ({
    onTestFinished,
  }) => {
    const shared = new MemoryStateStore({ replicaId: 'gw-a' });
    const deaf = deafened(shared.asReplica('gw-b'));
    const a = replica(onTestFinished, shared);
    const b = replica(onTestFinished, deaf); // default resync: a minute, far past this test
    const { jobId } = data(
      await a.cron({ action: 'add', job: { schedule: yearly, payload: { kind: 'agentTurn', message: 'x' } } }),
    ).job;
    expect(data(await b.cron({ action: 'update', jobId, patch: { name: 'renamed on b' } })).job).toMatchObject({
      jobId,
      name: 'renamed on b',
    });
    await vi.waitFor(
      async () => expect(data(await a.cron({ action: 'list' })).jobs[0]).toMatchObject({ name: 'renamed on b' }),
      { timeout: 10_000, interval: 50 },
    );
  });

  it('a store that cannot take the lock skips the slot: nothing runs (fail closed)', async ({ onTestFinished }) => {
    const state = new MemoryStateStore({ replicaId: 'gw-a' });
    const locks = { tried: 0 };
    const broken = withOverride(
      state,
      'set',
      async (key: string, ...rest: [string, { ttlMs: number; ifAbsent?: boolean }]) => {
        if (!key.startsWith('cron:lock:')) return state.set(key, ...rest);
        locks.tried++;
        throw new ToolSearchError(StateErrors.STATE_UNAVAILABLE, 'redis is down');
      },
    );
    const a = replica(onTestFinished, broken);
    const { jobId } = data(
      await a.cron({
        action: 'add',
        job: { schedule: { kind: 'every', everyMs: 1000 }, payload: { kind: 'agentTurn', message: 'tick' } },
      }),
    ).job;
    await vi.waitFor(() => expect(locks.tried).toBeGreaterThanOrEqual(2), { timeout: 10_000, interval: 100 });
    expect(data(await a.cron({ action: 'runs', jobId })).runs).toEqual([]);
    expect(await a.cronSessions()).toBe(0);
  });
});

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi, type TestContext } from 'vitest';
import OpenAI from 'openai';
import { createKernel, type Kernel, type ToolCallOutcome } from '@tool-search/kernel';
import { openaiUpstream, sessionTurnRunner } from '@tool-search/gateway';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { createSessionHost, type SessionHost } from '@tool-search/sessions';
import { sessionsPlugin } from '@tool-search/plugin-sessions';
import { cronPlugin } from '@tool-search/plugin-cron';

const NO_SCRIPT = 'Mock model: no script found in the last user message.';
let mock: MockOpenAI;
beforeAll(async () => {
  mock = await startMockOpenAI();
});
afterAll(async () => {
  await mock.close();
});

/** A gateway's kernel with cron, closed when the test that made it ends (its context's own hook: tests run side by side). */
function setup(
  finished: TestContext['onTestFinished'],
  dir = mkdtempSync(join(tmpdir(), 'cron-')),
): {
  kernel: Kernel;
  host: SessionHost;
  dir: string;
  cron: (args: Record<string, unknown>, sessionId?: string) => Promise<ToolCallOutcome>;
} {
  const host = createSessionHost();
  // The tests' jobs fire every second: minIntervalMs down to its floor (the default, 60 s, is tested in limits.test.ts).
  const kernel = createKernel({ plugins: [sessionsPlugin({ host }), cronPlugin({ host, dir, minIntervalMs: 1000 })] });
  finished(() => kernel.close());
  host.bind(
    sessionTurnRunner({
      kernel,
      mode: 'direct',
      countTokens: false,
      upstream: openaiUpstream(new OpenAI({ baseURL: mock.url, apiKey: 'mock', maxRetries: 0 }), 'mock-model'),
    }),
  );
  const cron = async (args: Record<string, unknown>, sessionId = 'owner') => {
    const run = await kernel.createRun({ sessionId });
    try {
      return await run.call('cron', args);
    } finally {
      await run.close();
    }
  };
  return { kernel, host, dir, cron };
}

function data(outcome: ToolCallOutcome): Record<string, any> {
  if (outcome.status !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(outcome)}`);
  return outcome.result.structuredContent as Record<string, any>;
}

const code = (outcome: ToolCallOutcome) => (outcome.status === 'error' ? outcome.error.code : outcome.status);
const yearly = { kind: 'cron', expr: '0 9 1 1 *', tz: 'Europe/Berlin' };

// Each test has its own kernel and folder; several wait for scheduled slots, so they run side by side.
describe.concurrent('cron', () => {
  it('add, list, update { jobId, patch }, remove; jobs persist in the folder and load again', async ({
    onTestFinished,
  }) => {
    const { cron, dir } = setup(onTestFinished);
    const added = data(
      await cron({
        action: 'add',
        job: { name: 'new year', schedule: yearly, payload: { kind: 'agentTurn', message: 'happy new year' } },
      }),
    ).job;
    expect(added).toMatchObject({
      name: 'new year',
      enabled: true,
      sessionTarget: 'isolated',
      createdBy: 'owner',
      schedule: yearly,
    });
    expect(new Date(added.state.nextRunAt).getUTCHours()).toBe(8); // 09:00 in Berlin in January
    expect(JSON.parse(readFileSync(join(dir, 'jobs.json'), 'utf8')).jobs[0].jobId).toBe(added.jobId);

    const again = setup(onTestFinished, dir); // a restarted gateway
    expect(data(await again.cron({ action: 'list' })).jobs.map((j: { jobId: string }) => j.jobId)).toEqual([
      added.jobId,
    ]);
    const patched = data(
      await again.cron({ action: 'update', jobId: added.jobId, patch: { enabled: false, name: 'paused' } }),
    ).job;
    expect(patched).toMatchObject({ enabled: false, name: 'paused', payload: { message: 'happy new year' } });
    expect(patched.state.nextRunAt).toBeUndefined();
    expect(data(await again.cron({ action: 'list' })).jobs).toEqual([]);
    expect(data(await again.cron({ action: 'list', includeDisabled: true })).jobs).toHaveLength(1);
    expect(data(await again.cron({ action: 'remove', jobId: added.jobId }))).toMatchObject({ ok: true });
    expect(code(await again.cron({ action: 'runs', jobId: added.jobId }))).toBe('CRON_JOB_UNKNOWN');
    expect(JSON.parse(readFileSync(join(dir, 'jobs.json'), 'utf8')).jobs).toEqual([]);
  });

  it('run starts a gateway turn in an isolated cron session under the session that added the job', async ({
    onTestFinished,
  }) => {
    const { cron, host } = setup(onTestFinished);
    const { jobId } = data(
      await cron({ action: 'add', job: { schedule: yearly, payload: { kind: 'agentTurn', message: 'report' } } }),
    ).job;
    expect(data(await cron({ action: 'run', jobId }))).toMatchObject({ ok: true, enqueued: true });
    await vi.waitFor(async () => expect(data(await cron({ action: 'runs', jobId })).runs).toHaveLength(1), {
      timeout: 20_000,
    });
    const [run] = data(await cron({ action: 'runs', jobId })).runs;
    expect(run).toMatchObject({ jobId, trigger: 'manual', status: 'ok', reply: NO_SCRIPT });
    const session = (await host.store.list()).find((s) => s.key === run.sessionKey)!;
    expect(session).toMatchObject({ kind: 'cron', parentId: 'owner', turns: 1 });
    expect((await host.store.transcript(session.sessionId)).map((l) => l.content)).toEqual(['report', NO_SCRIPT]);
    expect(data(await cron({ action: 'list' })).jobs[0].state).toMatchObject({ runs: 1, lastStatus: 'ok' });
  });

  it('croner fires a one-time job at its time; the job is removed after it ran', async ({ onTestFinished }) => {
    const { cron } = setup(onTestFinished);
    const at = new Date(Date.now() + 1500).toISOString();
    const { jobId } = data(
      await cron({
        action: 'add',
        job: { schedule: { kind: 'at', at }, payload: { kind: 'agentTurn', message: 'ping' } },
      }),
    ).job;
    expect(data(await cron({ action: 'status' }))).toMatchObject({ running: true, jobs: 1, enabled: 1 });
    await vi.waitFor(async () => expect(data(await cron({ action: 'list', includeDisabled: true })).jobs).toEqual([]), {
      timeout: 20_000,
      interval: 200,
    });
    expect(code(await cron({ action: 'run', jobId }))).toBe('CRON_JOB_UNKNOWN');
  });

  it('an every job runs again and again on its interval, each run logged', async ({ onTestFinished }) => {
    const { cron } = setup(onTestFinished);
    const { jobId } = data(
      await cron({
        action: 'add',
        job: { schedule: { kind: 'every', everyMs: 1000 }, payload: { kind: 'agentTurn', message: 'tick' } },
      }),
    ).job;
    await vi.waitFor(
      async () => expect(data(await cron({ action: 'runs', jobId })).runs.length).toBeGreaterThanOrEqual(2),
      { timeout: 20_000, interval: 200 },
    );
    const runs = data(await cron({ action: 'runs', jobId })).runs as {
      trigger: string;
      status: string;
      sessionKey: string;
    }[];
    expect(runs.every((r) => r.trigger === 'schedule' && r.status === 'ok')).toBe(true);
    expect(new Set(runs.map((r) => r.sessionKey)).size).toBe(runs.length); // isolated: a new session per run
    await cron({ action: 'remove', jobId });
  });

  it('cron update accepts id as well as jobId (and the other job actions too)', async ({ onTestFinished }) => {
    const { cron } = setup(onTestFinished);
    const added = data(
      await cron({
        action: 'add',
        job: { name: 'by id', schedule: yearly, payload: { kind: 'agentTurn', message: 'x' } },
      }),
    ).job;
    expect(data(await cron({ action: 'update', id: added.jobId, patch: { name: 'renamed by id' } })).job).toMatchObject(
      { jobId: added.jobId, name: 'renamed by id' },
    );
    expect(
      data(await cron({ action: 'update', jobId: added.jobId, patch: { name: 'renamed by jobId' } })).job.name,
    ).toBe('renamed by jobId');
    expect(data(await cron({ action: 'runs', id: added.jobId })).jobId).toBe(added.jobId);
    expect(code(await cron({ action: 'update', id: added.jobId, jobId: 'other', patch: {} }))).toBe(
      'TOOL_ARGUMENTS_INVALID',
    );
    expect(code(await cron({ action: 'update', id: 'nope', patch: {} }))).toBe('CRON_JOB_UNKNOWN');
    expect(data(await cron({ action: 'remove', id: added.jobId })).removed).toBe(added.jobId);
  });

  it('bad schedules and arguments are coded errors', async ({ onTestFinished }) => {
    const { cron } = setup(onTestFinished);
    const add = (job: Record<string, unknown>) =>
      cron({ action: 'add', job: { payload: { kind: 'agentTurn', message: 'x' }, ...job } });
    expect(code(await add({ schedule: { kind: 'cron', expr: 'every tuesday' } }))).toBe('CRON_SCHEDULE_INVALID');
    expect(code(await add({ schedule: { kind: 'cron', expr: '0 9 * * *', tz: 'Mars/Olympus_Mons' } }))).toBe(
      'CRON_SCHEDULE_INVALID',
    );
    expect(code(await add({ schedule: { kind: 'every', everyMs: 10 } }))).toBe('CRON_SCHEDULE_INVALID');
    expect(code(await add({ schedule: { kind: 'at', at: 'tomorrow-ish' } }))).toBe('CRON_SCHEDULE_INVALID');
    expect(code(await cron({ action: 'add', job: { schedule: yearly } }))).toBe('TOOL_ARGUMENTS_INVALID');
    expect(code(await cron({ action: 'update', jobId: 'nope', patch: {} }))).toBe('CRON_JOB_UNKNOWN');
    expect(code(await cron({ action: 'remove' }))).toBe('TOOL_ARGUMENTS_INVALID');
    await expect(cron({ action: 'explode' })).rejects.toMatchObject({ code: 'TOOL_ARGUMENTS_INVALID' }); // the schema's enum
  });

  it('wake runs an agent turn now, in a cron session under the caller', async ({ onTestFinished }) => {
    const { cron, host } = setup(onTestFinished);
    const { sessionKey } = data(await cron({ action: 'wake', text: 'check the inbox' }));
    await vi.waitFor(
      async () =>
        expect((await host.store.list()).find((s) => s.key === sessionKey)).toMatchObject({
          kind: 'cron',
          parentId: 'owner',
          turns: 1,
        }),
      { timeout: 20_000 },
    );
  });
});

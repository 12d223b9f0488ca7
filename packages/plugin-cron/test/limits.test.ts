/**
 * Issue 40: cron accepted a job a second and 1,000 jobs. Now a schedule firing more often than `minIntervalMs`
 * (default 60 s) is CRON_INTERVAL_TOO_SHORT, and an agent past `maxJobsPerAgent` (default 100) is CRON_TOO_MANY_JOBS,
 * also when the adds come all at once.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { createKernel, type ToolCallOutcome } from '@tool-search/kernel';
import { createSessionHost } from '@tool-search/sessions';
import {
  checkCronLimits,
  cronOptionsSchema,
  cronPlugin,
  CronErrors,
  DEFAULT_MAX_JOBS_PER_AGENT,
  DEFAULT_MIN_INTERVAL_MS,
  type CronPluginOptions,
} from '@tool-search/plugin-cron';

const AGENTS = [{ id: 'main', default: true, subagents: { allowAgents: ['helper'] } }, { id: 'helper' }];

function setup(finished: TestContext['onTestFinished'], options: Partial<CronPluginOptions> = {}) {
  const host = createSessionHost();
  host.bind(() => new Promise(() => undefined)); // no job fires in these tests (yearly schedules)
  const dir = mkdtempSync(join(tmpdir(), 'cron-limits-'));
  const kernel = createKernel({ plugins: [cronPlugin({ host, dir, agents: AGENTS, ...options })] });
  finished(() => kernel.close());
  return async (args: Record<string, unknown>, agentId = 'main'): Promise<ToolCallOutcome> => {
    const run = await kernel.createRun({ sessionId: `s-${agentId}`, agentId });
    try {
      return await run.call('cron', args);
    } finally {
      await run.close();
    }
  };
}

const code = (outcome: ToolCallOutcome) => (outcome.status === 'error' ? outcome.error.code : outcome.status);
const job = (schedule: Record<string, unknown>, agentId?: string) => ({
  action: 'add',
  job: { schedule, payload: { kind: 'agentTurn', message: 'x' }, ...(agentId ? { agentId } : {}) },
});
const yearly = { kind: 'cron', expr: '0 9 1 1 *' };

describe('cron limits', () => {
  it('defaults: minIntervalMs 60 s and maxJobsPerAgent 100, in the plugin options schema', () => {
    expect(checkCronLimits({})).toEqual({ minIntervalMs: 60_000, maxJobsPerAgent: 100 });
    expect([DEFAULT_MIN_INTERVAL_MS, DEFAULT_MAX_JOBS_PER_AGENT]).toEqual([60_000, 100]);
    expect(cronOptionsSchema.properties.minIntervalMs.default).toBe(60_000);
    expect(cronOptionsSchema.properties.maxJobsPerAgent.default).toBe(100);
    for (const bad of [
      { minIntervalMs: 999 },
      { minIntervalMs: 1.5 },
      { maxJobsPerAgent: 0 },
      { maxJobsPerAgent: 1001 },
    ])
      expect(() => checkCronLimits(bad)).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
  });

  it('refuses a schedule that fires more often than minIntervalMs (every, cron with seconds or minutes)', async ({
    onTestFinished,
  }) => {
    const cron = setup(onTestFinished);
    const tooShort = CronErrors.CRON_INTERVAL_TOO_SHORT;
    expect(code(await cron(job({ kind: 'every', everyMs: 1000 })))).toBe(tooShort);
    expect(code(await cron(job({ kind: 'every', everyMs: 59_999 })))).toBe(tooShort);
    expect(code(await cron(job({ kind: 'cron', expr: '* * * * * *' })))).toBe(tooShort);
    expect(code(await cron(job({ kind: 'cron', expr: '*/30 * * * * *' })))).toBe(tooShort);
    expect(code(await cron(job({ kind: 'every', everyMs: 60_000 })))).toBe('ok');
    expect(code(await cron(job({ kind: 'cron', expr: '* * * * *' })))).toBe('ok'); // every minute
    expect(code(await cron(job({ kind: 'at', at: new Date(Date.now() + 3_600_000).toISOString() })))).toBe('ok');
  });

  it('update checks a new schedule too; a lower minIntervalMs option allows faster jobs', async ({
    onTestFinished,
  }) => {
    const cron = setup(onTestFinished);
    const added = await cron(job(yearly));
    const jobId = (added as { result: { structuredContent: { job: { jobId: string } } } }).result.structuredContent.job
      .jobId;
    expect(code(await cron({ action: 'update', jobId, patch: { schedule: { kind: 'every', everyMs: 5000 } } }))).toBe(
      CronErrors.CRON_INTERVAL_TOO_SHORT,
    );
    expect(code(await cron({ action: 'update', jobId, patch: { name: 'renamed' } }))).toBe('ok');
    const fast = setup(onTestFinished, { minIntervalMs: 5000 });
    expect(code(await fast(job({ kind: 'every', everyMs: 5000 })))).toBe('ok');
    expect(code(await fast(job({ kind: 'every', everyMs: 4000 })))).toBe(CronErrors.CRON_INTERVAL_TOO_SHORT);
  });

  it(`refuses the ${DEFAULT_MAX_JOBS_PER_AGENT + 1}st job of one agent; other agents still have room`, async ({
    onTestFinished,
  }) => {
    const cron = setup(onTestFinished);
    for (let i = 0; i < DEFAULT_MAX_JOBS_PER_AGENT; i++) expect(code(await cron(job(yearly)))).toBe('ok');
    expect(code(await cron(job(yearly)))).toBe(CronErrors.CRON_TOO_MANY_JOBS);
    expect(code(await cron(job(yearly, 'helper')))).toBe('ok'); // main may schedule as helper, which has room
    expect(code(await cron(job(yearly), 'helper'))).toBe('ok');
  }, 120_000);

  it('holds maxJobsPerAgent when the adds come all at once', async ({ onTestFinished }) => {
    const cron = setup(onTestFinished, { maxJobsPerAgent: 10 });
    const outcomes = await Promise.all(Array.from({ length: 15 }, () => cron(job(yearly))));
    expect(outcomes.filter((o) => o.status === 'ok')).toHaveLength(10);
    expect(outcomes.filter((o) => code(o) === CronErrors.CRON_TOO_MANY_JOBS)).toHaveLength(5);
    expect(code(await cron({ action: 'status' }))).toBe('ok');
  });
});

import { describe, expect, it } from 'vitest';
import { ErrorCode, type CallOrigin, type ToolCallOutcome } from '@tool-search/kernel';
import { loopDetectionPlugin, type LoopDetectionOptions, type LoopWarning } from '../src/index.js';
import { createTestRun, repeat, statuses } from './fixtures.js';

const enabled = (overrides: LoopDetectionOptions['tools'] = {}): LoopDetectionOptions => ({
  tools: { loopDetection: { enabled: true, ...(overrides.loopDetection ?? {}) } },
});
const small = {
  enabled: true,
  warningThreshold: 3,
  criticalThreshold: 5,
  globalCircuitBreakerThreshold: 7,
  historySize: 10,
};

function blockedReason(outcome: ToolCallOutcome | undefined): string {
  if (outcome?.status !== 'blocked') throw new Error(`expected a blocked outcome, got ${outcome?.status}`);
  return outcome.reason;
}

describe('thresholds', () => {
  it('does nothing when loop detection is not enabled (the default)', async () => {
    const plugin = loopDetectionPlugin();
    const { run } = await createTestRun([plugin]);
    expect(new Set(statuses(await repeat(run, 40, 'read_file', { path: 'a' })))).toEqual(new Set(['ok']));
    expect(await plugin.getWarnings('session-1')).toEqual([]);
  });

  it('lets the call at the warning threshold run and records a warning', async () => {
    const plugin = loopDetectionPlugin(enabled());
    const { run } = await createTestRun([plugin]);
    const outcomes = await repeat(run, 10, 'read_file', { path: 'a' });
    expect(outcomes[9]?.status).toBe('ok');
    expect(await plugin.getWarnings('session-1')).toEqual([
      expect.objectContaining({ detector: 'genericRepeat', level: 'warning', count: 10, name: 'read_file' }),
    ]);
  });

  it('blocks the call at the critical threshold and tells the model why', async () => {
    const plugin = loopDetectionPlugin(enabled());
    const { run } = await createTestRun([plugin]);
    const outcomes = await repeat(run, 20, 'read_file', { path: 'a' });
    expect(statuses(outcomes.slice(0, 19))).not.toContain('blocked');
    expect(outcomes[19]).toMatchObject({ status: 'blocked', by: '@tool-search/plugin-loop-detection' });
    expect(blockedReason(outcomes[19])).toMatch(/genericRepeat/);
  });

  it('stops the run at the global circuit breaker', async () => {
    const plugin = loopDetectionPlugin(enabled());
    const { run } = await createTestRun([plugin]);
    const outcomes = await repeat(run, 30, 'read_file', { path: 'a' });
    expect(statuses(outcomes.slice(19))).toEqual(Array(11).fill('blocked'));
    expect((await plugin.getWarnings('session-1')).at(-1)).toMatchObject({ level: 'stop', count: 30 });
    await expect(run.call('write_file', {})).rejects.toMatchObject({ code: ErrorCode.RUN_STOPPED });
  });

  it('reports every finding to onWarning', async () => {
    const seen: LoopWarning[] = [];
    const { run } = await createTestRun([
      loopDetectionPlugin({ ...enabled({ loopDetection: small }), onWarning: (w) => seen.push(w) }),
    ]);
    await repeat(run, 5, 'read_file', { path: 'a' });
    expect(seen.map((w) => w.level)).toEqual(['warning', 'warning', 'critical']);
  });
});

describe('genericRepeat', () => {
  it('ignores the same tool with different arguments', async () => {
    const plugin = loopDetectionPlugin(enabled({ loopDetection: small }));
    const { run } = await createTestRun([plugin]);
    for (let i = 0; i < 20; i++) expect((await run.call('read_file', { path: `f${i}` })).status).toBe('ok');
    expect(await plugin.getWarnings('session-1')).toEqual([]);
  });

  it('ignores the same call when its result changes', async () => {
    const plugin = loopDetectionPlugin(enabled({ loopDetection: small }));
    const { run } = await createTestRun([plugin]);
    expect(new Set(statuses(await repeat(run, 20, 'next_item')))).toEqual(new Set(['ok']));
    expect(await plugin.getWarnings('session-1')).toEqual([]);
  });

  it('treats arguments with the same keys in another order as the same call', async () => {
    const plugin = loopDetectionPlugin(enabled({ loopDetection: small }));
    const { run } = await createTestRun([plugin]);
    for (let i = 0; i < 3; i++)
      await run.call('read_file', i % 2 ? { path: 'a', mode: 'r' } : { mode: 'r', path: 'a' });
    expect(await plugin.getWarnings('session-1')).toHaveLength(1);
  });

  it('ignores timestamps, durations, pids and request ids in results', async () => {
    const plugin = loopDetectionPlugin(enabled({ loopDetection: small }));
    const { run } = await createTestRun([plugin]);
    const outcomes = await repeat(run, 5, 'clock');
    expect(outcomes[4]?.status).toBe('blocked');
  });

  it('counts the same call across interleaved other calls', async () => {
    const plugin = loopDetectionPlugin(enabled({ loopDetection: small }));
    const { run } = await createTestRun([plugin]);
    for (let i = 0; i < 4; i++) {
      await run.call('read_file', { path: 'a' });
      await run.call('read_file', { path: `other-${i}` });
    }
    expect((await run.call('read_file', { path: 'a' })).status).toBe('blocked');
  });

  it('does not warn or block when its detector is off, but the circuit breaker still stops the run', async () => {
    const plugin = loopDetectionPlugin(enabled({ loopDetection: { ...small, detectors: { genericRepeat: false } } }));
    const { run } = await createTestRun([plugin]);
    const outcomes = await repeat(run, 7, 'read_file', { path: 'a' });
    expect(statuses(outcomes)).toEqual([...Array(6).fill('ok'), 'blocked']);
    expect((await plugin.getWarnings('session-1')).map((w) => w.level)).toEqual(['stop']);
  });
});

describe('knownPollNoProgress', () => {
  it('blocks a status poll whose output does not change (timestamps aside)', async () => {
    const plugin = loopDetectionPlugin(enabled({ loopDetection: small }));
    const { run } = await createTestRun([plugin]);
    const outcomes = await repeat(run, 5, 'job_status', { id: 7 });
    expect(outcomes[4]?.status).toBe('blocked');
    expect((await plugin.getWarnings('session-1')).at(-1)).toMatchObject({
      detector: 'knownPollNoProgress',
      level: 'critical',
    });
  });

  it('lets a poll run while its output changes', async () => {
    const plugin = loopDetectionPlugin(enabled({ loopDetection: small }));
    const { run, state } = await createTestRun([plugin]);
    for (let i = 0; i < 20; i++) {
      state.jobState = `running ${i * 5}%`;
      expect((await run.call('job_status', { id: 7 })).status).toBe('ok');
    }
    expect(await plugin.getWarnings('session-1')).toEqual([]);
  });

  it('recognises a poll by its action argument', async () => {
    const plugin = loopDetectionPlugin(enabled({ loopDetection: small }));
    const { run } = await createTestRun([plugin]);
    await repeat(run, 3, 'process', { action: 'log', id: 1 });
    expect((await plugin.getWarnings('session-1'))[0]?.detector).toBe('knownPollNoProgress');
  });

  it('recognises a poll marked by its source (meta.pollLike)', async () => {
    const plugin = loopDetectionPlugin(enabled({ loopDetection: small }));
    const { run } = await createTestRun([plugin]);
    await repeat(run, 3, 'check_build');
    expect((await plugin.getWarnings('session-1'))[0]?.detector).toBe('knownPollNoProgress');
  });

  it('recognises a poll claimed by the pollLike option', async () => {
    const plugin = loopDetectionPlugin({
      ...enabled({ loopDetection: small }),
      pollLike: (tool) => tool.name === 'deploy_watch',
    });
    const { run } = await createTestRun([plugin]);
    await repeat(run, 3, 'deploy_watch');
    expect((await plugin.getWarnings('session-1'))[0]?.detector).toBe('knownPollNoProgress');
  });
});

describe('pingPong', () => {
  it('blocks an A/B/A/B alternation whose results never change', async () => {
    const plugin = loopDetectionPlugin(enabled({ loopDetection: { ...small, detectors: { genericRepeat: false } } }));
    const { run } = await createTestRun([plugin]);
    const outcomes: ToolCallOutcome[] = [];
    for (let i = 0; i < 5; i++) outcomes.push(await run.call(i % 2 ? 'write_file' : 'read_file', { path: 'a' }));
    expect(outcomes[4]?.status).toBe('blocked');
    expect((await plugin.getWarnings('session-1')).at(-1)).toMatchObject({
      detector: 'pingPong',
      level: 'critical',
      count: 5,
      pairedName: 'write_file',
    });
  });

  it('ignores an alternation where one side makes progress', async () => {
    // A change resets the count; the longest run since a change here is A, B, A, B.
    const thresholds = {
      enabled: true,
      warningThreshold: 5,
      criticalThreshold: 6,
      globalCircuitBreakerThreshold: 7,
      detectors: { genericRepeat: false },
    };
    const plugin = loopDetectionPlugin(enabled({ loopDetection: thresholds }));
    const { run } = await createTestRun([plugin]);
    for (let i = 0; i < 12; i++)
      expect((await run.call(i % 2 ? 'next_item' : 'read_file', { path: 'a' })).status).toBe('ok');
    expect((await plugin.getWarnings('session-1')).filter((w) => w.detector === 'pingPong')).toEqual([]);
  });

  it('ignores an alternation with a third call in between', async () => {
    const plugin = loopDetectionPlugin(enabled({ loopDetection: { ...small, detectors: { genericRepeat: false } } }));
    const { run } = await createTestRun([plugin]);
    for (let i = 0; i < 12; i++) await run.call(['read_file', 'write_file', 'next_item'][i % 3]!, { path: 'a' });
    expect(await plugin.getWarnings('session-1')).toEqual([]);
  });
});

describe('agents and sessions', () => {
  const settings: LoopDetectionOptions = {
    tools: { loopDetection: { enabled: false } },
    agents: {
      list: [
        {
          id: 'safe-runner',
          tools: {
            loopDetection: {
              enabled: true,
              warningThreshold: 2,
              criticalThreshold: 3,
              globalCircuitBreakerThreshold: 4,
            },
          },
        },
      ],
    },
  };

  it('applies the per-agent override to that agent only', async () => {
    const plugin = loopDetectionPlugin(settings);
    const safe = await createTestRun([plugin], { agentId: 'safe-runner' });
    expect(statuses(await repeat(safe.run, 3, 'read_file', { path: 'a' }))).toEqual(['ok', 'ok', 'blocked']);
    const other = await createTestRun([loopDetectionPlugin(settings)], { agentId: 'other' });
    expect(new Set(statuses(await repeat(other.run, 10, 'read_file', { path: 'a' })))).toEqual(new Set(['ok']));
  });

  it('keeps history per session, across runs of the same session', async () => {
    const plugin = loopDetectionPlugin(enabled({ loopDetection: small }));
    const first = await createTestRun([plugin]);
    await repeat(first.run, 4, 'read_file', { path: 'a' });
    const second = await first.kernel.createRun({ sessionId: 'session-1' });
    expect((await second.call('read_file', { path: 'a' })).status).toBe('blocked');
    const other = await first.kernel.createRun({ sessionId: 'session-2' });
    expect((await other.call('read_file', { path: 'a' })).status).toBe('ok');
  });
});

describe('origins', () => {
  const origins: CallOrigin[] = ['direct', 'tool_call', 'code', 'directory'];

  it.each(origins)('blocks a loop of calls with origin %s', async (origin) => {
    const plugin = loopDetectionPlugin(enabled({ loopDetection: small }));
    const { run } = await createTestRun([plugin]);
    const outcomes = await repeat(run, 5, 'read_file', { path: 'a' }, origin);
    expect(outcomes[4]?.status).toBe('blocked');
    expect((await plugin.getWarnings('session-1')).at(-1)?.origin).toBe(origin);
  });

  it('counts one loop across origins: switching the path does not reset it', async () => {
    const plugin = loopDetectionPlugin(enabled({ loopDetection: small }));
    const { run } = await createTestRun([plugin]);
    for (const origin of origins) await run.call('read_file', { path: 'a' }, { origin });
    expect((await run.call('read_file', { path: 'a' }, { origin: 'direct' })).status).toBe('blocked');
  });

  it('applies through the exposures: a direct tool, tool_call and a hidden directory name', async () => {
    const plugin = loopDetectionPlugin(enabled({ loopDetection: small }));
    const { run } = await createTestRun([plugin]);
    const direct = await run.exposure('direct');
    const mode = await run.exposure('test');
    await direct.call('read_file', { path: 'a' });
    await mode.call('tool_call', { name: 'read_file', arguments: { path: 'a' } });
    await mode.call('read_file', { path: 'a' });
    await direct.call('read_file', { path: 'a' });
    const last = await mode.call('tool_call', { name: 'read_file', arguments: { path: 'a' } });
    expect(last.status === 'ok' && last.result.isError).toBe(true);
    expect((await plugin.getWarnings('session-1')).map((w) => w.origin)).toEqual(['directory', 'direct', 'tool_call']);
  });
});

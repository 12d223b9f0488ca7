import { describe, expect, it, vi } from 'vitest';
import { ErrorCode, type CallOrigin } from '@tool-search/kernel';
import {
  approvalsPlugin,
  type ApprovalContext,
  type ApprovalRequest,
  type ApprovalsConfig,
  type Approver,
} from '../src/index.js';
import { createTestRun, until } from './fixtures.js';

const allowAll: Approver = async () => 'allow';
const denyAll: Approver = async () => 'deny';
const requiring = (patterns: string[], extra: ApprovalsConfig = {}): ApprovalsConfig => ({
  require: patterns,
  ...extra,
});

describe('decisions', () => {
  it('runs the call when the approver allows it, and tells the approver what runs', async () => {
    const approve = vi.fn(allowAll);
    const { run, runs } = await createTestRun([approvalsPlugin({ config: requiring(['read_file']), approve })]);
    const outcome = await run.call('read_file', { path: '/etc/hosts' }, { origin: 'direct' });
    expect(outcome.status).toBe('ok');
    expect(runs.get('read_file')).toBe(1);
    expect(approve.mock.calls[0]?.[0]).toEqual({
      callId: outcome.callId,
      toolId: 'plugin:fs:read_file',
      name: 'read_file',
      source: 'plugin',
      args: { path: '/etc/hosts' },
      origin: 'direct',
      sessionId: 'session-1',
      runId: run.info.runId,
      agentId: 'main',
      reason: 'matches tools.approvals.require entry "read_file"',
    } satisfies ApprovalRequest);
  });

  it('blocks the call when the approver denies it, and the tool does not run', async () => {
    const { run, runs } = await createTestRun([
      approvalsPlugin({ config: requiring(['read_file']), approve: denyAll }),
    ]);
    const outcome = await run.call('read_file', {});
    expect(outcome).toMatchObject({ status: 'blocked', by: '@tool-search/plugin-approvals' });
    expect(outcome.status === 'blocked' && outcome.reason).toMatch(/^Blocked by approval/);
    expect(runs.get('read_file')).toBeUndefined();
  });

  // Issue 16: "the approver denied it" only when an approver was asked.
  it('says whether an approver denied the call or none is configured', async () => {
    const records: string[] = [];
    const asked = await createTestRun([
      approvalsPlugin({ config: requiring(['read_file']), approve: denyAll, onDecision: (r) => records.push(r.by) }),
    ]);
    const denied = await asked.run.call('read_file', {});
    const none = await createTestRun([
      approvalsPlugin({ config: requiring(['read_file']), approve: null, onDecision: (r) => records.push(r.by) }),
    ]);
    const unconfigured = await none.run.call('read_file', {});
    expect(records).toEqual(['answer', 'unconfigured']);
    expect(denied.status === 'blocked' && denied.reason).toContain('the approver denied it');
    expect(unconfigured.status === 'blocked' && unconfigured.reason).toContain('no approver is configured');
    expect(unconfigured.status === 'blocked' && unconfigured.reason).not.toContain('the approver denied it');
    expect(none.runs.get('read_file')).toBeUndefined();
  });

  it('denies when no answer comes within timeoutMs, and aborts the approver', async () => {
    let context: ApprovalContext | undefined;
    const approve: Approver = (_request, ctx) => {
      context = ctx;
      return new Promise(() => {});
    };
    const records: string[] = [];
    const { run, runs } = await createTestRun([
      approvalsPlugin({
        config: requiring(['read_file'], { timeoutMs: 5 }),
        approve,
        onDecision: (r) => records.push(r.by),
      }),
    ]);
    expect((await run.call('read_file', {})).status).toBe('blocked');
    expect(records).toEqual(['timeout']);
    expect(context?.signal.aborted).toBe(true);
    expect(runs.get('read_file')).toBeUndefined();
  });

  it('denies when the approver throws', async () => {
    const approve: Approver = async () => {
      throw new Error('approval service down');
    };
    const { run } = await createTestRun([approvalsPlugin({ config: requiring(['read_file']), approve })]);
    expect((await run.call('read_file', {})).status).toBe('blocked');
  });

  it('denies when the approver throws synchronously', async () => {
    const approve = (() => {
      throw new Error('boom');
    }) as Approver;
    const { run } = await createTestRun([approvalsPlugin({ config: requiring(['read_file']), approve })]);
    expect((await run.call('read_file', {})).status).toBe('blocked');
  });

  it('denies when the approver answers anything but "allow" or "deny"', async () => {
    const approve = (async () => 'yes') as unknown as Approver;
    const { run } = await createTestRun([approvalsPlugin({ config: requiring(['read_file']), approve })]);
    expect((await run.call('read_file', {})).status).toBe('blocked');
  });

  it('denies when the call is cancelled while waiting', async () => {
    const { run } = await createTestRun([
      approvalsPlugin({ config: requiring(['read_file']), approve: () => new Promise(() => {}) }),
    ]);
    const controller = new AbortController();
    const pending = run.call('read_file', {}, { signal: controller.signal });
    controller.abort();
    expect((await pending).status).toBe('blocked');
  });

  it('asks again for every call: an earlier allow is not remembered', async () => {
    const approve = vi.fn<Approver>().mockResolvedValueOnce('allow').mockResolvedValueOnce('deny');
    const { run } = await createTestRun([approvalsPlugin({ config: requiring(['read_file']), approve })]);
    expect((await run.call('read_file', {})).status).toBe('ok');
    expect((await run.call('read_file', {})).status).toBe('blocked');
  });

  it('does not ask for tools that need no approval', async () => {
    const approve = vi.fn(denyAll);
    const { run } = await createTestRun([approvalsPlugin({ config: requiring(['read_file']), approve })]);
    expect((await run.call('exec', {})).status).toBe('ok');
    expect(approve).not.toHaveBeenCalled();
  });
});

describe('which tools need approval', () => {
  const asked = async (config: ApprovalsConfig, name: string) => {
    const approve = vi.fn(allowAll);
    const { run } = await createTestRun([approvalsPlugin({ config, approve })]);
    await run.call(name, {});
    return approve.mock.calls.length === 1;
  };

  it('matches a tool name, case-insensitively', async () => {
    expect(await asked(requiring(['READ_FILE']), 'read_file')).toBe(true);
  });

  it('matches a tool id', async () => {
    expect(await asked(requiring(['mcp:github:create_issue']), 'create_issue')).toBe(true);
    expect(await asked(requiring(['mcp:github:create_issue']), 'list_repos')).toBe(false);
  });

  it('matches a group', async () => {
    expect(await asked(requiring(['group:mcp']), 'list_repos')).toBe(true);
    expect(await asked(requiring(['group:runtime']), 'exec')).toBe(true);
    expect(await asked(requiring(['group:runtime']), 'read_file')).toBe(false);
  });

  it('matches a glob', async () => {
    expect(await asked(requiring(['mcp:github:*']), 'delete_repo')).toBe(true);
    expect(await asked(requiring(['*_file']), 'read_file')).toBe(true);
    expect(await asked(requiring(['*_file']), 'exec')).toBe(false);
  });

  it('asks for tools annotated destructiveHint: true when requireDestructive is on', async () => {
    expect(await asked({ requireDestructive: true }, 'delete_repo')).toBe(true);
    expect(await asked({ requireDestructive: true }, 'list_repos')).toBe(false);
    expect(await asked({ requireDestructive: true }, 'create_issue')).toBe(false);
    expect(await asked({}, 'delete_repo')).toBe(false);
  });
});

describe('every path to a tool', () => {
  const origins: CallOrigin[] = ['direct', 'tool_call', 'code', 'directory', 'api'];

  it.each(origins)('denies a call with origin %s', async (origin) => {
    const approve = vi.fn(denyAll);
    const { run, runs } = await createTestRun([approvalsPlugin({ config: requiring(['delete_repo']), approve })]);
    expect((await run.call('delete_repo', {}, { origin })).status).toBe('blocked');
    expect(approve.mock.calls[0]?.[0].origin).toBe(origin);
    expect(runs.get('delete_repo')).toBeUndefined();
  });

  it('denies through the exposures: the direct tool, tool_call and a hidden directory name', async () => {
    const approve = vi.fn(denyAll);
    const { run, runs } = await createTestRun([approvalsPlugin({ config: requiring(['delete_repo']), approve })]);
    const direct = await run.exposure('direct');
    const mode = await run.exposure('test');
    expect((await direct.call('delete_repo', {})).status).toBe('blocked');
    const viaToolCall = await mode.call('tool_call', { name: 'delete_repo', arguments: {} });
    expect(viaToolCall.status === 'ok' && viaToolCall.result.isError).toBe(true);
    expect((await mode.call('delete_repo', {})).status).toBe('blocked');
    expect((await run.call('mcp:github:delete_repo', {}, { origin: 'code' })).status).toBe('blocked');
    expect(approve.mock.calls.map(([request]) => request.origin)).toEqual(['direct', 'tool_call', 'directory', 'code']);
    expect(runs.get('delete_repo')).toBeUndefined();
  });
});

describe('options', () => {
  it('rejects an invalid config with its path', () => {
    expect(() => approvalsPlugin({ config: { timeoutMs: 0 }, approve: allowAll })).toThrow(
      expect.objectContaining({ code: ErrorCode.CONFIG_INVALID, path: 'tools.approvals.timeoutMs' }),
    );
  });

  it('rejects an unknown config key', () => {
    expect(() => approvalsPlugin({ config: { requires: ['x'] } as ApprovalsConfig, approve: allowAll })).toThrow(
      expect.objectContaining({ code: ErrorCode.CONFIG_INVALID }),
    );
  });

  it('needs an approver', () => {
    expect(() => approvalsPlugin({ config: {} } as never)).toThrow(
      expect.objectContaining({ code: ErrorCode.OPTIONS_INVALID }),
    );
  });

  it('keeps waiting calls independent', async () => {
    const answers: ((d: 'allow' | 'deny') => void)[] = [];
    const approve: Approver = () => new Promise((resolve) => answers.push(resolve));
    const { run } = await createTestRun([approvalsPlugin({ config: requiring(['read_file']), approve })]);
    const first = run.call('read_file', { n: 1 });
    const second = run.call('read_file', { n: 2 });
    await until(() => answers.length === 2);
    answers[1]!('allow');
    answers[0]!('deny');
    expect([(await first).status, (await second).status]).toEqual(['blocked', 'ok']);
  });
});

import { ErrorCode } from '@tool-search/kernel';
import { describe, expect, it } from 'vitest';
import type { PolicyOptions } from '../src/index.js';
import { names, runWith } from './fixtures.js';
import { PolicyErrors } from '../src/errors.js';

const OPTIONS: PolicyOptions = {
  tools: { profile: 'coding' },
  agents: { list: [{ id: 'support', tools: { profile: 'messaging' } }, { id: 'main' }] },
};

describe('agent ids', () => {
  it('refuses an unknown agent id with a did-you-mean, instead of giving it the global policy', async () => {
    const refused = runWith(OPTIONS, { agentId: 'suport' });
    await expect(refused).rejects.toMatchObject({
      code: ErrorCode.AGENT_UNKNOWN,
      details: { requested: 'suport', suggestions: ['support'] },
    });
  });

  it('names the known agents when no id is close, and says when none are configured', async () => {
    await expect(runWith(OPTIONS, { agentId: 'zzzzzzzz' })).rejects.toMatchObject({
      code: ErrorCode.AGENT_UNKNOWN,
      details: { suggestions: [], known: ['support', 'main'] },
    });
    await expect(runWith({}, { agentId: 'helper' })).rejects.toMatchObject({
      code: ErrorCode.AGENT_UNKNOWN,
      details: { known: [] },
    });
  });

  it('the default agent id main is always known: an agents.list that does not name it gives it the global policy', async () => {
    const global = { tools: { profile: 'coding' as const } };
    const withoutMain: PolicyOptions = {
      ...global,
      agents: { list: [{ id: 'support', tools: { profile: 'messaging' } }] },
    };
    expect(names(await runWith(withoutMain, { agentId: 'main' }))).toEqual(names(await runWith(global)));
    expect(names(await runWith(global, { agentId: 'main' }))).toEqual(names(await runWith(global)));
    expect(names(await runWith({}, { agentId: 'MAIN' }))).toEqual(names(await runWith({})));
    // Named in agents.list, main's own policy applies as for any agent.
    const listed: PolicyOptions = { ...global, agents: { list: [{ id: 'main', tools: { profile: 'minimal' } }] } };
    expect(names(await runWith(listed, { agentId: 'main' }))).toEqual(['session_status']);
    await expect(runWith(withoutMain, { agentId: 'mian' })).rejects.toMatchObject({ code: ErrorCode.AGENT_UNKNOWN });
  });

  it('uses the global policy for a run without an agent id', async () => {
    expect(names(await runWith(OPTIONS))).toEqual(names(await runWith({ tools: { profile: 'coding' } })));
  });

  it('matches a known id case-insensitively', async () => {
    expect(names(await runWith(OPTIONS, { agentId: 'SUPPORT' }))).toEqual([
      'message',
      'session_status',
      'sessions_history',
      'sessions_list',
      'sessions_send',
    ]);
  });
});

describe('POLICY_ALLOWLIST_IGNORED', () => {
  it('names the closest real tool for each unknown entry', async () => {
    const run = await runWith({ tools: { allow: ['raed', 'wirte', 'lobster'] } });
    const warning = run.diagnostics.find((d) => d.code === PolicyErrors.POLICY_ALLOWLIST_IGNORED);
    expect(warning?.details).toMatchObject({ path: 'tools.allow', suggestions: { raed: 'read', wirte: 'write' } });
    expect(warning?.details?.suggestions).not.toHaveProperty('lobster');
  });
});

describe('unknown entries of an allowlist in force', () => {
  it('are reported with the closest real tool, and the allowlist stays in force', async () => {
    const run = await runWith({ tools: { allow: ['read', 'wirte'] } });
    expect(names(run)).toEqual(['read']);
    const warning = run.diagnostics.find((d) => d.code === PolicyErrors.POLICY_ALLOWLIST_IGNORED);
    expect(warning?.details).toMatchObject({
      path: 'tools.allow',
      entries: ['wirte'],
      suggestions: { wirte: 'write' },
      partial: true,
    });
  });
});

import { ErrorCode, ToolSearchError } from '@tool-search/kernel';
import { describe, expect, it } from 'vitest';
import { evaluatePolicy, policyPlugin, resolvePolicy } from '../src/index.js';
import { definitions, DEFAULT_CATALOG, INVENTORY, names, runWith } from './fixtures.js';

const ALL = definitions(DEFAULT_CATALOG).length;

describe('base profile', () => {
  it('minimal keeps only session_status', async () => {
    expect(names(await runWith({ tools: { profile: 'minimal' } }))).toEqual(['session_status']);
  });

  it('coding keeps group:fs, group:runtime, group:sessions, group:memory and image', async () => {
    expect(names(await runWith({ tools: { profile: 'coding' } }))).toEqual(
      [
        'read',
        'write',
        'edit',
        'apply_patch',
        'exec',
        'bash',
        'process',
        'sessions_list',
        'sessions_history',
        'sessions_send',
        'sessions_spawn',
        'session_status',
        'memory_search',
        'memory_get',
        'image',
      ].sort(),
    );
  });

  it('messaging keeps group:messaging and the session tools it names', async () => {
    expect(names(await runWith({ tools: { profile: 'messaging' } }))).toEqual(
      ['message', 'sessions_list', 'sessions_history', 'sessions_send', 'session_status'].sort(),
    );
  });

  it('full keeps every tool, like no profile', async () => {
    expect((await runWith({ tools: { profile: 'full' } })).catalog).toHaveLength(ALL);
    expect((await runWith({})).catalog).toHaveLength(ALL);
  });

  it('keeps plugin and MCP tools out of the coding profile', async () => {
    const run = await runWith({ tools: { profile: 'coding' } });
    expect(run.catalog.every((tool) => tool.source === 'core')).toBe(true);
  });

  it('uses the agent profile instead of the global one', async () => {
    const options = {
      tools: { profile: 'coding' as const },
      agents: { list: [{ id: 'support', tools: { profile: 'minimal' as const } }] },
    };
    expect(names(await runWith(options, { agentId: 'support' }))).toEqual(['session_status']);
    expect(names(await runWith(options))).toContain('read');
  });

  it('matches the agent id case-insensitively', async () => {
    const options = { agents: { list: [{ id: 'Support', tools: { profile: 'minimal' as const } }] } };
    expect(names(await runWith(options, { agentId: 'support' }))).toEqual(['session_status']);
  });

  it('rejects an unknown profile name when the plugin is created', () => {
    let error: unknown;
    try {
      policyPlugin({ tools: { profile: 'admin' as 'full' } });
    } catch (caught) {
      error = caught;
    }
    expect(ToolSearchError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: ErrorCode.CONFIG_INVALID, path: 'tools.profile', rule: 'enum' });
  });

  it('fails closed on an unknown profile that bypassed validation: every tool dropped, with a diagnostic', () => {
    const tools = definitions({ core: INVENTORY }).map((d) => ({ ...d, id: `core:core:${d.name}` }));
    const result = evaluatePolicy(resolvePolicy({ tools: { profile: 'admin' as 'full' } }), tools);
    expect(result.kept).toEqual([]);
    expect(result.diagnostics).toMatchObject([{ code: ErrorCode.CONFIG_INVALID, level: 'error' }]);
    expect(result.dropped.get('core:core:read')).toMatchObject({ step: 'profile:admin', kept: false });
  });
});

import { describe, expect, it } from 'vitest';
import { names, runWith } from './fixtures.js';

const PLUGIN = '@tool-search/policy';

describe('explain', () => {
  it('records the rule that kept a tool at each step', async () => {
    const run = await runWith({ tools: { profile: 'coding', deny: ['web_*'] } });
    expect(run.explain('read')).toMatchObject({
      known: true,
      inCatalog: true,
      toolId: 'core:core:read',
      steps: [
        { step: 'profile:coding', kept: true, rule: 'group:fs', plugin: PLUGIN },
        { step: 'tools.deny', kept: true, plugin: PLUGIN },
      ],
    });
  });

  it('records the rule that dropped a tool, and stops there', async () => {
    const run = await runWith(
      { tools: { allow: ['group:web', 'read'], deny: ['web_*'], sandbox: { tools: { allow: ['*'] } } } },
      { sandboxed: true },
    );
    expect(run.explain('web_search')).toMatchObject({
      inCatalog: false,
      steps: [
        { step: 'tools.allow', kept: true, rule: 'group:web' },
        { step: 'tools.deny', kept: false, rule: 'web_*' },
      ],
    });
    expect(run.explain('web_search').steps).toHaveLength(2);
  });

  it('says why a tool outside an allowlist was dropped', async () => {
    const run = await runWith({ tools: { profile: 'minimal' } });
    expect(run.explain('exec').steps).toEqual([
      { step: 'profile:minimal', kept: false, rule: 'no allow entry matches', plugin: PLUGIN },
    ]);
  });

  it('orders steps: profile, byProvider, tools, agent, sandbox', async () => {
    const run = await runWith(
      {
        tools: {
          profile: 'coding',
          byProvider: { openai: { deny: ['process'] } },
          allow: ['read', 'exec'],
          deny: ['write'],
        },
        agents: {
          list: [{ id: 'dev', tools: { byProvider: { openai: { allow: ['group:fs', 'exec'] } }, deny: ['edit'] } }],
        },
      },
      { agentId: 'dev', provider: 'openai', sandboxed: true },
    );
    expect(run.explain('read').steps.map((s) => `${s.step}:${s.rule ?? ''}`)).toEqual([
      'profile:coding:group:fs',
      'tools.byProvider[openai].deny:',
      'agents.list[dev].tools.byProvider[openai].allow:group:fs',
      'tools.deny:',
      'agents.list[dev].tools.deny:',
      'sandbox.defaults.allow:group:fs',
      'sandbox.defaults.deny:',
    ]);
    expect(names(run)).toEqual(['apply_patch', 'exec', 'read']);
  });

  it('marks an ignored allowlist step in the trace', async () => {
    const run = await runWith({ tools: { allow: ['lobster'] } });
    expect(run.explain('read').steps).toEqual([
      { step: 'tools.allow', kept: true, rule: 'allowlist ignored: it names no listed tool', plugin: PLUGIN },
    ]);
  });

  it('agrees with the catalog by id and by name', async () => {
    const run = await runWith({ tools: { deny: ['mcp:github:*'] } });
    expect(run.explain('mcp:github:create_issue').inCatalog).toBe(false);
    expect(run.explain('create_issue').inCatalog).toBe(false);
    expect(run.explain('mcp:notion:search_pages').inCatalog).toBe(true);
  });
});

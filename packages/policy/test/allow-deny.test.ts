import { createKernel, type KernelPlugin } from '@tool-search/kernel';
import { describe, expect, it } from 'vitest';
import { policyPlugin, type PolicyOptions } from '../src/index.js';
import { CORE, ids, INVENTORY, names, runWith } from './fixtures.js';
import { PolicyErrors } from '../src/errors.js';

const ignored = (run: { diagnostics: readonly { code: string }[] }) =>
  run.diagnostics.filter((d) => d.code === PolicyErrors.POLICY_ALLOWLIST_IGNORED);

describe('tools.allow / tools.deny', () => {
  it('keeps only what tools.allow matches', async () => {
    expect(names(await runWith({ tools: { allow: ['read', 'group:web'] } }))).toEqual([
      'read',
      'web_fetch',
      'web_search',
    ]);
  });

  it('drops what tools.deny matches', async () => {
    const run = await runWith({ tools: { deny: ['browser', 'web_*'] } });
    expect(names(run)).not.toContain('browser');
    expect(names(run)).not.toContain('web_search');
    expect(names(run)).toContain('read');
  });

  it('lets deny win over allow in the same scope', async () => {
    expect(names(await runWith({ tools: { allow: ['group:fs'], deny: ['write'] } }))).toEqual([
      'apply_patch',
      'edit',
      'read',
    ]);
  });

  it('lets a global deny win over an agent allow', async () => {
    const options: PolicyOptions = {
      tools: { deny: ['exec'] },
      agents: { list: [{ id: 'a', tools: { allow: ['exec', 'read'] } }] },
    };
    expect(names(await runWith(options, { agentId: 'a' }))).toEqual(['read']);
  });

  it('applies the agent allowlist as a further narrowing step, never a widening one', async () => {
    const options: PolicyOptions = {
      tools: { allow: ['group:fs'] },
      agents: { list: [{ id: 'a', tools: { allow: ['read', 'exec'] } }] },
    };
    expect(names(await runWith(options, { agentId: 'a' }))).toEqual(['read']);
  });

  it('applies the agent deny', async () => {
    const options: PolicyOptions = { agents: { list: [{ id: 'a', tools: { deny: ['group:fs'] } }] } };
    const run = await runWith(options, { agentId: 'a' });
    expect(names(run)).not.toContain('read');
    expect(names(run)).toContain('exec');
  });

  it('treats an empty allow list as no allowlist', async () => {
    expect(names(await runWith({ tools: { allow: [] } }))).toContain('exec');
  });

  it('matches allow and deny case-insensitively', async () => {
    expect(names(await runWith({ tools: { allow: ['READ', 'Exec'], deny: ['EXEC'] } }))).toEqual(['read']);
  });

  it('denies a plugin by its id and an MCP server by mcp:<server>:*', async () => {
    const run = await runWith({ tools: { deny: ['fake-catalog', 'mcp:github:*'] } });
    expect(run.catalog.some((t) => t.owner === 'fake-catalog' || t.owner === 'github')).toBe(false);
    expect(run.catalog.some((t) => t.owner === 'notion')).toBe(true);
  });

  it('allows plugin-declared groups in any scope', async () => {
    const options: PolicyOptions = {
      tools: { allow: ['group:chat', 'read'] },
      agents: { list: [{ id: 'a', tools: { deny: ['group:chat'] } }] },
    };
    expect(names(await runWith(options))).toEqual(['discord', 'read', 'slack']);
    expect(names(await runWith(options, { agentId: 'a' }))).toEqual(['read']);
  });

  it('matches plugin-declared groups in byProvider and sandbox scopes too', async () => {
    const byProvider: PolicyOptions = { tools: { byProvider: { openai: { allow: ['group:chat'] } } } };
    expect(names(await runWith(byProvider, { provider: 'openai' }))).toEqual(['discord', 'slack']);
    const sandbox: PolicyOptions = { tools: { sandbox: { tools: { allow: ['group:chat', 'read'] } } } };
    expect(names(await runWith(sandbox, { sandboxed: true }))).toEqual(['discord', 'read', 'slack']);
  });

  it('denying "*" drops everything', async () => {
    expect((await runWith({ tools: { deny: ['*'] } })).catalog).toEqual([]);
  });

  it('keeps a plugin tool named like a core tool out of group:fs but matches it by name', async () => {
    const spec = { core: ['read'], plugins: { shadow: ['read'] } };
    expect(ids(await runWith({ tools: { allow: ['group:fs'] } }, {}, spec))).toEqual(CORE('read'));
    expect(ids(await runWith({ tools: { allow: ['read'] } }, {}, spec))).toEqual([
      'core:core:read',
      'plugin:shadow:read',
    ]);
  });
});

describe('allowlist of tools that are not loaded', () => {
  it('is ignored with a POLICY_ALLOWLIST_IGNORED warning naming its entries, so core tools stay', async () => {
    const run = await runWith({ tools: { allow: ['lobster', 'llm-task'] } });
    expect(run.catalog.length).toBeGreaterThan(INVENTORY.length - 1);
    expect(ignored(run)).toHaveLength(1);
    expect(ignored(run)[0]).toMatchObject({
      level: 'warning',
      plugin: '@tool-search/policy',
      details: { path: 'tools.allow', entries: ['lobster', 'llm-task'] },
    });
  });

  it('still applies profile and deny when ignored', async () => {
    const run = await runWith({ tools: { profile: 'coding', allow: ['lobster'], deny: ['exec'] } });
    expect(ignored(run)).toHaveLength(1);
    expect(names(run)).toContain('read');
    expect(names(run)).not.toContain('exec');
    expect(names(run)).not.toContain('browser');
  });

  it('still applies byProvider when ignored', async () => {
    const run = await runWith(
      { tools: { allow: ['lobster'], byProvider: { openai: { profile: 'minimal' } } } },
      { provider: 'openai' },
    );
    expect(names(run)).toEqual(['session_status']);
  });

  it('applies to the agent allowlist too', async () => {
    const run = await runWith({ agents: { list: [{ id: 'a', tools: { allow: ['lobster'] } }] } }, { agentId: 'a' });
    expect(names(run)).toContain('read');
    expect(ignored(run)[0]).toMatchObject({ details: { path: 'agents.list[0].tools.allow' } });
  });

  it('is not ignored when one entry matches a listed tool', async () => {
    const run = await runWith({ tools: { allow: ['lobster', 'read'] } });
    expect(names(run)).toEqual(['read']);
    // Only the unknown entry is reported (it adds nothing); the list itself stays in force.
    const warnings = run.diagnostics
      .filter((d) => d.code === PolicyErrors.POLICY_ALLOWLIST_IGNORED)
      .map((d) => d.details);
    expect(warnings).toEqual([expect.objectContaining({ entries: ['lobster'], partial: true })]);
  });

  it('is not ignored when it holds a wildcard (fail closed)', async () => {
    const run = await runWith({ tools: { allow: ['lobster_*'] } });
    expect(run.catalog).toEqual([]);
    expect(ignored(run)).toEqual([]);
  });

  it('counts tools another policy tap already removed as known (it uses every listed tool)', async () => {
    const spec = { core: ['read', 'exec'], plugins: { lobster: ['lobster'] } };
    const run = await runWith({ tools: { allow: ['lobster'], deny: ['lobster'] } }, {}, spec);
    expect(ignored(run)).toEqual([]);
    expect(run.catalog).toEqual([]);
  });
});

describe('an allowlist that names only tools of a source that failed', () => {
  it('stays in force (fail closed) instead of being ignored', async () => {
    const core: KernelPlugin = {
      name: 'core-src',
      apply: ({ hooks }) =>
        hooks.listTools.tap((sink) =>
          sink.add({
            name: 'exec',
            source: 'core',
            owner: 'core',
            description: 'run',
            inputSchema: { type: 'object' },
          }),
        ),
    };
    const broken: KernelPlugin = {
      name: 'mcp-src',
      apply: ({ hooks }) =>
        hooks.listTools.tapPromise(async () => {
          throw new Error('server down');
        }),
    };
    const run = await createKernel({
      plugins: [core, broken, policyPlugin({ tools: { allow: ['github_create_issue'] } })],
    }).createRun();
    expect(run.catalog).toEqual([]);
    expect(run.diagnostics).toContainEqual(
      expect.objectContaining({
        code: PolicyErrors.POLICY_ALLOWLIST_IGNORED,
        details: expect.objectContaining({ kept: true }),
      }),
    );
  });
});

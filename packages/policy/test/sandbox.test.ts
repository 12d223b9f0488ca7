import { ErrorCode } from '@tool-search/kernel';
import { describe, expect, it } from 'vitest';
import { resolvePolicy, type PolicyOptions } from '../src/index.js';
import { names, runWith } from './fixtures.js';

const sandboxNotices = (run: {
  diagnostics: readonly { code: string; details?: Readonly<Record<string, unknown>> }[];
}) => run.diagnostics.filter((d) => d.code === ErrorCode.POLICY_DENIED && d.details?.layer === 'sandbox');

const CODING_SANDBOX = [
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
  'image',
].sort();

describe('sandbox step', () => {
  it('applies the defaults to a sandboxed run with nothing configured', async () => {
    expect(names(await runWith({}, { sandboxed: true }))).toEqual(CODING_SANDBOX);
  });

  it('denies group:ui, nodes, group:automation and group:messaging by default even when allowed', async () => {
    const run = await runWith({ tools: { sandbox: { tools: { allow: ['*'] } } } }, { sandboxed: true });
    for (const name of ['browser', 'canvas', 'nodes', 'cron', 'gateway', 'message'])
      expect(names(run)).not.toContain(name);
    expect(names(run)).toContain('web_search');
  });

  it('does not apply to runs that are not sandboxed', async () => {
    expect(names(await runWith({}, {}))).toContain('browser');
    expect(names(await runWith({}, { sandboxed: false }))).toContain('browser');
    expect(resolvePolicy({}, { sandboxed: false }).rules).toEqual([]);
  });

  it('uses tools.sandbox.tools when configured', async () => {
    const options: PolicyOptions = { tools: { sandbox: { tools: { allow: ['read', 'browser'], deny: [] } } } };
    expect(names(await runWith(options, { sandboxed: true }))).toEqual(['browser', 'read']);
  });

  it('lets the agent sandbox.tools replace the global one as a whole (no merge)', async () => {
    const options: PolicyOptions = {
      tools: { sandbox: { tools: { allow: ['group:fs'], deny: ['write'] } } },
      agents: {
        list: [{ id: 'a', tools: { sandbox: { tools: { allow: ['group:fs'], deny: ['edit'] } } } }, { id: 'b' }],
      },
    };
    expect(names(await runWith(options, { agentId: 'a', sandboxed: true }))).toEqual(['apply_patch', 'read', 'write']);
    expect(names(await runWith(options, { agentId: 'b', sandboxed: true }))).toEqual(['apply_patch', 'edit', 'read']);
  });

  it('falls back to the default for a field the chosen sandbox policy leaves out', async () => {
    const options: PolicyOptions = { tools: { sandbox: { tools: { deny: ['exec'] } } } };
    const policy = resolvePolicy(options, { sandboxed: true });
    expect(policy.rules.map((r) => r.step)).toEqual(['sandbox.defaults.allow', 'tools.sandbox.tools.deny']);
    const run = await runWith(options, { sandboxed: true });
    expect(names(run)).not.toContain('exec');
    expect(names(run)).not.toContain('web_search');
    expect(names(run)).toContain('read');
  });

  it('runs after the agent step: the sandbox cannot grant back what the agent denied', async () => {
    const options: PolicyOptions = {
      agents: { list: [{ id: 'a', tools: { deny: ['read'], sandbox: { tools: { allow: ['read', 'write'] } } } }] },
    };
    expect(names(await runWith(options, { agentId: 'a', sandboxed: true }))).toEqual(['write']);
    expect(resolvePolicy(options, { agentId: 'a', sandboxed: true }).rules.map((r) => r.layer)).toEqual([
      'agent',
      'sandbox',
      'sandbox',
    ]);
  });

  it('reports plugin and MCP tools the sandbox dropped once, naming group:plugins and mcp:<server>:*', async () => {
    const run = await runWith({}, { sandboxed: true });
    const notices = sandboxNotices(run);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ level: 'warning', plugin: '@tool-search/policy' });
    expect(notices[0]!.details).toMatchObject({
      plugins: ['chat', 'fake-catalog'],
      mcpServers: ['github', 'notion'],
      allowHints: ['group:plugins', 'chat', 'fake-catalog', 'mcp:github:*', 'mcp:notion:*'],
    });
    expect(notices[0]!.details!.toolIds).toHaveLength(7);
  });

  it('does not report plugin tools an earlier step already dropped', async () => {
    const run = await runWith({ tools: { profile: 'coding' } }, { sandboxed: true });
    expect(sandboxNotices(run)).toEqual([]);
  });

  it('keeps plugin and MCP tools the sandbox allowlist names', async () => {
    const options: PolicyOptions = {
      tools: { sandbox: { tools: { allow: ['group:fs', 'group:plugins', 'mcp:github:*'] } } },
    };
    const run = await runWith(options, { sandboxed: true });
    expect(names(run)).toEqual([
      'apply_patch',
      'create_issue',
      'discord',
      'edit',
      'fc_lookup',
      'fc_search',
      'list_prs',
      'read',
      'slack',
      'write',
    ]);
    expect(sandboxNotices(run)[0]!.details).toMatchObject({ mcpServers: ['notion'], plugins: [] });
  });
});

import { describe, expect, it } from 'vitest';
import { cli, folder } from './helpers.js';

const small = folder({ 'tool-search.json': '{ plugins: { "fake-catalog": { tools: 3, core: true } } }' });

describe('tools list', () => {
  it('prints the built-in default catalog (core tools + 1,000 fake plugin tools) as JSON', async () => {
    const { code, stdout } = await cli(['tools', 'list', '--json']);
    expect(code).toBe(0);
    const parsed = JSON.parse(stdout) as { tools: { source: string }[]; diagnostics: unknown[] };
    expect(parsed.tools.filter((tool) => tool.source === 'plugin')).toHaveLength(1000);
    expect(parsed.tools.filter((tool) => tool.source === 'core')).toHaveLength(25);
  });

  it('prints exactly { tools: [{ id, name, source, owner, catalogMode, demo? }], diagnostics, modules }', async () => {
    const parsed = JSON.parse((await cli(['tools', 'list', '--json'], small)).stdout) as Record<string, unknown[]>;
    expect(Object.keys(parsed)).toEqual(['tools', 'diagnostics', 'modules']);
    expect(parsed.tools![0]).toEqual({
      id: 'core:core:agents_list',
      name: 'agents_list',
      source: 'core',
      owner: 'core',
      catalogMode: 'catalog',
      demo: true, // a fake of the fake catalog (a real tool has no `demo`)
    });
    expect(parsed.tools).toHaveLength(28);
  });

  it('applies the policy from the config', async () => {
    const cwd = folder({
      'tool-search.json':
        '{ plugins: { "fake-catalog": { tools: 2, core: true } }, tools: { deny: ["exec", "group:plugins"] } }',
    });
    const names = (
      JSON.parse((await cli(['tools', 'list', '--json'], cwd)).stdout) as { tools: { name: string }[] }
    ).tools.map((t) => t.name);
    expect(names).toContain('read');
    expect(names).not.toContain('exec');
    expect(names).not.toContain('fake_plugin_tool_0001');
  });

  it('applies the per-agent policy with --agent', async () => {
    const cwd = folder({
      'tool-search.json':
        '{ plugins: { "fake-catalog": { tools: 0, core: true } }, agents: { list: [{ id: "support", tools: { profile: "minimal" } }] } }',
    });
    const parsed = JSON.parse((await cli(['tools', 'list', '--json', '--agent', 'support'], cwd)).stdout) as {
      tools: { name: string }[];
    };
    expect(parsed.tools.map((t) => t.name)).toEqual(['session_status']);
  });

  it('prints a table and counts by source', async () => {
    const { code, stdout } = await cli(['tools', 'list'], small);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^NAME\s+SOURCE\s+OWNER\s+MODE/);
    expect(stdout).toContain('28 tools (core 25, plugin 3)');
  });

  it('prints diagnostics on stderr', async () => {
    const cwd = folder({
      'tool-search.json':
        '{ plugins: { "fake-catalog": { tools: 0, core: true } }, tools: { allow: ["no_such_tool"] } }',
    });
    const { code, stderr } = await cli(['tools', 'list'], cwd);
    expect(code).toBe(0);
    expect(stderr).toContain('POLICY_ALLOWLIST_IGNORED');
  });

  it('reads an explicit --config file', async () => {
    const cwd = folder({ 'other.json5': '{ plugins: { "fake-catalog": { tools: 1, core: false } } }' });
    const parsed = JSON.parse((await cli(['tools', 'list', '--json', '--config', 'other.json5'], cwd)).stdout) as {
      tools: unknown[];
    };
    expect(parsed.tools).toHaveLength(1);
  });
});

describe('tools explain', () => {
  it('prints the policy steps of a dropped tool', async () => {
    const cwd = folder({
      'tool-search.json': '{ plugins: { "fake-catalog": { tools: 0, core: true } }, tools: { deny: ["exec"] } }',
    });
    const { code, stdout } = await cli(['tools', 'explain', 'exec', '--json'], cwd);
    expect(code).toBe(0);
    const explanation = JSON.parse(stdout) as { toolId: string; inCatalog: boolean; steps: { kept: boolean }[] };
    expect(explanation).toMatchObject({ toolId: 'core:core:exec', inCatalog: false });
    expect(explanation.steps.at(-1)?.kept).toBe(false);
  });

  it('prints the steps as text', async () => {
    const { code, stdout } = await cli(['tools', 'explain', 'plugin:fake-catalog:fake_plugin_tool_0001'], small);
    expect(code).toBe(0);
    expect(stdout).toContain('plugin:fake-catalog:fake_plugin_tool_0001: in the catalog');
  });

  it('exits 1 for an unknown tool', async () => {
    const { code, stderr } = await cli(['tools', 'explain', 'no_such_tool'], small);
    expect(code).toBe(1);
    expect(stderr).toContain('no_such_tool');
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfigValue } from '@tool-search/config';
import { cli, folder } from './helpers.js';

const read = (cwd: string) => parseConfigValue(readFileSync(join(cwd, 'tool-search.json'), 'utf8'));

describe('config set / get', () => {
  it('config set tools.toolSearch true writes tool-search.json (created when missing)', async () => {
    const cwd = folder();
    const { code, stdout } = await cli(['config', 'set', 'tools.toolSearch', 'true'], cwd);
    expect(code).toBe(0);
    expect(stdout).toContain('tools.toolSearch = true');
    expect(read(cwd)).toEqual({ tools: { toolSearch: true } });
  });

  it(`config set tools.toolSearch '{ mode: "tools" }' parses the value as JSON5 and keeps the rest`, async () => {
    const cwd = folder({ 'tool-search.json': '// mine\n{ tools: { profile: "coding" } }' });
    expect((await cli(['config', 'set', 'tools.toolSearch', '{ mode: "tools" }'], cwd)).code).toBe(0);
    expect(read(cwd)).toEqual({ tools: { profile: 'coding', toolSearch: { mode: 'tools' } } });
    expect(readFileSync(join(cwd, 'tool-search.json'), 'utf8')).toMatch(/^\/\/ mine\n\{ tools: \{ profile: "coding"/);
    const { code, stdout } = await cli(['config', 'get', 'tools.toolSearch'], cwd);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ mode: 'tools' });
  });

  it('edits a JSON5 file in place: comments, unquoted keys, quotes and layout stay as written', async () => {
    const text =
      "// team config\n{\n  // who may do what\n  tools: {\n    profile: 'coding', // the default\n  },\n}\n";
    const cwd = folder({ 'tool-search.json': text });
    expect((await cli(['config', 'set', 'tools.profile', 'messaging'], cwd)).code).toBe(0);
    expect(readFileSync(join(cwd, 'tool-search.json'), 'utf8')).toBe(text.replace("'coding'", "'messaging'"));
    expect((await cli(['config', 'set', 'tools.allow', '["slack"]'], cwd)).code).toBe(0);
    const after = readFileSync(join(cwd, 'tool-search.json'), 'utf8');
    for (const kept of ['// team config', '// who may do what', "profile: 'messaging', // the default"])
      expect(after).toContain(kept);
    expect(read(cwd)).toEqual({ tools: { profile: 'messaging', allow: ['slack'] } });
  });

  it('takes text that is not JSON5 as a string, and sets list items', async () => {
    const cwd = folder();
    expect((await cli(['config', 'set', 'tools.profile', 'messaging'], cwd)).code).toBe(0);
    expect(
      (await cli(['config', 'set', 'agents.list[0]', '{ id: "support", tools: { allow: ["slack"] } }'], cwd)).code,
    ).toBe(0);
    expect(read(cwd)).toEqual({
      tools: { profile: 'messaging' },
      agents: { list: [{ id: 'support', tools: { allow: ['slack'] } }] },
    });
    expect(JSON.parse((await cli(['config', 'get', 'agents.list[0].tools.allow'], cwd)).stdout)).toEqual(['slack']);
  });

  it('validates before writing: a bad value is refused with its path and rule, and the file is unchanged', async () => {
    const cwd = folder({ 'tool-search.json': '{ tools: { profile: "coding" } }' });
    const before = readFileSync(join(cwd, 'tool-search.json'), 'utf8');
    const refusals = [
      ['tools.profile', 'admin', 'CONFIG_INVALID'],
      ['tools.toolSearch.codeTimeoutMs', '"5000"', 'CONFIG_INVALID'],
      ['tools.alow', '["read"]', 'CONFIG_INVALID'],
      // Not a built-in id, so a plugin module: one that cannot be loaded is refused before the file is written.
      ['plugins.nope', '{}', 'PLUGIN_LOAD_FAILED'],
    ];
    for (const [path, value, rule] of refusals) {
      const { code, stderr } = await cli(['config', 'set', path!, value!], cwd);
      expect(code).toBe(1);
      expect(stderr).toContain(rule);
    }
    expect(readFileSync(join(cwd, 'tool-search.json'), 'utf8')).toBe(before);
  });

  it('can fix a config that breaks a rule', async () => {
    const cwd = folder({ 'tool-search.json': '{ tools: { profile: "admin" } }' });
    expect((await cli(['config', 'check'], cwd)).code).toBe(1);
    expect((await cli(['config', 'set', 'tools.profile', 'coding'], cwd)).code).toBe(0);
    expect((await cli(['config', 'check'], cwd)).code).toBe(0);
  });

  it('config get of a missing value exits 1; a malformed path is CONFIG_INVALID', async () => {
    const cwd = folder({ 'tool-search.json': '{}' });
    expect((await cli(['config', 'get', 'tools.profile'], cwd)).code).toBe(1);
    const bad = await cli(['config', 'set', 'tools..profile', 'coding'], cwd);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('CONFIG_INVALID');
  });
});

describe('config check warnings', () => {
  const config =
    '{ plugins: { "fake-catalog": { tools: 3, core: true } }, tools: { allow: ["raed"] }, agents: { list: [{ id: "ops", tools: { allow: ["exce"] } }] } }';

  it('prints every policy warning, for the global policy and each agent, with the closest real tool', async () => {
    const cwd = folder({ 'tool-search.json': config });
    const { code, stdout } = await cli(['config', 'check', '--json'], cwd);
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([
      expect.objectContaining({
        code: 'POLICY_ALLOWLIST_IGNORED',
        details: expect.objectContaining({ suggestions: { raed: 'read' } }),
      }),
      expect.objectContaining({
        code: 'POLICY_ALLOWLIST_IGNORED',
        agentId: 'ops',
        details: expect.objectContaining({ suggestions: { exce: 'exec' } }),
      }),
    ]);
    const text = await cli(['config', 'check'], cwd);
    expect(text.stdout).toContain('POLICY_ALLOWLIST_IGNORED');
    expect(text.stdout).toContain('(agent ops)');
  });

  it('config check --strict exits 1 on warnings, 0 without', async () => {
    const strict = await cli(['config', 'check', '--strict', '--json'], folder({ 'tool-search.json': config }));
    expect(strict.code).toBe(1);
    expect(JSON.parse(strict.stdout)).toMatchObject({ ok: false });
    expect(
      (
        await cli(
          ['config', 'check', '--strict'],
          folder({ 'tool-search.json': '{ plugins: { "fake-catalog": { tools: 3 } }, tools: { profile: "coding" } }' }),
        )
      ).code,
    ).toBe(0);
  });
});

describe('tools.toolSearch clamps, as the Tool Search document says', () => {
  it('codeTimeoutMs: 0 → 1000, -3 → 1000, maxSearchLimit: 0 → 1 (config show --json)', async () => {
    for (const [text, expected] of [
      ['{ codeTimeoutMs: 0 }', { codeTimeoutMs: 1000 }],
      ['{ codeTimeoutMs: -3 }', { codeTimeoutMs: 1000 }],
      ['{ maxSearchLimit: 0 }', { maxSearchLimit: 1, searchDefaultLimit: 1 }],
      ['{ codeTimeoutMs: 600000, maxSearchLimit: 500 }', { codeTimeoutMs: 60000, maxSearchLimit: 50 }],
    ] as const) {
      const { code, stdout } = await cli(
        ['config', 'show', '--json'],
        folder({ 'tool-search.json': `{ tools: { toolSearch: ${text} } }` }),
      );
      expect(code).toBe(0);
      expect(JSON.parse(stdout).config.tools.toolSearch).toMatchObject(expected);
    }
  });

  it('a non-number is a config error naming the path', async () => {
    const { code, stderr } = await cli(
      ['config', 'check'],
      folder({ 'tool-search.json': '{ tools: { toolSearch: { codeTimeoutMs: "fast" } } }' }),
    );
    expect(code).toBe(1);
    expect(stderr).toContain('CONFIG_INVALID');
    expect(stderr).toContain('/tools/toolSearch/codeTimeoutMs');
  });
});

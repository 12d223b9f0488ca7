import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@tool-search/kernel';
import { cli, folder, smallCatalog } from './helpers.js';
import { CliErrors } from '../src/errors.js';
import { PresetErrors } from '@tool-search/preset';

// Issue 16, "errors that point at the problem": what the CLI operator sees when something is refused.
const small = smallCatalog(3);
const json = (stdout: string) =>
  JSON.parse(stdout) as { error: { code: string; message: string; [key: string]: unknown } };

describe('tools call of a tool the config denies', () => {
  const denied = smallCatalog(3, 'tools: { deny: ["exec"] }');

  it('says it is not available to this run and points at tools explain (the operator may know it exists)', async () => {
    const result = await cli(['tools', 'call', 'exec', '--args', '{"command":"ls"}', '--json'], denied);
    expect(result.code).toBe(1);
    expect(json(result.stdout).error).toMatchObject({
      code: ErrorCode.POLICY_DENIED,
      toolId: 'core:core:exec',
      details: { explain: 'tool-search tools explain exec' },
    });
  });

  it('keeps UNKNOWN_TOOL for a tool no source lists', async () => {
    const result = await cli(['tools', 'call', 'no_such_tool', '--json'], denied);
    expect(json(result.stdout).error.code).toBe(ErrorCode.UNKNOWN_TOOL);
  });
});

describe('approvals without an approver', () => {
  it('says no approver is configured, not that an approver denied it', async () => {
    const cwd = smallCatalog(3, 'tools: { approvals: { require: ["read"] } }');
    const result = await cli(['tools', 'call', 'core:core:read', '--args', '{"path":"a"}', '--json'], cwd);
    const outcome = JSON.parse(result.stdout) as { status: string; reason: string };
    expect(outcome.status).toBe('blocked');
    expect(outcome.reason).toContain('no approver is configured');
    expect(outcome.reason).not.toContain('the approver denied it');
  });
});

describe('--json means JSON on failure too', () => {
  it.each([
    [
      'a config error',
      ['tools', 'list', '--json'],
      folder({ 'tool-search.json': '{ tools: { profil: "coding" } }' }),
      ErrorCode.CONFIG_INVALID,
    ],
    [
      'an unreadable config',
      ['config', 'check', '--json'],
      folder({ 'tool-search.json': '{ nope' }),
      ErrorCode.CONFIG_UNREADABLE,
    ],
    [
      'a missing plugin module',
      ['config', 'check', '--json'],
      folder({ 'tool-search.json': '{ plugins: { "./nope.mjs": {} } }' }),
      PresetErrors.PLUGIN_LOAD_FAILED,
    ],
    [
      'bad tool arguments',
      ['tools', 'call', 'core:core:read', '--args', '{"colour":1}', '--json'],
      small,
      ErrorCode.TOOL_ARGUMENTS_INVALID,
    ],
    [
      '--args that are not JSON',
      ['tools', 'call', 'core:core:read', '--args', '{', '--json'],
      small,
      CliErrors.CLI_INPUT_INVALID,
    ],
    ['an unknown tool to explain', ['tools', 'explain', 'no_such_tool', '--json'], small, ErrorCode.UNKNOWN_TOOL],
    ['an unknown tool to describe', ['tools', 'describe', 'no_such_tool', '--json'], small, ErrorCode.UNKNOWN_TOOL],
    ['an unknown qa scenario', ['qa', 'suite', '--scenario', 'nope', '--json'], small, CliErrors.CLI_USAGE_INVALID],
    ['an unknown flag', ['tools', 'list', '--json', '--frobnicate'], small, CliErrors.CLI_USAGE_INVALID],
  ])('prints one { error: { code, message } } document for %s', async (_case, argv, cwd, code) => {
    const result = await cli(argv, cwd);
    expect(result.code).not.toBe(0);
    const { error } = json(result.stdout);
    expect(error.code).toBe(code);
    expect(typeof error.message).toBe('string');
  });

  it('keeps the config path and rule of a config error', async () => {
    const result = await cli(
      ['tools', 'list', '--json'],
      folder({ 'tool-search.json': '{ tools: { profil: "coding" } }' }),
    );
    expect(json(result.stdout).error).toMatchObject({ path: '/tools/profil', rule: 'additionalProperties' });
  });
});

describe('tools search --limit above the cap', () => {
  it('says the limit was capped to N', async () => {
    const cwd = smallCatalog(40, 'tools: { toolSearch: { maxSearchLimit: 5 } }');
    const result = await cli(['tools', 'search', 'fake plugin tool', '--limit', '30', '--json'], cwd);
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout) as { hits: unknown[]; capped: { requested: number; limit: number } };
    expect(parsed.capped).toEqual({ requested: 30, limit: 5 });
    expect(parsed.hits.length).toBeLessThanOrEqual(5);
    expect(result.stderr).toContain('capped to 5');
  });

  it('says nothing when the limit fits', async () => {
    const result = await cli(['tools', 'search', 'fake plugin tool', '--limit', '3', '--json'], small);
    expect(JSON.parse(result.stdout)).not.toHaveProperty('capped');
    expect(result.stderr).not.toContain('capped');
  });
});

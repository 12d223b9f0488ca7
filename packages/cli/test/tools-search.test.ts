import { describe, expect, it } from 'vitest';
import { cli, smallCatalog } from './helpers.js';

const small = smallCatalog(3);

describe('tools search', () => {
  it('prints { query, hits, truncated } with --json', async () => {
    const { code, stdout } = await cli(['tools', 'search', 'read a file', '--json'], small);
    expect(code).toBe(0);
    const parsed = JSON.parse(stdout) as { query: string; hits: { id: string }[]; truncated: boolean };
    expect(Object.keys(parsed).sort()).toEqual(['hits', 'query', 'truncated']);
    expect(parsed.hits.map((hit) => hit.id)).toContain('core:core:read');
  });

  it('honours --limit', async () => {
    const { stdout } = await cli(['tools', 'search', 'file', '--limit', '2', '--json'], small);
    expect((JSON.parse(stdout) as { hits: unknown[] }).hits).toHaveLength(2);
  });

  it('caps --limit at tools.toolSearch.maxSearchLimit', async () => {
    const cwd = smallCatalog(40, 'tools: { toolSearch: { maxSearchLimit: 3 } }');
    const { stdout } = await cli(['tools', 'search', 'tool', '--limit', '30', '--json'], cwd);
    expect((JSON.parse(stdout) as { hits: unknown[] }).hits.length).toBeLessThanOrEqual(3);
  });

  it('exits 2 for a --limit that is not a positive integer', async () => {
    expect((await cli(['tools', 'search', 'x', '--limit', 'many'], small)).code).toBe(2);
  });

  it('says so in the text when only weak partial matches exist', async () => {
    const { code, stdout } = await cli(['tools', 'search', 'zebra migration'], small);
    expect(code).toBe(0);
    expect(stdout).toContain('the closest partial matches (weak)');
    const json = JSON.parse((await cli(['tools', 'search', 'zebra migration', '--json'], small)).stdout) as {
      weak?: boolean;
      hits: { weak?: boolean }[];
    };
    expect(json.weak).toBe(true);
    expect(json.hits.length).toBeGreaterThan(0);
  });

  it('does not find tools the policy dropped', async () => {
    const cwd = smallCatalog(3, 'tools: { deny: ["read"] }');
    const { stdout } = await cli(['tools', 'search', 'read a text file', '--json'], cwd);
    expect((JSON.parse(stdout) as { hits: { id: string }[] }).hits.map((hit) => hit.id)).not.toContain(
      'core:core:read',
    );
  });
});

describe('tools describe', () => {
  it('prints the full descriptor with --json', async () => {
    const { code, stdout } = await cli(['tools', 'describe', 'core:core:read', '--json'], small);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      id: 'core:core:read',
      name: 'read',
      source: 'core',
      owner: 'core',
      inputSchema: { type: 'object' },
    });
  });

  it('exits 1 with "unknown tool id" and the closest ids for a miss', async () => {
    const { code, stderr } = await cli(['tools', 'describe', 'core:core:reed'], small);
    expect(code).toBe(1);
    expect(stderr).toContain('UNKNOWN_TOOL');
    expect(stderr).toContain('unknown tool id');
    expect(stderr).toContain('core:core:read');
  });
});

describe('tools call', () => {
  it('prints the result text of an ok call', async () => {
    const { code, stdout } = await cli(['tools', 'call', 'core:core:read', '--args', '{"path":"README.md"}'], small);
    expect(code).toBe(0);
    expect(stdout.length).toBeGreaterThan(0);
  });

  it('prints the outcome with --json', async () => {
    const { code, stdout } = await cli(['tools', 'call', 'core:core:read', '--args', '{"path":"a"}', '--json'], small);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      status: 'ok',
      toolId: 'core:core:read',
      // The marker, then the fake's plain "did nothing".
      result: { content: [{ type: 'text' }, { type: 'text' }] },
    });
  });

  it('exits 1 with TOOL_ARGUMENTS_INVALID for arguments that break the schema', async () => {
    const { code, stderr } = await cli(['tools', 'call', 'core:core:read', '--args', '{}'], small);
    expect(code).toBe(1);
    expect(stderr).toContain('TOOL_ARGUMENTS_INVALID');
  });

  it('exits 1 for --args that are not a JSON object', async () => {
    expect((await cli(['tools', 'call', 'core:core:read', '--args', '[1]'], small)).code).toBe(1);
  });

  it('exits 1 with "unknown tool id" and the closest ids for a miss', async () => {
    const { code, stderr } = await cli(['tools', 'call', 'core:core:reed', '--args', '{}'], small);
    expect(code).toBe(1);
    expect(stderr).toContain('unknown tool id');
    expect(stderr).toContain('core:core:read');
  });

  it('exits 1 with the reason when approval is required and nobody can answer (no TTY)', async () => {
    const cwd = smallCatalog(3, 'tools: { approvals: { require: ["read"] } }');
    const { code, stdout } = await cli(['tools', 'call', 'core:core:read', '--args', '{"path":"a"}', '--json'], cwd);
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ status: 'blocked', by: '@tool-search/plugin-approvals' });
  });
});

import { describe, expect, it } from 'vitest';
import {
  CORE_GROUPS,
  expandGroups,
  firstMatch,
  isReservedGroup,
  matchesEntry,
  type MatchableTool,
} from '@tool-search/tool-match';

const tool = (
  source: MatchableTool['source'],
  owner: string,
  name: string,
  groups?: readonly string[],
): MatchableTool => ({
  id: `${source}:${owner}:${name}`,
  name,
  source,
  owner,
  ...(groups ? { meta: { groups } } : {}),
});

const read = tool('core', 'core', 'read');
const webSearch = tool('core', 'core', 'web_search');
const pluginRead = tool('plugin', 'fake-catalog', 'read');
const issue = tool('mcp', 'github', 'create_issue');
const slack = tool('plugin', 'chat', 'slack', ['group:chat', 'group:fs']);

describe('matchesEntry', () => {
  it('matches a tool name case-insensitively', () => {
    expect(matchesEntry('READ', read)).toBe(true);
    expect(matchesEntry('Web_Search', webSearch)).toBe(true);
  });

  it('matches every tool with "*"', () => {
    for (const t of [read, pluginRead, issue, slack]) expect(matchesEntry('*', t)).toBe(true);
  });

  it('treats * inside an entry as a glob', () => {
    expect(matchesEntry('web_*', webSearch)).toBe(true);
    expect(matchesEntry('web_*', read)).toBe(false);
    expect(matchesEntry('*_issue', issue)).toBe(true);
  });

  it('escapes regex characters in entries', () => {
    expect(matchesEntry('re.d', read)).toBe(false);
    expect(matchesEntry('read|exec', read)).toBe(false);
  });

  it('matches a tool id, so mcp:<server>:* names every tool of that server', () => {
    expect(matchesEntry('mcp:github:*', issue)).toBe(true);
    expect(matchesEntry('mcp:notion:*', issue)).toBe(false);
    expect(matchesEntry('core:core:read', read)).toBe(true);
    expect(matchesEntry('core:core:read', pluginRead)).toBe(false);
  });

  it("reads id-shaped allow entries as ids only, so a tool named like another server's id is not allowed by it", () => {
    const spoof = tool('mcp', 'evil', 'mcp:github:create_issue');
    expect(matchesEntry('mcp:github:*', spoof, 'allow')).toBe(false);
    expect(matchesEntry('MCP:GitHub:create_issue', spoof, 'allow')).toBe(false);
    expect(matchesEntry('mcp:github:*', issue, 'allow')).toBe(true);
    expect(matchesEntry('mcp:evil:*', spoof, 'allow')).toBe(true);
    // Deny (the default) and approval entries stay broad: they also match the name.
    expect(matchesEntry('mcp:github:*', spoof)).toBe(true);
    expect(firstMatch(['mcp:github:*'], spoof, 'deny')).toBe('mcp:github:*');
  });

  it('matches all tools of a plugin by its id (the owner)', () => {
    expect(matchesEntry('fake-catalog', pluginRead)).toBe(true);
    expect(matchesEntry('github', issue)).toBe(false);
  });

  it('puts only core tools in core groups, by name', () => {
    expect(matchesEntry('group:fs', read)).toBe(true);
    expect(matchesEntry('group:fs', pluginRead)).toBe(false);
  });

  it('does not let meta.groups join a reserved group', () => {
    expect(matchesEntry('group:fs', slack)).toBe(false);
    expect(matchesEntry('group:openclaw', slack)).toBe(false);
  });

  it('matches source groups: group:openclaw, group:plugins, group:mcp', () => {
    expect(matchesEntry('group:openclaw', read)).toBe(true);
    expect(matchesEntry('group:openclaw', pluginRead)).toBe(false);
    expect(matchesEntry('group:plugins', pluginRead)).toBe(true);
    expect(matchesEntry('group:plugins', issue)).toBe(false);
    expect(matchesEntry('group:mcp', issue)).toBe(true);
  });

  it('matches plugin-declared groups through meta.groups, case-insensitively', () => {
    expect(matchesEntry('group:chat', slack)).toBe(true);
    expect(matchesEntry('GROUP:CHAT', slack)).toBe(true);
    expect(matchesEntry('group:chat', read)).toBe(false);
  });

  it('ignores a malformed meta.groups', () => {
    const odd = { ...read, source: 'plugin' as const, meta: { groups: 'group:chat' as unknown as string[] } };
    expect(matchesEntry('group:chat', odd)).toBe(false);
  });

  it('returns the first matching entry in config order', () => {
    expect(firstMatch(['exec', 'group:fs', 'read'], read)).toBe('group:fs');
    expect(firstMatch(['exec'], read)).toBeUndefined();
  });
});

describe('groups', () => {
  it('defines the core groups of the OpenClaw inventory', () => {
    expect(CORE_GROUPS['group:runtime']).toEqual(['exec', 'bash', 'process']);
    expect(CORE_GROUPS['group:fs']).toEqual(['read', 'write', 'edit', 'apply_patch']);
    expect(CORE_GROUPS['group:sessions']).toEqual([
      'sessions_list',
      'sessions_history',
      'sessions_send',
      'sessions_spawn',
      'session_status',
    ]);
    expect(CORE_GROUPS['group:memory']).toEqual(['memory_search', 'memory_get']);
    expect(CORE_GROUPS['group:web']).toEqual(['web_search', 'web_fetch']);
    expect(CORE_GROUPS['group:ui']).toEqual(['browser', 'canvas']);
    expect(CORE_GROUPS['group:automation']).toEqual(['cron', 'gateway']);
    expect(CORE_GROUPS['group:messaging']).toEqual(['message']);
    expect(CORE_GROUPS['group:nodes']).toEqual(['nodes']);
  });

  it('expands core groups to tool names and keeps other entries', () => {
    expect(expandGroups(['group:ui', 'image', 'group:chat', 'GROUP:NODES'])).toEqual([
      'browser',
      'canvas',
      'image',
      'group:chat',
      'nodes',
    ]);
  });

  it('reports reserved groups', () => {
    expect(isReservedGroup('group:fs')).toBe(true);
    expect(isReservedGroup('group:plugins')).toBe(true);
    expect(isReservedGroup('group:chat')).toBe(false);
  });
});

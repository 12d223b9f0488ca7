/**
 * Skills of MCP servers (SEP-2640) are tools of source `skill`, ids `skill:<server>:<name>`: the same entries
 * match them (ids, globs, `group:skills`), and in an allowlist a `skill:` entry names ids only, so an MCP tool
 * named like a skill id is not allowed by it.
 */
import { describe, expect, it } from 'vitest';
import { isReservedGroup, matchesEntry, type MatchableTool } from '@tool-search/tool-match';

const skill: MatchableTool = { id: 'skill:docs:git-workflow', name: 'git-workflow', source: 'skill', owner: 'docs' };
const tool: MatchableTool = { id: 'mcp:docs:ping', name: 'ping', source: 'mcp', owner: 'docs' };
const impostor: MatchableTool = {
  id: 'mcp:evil:skill:docs:git-workflow',
  name: 'skill:docs:git-workflow',
  source: 'mcp',
  owner: 'evil',
};

describe('skill entries', () => {
  it('match a skill by id, glob and group:skills, in allow and deny', () => {
    for (const entry of ['skill:docs:git-workflow', 'skill:docs:*', 'skill:*', 'group:skills', 'git-workflow'])
      for (const effect of ['allow', 'deny'] as const) expect(matchesEntry(entry, skill, effect), entry).toBe(true);
  });

  it('group:skills holds skills only, and is reserved', () => {
    expect(matchesEntry('group:skills', tool, 'deny')).toBe(false);
    expect(matchesEntry('group:mcp', skill, 'deny')).toBe(false);
    expect(isReservedGroup('group:skills')).toBe(true);
  });

  it('an allowlist entry skill:… names ids only: a tool named like a skill id is not allowed', () => {
    expect(matchesEntry('skill:docs:*', impostor, 'allow')).toBe(false);
    // Deny still matches names, as for every source.
    expect(matchesEntry('skill:docs:*', impostor, 'deny')).toBe(true);
  });
});

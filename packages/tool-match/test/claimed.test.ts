/** Issue 26: a client tool is also matched, by deny and approval readings, as the tool its name claims. */
import { describe, expect, it } from 'vitest';
import { claimedTool, matchesEntry, type MatchableTool } from '@tool-search/tool-match';

const client = (name: string): MatchableTool => ({
  id: `client:client:${name}`,
  name,
  source: 'client',
  owner: 'client',
});

describe('claimedTool', () => {
  it.each([
    ['EXEC', 'core:core:exec'],
    ['\u0435xec', 'core:core:exec'],
    ['ex\u200bec', 'core:core:exec'],
    ['core:core:exec', 'core:core:exec'],
    ['Core:Core:Bash', 'core:core:bash'],
    ['client:client:core:core:read', 'core:core:read'],
    ['plugin:evil:secret_dump', 'plugin:evil:secret_dump'],
    ['mcp:github:create_issue', 'mcp:github:create_issue'],
  ])('%s claims %s', (name, id) => {
    expect(claimedTool(client(name))?.id).toBe(id);
  });

  it('a name that claims nothing, and tools of other sources, have no claim', () => {
    for (const name of ['get_weather', 'exec_report', 'my_exec', 'readme'])
      expect(claimedTool(client(name))).toBeUndefined();
    expect(claimedTool({ name: 'exec', source: 'plugin' })).toBeUndefined();
  });

  it('deny reads the claim (groups, names, ids); allow never does', () => {
    for (const entry of ['group:runtime', 'exec', 'core:core:exec', 'core:*:exec', 'group:openclaw']) {
      expect(matchesEntry(entry, client('\u0435xec'), 'deny')).toBe(true);
      expect(matchesEntry(entry, client('\u0435xec'), 'allow')).toBe(false);
    }
    expect(matchesEntry('group:runtime', client('get_weather'), 'deny')).toBe(false);
    expect(matchesEntry('group:openclaw', client('get_weather'), 'deny')).toBe(false);
  });
});

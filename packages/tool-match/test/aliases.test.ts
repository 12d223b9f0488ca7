// OpenClaw's policy name aliases: `bash` (the name group:runtime keeps) is the core tool `exec`, `apply-patch` is `apply_patch`.
import { describe, expect, it } from 'vitest';
import { matchesEntry, TOOL_NAME_ALIASES, type MatchableTool } from '@tool-search/tool-match';

const tool = (
  name: string,
  source: MatchableTool['source'] = 'core',
  owner = source === 'core' ? 'core' : 'acme',
): MatchableTool => ({ id: `${source}:${owner}:${name}`, name, source, owner });

describe('bash as the alias group:runtime names', () => {
  it('bash in an allow or deny list names the core exec tool', () => {
    expect(TOOL_NAME_ALIASES).toEqual({ bash: 'exec', 'apply-patch': 'apply_patch' });
    for (const effect of ['allow', 'deny'] as const) {
      expect(matchesEntry('bash', tool('exec'), effect)).toBe(true);
      expect(matchesEntry('BASH', tool('exec'), effect)).toBe(true);
      expect(matchesEntry('apply-patch', tool('apply_patch'), effect)).toBe(true);
    }
  });

  it('the alias names only the core tool: a plugin tool named exec is not allowed by bash, and bash still matches a tool named bash', () => {
    expect(matchesEntry('bash', tool('exec', 'plugin'), 'allow')).toBe(false);
    expect(matchesEntry('bash', tool('bash', 'plugin'), 'deny')).toBe(true);
    expect(matchesEntry('bash', tool('process'), 'allow')).toBe(false);
  });
});

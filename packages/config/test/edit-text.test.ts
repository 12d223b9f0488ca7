// `config set` edits the user's JSON5 file in place: comments, quoting, indentation and order survive.
import JSON5 from 'json5';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@tool-search/kernel';
import { setConfigValue, setConfigValueInText } from '../src/index.js';

const TEXT = `// my config
{
  // the policy
  tools: {
    allow: ['read', 'write'], // files only
  },
  agents: { list: [ { id: 'a' } ] },
}
`;

describe('setConfigValueInText', () => {
  it('adds a value and keeps every comment, the unquoted keys and the single quotes', () => {
    const out = setConfigValueInText(TEXT, 'tools.toolSearch', { mode: 'tools' });
    expect(out).toContain('// my config');
    expect(out).toContain('// the policy');
    expect(out).toContain("allow: ['read', 'write'], // files only");
    expect(JSON5.parse(out)).toEqual(setConfigValue(JSON5.parse(TEXT), 'tools.toolSearch', { mode: 'tools' }));
  });

  it('replaces, appends to a list, creates objects on the way, and removes, each equal to setConfigValue', () => {
    for (const [path, value] of [
      ['tools.allow', ['read']],
      ['tools.allow[2]', 'exec'],
      ['agents.list[0].tools.deny', ['exec']],
      ['agents.list[1]', { id: 'b' }],
      ['tools.allow', undefined],
      ['mcp.servers["my.server"]', { command: 'node' }],
    ] as const) {
      const out = setConfigValueInText(TEXT, path, value);
      expect(out).toContain('// the policy');
      expect(JSON5.parse(out)).toEqual(setConfigValue(JSON5.parse(TEXT), path, value));
    }
  });

  it('changes nothing else: only the edited line differs', () => {
    const out = setConfigValueInText(TEXT, 'agents.list[0].id', 'support');
    const before = TEXT.split('\n');
    const after = out.split('\n');
    expect(after).toHaveLength(before.length);
    expect(after.filter((line, i) => line !== before[i])).toEqual(["  agents: { list: [ { id: 'support' } ] },"]);
  });

  it('writes plain JSON into an empty file', () => {
    expect(JSON.parse(setConfigValueInText('', 'tools.profile', 'coding'))).toEqual({ tools: { profile: 'coding' } });
  });

  it('refuses the paths setConfigValue refuses, with CONFIG_INVALID rule path', () => {
    for (const path of ['tools.allow[5]', 'tools.allow.x', 'agents.list[0].id.deeper']) {
      let caught: unknown;
      try {
        setConfigValueInText(TEXT, path, 1);
      } catch (error) {
        caught = error;
      }
      expect(caught).toMatchObject({ code: ErrorCode.CONFIG_INVALID, rule: 'path' });
    }
  });
});

import { describe, expect, it } from 'vitest';
import { foldName, isLookalikeName, matchesEntry, type MatchableTool } from '@tool-search/tool-match';

const mcp = (name: string, server = 'evil'): MatchableTool => ({
  id: `mcp:${server}:${name}`,
  name,
  source: 'mcp',
  owner: server,
});

// Each name renders like "write_file".
const LOOKALIKES = [
  'wr\u0456te_file', // Cyrillic і
  'write\u200b_file', // zero-width space
  '\uff57rite_file', // fullwidth ｗ
  'wri\u200dte_file', // zero-width joiner
  'writ\u0435_file', // Cyrillic е
  'write_\u202efile', // right-to-left override
  'wri\u00adte_file', // soft hyphen
  'write\ufe0f_file', // variation selector
  'write_file\u{e0061}', // tag character
  '\u{1d430}rite_file', // mathematical bold w
  'WR\u0406TE_FILE', // Cyrillic capital І
];

describe('lookalike names', () => {
  it.each(LOOKALIKES)('deny mcp:*:write_* also drops %j', (name) => {
    expect(name).not.toBe('write_file');
    expect(matchesEntry('mcp:*:write_*', mcp(name))).toBe(true);
    expect(matchesEntry('write_file', mcp(name))).toBe(true);
  });

  it('allow entries match the raw form only (folding would widen an allowlist)', () => {
    expect(matchesEntry('write_file', mcp('wr\u0456te_file'), 'allow')).toBe(false);
    expect(matchesEntry('write_file', mcp('write_file'), 'allow')).toBe(true);
  });

  it('a core group denies a lookalike core name', () => {
    expect(
      matchesEntry('group:fs', { id: 'core:core:wr\u0456te', name: 'wr\u0456te', source: 'core', owner: 'core' }),
    ).toBe(true);
  });

  it('folds NFKC forms, invisible characters and confusables to one form', () => {
    expect(LOOKALIKES.map(foldName)).toEqual(LOOKALIKES.map(() => foldName('write_file')));
  });

  it('flags names that only look like ASCII, not names in another script', () => {
    for (const name of LOOKALIKES) expect(isLookalikeName(name)).toBe(true);
    expect(isLookalikeName('write_file')).toBe(false);
    expect(isLookalikeName('搜索')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@tool-search/kernel';
import { checkModeOptions, searchOptionsProperties } from '../src/index.js';

const schema = {
  type: 'object',
  properties: {
    ...searchOptionsProperties,
    limits: { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, additionalProperties: false },
  },
  additionalProperties: false,
} as const;

describe('checkModeOptions', () => {
  it('passes valid options through unchanged', () => {
    const options = { searchDefaultLimit: 3, maxSearchLimit: 9, description: 'Tickets and builds.' };
    expect(checkModeOptions(options, { plugin: 'p', schema })).toBe(options);
  });

  it('names the path, the rule and every issue, as a pointer or dotted', () => {
    const bad = { searchDefaultLimit: 0, limits: { n: 1.5 }, typo: true };
    let error: unknown;
    try {
      checkModeOptions(bad, { plugin: 'p', schema });
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: ErrorCode.OPTIONS_INVALID, plugin: 'p' });
    const issues = (error as { details: { issues: { path: string; rule: string }[] } }).details.issues.map(
      ({ path, rule }) => `${path} ${rule}`,
    );
    expect(issues.sort()).toEqual(['/limits/n type', '/searchDefaultLimit minimum', '/typo additionalProperties']);
    expect(() => checkModeOptions({ limits: { n: 0 } }, { plugin: 'p', schema, pathStyle: 'dotted' })).toThrow(
      expect.objectContaining({ path: 'limits.n', rule: 'minimum' }),
    );
  });

  it('says the size and the bound of a too-long description', () => {
    expect(() => checkModeOptions({ description: 'x'.repeat(2500) }, { plugin: 'p', schema })).toThrow(
      expect.objectContaining({
        path: '/description',
        rule: 'maxLength',
        message: expect.stringContaining('has 2500 characters; keep it to 2000'),
      }),
    );
  });
});

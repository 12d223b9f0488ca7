/**
 * `checkBrowserConfig` skips Ajv when the kernel's `surelyValid` proves the config valid: typical configs are proved, a
 * proof never passes what Ajv refuses (mistakes and random values), and what the proof cannot decide goes to Ajv.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileToolSchema, ErrorCode, surelyValid } from '@tool-search/kernel';
import { checkBrowserConfig, browserConfigSchema } from '../src/options.js';

const typical: unknown[] = [
  {},
  { enabled: true, allowPrivate: false, actionTimeoutMs: 20000, navigationTimeoutMs: 30000 },
];
const invalid: unknown[] = [
  { actionTimeoutMs: 5 },
  { defaultProfile: 'Bad Name' },
  { profiles: { work: { cdpPort: 80 } } },
];
/** Valid, but a `pattern` on the value's path: Ajv decides. */
const unproved: unknown[] = [{ defaultProfile: 'openclaw' }, { profiles: { work: { cdpPort: 18801 } } }];

function ajvAccepts(value: unknown): boolean {
  const validate = compileToolSchema(browserConfigSchema);
  if (typeof validate !== 'function') throw new Error(validate.message);
  return validate(value) === true;
}

describe('browser check without Ajv', () => {
  it('proves typical configs, refuses mistakes through Ajv with CONFIG_INVALID, leaves patterns to Ajv', () => {
    for (const value of typical) {
      expect(surelyValid(browserConfigSchema, value), JSON.stringify(value)).toBe(true);
      expect(ajvAccepts(value), JSON.stringify(value)).toBe(true);
      expect(checkBrowserConfig(value)).toBe(value);
    }
    for (const value of invalid) {
      expect(surelyValid(browserConfigSchema, value), JSON.stringify(value)).toBe(false);
      expect(() => checkBrowserConfig(value)).toThrow(expect.objectContaining({ code: ErrorCode.CONFIG_INVALID }));
    }
    for (const value of unproved) {
      expect(surelyValid(browserConfigSchema, value), JSON.stringify(value)).toBe(false);
      expect(ajvAccepts(value), JSON.stringify(value)).toBe(true);
    }
  });

  it('never proves a random config Ajv refuses', () => {
    const keys = Object.keys((browserConfigSchema as { properties: object }).properties);
    const config = fc.oneof(
      fc.dictionary(fc.constantFrom(...keys, 'other'), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
      fc.dictionary(fc.constantFrom(...keys), fc.anything({ maxDepth: 2 }), { maxKeys: 3 }),
    );
    fc.assert(
      fc.property(config, (value) => !surelyValid(browserConfigSchema, value) || ajvAccepts(value)),
      { numRuns: 500 },
    );
  });
});

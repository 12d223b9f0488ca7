/**
 * `checkWebConfig` skips Ajv when the kernel's `surelyValid` proves the config valid: typical configs are proved, a
 * proof never passes what Ajv refuses (mistakes and random values), and what the proof cannot decide goes to Ajv.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileToolSchema, ErrorCode, surelyValid } from '@tool-search/kernel';
import { checkWebConfig, webConfigSchema } from '../src/options.js';

const typical: unknown[] = [
  {},
  {
    fetch: { maxChars: 5000, firecrawl: { enabled: false } },
    search: { provider: 'brave', apiKey: 'k', maxResults: 5 },
  },
];
const invalid: unknown[] = [
  { fetch: { maxChars: 10 } },
  { search: { provider: 'bing' } },
  { search: { brave: { baseUrl: 'ftp://x' } } },
];
/** Valid, but a `pattern` on the value's path: Ajv decides. */
const unproved: unknown[] = [{ search: { brave: { baseUrl: 'https://search.example' } } }];

function ajvAccepts(value: unknown): boolean {
  const validate = compileToolSchema(webConfigSchema);
  if (typeof validate !== 'function') throw new Error(validate.message);
  return validate(value) === true;
}

describe('tools.web check without Ajv', () => {
  it('proves typical configs, refuses mistakes through Ajv with CONFIG_INVALID, leaves patterns to Ajv', () => {
    for (const value of typical) {
      expect(surelyValid(webConfigSchema, value), JSON.stringify(value)).toBe(true);
      expect(ajvAccepts(value), JSON.stringify(value)).toBe(true);
      expect(checkWebConfig(value)).toBe(value);
    }
    for (const value of invalid) {
      expect(surelyValid(webConfigSchema, value), JSON.stringify(value)).toBe(false);
      expect(() => checkWebConfig(value)).toThrow(expect.objectContaining({ code: ErrorCode.CONFIG_INVALID }));
    }
    for (const value of unproved) {
      expect(surelyValid(webConfigSchema, value), JSON.stringify(value)).toBe(false);
      expect(ajvAccepts(value), JSON.stringify(value)).toBe(true);
    }
  });

  it('never proves a random config Ajv refuses', () => {
    const keys = Object.keys((webConfigSchema as { properties: object }).properties);
    const config = fc.oneof(
      fc.dictionary(fc.constantFrom(...keys, 'other'), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
      fc.dictionary(fc.constantFrom(...keys), fc.anything({ maxDepth: 2 }), { maxKeys: 3 }),
    );
    fc.assert(
      fc.property(config, (value) => !surelyValid(webConfigSchema, value) || ajvAccepts(value)),
      { numRuns: 500 },
    );
  });
});

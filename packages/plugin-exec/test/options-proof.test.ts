/**
 * `checkExecConfig` skips Ajv when the kernel's `surelyValid` proves the config valid: typical configs are proved, a
 * proof never passes what Ajv refuses (mistakes and random values), and what the proof cannot decide goes to Ajv.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileToolSchema, ErrorCode, surelyValid } from '@tool-search/kernel';
import { checkExecConfig, execConfigSchema } from '../src/options.js';

const typical: unknown[] = [
  {},
  {
    host: 'sandbox',
    security: 'allowlist',
    allowlist: ['ls', 'git'],
    timeoutSec: 1800,
    env: { LANG: 'C' },
    limits: { memoryMb: 512 },
  },
  { applyPatch: { enabled: true } },
];
const invalid: unknown[] = [{ host: 'docker' }, { allowlist: [''] }, { limits: { memoryMb: 1 } }, { env: { LANG: 1 } }];
/** Valid, but a `pattern` on the value's path: Ajv decides. */
const unproved: unknown[] = [];

function ajvAccepts(value: unknown): boolean {
  const validate = compileToolSchema(execConfigSchema);
  if (typeof validate !== 'function') throw new Error(validate.message);
  return validate(value) === true;
}

describe('tools.exec check without Ajv', () => {
  it('proves typical configs, refuses mistakes through Ajv with CONFIG_INVALID, leaves patterns to Ajv', () => {
    for (const value of typical) {
      expect(surelyValid(execConfigSchema, value), JSON.stringify(value)).toBe(true);
      expect(ajvAccepts(value), JSON.stringify(value)).toBe(true);
      expect(checkExecConfig(value)).toBe(value);
    }
    for (const value of invalid) {
      expect(surelyValid(execConfigSchema, value), JSON.stringify(value)).toBe(false);
      expect(() => checkExecConfig(value)).toThrow(expect.objectContaining({ code: ErrorCode.CONFIG_INVALID }));
    }
    for (const value of unproved) {
      expect(surelyValid(execConfigSchema, value), JSON.stringify(value)).toBe(false);
      expect(ajvAccepts(value), JSON.stringify(value)).toBe(true);
    }
  });

  it('never proves a random config Ajv refuses', () => {
    const keys = Object.keys((execConfigSchema as { properties: object }).properties);
    const config = fc.oneof(
      fc.dictionary(fc.constantFrom(...keys, 'other'), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
      fc.dictionary(fc.constantFrom(...keys), fc.anything({ maxDepth: 2 }), { maxKeys: 3 }),
    );
    fc.assert(
      fc.property(config, (value) => !surelyValid(execConfigSchema, value) || ajvAccepts(value)),
      { numRuns: 500 },
    );
  });
});

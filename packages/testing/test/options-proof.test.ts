/** The options-proof kit passes a sound parser and fails, naming the value, where a parser breaks the contract. */
import { ConfigError, type JsonSchema } from '@tool-search/kernel';
import { describe, expect, it } from 'vitest';
import { assertOptionsProof } from '../src/index.js';

const schema: JsonSchema = {
  type: 'object',
  properties: { size: { type: 'integer', minimum: 1 }, name: { type: 'string', pattern: '^[a-z]+$' } },
  additionalProperties: false,
};
const check = (value: unknown) => {
  const size = (value as { size?: unknown }).size;
  if (size !== undefined && !(Number.isInteger(size) && (size as number) >= 1))
    throw new ConfigError('/size', 'minimum', 'size must be an integer ≥ 1');
  return value;
};

describe('assertOptionsProof', () => {
  it('passes a parser that keeps the contract', () => {
    expect(() =>
      assertOptionsProof({
        schema,
        check,
        typical: [{}, { size: 3 }],
        invalid: [{ size: 0 }],
        unproved: [{ name: 'ab' }],
      }),
    ).not.toThrow();
  });

  it('fails when a mistake is accepted, or typical options are not proved', () => {
    expect(() => assertOptionsProof({ schema, check: (v) => v, typical: [{}], invalid: [{ size: 0 }] })).toThrow(
      /not refused with CONFIG_INVALID.*"size":0/,
    );
    expect(() => assertOptionsProof({ schema, check, typical: [{ name: 'ab' }], invalid: [] })).toThrow(
      /typical options not proved valid/,
    );
  });
});

/**
 * The check a plugin's options parser owes when it skips Ajv on the kernel's `surelyValid` proof: typical options are
 * proved (and accepted), mistakes are not proved and are refused with `CONFIG_INVALID`, what the proof cannot decide
 * is left to Ajv, and no random value is ever proved valid where Ajv refuses it (a fast-check property).
 */
import fc from 'fast-check';
import { compileToolSchema, ErrorCode, surelyValid, type JsonSchema } from '@tool-search/kernel';

export interface OptionsProofCase {
  /** The options schema the parser checks against. */
  readonly schema: JsonSchema;
  /** The parser: returns the options it accepted, throws a coded error otherwise. */
  readonly check: (value: unknown) => unknown;
  /** Valid options the proof must decide (no Ajv). */
  readonly typical: readonly unknown[];
  /** Mistakes: never proved, refused by `check` with `CONFIG_INVALID`. */
  readonly invalid: readonly unknown[];
  /** Valid options the proof cannot decide (a `pattern` on the value's path): Ajv accepts them. */
  readonly unproved?: readonly unknown[];
  /** Random values tried by the soundness property. Default 500. */
  readonly numRuns?: number;
}

/** Throws (naming the value) at the first case that breaks the contract above. */
export function assertOptionsProof(options: OptionsProofCase): void {
  const { schema, check } = options;
  const ajvAccepts = (value: unknown): boolean => {
    const validate = compileToolSchema(schema);
    if (typeof validate !== 'function') throw new Error(`the options schema does not compile: ${validate.message}`);
    return validate(value) === true;
  };
  const fail = (what: string, value: unknown): never => {
    throw new Error(`${what}: ${JSON.stringify(value)}`);
  };
  for (const value of options.typical) {
    if (!surelyValid(schema, value)) fail('typical options not proved valid', value);
    if (!ajvAccepts(value)) fail('typical options refused by Ajv', value);
    if (check(value) !== value) fail('check did not return the options it was given', value);
  }
  for (const value of options.invalid) {
    if (surelyValid(schema, value)) fail('a mistake was proved valid', value);
    let code: unknown;
    try {
      check(value);
    } catch (error) {
      code = (error as { code?: unknown }).code;
    }
    if (code !== ErrorCode.CONFIG_INVALID)
      fail(`a mistake was not refused with CONFIG_INVALID (got ${String(code)})`, value);
  }
  for (const value of options.unproved ?? []) {
    if (surelyValid(schema, value)) fail('options expected to be left to Ajv were proved', value);
    if (!ajvAccepts(value)) fail('options expected valid were refused by Ajv', value);
  }
  const keys = Object.keys((schema as { properties?: object }).properties ?? {});
  const random = fc.oneof(
    fc.dictionary(fc.constantFrom(...keys, 'other'), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
    fc.dictionary(fc.constantFrom(...keys, 'other'), fc.anything({ maxDepth: 2 }), { maxKeys: 3 }),
  );
  fc.assert(
    fc.property(random, (value) => !surelyValid(schema, value) || ajvAccepts(value)),
    { numRuns: options.numRuns ?? 500 },
  );
}

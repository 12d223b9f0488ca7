/**
 * `checkExecConfig` skips Ajv when the kernel's `surelyValid` proves the config valid: typical configs are proved, a
 * proof never passes what Ajv refuses (mistakes and random values), and what the proof cannot decide goes to Ajv.
 */
import { describe, it } from 'vitest';
import { assertOptionsProof } from '@tool-search/testing';
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

describe('tools.exec check without Ajv', () => {
  it('proves typical configs, refuses mistakes with CONFIG_INVALID, leaves patterns to Ajv, never proves what Ajv refuses', () => {
    assertOptionsProof({ schema: execConfigSchema, check: checkExecConfig, typical, invalid, unproved });
  });
});

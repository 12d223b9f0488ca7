/**
 * `checkBrowserConfig` skips Ajv when the kernel's `surelyValid` proves the config valid: typical configs are proved, a
 * proof never passes what Ajv refuses (mistakes and random values), and what the proof cannot decide goes to Ajv.
 */
import { describe, it } from 'vitest';
import { assertOptionsProof } from '@tool-search/testing';
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

describe('browser check without Ajv', () => {
  it('proves typical configs, refuses mistakes with CONFIG_INVALID, leaves patterns to Ajv, never proves what Ajv refuses', () => {
    assertOptionsProof({ schema: browserConfigSchema, check: checkBrowserConfig, typical, invalid, unproved });
  });
});

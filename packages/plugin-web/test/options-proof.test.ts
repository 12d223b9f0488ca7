/**
 * `checkWebConfig` skips Ajv when the kernel's `surelyValid` proves the config valid: typical configs are proved, a
 * proof never passes what Ajv refuses (mistakes and random values), and what the proof cannot decide goes to Ajv.
 */
import { describe, it } from 'vitest';
import { assertOptionsProof } from '@tool-search/testing';
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

describe('tools.web check without Ajv', () => {
  it('proves typical configs, refuses mistakes with CONFIG_INVALID, leaves patterns to Ajv, never proves what Ajv refuses', () => {
    assertOptionsProof({ schema: webConfigSchema, check: checkWebConfig, typical, invalid, unproved });
  });
});

/**
 * The plugins' options checks skip Ajv when the kernel's `surelyValid` proves the options valid. Held here on every
 * options schema the preset's plugins check with it, with their typical values (what the preset passes: defaults
 * filled), their usual mistakes, and random values over their keys: a proof must never pass what Ajv refuses, and
 * the typical values must be proved (that is what keeps Ajv out of a CLI start-up; `cli/test/startup-modules.test.ts`
 * counts the modules).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileToolSchema, surelyValid, type JsonSchema } from '@tool-search/kernel';
import { optionsSchema as codeSchema } from '@tool-search/mode-code';
import { optionsSchema as directSchema } from '@tool-search/mode-direct';
import { optionsSchema as directorySchema } from '@tool-search/mode-directory';
import { optionsSchema as toolsSchema } from '@tool-search/mode-tools';
import { policyOptionsSchema } from '@tool-search/policy';
import { approvalsConfigSchema } from '@tool-search/plugin-approvals';
import { embeddingsOptionsSchema } from '@tool-search/plugin-embeddings';
import { learningSettingsSchema } from '@tool-search/plugin-learning';
import { loopDetectionSettingsSchema } from '@tool-search/plugin-loop-detection';
import { mcpPluginOptionsSchema } from '@tool-search/plugin-mcp';

const search = { searchDefaultLimit: 8, maxSearchLimit: 20 };

interface Case {
  readonly schema: JsonSchema;
  /** Proved without Ajv. */
  readonly typical: readonly unknown[];
  /** Refused by Ajv: never proved. */
  readonly invalid: readonly unknown[];
  /** Valid, but outside what the proof decides (a `pattern` on the value's path): Ajv answers. */
  readonly unproved?: readonly unknown[];
}

const CASES: Record<string, Case> = {
  'mode-tools': {
    schema: toolsSchema as JsonSchema,
    typical: [
      {},
      search,
      { ...search, description: 'Our CRM and billing tools.' },
      { ...search, description: undefined },
    ],
    invalid: [{ searchDefaultLimit: 0 }, { maxSearchLimit: 2.5 }, { limit: 3 }, { description: 'x'.repeat(2001) }],
  },
  'mode-directory': {
    schema: directorySchema as JsonSchema,
    typical: [{}, { ...search, visible: ['read', 'plugin:crm:find'], budgetChars: 6000, turnTools: 5 }],
    invalid: [{ visible: [''] }, { turnTools: 21 }, { budgetChars: -1 }, { visible: 'read' }],
  },
  'mode-direct': {
    schema: directSchema as JsonSchema,
    typical: [{}, { budgetChars: 4000 }, { budgetChars: 0 }],
    invalid: [{ budgetChars: 200_001 }, { budget: 1 }, { budgetChars: '4000' }],
  },
  'mode-code': {
    schema: codeSchema as JsonSchema,
    typical: [
      {},
      {
        codeTimeoutMs: 10_000,
        ...search,
        warmPool: 0,
        sandbox: 'process',
        maxConcurrent: undefined,
        limits: { maxCodeBytes: 65_536, memoryMb: 64 },
        onSpawn: () => undefined,
      },
      { sandbox: 'quickjs', codeTimeoutMs: undefined, description: 'Our tools.' },
    ],
    invalid: [{ sandbox: 'docker' }, { limits: { maxCodeBytes: 0 } }, { limits: { cpu: 1 } }, { warmPool: -1 }],
  },
  policy: {
    schema: policyOptionsSchema,
    typical: [
      { tools: {}, agents: {} },
      {
        tools: {
          profile: 'coding',
          allow: ['read', 'group:web'],
          deny: ['exec'],
          byProvider: { openai: { profile: 'minimal' }, 'anthropic/claude': { deny: ['browser'] } },
          sandbox: { tools: { allow: ['read'] } },
          web: { search: { enabled: true } }, // another package's key: passes through
        },
        agents: { list: [{ id: 'support', tools: { alsoAllow: ['group:messaging'] } }] },
      },
    ],
    invalid: [
      { tools: { profile: 'admin' } },
      { tools: { allow: [''] } },
      { tools: { byProvider: { openai: { allow: 'read' } } } },
      { tools: { byProvider: { '': {} } } },
      { agents: { list: [{ tools: {} }] } },
    ],
  },
  learning: {
    schema: learningSettingsSchema as JsonSchema,
    typical: [{}, { enabled: true, scope: 'agent', halfLifeDays: 14, maxEntries: 1000, minCalls: 2, weight: 1 }],
    invalid: [{ halfLifeDays: 0 }, { scope: 'global' }, { maxEntries: 1.5 }, { weight: Number.NaN }],
  },
  'loop-detection': {
    schema: loopDetectionSettingsSchema,
    typical: [
      { tools: {}, agents: {} },
      {
        tools: { loopDetection: { enabled: true, warningThreshold: 3, detectors: { pingPong: false } } },
        agents: { list: [{ id: 'ops', tools: { loopDetection: { criticalThreshold: 8 } } }] },
      },
    ],
    invalid: [
      { tools: { loopDetection: { warningThreshold: 0 } } },
      { tools: { loopDetection: { detectors: { other: true } } } },
      { agents: { list: [{ id: '' }] } },
    ],
  },
  approvals: {
    schema: approvalsConfigSchema,
    typical: [{}, { require: ['exec', 'group:fs'], timeoutMs: 60_000, requireDestructive: true }],
    invalid: [{ require: [''] }, { timeoutMs: 0 }, { timeout: 1 }],
  },
  embeddings: {
    schema: embeddingsOptionsSchema as JsonSchema,
    typical: [],
    invalid: [{ model: 'm' }, { baseURL: 'ftp://x', model: 'm' }, { baseURL: 'https://x', model: 'm', fusion: 'x' }],
    unproved: [{ baseURL: 'https://api.openai.com/v1', model: 'text-embedding-3-small' }],
  },
  mcp: {
    schema: mcpPluginOptionsSchema as unknown as JsonSchema,
    typical: [],
    invalid: [{}, { servers: 5 }, { servers: { fs: {} } }],
    unproved: [{ servers: { fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] } } }],
  },
};

function ajvAccepts(schema: JsonSchema, value: unknown): boolean {
  const validate = compileToolSchema(schema);
  if (typeof validate !== 'function') throw new Error(`schema does not compile: ${validate.message}`);
  return validate(value) === true;
}

describe('options schemas: proved without Ajv only where Ajv accepts', () => {
  for (const [name, { schema, typical, invalid, unproved = [] }] of Object.entries(CASES)) {
    it(`${name}: typical options are proved, mistakes and what the proof cannot see go to Ajv`, () => {
      for (const value of typical) {
        expect(ajvAccepts(schema, value), JSON.stringify(value)).toBe(true);
        expect(surelyValid(schema, value), JSON.stringify(value)).toBe(true);
      }
      for (const value of invalid) {
        expect(ajvAccepts(schema, value), JSON.stringify(value)).toBe(false);
        expect(surelyValid(schema, value), JSON.stringify(value)).toBe(false);
      }
      for (const value of unproved) {
        expect(ajvAccepts(schema, value), JSON.stringify(value)).toBe(true);
        expect(surelyValid(schema, value), JSON.stringify(value)).toBe(false);
      }
    });

    it(`${name}: random values over its keys are never proved when Ajv refuses them`, () => {
      const keys = Object.keys((schema as { properties?: object }).properties ?? {});
      const values = fc.oneof(
        fc.dictionary(fc.constantFrom(...keys, 'other'), fc.anything({ maxDepth: 2 }), { maxKeys: 4 }),
        fc.dictionary(fc.constantFrom(...keys, 'other'), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
        // A typical value with one key replaced.
        fc
          .tuple(
            fc.constantFrom(...(typical.length ? typical : [{}])),
            fc.constantFrom(...keys),
            fc.jsonValue({ maxDepth: 2 }),
          )
          .map(([base, key, value]) => ({ ...(base as object), [key]: value })),
      );
      fc.assert(
        fc.property(values, (value) => !surelyValid(schema, value) || ajvAccepts(schema, value)),
        { numRuns: 300 },
      );
    });
  }
});

/**
 * The build's precompiled config validator (`scripts/precompile.mjs` → dist/config-validator.cjs) must say exactly
 * what Ajv compiling the schema at run time says: same verdict, same errors, for valid configs and broken ones.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../src/schema.js';
import { VALIDATOR_OPTIONS } from '../src/validator-options.js';

const FILE = fileURLToPath(new URL('../dist/config-validator.cjs', import.meta.url));
const BUILT = existsSync(FILE);
if (!BUILT)
  console.warn(
    'skipping the precompiled-validator test: dist/config-validator.cjs is missing; run `npm run build` first',
  );

const CONFIGS: unknown[] = [
  {},
  { plugins: { core: {} } },
  { tools: { profile: 'coding', allow: ['group:fs'], deny: ['exec'] }, agents: { list: [{ id: 'a' }] } },
  { tools: { toolSearch: { mode: 'code', searchDefaultLimit: 5, directory: { turnTools: 4 } } } },
  { mcp: { servers: { fs: { command: 'node', args: ['x.js'] }, web: { url: 'https://example.com/mcp' } } } },
  { telemetry: { otlp: { endpoint: 'http://collector:4318', timeoutMs: 500 } } },
  // broken ones
  { tools: { profile: 'everything' } },
  { tools: { alow: [] } },
  { tools: { toolSearch: { mode: 'codes', searchDefaultLimit: -1 } } },
  { mcp: { servers: { bad: { args: 3 } } } },
  { telemetry: { otlp: { endpoint: 'collector:4318', timeoutMs: 5 } } },
  { agents: { list: [{ tools: { allow: 'exec' } }] } },
  [],
  'tool-search.json',
  null,
];

const shape = (errors: readonly ErrorObject[] | null | undefined) =>
  (errors ?? []).map(({ instancePath, schemaPath, keyword, params, message }) => ({
    instancePath,
    schemaPath,
    keyword,
    params,
    message,
  }));

describe.skipIf(!BUILT)('the precompiled config validator', () => {
  it('gives the verdict and the errors of the schema compiled at run time', () => {
    const precompiled = createRequire(import.meta.url)(FILE) as ValidateFunction;
    const compiled = new Ajv(VALIDATOR_OPTIONS).compile(configSchema);
    let broken = 0;
    for (const config of CONFIGS) {
      const verdict = compiled(config);
      expect(precompiled(config), JSON.stringify(config)).toBe(verdict);
      expect(shape(precompiled.errors), JSON.stringify(config)).toEqual(shape(compiled.errors));
      if (!verdict) broken++;
    }
    expect(broken).toBeGreaterThanOrEqual(8);
  });
});

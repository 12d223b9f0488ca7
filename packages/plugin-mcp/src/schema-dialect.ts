/**
 * The JSON Schema dialect of an MCP tool schema. MCP's default dialect is 2020-12 (2025-11-25, SEP-1613), the kernel
 * validates with draft-07 unless `$schema` says otherwise, and the two differ on tuples (`prefixItems` + `items`)
 * and 2020-only keywords. A schema without `$schema` that uses a 2020-12-only keyword gets `$schema` 2020-12 (a copy;
 * schemas in the common subset stay as sent, so no bytes are added where both dialects agree); one written as a
 * draft-07 tuple (`items: [...]`, `additionalItems`) stays draft-07.
 */
import type { JsonSchema } from '@tool-search/kernel';

export const DIALECT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

const ONLY_2020 = new Set([
  'prefixItems',
  '$defs',
  'dependentRequired',
  'dependentSchemas',
  'unevaluatedProperties',
  'unevaluatedItems',
  '$dynamicRef',
  '$dynamicAnchor',
  '$anchor',
  'minContains',
  'maxContains',
]);
/** Keywords whose value maps names (a property's, a definition's) to schemas: the names are not keywords. */
const NAMED_SCHEMAS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Schemas nest at most 100 levels (list-tools.ts checks); the scan stops there too. */
const MAX_DEPTH = 100;

/** `schema`, or a copy with `$schema` 2020-12 when it is written in 2020-12 without saying so. */
export function withMcpDialect(schema: JsonSchema): JsonSchema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || schema.$schema !== undefined)
    return schema;
  return scan(schema, 0) === '2020-12' ? { $schema: DIALECT_2020_12, ...schema } : schema;
}

type Verdict = '2020-12' | 'draft-07' | undefined;

function scan(node: unknown, depth: number): Verdict {
  if (depth > MAX_DEPTH || typeof node !== 'object' || node === null) return undefined;
  let found: Verdict;
  for (const [key, value] of Object.entries(node)) {
    // A draft-07 tuple is a draft-07 schema, whatever else it has.
    if ((key === 'items' && Array.isArray(value)) || key === 'additionalItems') return 'draft-07';
    if (!Array.isArray(node) && ONLY_2020.has(key)) found = '2020-12';
    // `properties`, `$defs` and the like map names to schemas; `enum`/`const` values are data, not schemas.
    if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') continue;
    const inner =
      NAMED_SCHEMAS.has(key) && value && typeof value === 'object'
        ? scanEach(value, depth + 1)
        : scan(value, depth + 1);
    if (inner === 'draft-07') return inner;
    found ??= inner;
  }
  return found;
}

/** The schemas of a name → schema map (`properties` and the like), each scanned as a schema. */
function scanEach(map: object, depth: number): Verdict {
  let found: Verdict;
  for (const schema of Object.values(map)) {
    const inner = scan(schema, depth);
    if (inner === 'draft-07') return inner;
    found ??= inner;
  }
  return found;
}

/**
 * The registration-time check of a tool schema: the draft-07 and 2020-12 meta-schemas (the two dialects the kernel
 * validates with, see `schema.ts`) written out keyword by keyword. Like Ajv's `validateSchema`, it does not check
 * the meta-schemas' `format`s (`uri-reference` of `$ref`, `regex` of `pattern`: an invalid pattern is reported as
 * not enforced, `TOOL_SCHEMA_PATTERN_UNENFORCED`). It answers what `ajv.validateSchema` answers without loading
 * Ajv or compiling a meta-schema (about 40 ms, plus Ajv's own load), so listing 1,000 tools stays cheap; Ajv still
 * checks and compiles a tool's schema when the tool is first called (`compileToolSchema`). `test/schema-structure.test.ts`
 * compares the two on every real MCP tool schema we hold and on crafted invalid ones.
 *
 * Call it only on a schema `schemaShape` accepted: recursion is bounded by its depth limit.
 */
import type { SchemaIssue } from './schema.js';
import { escapePointer } from './schema-bounds.js';

export type Dialect = 'draft-07' | '2020-12';

/** The dialect Ajv would validate `schema` with, or an issue when its `$schema` names a meta-schema Ajv does not hold. */
export function dialectOf(schema: Record<string, unknown>): Dialect | SchemaIssue {
  const declared = schema.$schema;
  if (declared === undefined) return 'draft-07';
  if (typeof declared !== 'string') return issue('/$schema', 'type', 'must be string');
  // As `schema.ts` picks the Ajv instance: a 2019-09 URI goes to the 2020-12 one, which does not hold it.
  const modern = declared.includes('2020-12') || declared.includes('2019-09');
  const id = declared.replace(/#$/, '');
  if (modern ? MODERN_METAS.has(id) : id === DRAFT_07) return modern ? '2020-12' : 'draft-07';
  return issue('/$schema', '$schema', `no schema with key or ref "${declared}"`);
}

/** The first way `schema` breaks its dialect's meta-schema, or `undefined`. */
export function structuralIssue(schema: unknown): SchemaIssue | undefined {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return issue('', 'type', 'must be object,boolean');
  const dialect = dialectOf(schema as Record<string, unknown>);
  if (typeof dialect !== 'string') return dialect;
  return subschemaIssue(schema, '', dialect === '2020-12' ? MODERN : DRAFT7);
}

const DRAFT_07 = 'http://json-schema.org/draft-07/schema';
const MODERN_BASE = 'https://json-schema.org/draft/2020-12/';
const MODERN_METAS = new Set([
  `${MODERN_BASE}schema`,
  ...['core', 'applicator', 'unevaluated', 'validation', 'meta-data', 'format-annotation', 'content'].map((part) => `${MODERN_BASE}meta/${part}`),
]);
const SIMPLE_TYPES = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);
const ANCHOR = /^[A-Za-z_][-A-Za-z0-9._]*$/;

type Check = (value: unknown, path: string, rules: Rules) => SchemaIssue | undefined;
type Rules = Readonly<Record<string, Check>>;

function issue(path: string, rule: string, message: string): SchemaIssue {
  return { path, rule, message };
}

function subschemaIssue(value: unknown, path: string, rules: Rules): SchemaIssue | undefined {
  if (typeof value === 'boolean') return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return issue(path, 'type', 'must be object,boolean');
  for (const key of Object.keys(value)) {
    const check = rules[key];
    if (!check) continue;
    const found = check((value as Record<string, unknown>)[key], `${path}/${escapePointer(key)}`, rules);
    if (found) return found;
  }
  return undefined;
}

const schema: Check = (value, path, rules) => subschemaIssue(value, path, rules);

function string(pattern?: RegExp): Check {
  return (value, path) => {
    if (typeof value !== 'string') return issue(path, 'type', 'must be string');
    if (pattern && !pattern.test(value)) return issue(path, 'pattern', `must match pattern "${pattern.source}"`);
    return undefined;
  };
}

const anyString = string();
const boolean: Check = (value, path) => (typeof value === 'boolean' ? undefined : issue(path, 'type', 'must be boolean'));
const number: Check = (value, path) => (typeof value === 'number' ? undefined : issue(path, 'type', 'must be number'));
const positiveNumber: Check = (value, path) => number(value, path, DRAFT7) ?? ((value as number) > 0 ? undefined : issue(path, 'exclusiveMinimum', 'must be > 0'));
const nonNegativeInteger: Check = (value, path) => {
  if (typeof value !== 'number' || value % 1 !== 0 || Number.isNaN(value)) return issue(path, 'type', 'must be integer');
  return value >= 0 ? undefined : issue(path, 'minimum', 'must be >= 0');
};
const anyArray: Check = (value, path) => (Array.isArray(value) ? undefined : issue(path, 'type', 'must be array'));

function arrayOf(item: Check | undefined, { minItems = 0, unique = false } = {}): Check {
  return (value, path, rules) => {
    if (!Array.isArray(value)) return issue(path, 'type', 'must be array');
    if (value.length < minItems) return issue(path, 'minItems', `must NOT have fewer than ${minItems} items`);
    if (item) {
      for (let i = 0; i < value.length; i++) {
        const found = item(value[i], `${path}/${i}`, rules);
        if (found) return found;
      }
    }
    return unique ? uniqueIssue(value, path) : undefined;
  };
}

function objectOf(member: Check): Check {
  return (value, path, rules) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return issue(path, 'type', 'must be object');
    for (const key of Object.keys(value)) {
      const found = member((value as Record<string, unknown>)[key], `${path}/${escapePointer(key)}`, rules);
      if (found) return found;
    }
    return undefined;
  };
}

const schemaArray = arrayOf(schema, { minItems: 1 });
const stringArray = arrayOf(anyString, { unique: true });
const simpleType: Check = (value, path) => (typeof value === 'string' && SIMPLE_TYPES.has(value) ? undefined : issue(path, 'enum', 'must be equal to one of the allowed values'));
const typeList = arrayOf(simpleType, { minItems: 1, unique: true });
const type: Check = (value, path, rules) => (simpleType(value, path, rules) && typeList(value, path, rules) ? issue(path, 'anyOf', 'must match a schema in anyOf') : undefined);
const anchor = string(ANCHOR);

/** Keywords both dialects check alike. */
const COMMON: Rules = {
  $schema: anyString,
  $ref: anyString,
  $comment: anyString,
  title: anyString,
  description: anyString,
  readOnly: boolean,
  writeOnly: boolean,
  examples: anyArray,
  multipleOf: positiveNumber,
  maximum: number,
  exclusiveMaximum: number,
  minimum: number,
  exclusiveMinimum: number,
  maxLength: nonNegativeInteger,
  minLength: nonNegativeInteger,
  pattern: anyString,
  maxItems: nonNegativeInteger,
  minItems: nonNegativeInteger,
  uniqueItems: boolean,
  contains: schema,
  maxProperties: nonNegativeInteger,
  minProperties: nonNegativeInteger,
  required: stringArray,
  additionalProperties: schema,
  definitions: objectOf(schema),
  properties: objectOf(schema),
  patternProperties: objectOf(schema),
  dependencies: objectOf((value, path, rules) => (schema(value, path, rules) && stringArray(value, path, rules) ? issue(path, 'anyOf', 'must match a schema in anyOf') : undefined)),
  propertyNames: schema,
  type,
  format: anyString,
  contentMediaType: anyString,
  contentEncoding: anyString,
  if: schema,
  then: schema,
  else: schema,
  allOf: schemaArray,
  anyOf: schemaArray,
  oneOf: schemaArray,
  not: schema,
};

/** `http://json-schema.org/draft-07/schema#`. */
const DRAFT7: Rules = {
  ...COMMON,
  $id: anyString,
  additionalItems: schema,
  items: (value, path, rules) => (schema(value, path, rules) && schemaArray(value, path, rules) ? issue(path, 'anyOf', 'must match a schema in anyOf') : undefined),
  enum: arrayOf(undefined, { minItems: 1, unique: true }),
};

/** `https://json-schema.org/draft/2020-12/schema` and its vocabularies (which keep `definitions` and `dependencies`). */
const MODERN: Rules = {
  ...COMMON,
  $id: string(/^[^#]*#?$/),
  $anchor: anchor,
  $dynamicRef: anyString,
  $dynamicAnchor: anchor,
  $recursiveRef: anyString,
  $recursiveAnchor: anchor,
  $vocabulary: objectOf(boolean),
  $defs: objectOf(schema),
  deprecated: boolean,
  prefixItems: schemaArray,
  items: schema,
  dependentSchemas: objectOf(schema),
  unevaluatedItems: schema,
  unevaluatedProperties: schema,
  contentSchema: schema,
  enum: anyArray,
  maxContains: nonNegativeInteger,
  minContains: nonNegativeInteger,
  dependentRequired: objectOf(stringArray),
};

/** `uniqueItems` as Ajv checks it (deep equality, key order ignored), with scalars in a set so a long enum stays linear. */
function uniqueIssue(items: readonly unknown[], path: string): SchemaIssue | undefined {
  const scalars = new Set<unknown>();
  const objects: unknown[] = [];
  for (const item of items) {
    if (typeof item === 'object' && item !== null) {
      if (objects.some((seen) => deepEqual(seen, item))) return duplicate(path);
      objects.push(item);
    } else {
      if (scalars.has(item)) return duplicate(path);
      scalars.add(item);
    }
  }
  return undefined;
}

function duplicate(path: string): SchemaIssue {
  return issue(path, 'uniqueItems', 'must NOT have duplicate items');
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && deepEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

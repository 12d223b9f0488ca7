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
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    return issue('', 'type', 'must be object,boolean');
  const dialect = dialectOf(schema as Record<string, unknown>);
  if (typeof dialect !== 'string') return dialect;
  return subschemaIssue(schema, dialect === '2020-12' ? MODERN : DRAFT7);
}

const DRAFT_07 = 'http://json-schema.org/draft-07/schema';
const MODERN_BASE = 'https://json-schema.org/draft/2020-12/';
const MODERN_METAS = new Set([
  `${MODERN_BASE}schema`,
  ...['core', 'applicator', 'unevaluated', 'validation', 'meta-data', 'format-annotation', 'content'].map(
    (part) => `${MODERN_BASE}meta/${part}`,
  ),
]);
const SIMPLE_TYPES = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);
const ANCHOR = /^[A-Za-z_][-A-Za-z0-9._]*$/;

/** Checks one keyword's value; an issue's path is relative to that value (the caller prefixes its own segment). */
type Check = (value: unknown, rules: Rules) => SchemaIssue | undefined;
type Rules = ReadonlyMap<string, Check>;

function issue(path: string, rule: string, message: string): SchemaIssue {
  return { path, rule, message };
}

/** `issue`, one segment further out: paths are built only on the way out of a failure. */
function within(key: string, found: SchemaIssue): SchemaIssue {
  return { ...found, path: `/${escapePointer(key)}${found.path}` };
}

function subschemaIssue(value: unknown, rules: Rules): SchemaIssue | undefined {
  if (typeof value === 'boolean') return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return issue('', 'type', 'must be object,boolean');
  for (const key in value) {
    const check = rules.get(key);
    if (!check || !Object.hasOwn(value, key)) continue;
    const found = check((value as Record<string, unknown>)[key], rules);
    if (found) return within(key, found);
  }
  return undefined;
}

const schema: Check = (value, rules) => subschemaIssue(value, rules);

function string(pattern?: RegExp): Check {
  return (value) => {
    if (typeof value !== 'string') return issue('', 'type', 'must be string');
    if (pattern && !pattern.test(value)) return issue('', 'pattern', `must match pattern "${pattern.source}"`);
    return undefined;
  };
}

const anyString = string();
const boolean: Check = (value) => (typeof value === 'boolean' ? undefined : issue('', 'type', 'must be boolean'));
const number: Check = (value) => (typeof value === 'number' ? undefined : issue('', 'type', 'must be number'));
const positiveNumber: Check = (value) =>
  typeof value !== 'number'
    ? issue('', 'type', 'must be number')
    : value > 0
      ? undefined
      : issue('', 'exclusiveMinimum', 'must be > 0');
const nonNegativeInteger: Check = (value) => {
  if (typeof value !== 'number' || value % 1 !== 0 || Number.isNaN(value)) return issue('', 'type', 'must be integer');
  return value >= 0 ? undefined : issue('', 'minimum', 'must be >= 0');
};
const anyArray: Check = (value) => (Array.isArray(value) ? undefined : issue('', 'type', 'must be array'));

function arrayOf(item: Check | undefined, { minItems = 0, unique = false } = {}): Check {
  return (value, rules) => {
    if (!Array.isArray(value)) return issue('', 'type', 'must be array');
    if (value.length < minItems) return issue('', 'minItems', `must NOT have fewer than ${minItems} items`);
    if (item) {
      for (let i = 0; i < value.length; i++) {
        const found = item(value[i], rules);
        if (found) return within(String(i), found);
      }
    }
    return unique ? uniqueIssue(value) : undefined;
  };
}

function objectOf(member: Check): Check {
  return (value, rules) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return issue('', 'type', 'must be object');
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const found = member((value as Record<string, unknown>)[key], rules);
      if (found) return within(key, found);
    }
    return undefined;
  };
}

/** Both alternatives of an `anyOf` fail: one issue naming the `anyOf`. */
function either(a: Check, b: Check): Check {
  return (value, rules) =>
    a(value, rules) && b(value, rules) ? issue('', 'anyOf', 'must match a schema in anyOf') : undefined;
}

const schemaArray = arrayOf(schema, { minItems: 1 });
const stringArray = arrayOf(anyString, { unique: true });
const simpleType: Check = (value) =>
  typeof value === 'string' && SIMPLE_TYPES.has(value)
    ? undefined
    : issue('', 'enum', 'must be equal to one of the allowed values');
const type = either(simpleType, arrayOf(simpleType, { minItems: 1, unique: true }));
const anchor = string(ANCHOR);

/** Keywords both dialects check alike. */
const COMMON: Record<string, Check> = {
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
  dependencies: objectOf(either(schema, stringArray)),
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
const DRAFT7: Rules = new Map(
  Object.entries({
    ...COMMON,
    $id: anyString,
    additionalItems: schema,
    items: either(schema, schemaArray),
    enum: arrayOf(undefined, { minItems: 1, unique: true }),
  }),
);

/** `https://json-schema.org/draft/2020-12/schema` and its vocabularies (which keep `definitions` and `dependencies`). */
const MODERN: Rules = new Map(
  Object.entries({
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
  }),
);

/** `uniqueItems` as Ajv checks it (deep equality, key order ignored), with scalars in a set so a long enum stays linear. */
function uniqueIssue(items: readonly unknown[]): SchemaIssue | undefined {
  const scalars = new Set<unknown>();
  const objects: unknown[] = [];
  for (const item of items) {
    if (typeof item === 'object' && item !== null) {
      if (objects.some((seen) => deepEqual(seen, item))) return duplicate();
      objects.push(item);
    } else {
      if (scalars.has(item)) return duplicate();
      scalars.add(item);
    }
  }
  return undefined;
}

function duplicate(): SchemaIssue {
  return issue('', 'uniqueItems', 'must NOT have duplicate items');
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every(
    (key) =>
      Object.hasOwn(b, key) && deepEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

/**
 * JSON Schema handling for tool schemas: one Ajv per draft, a compile-once
 * cache keyed by schema object, and errors mapped to `{ path, rule, message }`.
 * Tool schemas come from third parties, so Ajv runs non-strict (unknown
 * keywords such as `examples` are common) but a schema that does not compile
 * is rejected.
 */
import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonSchema } from './types.js';
import { linearRegExp, schemaShape } from './schema-bounds.js';
import { errorMessage } from './error-message.js';
import { structuralIssue } from './schema-structure.js';

// Ajv (about 80 modules) is required on the first compile, not at import: a process that only lists tools, or a CLI
// command that never calls one (`tool-search --help`), does not load it. It is CommonJS, so `require` keeps
// `compileToolSchema` synchronous.
const require = createRequire(import.meta.url);
type AddFormats = <T>(ajv: T) => T;
const loadAjv = () => (require('ajv') as { Ajv: typeof Ajv }).Ajv;
const loadAjv2020 = () => (require('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 }).Ajv2020;
const addFormats: AddFormats = (ajv) => (require('ajv-formats') as { default: AddFormats }).default(ajv);

// `code.regExp`: every `pattern` runs on RE2 (linear time), see schema-bounds.ts. `validateSchema: false`: before
// compiling, `compileToolSchema` checks the meta-schema itself (`structuralSchemaIssue`, which answers as Ajv's
// `validateSchema` does), so the first compile in a process does not also compile the meta-schema (~40 ms).
const options = {
  allErrors: true,
  strict: false,
  validateFormats: true,
  unicodeRegExp: false,
  validateSchema: false,
  code: { regExp: linearRegExp },
} as const;
let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

function ajvFor(schema: JsonSchema): Ajv | Ajv2020 {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (dialect.includes('2020-12') || dialect.includes('2019-09')) {
    draft2020 ??= addFormats(new (loadAjv2020())(options));
    return draft2020;
  }
  draft07 ??= addFormats(new (loadAjv())(options));
  return draft07;
}

export interface SchemaIssue {
  readonly path: string;
  readonly rule: string;
  readonly message: string;
}

const compiled = new WeakMap<object, ValidateFunction | SchemaIssue>();

/**
 * Compiles (once) a schema; returns the issue when it is not valid JSON Schema: past a bound (`schemaShape`),
 * against its dialect's meta-schema (`structuralSchemaIssue`), or refused by Ajv's compiler (a `$ref` to nowhere).
 * A tool's schema is compiled on its first call; listing checks only the first two.
 */
export function compileToolSchema(schema: JsonSchema): ValidateFunction | SchemaIssue {
  const cached = compiled.get(schema);
  if (cached) return cached;
  let result: ValidateFunction | SchemaIssue;
  const issue =
    typeof schema !== 'object' || schema === null || Array.isArray(schema)
      ? { path: '', rule: 'type', message: 'schema must be an object' }
      : structuralSchemaIssue(schema);
  if (issue) {
    result = issue;
  } else {
    try {
      // Strip `$id` so two tools sharing an id do not collide inside Ajv's registry.
      const { $id: _ignored, ...rest } = schema as Record<string, unknown>;
      result = ajvFor(schema).compile(rest);
    } catch (error) {
      result = { path: '', rule: 'schema', message: errorMessage(error) };
    }
  }
  compiled.set(schema, result);
  return result;
}

/**
 * Registration's check of an input schema: a JSON Schema object describing an object that keeps its dialect's
 * meta-schema (`structuralSchemaIssue`). Ajv loads and compiles it only when the tool is first called.
 */
export function checkInputSchema(schema: JsonSchema): SchemaIssue | undefined {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return { path: '', rule: 'type', message: 'inputSchema must be a JSON Schema object' };
  }
  if (schema.type !== undefined && schema.type !== 'object') {
    return {
      path: '/type',
      rule: 'type',
      message: `inputSchema.type must be "object", got ${JSON.stringify(schema.type)}`,
    };
  }
  return structuralSchemaIssue(schema);
}

const structural = new WeakMap<object, SchemaIssue | null>();
/** Copies of schemas whose original already passed `schemaShape`: not walked twice. */
const bounded = new WeakSet<object>();

/** Marks `copy` as a copy of a schema that passed `schemaShape`. */
export function markBounded(copy: object): void {
  bounded.add(copy);
}

/**
 * What Ajv's meta-schema check would say about `schema`, answered without Ajv (see `schema-structure.ts`): the
 * size, depth and pattern bounds (`schemaShape`, which the catalog checks first on the definition's own objects),
 * then the meta-schema, keyword by keyword. Cached per object.
 */
export function structuralSchemaIssue(schema: JsonSchema): SchemaIssue | undefined {
  if (typeof schema !== 'object' || schema === null) return structuralIssue(schema);
  const cached = structural.get(schema);
  if (cached !== undefined) return cached ?? undefined;
  const issue = (bounded.has(schema) ? undefined : schemaShape(schema).issue) ?? structuralIssue(schema);
  structural.set(schema, issue ?? null);
  return issue;
}

const checked = new WeakMap<object, SchemaIssue | null>();

/**
 * Validates a schema against its draft's meta-schema with Ajv (cached per object): the reference that
 * `structuralSchemaIssue` answers for without Ajv, and what `compileToolSchema` applies before compiling.
 */
export function checkSchema(schema: JsonSchema): SchemaIssue | undefined {
  const cached = checked.get(schema);
  if (cached !== undefined) return cached ?? undefined;
  const issue =
    (typeof schema === 'object' && schema !== null ? schemaShape(schema).issue : undefined) ?? metaSchemaIssue(schema);
  checked.set(schema, issue ?? null);
  return issue;
}

function metaSchemaIssue(schema: JsonSchema): SchemaIssue | undefined {
  try {
    const ajv = ajvFor(schema);
    if (ajv.validateSchema(schema)) return undefined;
    const first = ajv.errors?.[0];
    return {
      path: first?.instancePath || '/',
      rule: first?.keyword ?? 'schema',
      message: first?.message ?? 'invalid schema',
    };
  } catch (error) {
    return { path: '/', rule: 'schema', message: errorMessage(error) };
  }
}

export function isSchemaIssue(value: ValidateFunction | SchemaIssue): value is SchemaIssue {
  return typeof value !== 'function';
}

/** Maps Ajv errors to `{ path, rule, message }` with JSON-pointer paths. */
export function toSchemaIssues(errors: readonly ErrorObject[] | null | undefined): SchemaIssue[] {
  return (errors ?? []).map((error) => {
    let path = error.instancePath;
    if (error.keyword === 'required' && typeof error.params.missingProperty === 'string')
      path += `/${error.params.missingProperty}`;
    if (error.keyword === 'additionalProperties' && typeof error.params.additionalProperty === 'string') {
      path += `/${error.params.additionalProperty}`;
    }
    return { path: path || '/', rule: error.keyword, message: error.message ?? error.keyword };
  });
}

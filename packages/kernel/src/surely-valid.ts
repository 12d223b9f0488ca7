/**
 * A conservative validator: it proves a value valid under a JSON Schema without Ajv, for a small keyword subset, and
 * answers only "surely valid" (`true`) or "don't know" (`false`). Callers go to Ajv (`compileToolSchema`) on
 * `false`, for the verdict and for the error messages, so a plugin's options check at start-up (its options with
 * defaults filled, `{ searchDefaultLimit: 8, maxSearchLimit: 20 }`) loads and compiles nothing (~60 ms of a CLI run).
 *
 * The claim is soundness: `true` only where Ajv, configured as `schema.ts` configures it, compiles the schema and
 * accepts the value. The subset: `type` (a name or a list), `properties`, `additionalProperties` (boolean or
 * schema), `propertyNames`, `required`, `enum`/`const` of primitives, `minimum`/`maximum`/`exclusiveMinimum`/
 * `exclusiveMaximum`, `minLength`/`maxLength` (code points, as Ajv counts), `items` (one schema),
 * `minItems`/`maxItems`, and annotations. Anything else where the value goes (another keyword, a getter, a Proxy, a
 * class instance, a non-finite number, a sparse array, a polluted `Object.prototype`) is "don't know", and so is a
 * schema Ajv might fail to compile anywhere (`$ref`, `nullable`…; surely-valid-schema.ts), since Ajv compiles the
 * branches a value does not take too. `test/surely-valid.test.ts` holds it to Ajv on generated schemas and values
 * and on hostile ones; `preset/test/options-proofs.test.ts` on every options schema that uses it.
 */
import { types } from 'node:util';
import type { JsonSchema } from './types.js';
import { compileToolSchema, structuralSchemaIssue, toSchemaIssues, type SchemaIssue } from './schema.js';
import { ASSERTIONS, compiles, evaluableNode, isPlainObject } from './surely-valid-schema.js';

/**
 * The issues of `value` under a schema a package owns (its options, its config section): `[]` when valid, decided by
 * `surelyValid` where it can and by Ajv otherwise, so every options check takes the shortcut the same way. A schema
 * that does not compile is the package's own bug: an `Error` naming it, not an issue of the value.
 */
export function valueIssues(schema: JsonSchema, value: unknown): SchemaIssue[] {
  if (surelyValid(schema, value)) return [];
  const validate = compileToolSchema(schema);
  if (typeof validate !== 'function') throw new Error(`an options schema does not compile: ${validate.message}`);
  return validate(value) ? [] : toSchemaIssues(validate.errors);
}

/**
 * `true` when `value` is surely valid under `schema` (Ajv would accept it), `false` when this cannot tell: then ask
 * Ajv (`compileToolSchema`). Never throws, never calls the value's getters or a Proxy's traps.
 */
export function surelyValid(schema: JsonSchema, value: unknown): boolean {
  try {
    if (!isPlainObject(schema) || !compiles(schema) || structuralSchemaIssue(schema)) return false;
    return !prototypePolluted() && fits(schema, value, true);
  } catch {
    return false;
  }
}

/** Is `value` valid under `schema` (a subschema of a compilable schema)? `false` also for "cannot tell". */
function fits(schema: unknown, value: unknown, root = false): boolean {
  if (typeof schema === 'boolean') return schema;
  const node = schema as Node;
  if (!evaluableNode(node, root)) return false;
  if (!Object.keys(node).some((key) => ASSERTIONS.has(key))) return true;
  const kind = kindOf(value);
  if (kind === 'unknown') return false;
  if (node.type !== undefined && !hasType(node.type, kind, value)) return false;
  if (node.enum !== undefined && !(node.enum as unknown[]).includes(value)) return false;
  if (node.const !== undefined && node.const !== value) return false;
  // Ajv applies each group of keywords only to values of its type (its `checkDataType`); others pass them.
  if (kind === 'number') return numberFits(node, value as number);
  if (kind === 'string') return stringFits(node, value as string);
  if (kind === 'array') return arrayFits(node, value as unknown[]);
  if (kind === 'object') return objectFits(node, value as Record<string, unknown>);
  return true;
}

/** What a value is, as far as the subset cares; `unknown` is anything this cannot reason about without Ajv's code. */
type Kind = 'null' | 'boolean' | 'string' | 'number' | 'object' | 'array' | 'inert' | 'unknown';

function kindOf(value: unknown): Kind {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return 'boolean';
    case 'string':
      return 'string';
    // Ajv (non-strict) takes Infinity for a number and an integer: left to it.
    case 'number':
      return Number.isFinite(value) ? 'number' : 'unknown';
    case 'object':
      if (types.isProxy(value)) return 'unknown';
      if (Array.isArray(value)) return Object.getPrototypeOf(value) === Array.prototype ? 'array' : 'unknown';
      return isPlainObject(value) ? 'object' : 'unknown';
    // undefined, a function, a symbol, a bigint: no type name and no keyword group of Ajv's applies to them.
    default:
      return types.isProxy(value) ? 'unknown' : 'inert';
  }
}

function hasType(type: unknown, kind: Kind, value: unknown): boolean {
  const names = typeof type === 'string' ? [type] : Array.isArray(type) ? type : [];
  return names.some((name) => (name === 'integer' ? kind === 'number' && Number.isInteger(value) : name === kind));
}

// The keyword values below were checked by `evaluableNode`: bounds are finite numbers, counts non-negative integers.
type Node = Record<string, unknown> & {
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
};

function numberFits(node: Node, value: number): boolean {
  return (
    (node.minimum === undefined || value >= node.minimum) &&
    (node.maximum === undefined || value <= node.maximum) &&
    (node.exclusiveMinimum === undefined || value > node.exclusiveMinimum) &&
    (node.exclusiveMaximum === undefined || value < node.exclusiveMaximum)
  );
}

function stringFits(node: Node, value: string): boolean {
  if (node.minLength === undefined && node.maxLength === undefined) return true;
  const length = codePoints(value);
  return (
    (node.minLength === undefined || length >= node.minLength) &&
    (node.maxLength === undefined || length <= node.maxLength)
  );
}

function arrayFits(node: Node, value: unknown[]): boolean {
  if (node.minItems !== undefined && value.length < node.minItems) return false;
  if (node.maxItems !== undefined && value.length > node.maxItems) return false;
  if (node.items === undefined) return true;
  for (let index = 0; index < value.length; index++) {
    const slot = Object.getOwnPropertyDescriptor(value, index);
    if (!slot || !('value' in slot) || !fits(node.items, slot.value)) return false; // a hole or a getter
  }
  return true;
}

function objectFits(node: Node, value: Record<string, unknown>): boolean {
  const properties = (node.properties ?? {}) as Record<string, unknown>;
  const additional = node.additionalProperties ?? true;
  const present = new Map<string, unknown>();
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key !== 'string') continue; // Ajv never reads symbol keys
    const slot = Object.getOwnPropertyDescriptor(value, key)!;
    if (!('value' in slot) || !slot.enumerable) return false;
    present.set(key, slot.value);
    if (node.propertyNames !== undefined && !fits(node.propertyNames, key)) return false;
    if (Object.hasOwn(properties, key)) {
      // Ajv checks a property only when `data[key] !== undefined`.
      if (slot.value !== undefined && !fits(properties[key], slot.value)) return false;
    } else if (!fits(additional, slot.value)) return false;
  }
  // A property the object does not own: Ajv reads `data[key]`, which may come from the prototype.
  for (const key of Object.keys(properties)) if (!present.has(key) && value[key] !== undefined) return false;
  return ((node.required ?? []) as string[]).every((key) => present.get(key) !== undefined);
}

/** Length in code points, as Ajv's `ucs2length`: a surrogate pair is one, a lone surrogate one. */
function codePoints(text: string): number {
  let length = 0;
  for (let index = 0; index < text.length; index++) {
    length++;
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      if ((text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) index++;
    }
  }
  return length;
}

/** Ajv walks an object's keys with `for…in`, which also yields enumerable keys added to `Object.prototype`. */
function prototypePolluted(): boolean {
  for (const key in {}) if (key !== undefined) return true;
  return false;
}

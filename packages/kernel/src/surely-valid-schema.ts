/**
 * What `surelyValid` (surely-valid.ts) asks of a schema before it looks at a value: that Ajv surely compiles all of
 * it (`compiles`), and that a node the value reaches is in the subset it decides, with well-formed keyword values
 * (`evaluableNode`). Both cached per schema object.
 */
import { types } from 'node:util';

/** Keywords that assert nothing: a schema of only these accepts every value. `$schema` and `$id` only at the root. */
const ANNOTATIONS = new Set([
  'title',
  'description',
  'default',
  'examples',
  '$comment',
  'deprecated',
  'readOnly',
  'writeOnly',
]);
const ROOT_ANNOTATIONS = new Set(['$schema', '$id']);
/** The subset this decides, on the schemas a value reaches. */
export const ASSERTIONS = new Set([
  'type',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'items',
  'minItems',
  'maxItems',
]);
/**
 * Keywords Ajv compiles without fail once the meta-schema holds (`pattern` too: `linearRegExp` never throws), allowed
 * on schemas the value does not reach (a property it does not have). Not `$ref`, `$defs`, a nested `$id` (Ajv can
 * fail to resolve or collide), `nullable` (Ajv refuses it without `type`), `format` (Ajv logs unknown ones).
 */
const COMPILABLE = new Set([
  ...ASSERTIONS,
  ...ANNOTATIONS,
  'pattern',
  'multipleOf',
  'minProperties',
  'maxProperties',
  'uniqueItems',
  'dependencies',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'additionalItems',
  'patternProperties',
  'anyOf',
  'oneOf',
  'allOf',
]);
const SUBSCHEMA = new Set([
  'additionalProperties',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'additionalItems',
]);
const SUBSCHEMA_LIST = new Set(['anyOf', 'oneOf', 'allOf']);
const SUBSCHEMA_MAP = new Set(['properties', 'patternProperties']);

/** Deeper than `schemaShape` lets a schema be; a cycle ends here too. */
const MAX_DEPTH = 64;
const compilable = new WeakMap<object, boolean>();

/**
 * Whether Ajv surely compiles the whole schema: every subschema, reached by the value or not, uses only `COMPILABLE`
 * keywords (a keyword on a branch the value never takes can still fail the compile). Cached per schema object.
 */
export function compiles(schema: Record<string, unknown>): boolean {
  let answer = compilable.get(schema);
  if (answer === undefined) {
    answer = compilableNode(schema, true, 0);
    compilable.set(schema, answer);
  }
  return answer;
}

function compilableNode(schema: unknown, root: boolean, depth: number): boolean {
  if (typeof schema === 'boolean') return true;
  if (!isPlainObject(schema) || depth > MAX_DEPTH) return false;
  const inner = (value: unknown) => compilableNode(value, false, depth + 1);
  return Object.keys(schema).every((key) => {
    const value = schema[key];
    if (root && ROOT_ANNOTATIONS.has(key)) return true;
    if (!COMPILABLE.has(key)) return false;
    if (SUBSCHEMA.has(key)) return inner(value);
    if (SUBSCHEMA_LIST.has(key)) return Array.isArray(value) && value.every(inner);
    if (SUBSCHEMA_MAP.has(key)) return isPlainObject(value) && Object.values(value).every(inner);
    if (key === 'items') return Array.isArray(value) ? value.every(inner) : inner(value);
    if (key === 'dependencies')
      return isPlainObject(value) && Object.values(value).every((entry) => Array.isArray(entry) || inner(entry));
    return true;
  });
}

const evaluable = new WeakMap<object, boolean>();

/**
 * Whether this node (not its subschemas) is in the subset with well-formed values: bounds finite numbers, counts
 * non-negative integers, `enum`/`const` primitives, `items` one schema, no `__proto__` in `properties` (Ajv drops
 * that entry in some code paths, not in others). Cached per node.
 */
export function evaluableNode(node: Record<string, unknown>, root: boolean): boolean {
  let answer = evaluable.get(node);
  if (answer === undefined) {
    answer = Object.keys(node).every((key) => evaluableKeyword(key, node[key], root));
    evaluable.set(node, answer);
  }
  return answer;
}

function evaluableKeyword(key: string, value: unknown, root: boolean): boolean {
  switch (key) {
    case 'type':
      return typeof value === 'string' || (Array.isArray(value) && value.every((name) => typeof name === 'string'));
    case 'enum':
      return Array.isArray(value) && value.every(isPrimitive);
    case 'const':
      return isPrimitive(value);
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return Number.isFinite(value);
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
      return Number.isSafeInteger(value) && (value as number) >= 0;
    case 'required':
      return Array.isArray(value) && value.every((name) => typeof name === 'string');
    case 'properties':
      return isPlainObject(value) && !Object.hasOwn(value, '__proto__') && Object.values(value).every(isSchema);
    case 'additionalProperties':
    case 'propertyNames':
    case 'items':
      return isSchema(value);
    default:
      return ANNOTATIONS.has(key) || (root && ROOT_ANNOTATIONS.has(key));
  }
}

function isPrimitive(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || Number.isFinite(value);
}

function isSchema(value: unknown): boolean {
  return typeof value === 'boolean' || isPlainObject(value);
}

/** A plain object (prototype `Object.prototype` or `null`), not a Proxy, not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || types.isProxy(value) || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

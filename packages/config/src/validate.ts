/**
 * Validation against the one schema: every violation is collected (Ajv
 * `allErrors`), mapped to `{ path, rule, message }` with JSON-pointer paths,
 * and unknown keys get a "did you mean" from the keys the schema knows there.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { ConfigError, editDistance } from '@tool-search/kernel';
import { configSchema } from './schema.js';
import { VALIDATOR_OPTIONS } from './validator-options.js';
import type { ConfigIssue, ToolSearchConfig } from './types.js';

// Loaded on first use, not at import: a command that never reads a config (`tool-search --help`) pays nothing. The
// build writes the schema precompiled beside this file (`scripts/precompile.mjs`): loading it skips Ajv's ~300 ms
// compile; without it (the TypeScript sources under test) Ajv compiles the schema here. Both are CommonJS, so
// `require` keeps validation synchronous.
const require = createRequire(import.meta.url);
const PRECOMPILED = new URL('./config-validator.cjs', import.meta.url);
let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (existsSync(PRECOMPILED)) return require(fileURLToPath(PRECOMPILED)) as ValidateFunction;
  return new (require('ajv') as { Ajv: typeof Ajv }).Ajv(VALIDATOR_OPTIONS).compile(configSchema);
}

/** Returns every schema violation of `value` (empty when valid). */
export function configIssues(value: unknown): ConfigIssue[] {
  const validate = (compiled ??= validator());
  if (validate(value)) return [];
  return toIssues([...(validate.errors ?? [])], value);
}

/** Checks `value` against the schema; throws a `ConfigError` (CONFIG_INVALID) listing every issue. */
export function validateConfig(value: unknown, source?: string): ToolSearchConfig {
  const issues = configIssues(value);
  if (issues.length === 0) return value as ToolSearchConfig;
  const first = issues[0]!;
  const where = source ? ` in ${source}` : '';
  const lines = issues.map((issue) => `  ${issue.path}: ${issue.message} (rule ${issue.rule})`);
  throw new ConfigError(first.path, first.rule, `Invalid configuration${where}:\n${lines.join('\n')}`, {
    details: { errors: issues, ...(source ? { source } : {}) },
  });
}

function toIssues(errors: readonly ErrorObject[], value: unknown): ConfigIssue[] {
  // `if` and `propertyNames` only repeat the errors of their branch or name (kept below).
  const kept = errors.filter((error) => error.keyword !== 'if' && error.keyword !== 'propertyNames');
  const dropped = new Set<ErrorObject>();
  for (const anyOf of kept.filter((error) => error.keyword === 'anyOf')) {
    const branches = kept.filter((error) => error !== anyOf && error.schemaPath.startsWith(`${anyOf.schemaPath}/`));
    const isTypeMiss = (error: ErrorObject) => error.keyword === 'type' && error.instancePath === anyOf.instancePath;
    // The value had the type of a branch: that branch's errors say what is wrong; otherwise say which types fit.
    if (branches.some((error) => !isTypeMiss(error))) {
      dropped.add(anyOf);
      for (const error of branches) if (isTypeMiss(error)) dropped.add(error);
    } else {
      for (const error of branches) dropped.add(error);
      const types = branches.filter((error) => error.keyword === 'type').map((error) => String(error.params.type));
      if (types.length) anyOf.message = `must be ${types.join(' or ')}`;
    }
  }
  // A wrong type already says it; an enum miss on the same value would repeat it.
  const typeErrors = new Set(kept.filter((error) => error.keyword === 'type').map((error) => error.instancePath));
  for (const error of kept) if (error.keyword === 'enum' && typeErrors.has(error.instancePath)) dropped.add(error);
  return typosFirst(
    kept.filter((error) => !dropped.has(error)),
    value,
  );
}

/**
 * A misspelled key (`comand`) is the cause, not the errors it leads to ("command is required", or "url is required"
 * when the typo made an entry read as the other kind): its did-you-mean comes first, and another error inside that
 * object is kept only if the config with the typos corrected still has it.
 */
function typosFirst(errors: readonly ErrorObject[], value: unknown): ConfigIssue[] {
  const typos = new Map<ErrorObject, string>();
  for (const error of errors) {
    const suggestion = error.keyword === 'additionalProperties' ? typoFix(error) : undefined;
    if (suggestion) typos.set(error, suggestion);
  }
  if (typos.size === 0) return errors.map(toIssue);
  const objects = [...typos.keys()].map((error) => error.instancePath);
  const inside = (error: ErrorObject) =>
    objects.some((path) => error.instancePath === path || error.instancePath.startsWith(`${path}/`));
  const after = errorsAfterCorrection(value, typos);
  const remaining = new Set(after?.map(signature));
  const rest = errors.filter(
    (error) => !typos.has(error) && (!after || !inside(error) || remaining.has(signature(error))),
  );
  return [...[...typos.keys()].map(toIssue), ...rest.map(toIssue)];
}

const signature = (error: ErrorObject) =>
  `${error.instancePath}|${error.keyword}|${String(error.params.missingProperty ?? error.params.additionalProperty ?? '')}`;

/** The schema errors left once every typo is renamed to its suggestion (undefined: the value cannot be copied). */
function errorsAfterCorrection(value: unknown, typos: ReadonlyMap<ErrorObject, string>): ErrorObject[] | undefined {
  let corrected: unknown;
  try {
    corrected = structuredClone(value);
  } catch {
    return undefined; // a config built in code may hold functions: then every issue is kept, as before
  }
  for (const [error, key] of typos) {
    const record = error.instancePath
      .split('/')
      .slice(1)
      .reduce<unknown>((node, segment) => (node as Record<string, unknown>)?.[unescapePointer(segment)], corrected);
    const object = record as Record<string, unknown> | undefined;
    if (!object || typeof object !== 'object') continue;
    const typo = String(error.params.additionalProperty);
    if (!(key in object)) object[key] = object[typo];
    delete object[typo];
  }
  const validate = (compiled ??= validator());
  return validate(corrected) ? [] : [...(validate.errors ?? [])];
}

/** The known key an unknown key is a typo of (none when it is a known key of another kind of entry, like `args`). */
function typoFix(error: ErrorObject): string | undefined {
  const key = String(error.params.additionalProperty);
  const known = knownKeys(error);
  return known.includes(key) ? undefined : closest(key, known);
}

/** The keys the schema knows where the unknown key is: every branch (`then`/`else`, `anyOf`/`oneOf`) of that object. */
function knownKeys(error: ErrorObject): string[] {
  const segments = pointerSegments(error.schemaPath).slice(0, -1); // drop `additionalProperties`
  while (segments.length && isBranch(segments)) segments.splice(BRANCH_ARRAYS.has(segments.at(-2)!) ? -2 : -1);
  return [...propertyKeys(schemaAt(segments))];
}

const BRANCH_ARRAYS = new Set(['anyOf', 'oneOf', 'allOf']);
const isBranch = (segments: string[]) =>
  segments.at(-1) === 'then' || segments.at(-1) === 'else' || BRANCH_ARRAYS.has(segments.at(-2) ?? '');

type SchemaNode = { properties?: object; then?: SchemaNode; else?: SchemaNode } & Record<string, unknown>;

function propertyKeys(node: SchemaNode | undefined): Set<string> {
  if (!node || typeof node !== 'object') return new Set();
  const keys = new Set(Object.keys(node.properties ?? {}));
  const branches = [node.then, node.else, ...[...BRANCH_ARRAYS].flatMap((k) => (node[k] as SchemaNode[]) ?? [])];
  for (const branch of branches) for (const key of propertyKeys(branch)) keys.add(key);
  return keys;
}

function schemaAt(segments: readonly string[]): SchemaNode | undefined {
  let node: unknown = configSchema;
  for (const segment of segments) node = (node as Record<string, unknown> | undefined)?.[segment];
  return node as SchemaNode | undefined;
}

function pointerSegments(schemaPath: string): string[] {
  return schemaPath.replace(/^#\/?/, '').split('/').filter(Boolean).map(unescapePointer);
}

function toIssue(error: ErrorObject): ConfigIssue {
  const path = error.instancePath || '';
  // A `propertyNames` violation is about a key: point at it (`/mcp/servers/bad name`), like every other issue.
  if (error.propertyName !== undefined) {
    return {
      path: `${path}/${escapePointer(error.propertyName)}`,
      rule: 'propertyNames',
      message: `name "${error.propertyName}" ${error.message ?? 'is not allowed'}`,
    };
  }
  if (error.keyword === 'additionalProperties') {
    const key = String(error.params.additionalProperty);
    // The keys of this kind of entry (an `args` on an http server); a typo is matched against every kind's keys.
    const known = Object.keys(schemaAt(pointerSegments(error.schemaPath).slice(0, -1))?.properties ?? {});
    const suggestion = typoFix(error);
    return {
      path: `${path}/${escapePointer(key)}`,
      rule: 'additionalProperties',
      message:
        `unknown key "${key}"` +
        (suggestion ? `: did you mean "${suggestion}"?` : known.length ? `; known keys: ${known.join(', ')}` : ''),
    };
  }
  if (error.keyword === 'required') {
    return {
      path: `${path}/${escapePointer(String(error.params.missingProperty))}`,
      rule: 'required',
      message: 'is required',
    };
  }
  if (error.keyword === 'enum') {
    return {
      path: path || '/',
      rule: 'enum',
      message: `must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
    };
  }
  if (error.keyword === 'maxLength' && typeof error.data === 'string') {
    // Say the size and the fix, not only the bound (verbose errors carry the value).
    return {
      path: path || '/',
      rule: 'maxLength',
      message: `has ${error.data.length} characters; shorten it to at most ${String(error.params.limit)}`,
    };
  }
  return { path: path || '/', rule: error.keyword, message: error.message ?? error.keyword };
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The known key closest to a typo, if it is close enough to be a typo. */
export function closest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(key.length / 3)) ? best : undefined;
}

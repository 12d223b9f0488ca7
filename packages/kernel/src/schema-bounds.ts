/**
 * Tool schemas come from third parties (MCP servers, gateway clients), so
 * nothing in them may cost more than a bounded amount of work: a schema's size
 * and nesting are capped before Ajv sees it, and every `pattern` runs on a
 * linear-time engine (RE2, via `re2js`), so no argument can make validation
 * backtrack. Patterns RE2 cannot express (lookaround, backreferences) are not
 * enforced; the catalog says so in a warning and the tool stays usable.
 */
import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';
import type { SchemaIssue } from './schema.js';

/** At most this many JSON values (objects, arrays, scalars) in one schema. The largest real MCP tool schema we hold has ~1,700. */
export const MAX_SCHEMA_NODES = 20_000;
/** At most this nesting depth (in JSON values). Real MCP tool schemas stay under 25. */
export const MAX_SCHEMA_DEPTH = 64;
/** At most this many characters in one `pattern`. */
export const MAX_PATTERN_LENGTH = 4_096;
/**
 * At most this many RE2 instructions in one compiled `pattern`. RE2 is linear in the input, but its constant is the
 * program: `[a-z]{1000}` five times (5,000 instructions) took 2.3 s over 20,000 characters. The largest of 599
 * patterns in 3,675 real MCP tools compiles to 255.
 */
export const MAX_PATTERN_PROGRAM = 1_000;

export interface SchemaShape {
  /** Set when the schema is past a bound: the tool is dropped. */
  readonly issue?: SchemaIssue;
  /** Patterns the linear-time engine cannot run; they are not enforced. */
  readonly unenforcedPatterns: readonly string[];
  /**
   * Every object and array in the schema is a frozen plain object or array: the catalog may keep it as it is
   * instead of copying it (nobody can change it later). A source that freezes its definitions saves the copy.
   */
  readonly frozen?: boolean;
}

const shapes = new WeakMap<object, SchemaShape>();

/** Walks the schema once (iteratively: depth cannot overflow the stack), checking size, depth and patterns. */
export function schemaShape(schema: object): SchemaShape {
  const cached = shapes.get(schema);
  if (cached) return cached;
  const shape = walk(schema);
  shapes.set(schema, shape);
  return shape;
}

function walk(schema: object): SchemaShape {
  const state = { nodes: 0, unenforced: new Set<string>(), frozen: true };
  const issue = visit(schema, 1, state);
  return issue
    ? { issue, unenforcedPatterns: [] }
    : { unenforcedPatterns: [...state.unenforced], frozen: state.frozen };
}

/**
 * Pre-order over the JSON values, recursing at most `MAX_SCHEMA_DEPTH` + 1 deep (a deeper value is the issue, so a
 * 3,000-deep schema cannot overflow the stack). The issue's path is built only on the way back out.
 */
function visit(
  value: unknown,
  depth: number,
  state: { nodes: number; unenforced: Set<string>; frozen: boolean },
): SchemaIssue | undefined {
  if (++state.nodes > MAX_SCHEMA_NODES)
    return { path: '', rule: 'maxSchemaNodes', message: `the schema has more than ${MAX_SCHEMA_NODES} values` };
  if (depth > MAX_SCHEMA_DEPTH)
    return { path: '', rule: 'maxSchemaDepth', message: `the schema nests deeper than ${MAX_SCHEMA_DEPTH} levels` };
  if (typeof value !== 'object' || value === null) return undefined;
  if (state.frozen && !(Object.isFrozen(value) && isPlain(value))) state.frozen = false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const issue = visit(value[i], depth + 1, state);
      if (issue) return within(String(i), issue);
    }
    return undefined;
  }
  const record = value as Record<string, unknown>;
  const patternIssue = checkPatterns(record, state.unenforced);
  if (patternIssue) return patternIssue;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    const issue = visit(record[key], depth + 1, state);
    if (issue) return within(escapePointer(key), issue);
  }
  return undefined;
}

/** A plain object or array (what JSON parsing makes), not a class instance, proxy target or exotic object. */
function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null || (proto === Array.prototype && Array.isArray(value));
}

function checkPatterns(record: Record<string, unknown>, unenforced: Set<string>): SchemaIssue | undefined {
  const patterns = typeof record.pattern === 'string' ? [record.pattern] : [];
  if (typeof record.patternProperties === 'object' && record.patternProperties !== null)
    patterns.push(...Object.keys(record.patternProperties));
  for (const pattern of patterns) {
    if (pattern.length > MAX_PATTERN_LENGTH) {
      return {
        path: '/pattern',
        rule: 'maxPatternLength',
        message: `a pattern is longer than ${MAX_PATTERN_LENGTH} characters`,
      };
    }
    const compiled = compileLinear(pattern, '');
    if (compiled === undefined) unenforced.add(pattern);
    else if (compiled.programSize > MAX_PATTERN_PROGRAM) {
      return {
        path: '/pattern',
        rule: 'maxPatternProgram',
        message: `a pattern compiles to ${compiled.programSize} RE2 instructions, more than ${MAX_PATTERN_PROGRAM}`,
      };
    }
  }
  return undefined;
}

function within(key: string, issue: SchemaIssue): SchemaIssue {
  return { ...issue, path: `/${key}${issue.path}` };
}

/** The `code.regExp` engine handed to Ajv: RE2 where it can run the pattern, otherwise a pass-through (see the module note). */
export const linearRegExp = Object.assign(
  (source: string, flags: string): RegExpLike =>
    compileLinear(source, flags) ?? { test: () => true, toString: () => `unenforced:/${source}/${flags}` },
  // Ajv prints `code` only for standalone validator code, which Tool Search never generates.
  { code: 're2js' },
);

/** Ajv keys compiled patterns by `toString()`, so each engine object must print its own pattern. */
interface RegExpLike {
  test(input: string): boolean;
  toString(): string;
}

/** A compiled pattern and the size of its RE2 program (what one input character costs). */
interface LinearPattern extends RegExpLike {
  readonly programSize: number;
}

const compiledPatterns = new Map<string, LinearPattern | null>();

// RE2 loads on the first pattern (its CommonJS build, synchronously): most catalogs, the demo one included, have none,
// and parsing the engine is a measurable share of a CLI start.
const load = createRequire(import.meta.url);
let engine: typeof RE2JS | undefined;
function re2(): typeof RE2JS {
  engine ??= (load('re2js') as { RE2JS: typeof RE2JS }).RE2JS;
  return engine;
}

function compileLinear(source: string, flags: string): LinearPattern | undefined {
  const key = `${flags}/${source}`;
  let entry = compiledPatterns.get(key);
  if (entry === undefined) {
    try {
      const RE2 = re2();
      const re = RE2.compile(toRe2Syntax(source), flags.includes('i') ? RE2.CASE_INSENSITIVE : 0);
      // Past the program bound a pattern matches nothing: a schema check refuses it first (maxPatternProgram).
      const programSize = re.programSize();
      const test = programSize > MAX_PATTERN_PROGRAM ? () => false : (input: string) => re.matcher(input).find();
      entry = { test, toString: () => `re2:/${source}/${flags}`, programSize };
    } catch {
      entry = null;
    }
    if (compiledPatterns.size > 4_096) compiledPatterns.clear();
    compiledPatterns.set(key, entry);
  }
  return entry ?? undefined;
}

/** ECMAScript's `\uXXXX` escape is RE2's `\x{XXXX}`; everything else the two share is spelled alike. */
function toRe2Syntax(source: string): string {
  return source.replace(/(?<!\\)((?:\\\\)*)\\u([0-9a-fA-F]{4})/g, '$1\\x{$2}');
}

/** A JSON-pointer segment for `key`. */
export function escapePointer(key: string): string {
  return key.includes('~') || key.includes('/') ? key.replace(/~/g, '~0').replace(/\//g, '~1') : key;
}

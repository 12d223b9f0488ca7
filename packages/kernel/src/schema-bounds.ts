/**
 * Tool schemas come from third parties (MCP servers, gateway clients), so
 * nothing in them may cost more than a bounded amount of work: a schema's size
 * and nesting are capped before Ajv sees it, and every `pattern` runs on a
 * linear-time engine (RE2, via `re2js`), so no argument can make validation
 * backtrack. Patterns RE2 cannot express (lookaround, backreferences) are not
 * enforced; the catalog says so in a warning and the tool stays usable.
 */
import { RE2JS } from 're2js';
import type { SchemaIssue } from './schema.js';

/** At most this many JSON values (objects, arrays, scalars) in one schema. The largest real MCP tool schema we hold has ~1,700. */
export const MAX_SCHEMA_NODES = 20_000;
/** At most this nesting depth (in JSON values). Real MCP tool schemas stay under 25. */
export const MAX_SCHEMA_DEPTH = 64;
/** At most this many characters in one `pattern`. */
export const MAX_PATTERN_LENGTH = 4_096;

export interface SchemaShape {
  /** Set when the schema is past a bound: the tool is dropped. */
  readonly issue?: SchemaIssue;
  /** Patterns the linear-time engine cannot run; they are not enforced. */
  readonly unenforcedPatterns: readonly string[];
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
  const unenforced = new Set<string>();
  const stack: { value: unknown; depth: number; path: string }[] = [{ value: schema, depth: 1, path: '' }];
  let nodes = 0;
  while (stack.length) {
    const { value, depth, path } = stack.pop()!;
    if (++nodes > MAX_SCHEMA_NODES) {
      return { issue: { path: path || '/', rule: 'maxSchemaNodes', message: `the schema has more than ${MAX_SCHEMA_NODES} values` }, unenforcedPatterns: [] };
    }
    if (depth > MAX_SCHEMA_DEPTH) {
      return { issue: { path, rule: 'maxSchemaDepth', message: `the schema nests deeper than ${MAX_SCHEMA_DEPTH} levels` }, unenforcedPatterns: [] };
    }
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], depth: depth + 1, path: `${path}/${i}` });
      continue;
    }
    const record = value as Record<string, unknown>;
    const patterns = typeof record.pattern === 'string' ? [record.pattern] : [];
    if (typeof record.patternProperties === 'object' && record.patternProperties !== null) patterns.push(...Object.keys(record.patternProperties));
    for (const pattern of patterns) {
      if (pattern.length > MAX_PATTERN_LENGTH) {
        return { issue: { path: `${path}/pattern`, rule: 'maxPatternLength', message: `a pattern is longer than ${MAX_PATTERN_LENGTH} characters` }, unenforcedPatterns: [] };
      }
      if (!compilesLinear(pattern)) unenforced.add(pattern);
    }
    const keys = Object.keys(record);
    for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: record[keys[i]!], depth: depth + 1, path: `${path}/${escapePointer(keys[i]!)}` });
  }
  return { unenforcedPatterns: [...unenforced] };
}

/** The `code.regExp` engine handed to Ajv: RE2 where it can run the pattern, otherwise a pass-through (see the module note). */
export const linearRegExp = Object.assign(
  (source: string, flags: string): RegExpLike => compileLinear(source, flags) ?? { test: () => true, toString: () => `unenforced:/${source}/${flags}` },
  // Ajv prints `code` only for standalone validator code, which Tool Search never generates.
  { code: 're2js' },
);

function compilesLinear(pattern: string): boolean {
  return compileLinear(pattern, '') !== undefined;
}

/** Ajv keys compiled patterns by `toString()`, so each engine object must print its own pattern. */
interface RegExpLike {
  test(input: string): boolean;
  toString(): string;
}

const compiledPatterns = new Map<string, RegExpLike | null>();

function compileLinear(source: string, flags: string): RegExpLike | undefined {
  const key = `${flags}/${source}`;
  let entry = compiledPatterns.get(key);
  if (entry === undefined) {
    try {
      const re = RE2JS.compile(toRe2Syntax(source), flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0);
      entry = { test: (input: string) => re.matcher(input).find(), toString: () => `re2:/${source}/${flags}` };
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

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Compact, bounded renderings of a descriptor for search hits: a summary cut
 * on a word boundary and a TypeScript-style argument signature (required
 * first). Both are sanitized (see untrusted-text.ts) and never exceed their cap,
 * whatever the schema looks like.
 */
import type { JsonSchema } from '@tool-search/kernel';
import { sanitizeUntrustedText, stripUntrustedTokens } from './untrusted-text.js';

export const SUMMARY_MAX = 200;
export const INPUT_MAX = 300;
const MAX_PROPS = 40;
const MAX_ENUM = 6;
const MAX_DEPTH = 2;

/** One line without control, bidi or format characters and without chat-template tokens. */
export function sanitize(text: string): string {
  return stripUntrustedTokens(text);
}

/** The description as the directory shows it (`sanitizeUntrustedText`), cut at `max` characters. */
export function summarize(description: string, max = SUMMARY_MAX): string {
  const text = typeof description === 'string' ? description : '';
  return sanitizeUntrustedText(text.length > max * 8 ? text.slice(0, max * 8) : text, max);
}

/** `{ path: string; recursive?: boolean }`: required first, at most `max` characters. */
export function signature(schema: JsonSchema, max = INPUT_MAX): string {
  const text = sanitize(objectType(asRecord(schema) ?? {}, 0));
  if (text.length <= max) return text;
  return closeCut(text, max);
}

function objectType(schema: JsonSchema, depth: number): string {
  const props = asRecord(schema['properties']);
  if (!props) return '{}';
  const required = Array.isArray(schema['required']) ? schema['required'].slice(0, MAX_PROPS) : [];
  const names = required.filter((n): n is string => typeof n === 'string' && Object.hasOwn(props, n));
  const requiredSet = new Set(names);
  let more = false;
  // for-in stops early: a schema with 100k properties costs MAX_PROPS steps, not a copy of every key.
  for (const name in props) {
    if (requiredSet.has(name)) continue;
    if (names.length >= MAX_PROPS) {
      more = true;
      break;
    }
    names.push(name);
  }
  const parts = names.map(
    (n) => `${key(n)}${requiredSet.has(n) ? '' : '?'}: ${typeOf(asRecord(props[n]) ?? {}, depth + 1)}`,
  );
  if (more) parts.push('…');
  return parts.length ? `{ ${parts.join('; ')} }` : '{}';
}

function typeOf(schema: JsonSchema, depth: number): string {
  if (Array.isArray(schema['enum'])) return literals(schema['enum']);
  if ('const' in schema) return literals([schema['const']]);
  const union = schema['anyOf'] ?? schema['oneOf'];
  if (Array.isArray(union) && union.length) {
    const types = [...new Set(union.slice(0, MAX_ENUM).map((s) => typeOf(asRecord(s) ?? {}, depth + 1)))];
    return types.join(' | ');
  }
  const type = schema['type'];
  if (Array.isArray(type))
    return type
      .slice(0, MAX_ENUM)
      .map((t) => primitive(String(t), schema, depth))
      .join(' | ');
  if (typeof type === 'string') return primitive(type, schema, depth);
  if (schema['properties']) return depth > MAX_DEPTH ? 'object' : objectType(schema, depth);
  return 'unknown';
}

function primitive(type: string, schema: JsonSchema, depth: number): string {
  switch (type) {
    case 'integer':
      return 'number';
    case 'array': {
      const item = asRecord(schema['items']);
      const inner = item && depth <= MAX_DEPTH ? typeOf(item, depth + 1) : 'unknown';
      return /[ |]/.test(inner) ? `(${inner})[]` : `${inner}[]`;
    }
    case 'object':
      return depth > MAX_DEPTH || !schema['properties'] ? 'object' : objectType(schema, depth);
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
      return type;
    default:
      return 'unknown';
  }
}

function literals(values: readonly unknown[]): string {
  const shown = values
    .slice(0, MAX_ENUM)
    .map((v) => (typeof v === 'string' ? JSON.stringify(v.slice(0, 40)) : String(v).slice(0, 40)));
  if (values.length > MAX_ENUM) shown.push('…');
  return shown.join('|');
}

function key(name: string): string {
  const clean = name.length > 60 ? `${name.slice(0, 59)}…` : name;
  return /^[A-Za-z_$][\w$]*$/.test(clean) ? clean : JSON.stringify(clean);
}

/** Cuts a rendered object type and closes it so it still reads as a type. */
function closeCut(text: string, max: number): string {
  const budget = max - ' … }'.length;
  let end = text.lastIndexOf('; ', budget);
  if (end < 2) end = budget;
  return `${text.slice(0, end)}; … }`.slice(0, max);
}

function asRecord(value: unknown): JsonSchema | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as JsonSchema) : undefined;
}

/**
 * Hashes that decide "same call" and "same result". Arguments are hashed as
 * canonical JSON (keys sorted). Results are hashed after dropping what changes
 * on every call without meaning progress (clocks, durations, process and
 * message ids), so a status poll that only re-stamps its output still counts
 * as no progress. Plain numbers are kept: "42% done" → "43% done" is progress.
 */
import { createHash } from 'node:crypto';
import type { ToolCallOutcome, ToolContent } from '@tool-search/kernel';

/** sha256 of the canonical JSON of the arguments. */
export function hashArgs(args: Readonly<Record<string, unknown>>): string {
  return sha256(canonicalJson(args));
}

/** sha256 of what a call produced, volatile fields and patterns removed. */
export function hashOutcome(outcome: ToolCallOutcome): string {
  switch (outcome.status) {
    case 'ok':
      return sha256(
        canonicalJson({
          isError: outcome.result.isError === true,
          content: outcome.result.content.map(stableContent),
          structured: stripVolatile(outcome.result.structuredContent),
        }),
      );
    case 'error':
      return sha256(canonicalJson({ error: outcome.error.code, message: stableText(outcome.error.message) }));
    case 'blocked':
      return sha256(canonicalJson({ blocked: outcome.by, reason: stableText(outcome.reason) }));
    case 'pending':
      // The client runs the tool; nothing the kernel sees changes between two pending calls.
      return sha256('pending');
  }
}

/** JSON with object keys sorted at every level; `undefined` members dropped as JSON does. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'undefined';
}

/**
 * Keys whose value is volatile, by their last word (camelCase, snake_case or
 * kebab-case; a trailing unit such as `ms` is skipped): `startTime`,
 * `timestamp`, `updated_at`, `elapsed_ms`, `durationMs`, `pid`, `messageId`,
 * `requestId`. A bare `id` is kept: it usually names *which* item came back.
 */
export function isVolatileKey(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_\-.]+/)
    .filter(Boolean);
  if (words.length > 1 && UNITS.has(words[words.length - 1]!)) words.pop();
  const last = words[words.length - 1];
  if (last === undefined) return false;
  if (VOLATILE_WORDS.has(last)) return true;
  return last === 'id' && words.length > 1 && PER_CALL_IDS.has(words[words.length - 2]!);
}

const UNITS = new Set(['ms', 's', 'sec', 'secs', 'seconds', 'millis', 'us', 'ns']);
const VOLATILE_WORDS = new Set([
  'time',
  'timestamp',
  'ts',
  'date',
  'datetime',
  'at',
  'duration',
  'elapsed',
  'uptime',
  'latency',
  'pid',
  'nonce',
]);
const PER_CALL_IDS = new Set(['message', 'request', 'call', 'trace', 'span', 'run', 'event', 'correlation', 'process']);

/** Text patterns replaced before hashing (applied in order). */
const VOLATILE_TEXT: readonly RegExp[] = [
  // ISO 8601 date-times and dates: 2026-11-29T23:50:17.123Z, 2026-11-29 23:50, 2026-11-29
  /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g,
  // clock times: 23:50:17, 23:50:17.5
  /\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g,
  // UUIDs (request and message ids)
  /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi,
  // epoch seconds or milliseconds
  /\b\d{10,13}\b/g,
  // durations with a unit: 12ms, 1.5 s, 300 seconds
  /\b\d+(?:\.\d+)?\s?(?:ms|µs|us|ns|s|sec|secs|seconds|milliseconds)\b/g,
  // process ids: pid 4242, pid=4242, PID: 4242
  /\bpid\s*[:=]?\s*\d+/gi,
];

function stableText(text: string): string {
  return VOLATILE_TEXT.reduce((out, pattern) => out.replace(pattern, '<v>'), text);
}

function stableContent(content: ToolContent): unknown {
  if (content.type !== 'text') return content;
  const json = parseJsonObject(content.text);
  return json === undefined
    ? { type: 'text', text: stableText(content.text) }
    : { type: 'json', value: stripVolatile(json) };
}

/** Text that is a JSON object or array is compared as structured content. */
function parseJsonObject(text: string): unknown {
  const trimmed = text.trim();
  if (!(trimmed.startsWith('{') || trimmed.startsWith('['))) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}

function stripVolatile(value: unknown): unknown {
  if (typeof value === 'string') return stableText(value);
  if (Array.isArray(value)) return value.map(stripVolatile);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) if (!isVolatileKey(key)) out[key] = stripVolatile(member);
  return out;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
  return out;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

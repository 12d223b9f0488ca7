/**
 * OpenClaw's plugin shape, `plugins.entries.<id>: { enabled, config }`, read as this config's: `plugins.<id>` holds the
 * plugin's options and a plugin is on when its key is there. A write in OpenClaw's shape becomes the same write in this
 * shape before any check runs, so it meets every rule a write in this shape meets (`plugins` is protected: only a write
 * that changes nothing there passes). Ids are object keys, so `@scope/name`, `./x.mjs` and `__proto__` are just keys.
 *
 * `plugins.entries` is read as OpenClaw's map when it is an object whose values are all objects or `null`; a plugin
 * module literally named `entries` is `plugins.entries.entries` then.
 */
import { ErrorCode, ToolSearchError } from '@tool-search/kernel';
import { REDACTED } from './config-file.js';

/** The keys an entry may have (OpenClaw's `PluginEntryConfig`). */
const ENTRY_KEYS = ['enabled', 'config'];

/** A `plugins` object that holds OpenClaw's `entries` map. */
export type PluginsWithEntries = Record<string, unknown> & { entries: object };

/** Whether `plugins` (a config's or a patch's) holds OpenClaw's `entries` map. */
export function hasPluginEntries(plugins: unknown): plugins is PluginsWithEntries {
  if (!isObject(plugins) || !Object.hasOwn(plugins, 'entries')) return false;
  const entries = plugins.entries;
  return isObject(entries) && Object.values(entries).every((entry) => entry === null || isObject(entry));
}

/**
 * `plugins` of a merge patch in this config's shape: `entries.<id>: null` or `{ enabled: false }` deletes
 * `plugins.<id>`; `config` merges into `plugins.<id>` (`null`: every option removed); `{ enabled: true }` adds
 * `plugins.<id>: {}` when it is not there (and is no change when it is).
 */
export function patchFromEntries(plugins: PluginsWithEntries, current: unknown): Record<string, unknown> {
  const out = withoutEntries(plugins);
  for (const [id, entry] of entriesOf(plugins)) {
    const value = patchValue(id, entry, isObject(current) && Object.hasOwn(current, id) ? current[id] : undefined);
    if (value !== undefined) define(out, id, value);
  }
  return out;
}

/** `plugins` of a whole config in this config's shape: each enabled entry's `config` (`{}` without one). */
export function configFromEntries(plugins: PluginsWithEntries): Record<string, unknown> {
  const out = withoutEntries(plugins);
  for (const [id, entry] of entriesOf(plugins)) {
    if (entry === null) continue;
    const { enabled, config } = checkedEntry(id, entry);
    if (enabled === false) continue;
    define(out, id, config === undefined || config === null ? {} : config);
  }
  return out;
}

function patchValue(id: string, entry: Record<string, unknown> | null, current: unknown): unknown {
  // Removing a plugin that is not there is no change (nor is an empty `plugins` left behind).
  const remove = current === undefined ? undefined : null;
  if (entry === null) return remove;
  const { enabled, config } = checkedEntry(id, entry);
  if (enabled === false) return remove;
  if (config === null)
    return isObject(current) ? Object.fromEntries(Object.keys(current).map((key) => [key, null])) : {};
  if (config !== undefined) return config;
  return enabled === true && current === undefined ? {} : undefined;
}

function checkedEntry(id: string, entry: Record<string, unknown>): { enabled?: boolean; config?: unknown } {
  const extra = Object.keys(entry).find((key) => !ENTRY_KEYS.includes(key));
  if (extra !== undefined)
    throw invalid(id, `has "${extra}"; an entry has only enabled (boolean) and config (the plugin's options)`);
  const { enabled, config } = entry;
  if (enabled !== undefined && typeof enabled !== 'boolean') throw invalid(id, 'enabled must be true or false');
  if (config !== undefined && config !== null && config !== REDACTED && !isObject(config))
    throw invalid(id, 'config must be an object (the plugin options), null, or "***" to keep them');
  if (enabled === false && config !== undefined && config !== null)
    throw invalid(id, 'is disabled with a config: here a plugin is on exactly when plugins.<id> is there');
  return { ...(enabled !== undefined ? { enabled } : {}), ...(config !== undefined ? { config } : {}) };
}

function entriesOf(plugins: PluginsWithEntries): [string, Record<string, unknown> | null][] {
  return Object.entries(plugins.entries) as [string, Record<string, unknown> | null][];
}

/** The other keys of `plugins` (this config's shape), as own properties (a `__proto__` key stays a key). */
function withoutEntries(plugins: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(plugins).filter(([key]) => key !== 'entries'));
}

/** Sets `out[id]` as an own property; an id given in both shapes is ambiguous. */
function define(out: Record<string, unknown>, id: string, value: unknown): void {
  if (Object.hasOwn(out, id))
    throw invalid(id, `is given both as plugins.entries["${id}"] and as plugins["${id}"]; give it once`);
  Object.defineProperty(out, id, { value, enumerable: true, writable: true, configurable: true });
}

function invalid(id: string, why: string): ToolSearchError {
  return new ToolSearchError(ErrorCode.TOOL_ARGUMENTS_INVALID, `plugins.entries[${JSON.stringify(id)}] ${why}`, {
    details: { path: `plugins.entries[${JSON.stringify(id)}]`, id },
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

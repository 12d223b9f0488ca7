/**
 * Secrets by schema: a field the config schema marks `writeOnly: true` holds a secret (an API key, a token, a map of
 * env values or headers, MCP `args`, a plugin module's options). `secretPaths` walks a config alongside the schema and
 * names every marked value present; `redactSecrets` replaces each with `"***"`, and also the credentials of every URL
 * anywhere in the config (userinfo, query values), whatever field holds it. No list of paths: a new secret field is
 * marked where the schema defines it.
 */
import type { ConfigPathSegment } from './edit.js';
import { configSchema } from './schema.js';
import { isSchemaObject as isObject } from './secret-fields.js';

export { withSecretFields } from './secret-fields.js';

/** What a redacted secret reads as. */
export const REDACTED_SECRET = '***';

type Schema = Record<string, unknown>;

/**
 * Where the schema says nothing of a value's shape (OpenClaw's loose keys, `agents.defaults`, `browser`), a string
 * under a key named like a secret counts as one: the schema cannot mark a field it does not describe.
 */
const SECRET_NAME = /(api[-_]?key|token|secret|password|passwd|authorization|credentials?|private[-_]?key|cookie)$/i;

/** The paths (segments) of the values `schema` marks `writeOnly` that `value` holds (and, where it describes nothing, secret-named strings). */
export function secretPaths(value: unknown, schema: unknown = configSchema): ConfigPathSegment[][] {
  const found: ConfigPathSegment[][] = [];
  const seen = new Set<string>();
  const add = (at: ConfigPathSegment[]) => {
    const key = JSON.stringify(at);
    if (!seen.has(key)) found.push(at);
    seen.add(key);
  };
  const byName = (node: unknown, at: ConfigPathSegment[]) => {
    if (typeof node === 'string' && SECRET_NAME.test(String(at[at.length - 1] ?? ''))) add(at);
    else if (Array.isArray(node)) node.forEach((item, index) => byName(item, [...at, index]));
    else if (isObject(node)) for (const [key, child] of Object.entries(node)) byName(child, [...at, key]);
  };
  const walk = (node: unknown, at: ConfigPathSegment[], schemas: readonly Schema[]) => {
    if (node === undefined) return;
    if (schemas.some((s) => s.writeOnly === true)) return add(at);
    if (Array.isArray(node)) {
      const items = schemas.flatMap((s) => branchesOf(s.items));
      node.forEach((item, index) => (items.length ? walk(item, [...at, index], items) : byName(item, [...at, index])));
      return;
    }
    if (!isObject(node)) return;
    for (const [key, child] of Object.entries(node)) {
      const next = schemas.flatMap((s) => {
        const named = isObject(s.properties) && Object.hasOwn(s.properties, key) ? s.properties[key] : undefined;
        return branchesOf(named ?? s.additionalProperties);
      });
      if (next.length) walk(child, [...at, key], next);
      else byName(child, [...at, key]);
    }
  };
  walk(value, [], branchesOf(schema));
  return found;
}

/** A copy of `config` with every marked secret and every URL credential replaced by `"***"`. */
export function redactSecrets<T>(config: T, schema: unknown = configSchema): T {
  const copy = redactUrls(structuredClone(config)) as T;
  for (const path of secretPaths(config, schema)) setAt(copy, path, REDACTED_SECRET);
  return copy;
}

/**
 * A URL with its credentials (userinfo, every query value) replaced by `"***"`; any other string as it is. A token in
 * `https://user:token@host/` or `redis://:pass@host` or `wss://host/?token=…` never shows.
 */
export function redactUrl(text: string): string {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(text)) return text;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text; // not a URL after all: nothing to redact
  }
  if (!url.username && !url.password && !url.search) return text;
  if (url.password) url.password = REDACTED_SECRET;
  else if (url.username) url.username = REDACTED_SECRET;
  if (url.search) {
    const query = [...url.searchParams.keys()].map((key) => `${encodeURIComponent(key)}=${REDACTED_SECRET}`);
    url.search = `?${query.join('&')}`;
  }
  return url.href;
}

function redactUrls(node: unknown): unknown {
  if (typeof node === 'string') return redactUrl(node);
  if (Array.isArray(node)) return node.map(redactUrls);
  if (!isObject(node)) return node;
  for (const [key, value] of Object.entries(node)) node[key] = redactUrls(value);
  return node;
}

/** The object schemas a value under `schema` may be checked against (`anyOf`, `oneOf`, `allOf`, `if`/`then`/`else`). */
function branchesOf(schema: unknown): Schema[] {
  if (!isObject(schema)) return [];
  const out: Schema[] = [schema];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) for (const item of list) out.push(...branchesOf(item));
  }
  for (const key of ['then', 'else'] as const) out.push(...branchesOf(schema[key]));
  return out;
}

function setAt(root: unknown, path: readonly ConfigPathSegment[], value: unknown): void {
  let node = root as Record<string | number, unknown>;
  for (const segment of path.slice(0, -1)) node = node[segment] as Record<string | number, unknown>;
  node[path[path.length - 1]!] = value;
}

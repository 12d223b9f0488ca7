/**
 * What a config write through the `gateway` tool may not do, checked on the whole next config against the current
 * one (so `config.apply` and `config.patch` meet the same rules, whatever path or array replacement they use):
 * change a protected section (who may call what, how the gateway listens and authenticates, what it runs and loads,
 * where secrets and data go), give back a redacted secret it cannot keep, or keep a secret while the address it is
 * sent to changes. Secrets are found by the schema's `writeOnly` marks (`@tool-search/config`), never by a path list.
 */
import { isDeepStrictEqual } from 'node:util';
import { type ConfigPathSegment, configSchema, REDACTED_SECRET, redactUrl, secretPaths } from '@tool-search/config';
import { ToolSearchError } from '@tool-search/kernel';
import { GatewayErrors } from './errors.js';

/**
 * Config paths the tool never writes: API keys and the listen address (`auth`, `gateway`), the host-side exec and its
 * elevation, every policy list and approval rule (global and per agent), session visibility, the loop breaker, plugin
 * modules, MCP servers, the upstream provider, shared state, telemetry export, `commands` (restart off), the session
 * log folder, the browser binary, web_fetch's private-address switch, the folder the gateway appends embeddings to,
 * and the bounds on agents (`cron` intervals and job counts, sub-agent depth, children and run time). An operator
 * changes them in the file.
 */
export const PROTECTED_PATHS: readonly (readonly string[])[] = Object.freeze(
  [
    'auth',
    'gateway',
    'tools.exec',
    'tools.elevated',
    'tools.profile',
    'tools.allow',
    'tools.alsoAllow',
    'tools.deny',
    'tools.byProvider',
    'tools.sandbox',
    'tools.approvals',
    'tools.sessions',
    'tools.loopDetection',
    'tools.web.fetch.allowPrivate',
    'tools.toolSearch.embeddings.cacheDir',
    'agents.list',
    'agents.defaults.workspace',
    'agents.defaults.sandbox',
    'agents.defaults.subagents',
    'cron',
    'plugins',
    'mcp',
    'mcpServers',
    'provider',
    'state',
    'telemetry',
    'commands',
    'session.logDir',
    'browser',
  ].map((path) => Object.freeze(path.split('.'))),
);

/** Keys naming where a secret beside them is sent: changing one drops the secrets kept under that object. */
const URL_LIKE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

const DESTINATION_KEYS = ['baseURL', 'baseUrl', 'url', 'endpoint', 'host', 'command', 'provider', 'issuer'];

/** Refuses a next config that changes a protected path (`GATEWAY_PATH_FORBIDDEN`, naming the path). */
export function assertProtectedUnchanged(current: unknown, next: unknown): void {
  for (const path of PROTECTED_PATHS) {
    if (isDeepStrictEqual(valueAt(current, path), valueAt(next, path))) continue;
    const shown = path.join('.');
    // The key that differs inside it (`plugins["@scope/name"]`), so a refused write says which entry it touched.
    const changed = pathText(firstDifference(valueAt(current, path), valueAt(next, path), [...path]));
    throw new ToolSearchError(
      GatewayErrors.GATEWAY_PATH_FORBIDDEN,
      `the gateway tool may not change ${changed === shown ? shown : `${changed} (under ${shown})`}: it decides what agents may do, how the gateway is reached or what it runs; an operator edits it in the config file`,
      { details: { path: shown, changed, protected: PROTECTED_PATHS.map((p) => p.join('.')) } },
    );
  }
}

/** The path of the first key where two objects differ (their own keys, in order), or `at` itself. */
function firstDifference(before: unknown, after: unknown, at: ConfigPathSegment[]): ConfigPathSegment[] {
  if (!isObject(before) || !isObject(after)) return at;
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = Object.hasOwn(before, key) ? before[key] : undefined;
    const b = Object.hasOwn(after, key) ? after[key] : undefined;
    if (!isDeepStrictEqual(a, b)) return firstDifference(a, b, [...at, key]);
  }
  return at;
}

/**
 * The redacted values in `next` to put back from `current`: a `writeOnly` secret given as `"***"`, and a URL given in
 * its redacted form (same address, credentials `***`). A `"***"` with nothing to keep is refused
 * (`GATEWAY_SECRET_REENTER`): the caller never saw a value.
 */
export function redactedToKeep(next: unknown, current: unknown): { path: ConfigPathSegment[]; value: unknown }[] {
  const keep: { path: ConfigPathSegment[]; value: unknown }[] = [];
  for (const path of secretPaths(next)) {
    if (valueAt(next, path) !== REDACTED_SECRET) continue;
    const kept = valueAt(current, path);
    if (kept === undefined) throw reenter(path, 'has no current value to keep');
    keep.push({ path, value: kept });
  }
  eachString(next, [], (text, path) => {
    if (!URL_LIKE.test(text) || !text.includes(REDACTED_SECRET) || keep.some((k) => isDeepStrictEqual(k.path, path)))
      return;
    const kept = valueAt(current, path);
    if (typeof kept === 'string' && kept !== text && redactUrl(kept) === text) keep.push({ path, value: kept });
    else if (typeof kept !== 'string' || kept !== text)
      throw reenter(path, 'is a redacted URL that does not match the current one');
  });
  return keep;
}

/**
 * Refuses a next config that keeps a secret (the same value as now) while an address beside it or above it changed
 * (`baseURL`, `url`, `command`, …): the kept secret would go to the new address. The caller re-enters the secret.
 */
export function assertKeptSecretsStay(current: unknown, next: unknown): void {
  for (const path of secretPaths(next)) {
    const value = valueAt(next, path);
    if (!isDeepStrictEqual(value, valueAt(current, path))) continue; // given anew: the caller knows it
    for (let depth = path.length - 1; depth >= 1; depth--) {
      const at = path.slice(0, depth);
      for (const key of DESTINATION_KEYS) {
        const before = valueAt(current, [...at, key]);
        const after = valueAt(next, [...at, key]);
        if (isObject(before) || isObject(after) || isDeepStrictEqual(before, after)) continue;
        throw new ToolSearchError(
          GatewayErrors.GATEWAY_SECRET_DESTINATION_CHANGED,
          `${pathText(path)} would be kept while ${pathText([...at, key])} changes: a kept secret is not sent to a new address; give the secret again in the same write`,
          { details: { path: pathText(path), destination: pathText([...at, key]) } },
        );
      }
    }
  }
}

/** Keys holding the address a secret beside them (or above them) is sent to. */
const ADDRESS_KEYS = ['baseURL', 'baseUrl', 'url', 'endpoint'];

/**
 * Refuses a next config that would send a secret it does not give to an address the write chose. Where an object has
 * no key of its own, its plugin takes one from the gateway's environment (`OPENAI_API_KEY` for embeddings,
 * `PERPLEXITY_API_KEY`, `FIRECRAWL_API_KEY`, …): so an address added or changed needs, in the same write, a new value
 * for a secret field the schema defines there (or at the nearest level above that has one), and deleting a secret
 * beside an address is refused (`GATEWAY_SECRET_DESTINATION_CHANGED`).
 */
export function assertNoSecretToNewAddress(current: unknown, next: unknown): void {
  eachObject(next, [], (node, at) => {
    for (const key of ADDRESS_KEYS) {
      const address = node[key];
      if (typeof address !== 'string' || address === valueAt(current, [...at, key])) continue;
      const owner = nearestSecretFields(at);
      if (!owner) continue;
      const given = owner.fields.some((field) => {
        const value = valueAt(next, [...owner.at, field]);
        return (
          typeof value === 'string' && value !== REDACTED_SECRET && value !== valueAt(current, [...owner.at, field])
        );
      });
      if (!given) throw toNewAddress([...owner.at, owner.fields[0]!], [...at, key]);
    }
  });
  for (const path of secretPaths(current)) {
    if (valueAt(next, path) !== undefined) continue;
    const parent = valueAt(next, path.slice(0, -1));
    const address = isObject(parent) ? ADDRESS_KEYS.find((key) => typeof parent[key] === 'string') : undefined;
    if (address) throw toNewAddress(path, [...path.slice(0, -1), address]);
  }
}

function toNewAddress(secret: readonly ConfigPathSegment[], address: readonly ConfigPathSegment[]): ToolSearchError {
  return new ToolSearchError(
    GatewayErrors.GATEWAY_SECRET_DESTINATION_CHANGED,
    `${pathText(address)} would receive a key this write does not give (${pathText(secret)} is missing, kept or deleted, and the gateway's environment may supply one): give ${pathText(secret)} in the same write`,
    { details: { path: pathText(secret), destination: pathText(address) } },
  );
}

/** The secret fields (`writeOnly` in the schema) of the object at `at`, or of the nearest object above it that has any. */
function nearestSecretFields(
  at: readonly ConfigPathSegment[],
): { at: ConfigPathSegment[]; fields: string[] } | undefined {
  for (let depth = at.length; depth >= 1; depth--) {
    const fields = schemaSecretFields(at.slice(0, depth));
    if (fields.length) return { at: at.slice(0, depth), fields };
  }
  return undefined;
}

function schemaSecretFields(path: readonly ConfigPathSegment[]): string[] {
  let schemas = branchesOf(configSchema);
  for (const segment of path) {
    schemas = schemas.flatMap((s) =>
      typeof segment === 'number'
        ? branchesOf(s.items)
        : branchesOf(
            isObject(s.properties) && Object.hasOwn(s.properties, segment)
              ? s.properties[segment]
              : s.additionalProperties,
          ),
    );
  }
  return schemas.flatMap((s) =>
    isObject(s.properties)
      ? Object.entries(s.properties).flatMap(([name, sub]) => (isObject(sub) && sub.writeOnly === true ? [name] : []))
      : [],
  );
}

/** The object schemas a value under `schema` may be checked against (`anyOf`, `oneOf`, `allOf`). */
function branchesOf(schema: unknown): Record<string, unknown>[] {
  if (!isObject(schema)) return [];
  const out = [schema];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) for (const item of list) out.push(...branchesOf(item));
  }
  return out;
}

function eachObject(
  node: unknown,
  at: ConfigPathSegment[],
  visit: (node: Record<string, unknown>, at: ConfigPathSegment[]) => void,
): void {
  if (Array.isArray(node)) node.forEach((item, index) => eachObject(item, [...at, index], visit));
  else if (isObject(node)) {
    visit(node, at);
    for (const [key, value] of Object.entries(node)) eachObject(value, [...at, key], visit);
  }
}

export function valueAt(root: unknown, path: readonly ConfigPathSegment[]): unknown {
  let node = root;
  for (const segment of path) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

/** A copy of `root` without the value at `path` (a merge patch that leaves it out keeps the current value). */
export function withoutPath<T>(root: T, path: readonly ConfigPathSegment[]): T {
  const copy = structuredClone(root);
  const parent = valueAt(copy, path.slice(0, -1));
  if (isObject(parent)) delete parent[path[path.length - 1] as string];
  return copy;
}

/** `@tool-search/config`'s path syntax: `a.b`, `a[0]`, `a["x.y"]`. */
export function pathText(path: readonly ConfigPathSegment[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(segment)) out += out ? `.${segment}` : segment;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

function eachString(node: unknown, at: ConfigPathSegment[], visit: (text: string, path: ConfigPathSegment[]) => void) {
  if (typeof node === 'string') visit(node, at);
  else if (Array.isArray(node)) node.forEach((item, index) => eachString(item, [...at, index], visit));
  else if (isObject(node)) for (const [key, value] of Object.entries(node)) eachString(value, [...at, key], visit);
}

function reenter(path: readonly ConfigPathSegment[], why: string): ToolSearchError {
  return new ToolSearchError(
    GatewayErrors.GATEWAY_SECRET_REENTER,
    `${pathText(path)} is "${REDACTED_SECRET}" (a redacted secret) but ${why}; give the real value`,
    { details: { path: pathText(path) } },
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

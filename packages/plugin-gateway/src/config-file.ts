/**
 * The gateway's config file as the `gateway` tool edits it: read with its hash, merge-patched in place (comments,
 * quoting and order kept, through `@tool-search/config`'s JSON5 editor), secrets redacted on the way out and
 * restored on the way back in, and written atomically only after the caller's checks pass.
 */
import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { getConfigValue, parseConfigValue, setConfigValueInText } from '@tool-search/config';
import { ToolSearchError, errorMessage } from '@tool-search/kernel';
import { GatewayErrors } from './errors.js';

/** What `config.get` shows instead of a secret; given back in `config.apply` / `config.patch`, it keeps the current value. */
export const REDACTED = '***';

export interface ConfigFile {
  /** The file's text ('' when it does not exist yet). */
  readonly text: string;
  readonly exists: boolean;
  /** `sha256:<hex>` of the text: the `baseHash` a later write may name. */
  readonly hash: string;
  /** The parsed text (plain JSON5; `{}` for an empty or missing file). */
  readonly value: Record<string, unknown>;
}

export async function readConfigFile(path: string): Promise<ConfigFile> {
  let text = '';
  let exists = true;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw unwritable(`cannot read ${path}`, error);
    exists = false;
  }
  const parsed = text.trim() ? parseConfigValue(text) : {};
  const value =
    parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  return { text, exists, hash: hashOf(text), value };
}

export function hashOf(text: string): string {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** Writes through a temporary file and a rename: a reader never sees half a config. */
export async function writeConfigFile(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    await writeFile(temporary, text.endsWith('\n') ? text : `${text}\n`);
    await rename(temporary, path);
  } catch (error) {
    throw unwritable(`cannot write ${path}`, error);
  }
}

/** RFC 7396 JSON merge patch: objects merge, `null` deletes, anything else (arrays too) replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

/**
 * `text` with `patch` merged in, edited in place: each changed leaf is one edit, so everything the patch does not
 * touch (comments included) stays as written. Returns the text and the dot paths it changed.
 */
export function patchText(
  text: string,
  current: unknown,
  patch: Record<string, unknown>,
): { text: string; changedPaths: string[] } {
  const changedPaths: string[] = [];
  const walk = (at: string, node: unknown, part: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(part)) {
      const path = join(at, key);
      const here = isObject(node) ? node[key] : undefined;
      if (value === null) {
        if (here === undefined) continue;
        text = setConfigValueInText(text, path, undefined);
      } else if (isObject(value) && isObject(here)) {
        walk(path, here, value);
        continue;
      } else {
        const next = mergePatch(undefined, value);
        if (isDeepStrictEqual(here, next)) continue;
        text = setConfigValueInText(text, path, next);
      }
      changedPaths.push(path);
    }
  };
  walk('', current, patch);
  return { text, changedPaths };
}

/** The dot paths of the secrets in a config (API keys, tokens, MCP env/headers, OAuth client secrets). */
export function secretPaths(config: unknown): string[] {
  const paths: string[] = [];
  const add = (path: string) => {
    if (typeof getConfigValue(config, path) === 'string') paths.push(path);
  };
  const addMap = (path: string) => {
    const map = getConfigValue(config, path);
    if (isObject(map)) for (const key of Object.keys(map)) add(join(path, key));
  };
  add('provider.apiKey');
  add('gateway.auth.token');
  addMap('telemetry.otlp.headers');
  for (const root of ['mcp.servers', 'mcpServers']) {
    const servers = getConfigValue(config, root);
    if (!isObject(servers)) continue;
    for (const name of Object.keys(servers)) {
      const server = join(root, name);
      addMap(join(server, 'env'));
      addMap(join(server, 'headers'));
      add(join(join(server, 'auth'), 'clientSecret'));
    }
  }
  return paths;
}

/** A copy with every secret replaced by `REDACTED`. */
export function redact(config: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(config);
  for (const path of secretPaths(config)) setIn(copy, path, REDACTED);
  return copy;
}

/**
 * The secrets a caller gave back redacted keep their current value: in `text` (a whole config) each such path is
 * edited back. A redacted secret with no current value is refused (the caller never saw a value to keep).
 */
export function restoreSecrets(text: string, next: unknown, current: unknown): string {
  for (const path of secretPaths(next)) {
    if (getConfigValue(next, path) !== REDACTED) continue;
    const kept = getConfigValue(current, path);
    if (typeof kept !== 'string')
      throw new ToolSearchError(
        GatewayErrors.GATEWAY_CONFIG_UNWRITABLE,
        `${path} is "${REDACTED}" (a redacted secret) but has no current value to keep; give the real value`,
        { details: { path } },
      );
    text = setConfigValueInText(text, path, kept);
  }
  return text;
}

/** A patch without the redacted secrets the caller gave back (they keep their current value). */
export function withoutRedacted(patch: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(patch);
  for (const path of secretPaths(patch)) if (getConfigValue(patch, path) === REDACTED) setIn(copy, path, undefined);
  return copy;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A config path segment as `@tool-search/config` parses it: `a.b`, or `a["x.y"]` for other keys. */
export function join(at: string, key: string): string {
  const segment = /^[A-Za-z_$][\w$-]*$/.test(key) ? key : `[${JSON.stringify(key)}]`;
  return !at ? segment : segment.startsWith('[') ? `${at}${segment}` : `${at}.${segment}`;
}

function setIn(root: Record<string, unknown>, path: string, value: unknown): void {
  const parts = splitPath(path);
  let node: Record<string, unknown> = root;
  for (const part of parts.slice(0, -1)) {
    if (!isObject(node[part])) return;
    node = node[part] as Record<string, unknown>;
  }
  const last = parts[parts.length - 1]!;
  if (value === undefined) delete node[last];
  else node[last] = value;
}

function splitPath(path: string): string[] {
  const parts: string[] = [];
  const pattern = /\.?([A-Za-z_$][\w$-]*)|\["((?:[^"\\]|\\.)*)"\]/y;
  while (pattern.lastIndex < path.length) {
    const match = pattern.exec(path);
    if (!match) break;
    parts.push(match[1] ?? (JSON.parse(`"${match[2]}"`) as string));
  }
  return parts;
}

function unwritable(message: string, cause: unknown): ToolSearchError {
  return new ToolSearchError(GatewayErrors.GATEWAY_CONFIG_UNWRITABLE, `${message}: ${errorMessage(cause)}`, { cause });
}

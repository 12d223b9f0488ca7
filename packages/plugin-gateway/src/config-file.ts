/**
 * The gateway's config file as the `gateway` tool edits it: read with its hash, merge-patched in place (comments,
 * quoting and order kept, through `@tool-search/config`'s JSON5 editor), secrets redacted on the way out and
 * restored on the way back in, and written atomically only after the caller's checks pass.
 */
import { constants } from 'node:fs';
import { createHash } from 'node:crypto';
import { mkdtemp, open, rename, rmdir, unlink } from 'node:fs/promises';
import { basename, dirname, join as joinPath } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parseConfigValue, REDACTED_SECRET, setConfigValueInText } from '@tool-search/config';
import { ToolSearchError, errorMessage } from '@tool-search/kernel';
import { GatewayErrors } from './errors.js';

/** What `config.get` shows instead of a secret; given back in `config.apply` / `config.patch`, it keeps the current value. */
export const REDACTED = REDACTED_SECRET;
/** A config bigger than this is not read (the tool's `raw` is capped at 1 MB too). */
const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

export interface ConfigFile {
  /** The file's text ('' when it does not exist yet). */
  readonly text: string;
  readonly exists: boolean;
  /** `sha256:<hex>` of the text: the `baseHash` a later write may name. */
  readonly hash: string;
  /** The parsed text (plain JSON5; `{}` for an empty or missing file). */
  readonly value: Record<string, unknown>;
}

/**
 * Reads the config file: only a regular file, opened without following a symlink and without blocking (a FIFO or a
 * device in its place is refused, never waited on). A missing file is an empty config.
 */
export async function readConfigFile(path: string): Promise<ConfigFile> {
  const text = await readRegularFile(path);
  const parsed = text?.trim() ? parseConfigValue(text) : {};
  const value =
    parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  return { text: text ?? '', exists: text !== undefined, hash: hashOf(text ?? ''), value };
}

async function readRegularFile(path: string): Promise<string | undefined> {
  let handle: import('node:fs/promises').FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw unsafe(path, 'a symbolic link', error);
    throw unwritable(`cannot read ${path}`, error);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw unsafe(path, 'not a regular file');
    if (stat.size > MAX_CONFIG_BYTES)
      throw unwritable(`cannot read ${path}`, new Error(`larger than ${MAX_CONFIG_BYTES} bytes`));
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}
export function hashOf(text: string): string {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/**
 * Writes through a temporary file and a rename: a reader never sees half a config. The temporary file is created
 * exclusively (O_EXCL, O_NOFOLLOW, mode 0600) inside a fresh private folder (mkdtemp, 0700) beside the config, so a
 * link planted at a guessed name cannot redirect the write; the rename replaces the config entry itself, never a file
 * a link points to.
 */
export async function writeConfigFile(path: string, text: string): Promise<void> {
  let folder: string | undefined;
  let temporary: string | undefined;
  try {
    folder = await mkdtemp(joinPath(dirname(path), `.${basename(path)}.`));
    temporary = joinPath(folder, 'config.tmp');
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
    const handle = await open(temporary, flags, 0o600);
    try {
      await handle.writeFile(text.endsWith('\n') ? text : `${text}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
    temporary = undefined;
  } catch (error) {
    throw unwritable(`cannot write ${path}`, error);
  } finally {
    // The temporary file of a failed write may never have been created: nothing to remove then.
    if (temporary) await unlink(temporary).catch(() => undefined);
    // The private folder is empty after the rename; a failure to remove it leaves an empty folder, nothing more.
    if (folder) await rmdir(folder).catch(() => undefined);
  }
}

/** RFC 7396 JSON merge patch: objects merge, `null` deletes, anything else (arrays too) replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    const here = Object.hasOwn(out, key) ? out[key] : undefined;
    if (value === null) delete out[key];
    // Defined, not assigned: a `__proto__` key stays a key (assigning it would set the object's prototype).
    else
      Object.defineProperty(out, key, {
        value: mergePatch(here, value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
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

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A config path segment as `@tool-search/config` parses it: `a.b`, or `a["x.y"]` for other keys. */
export function join(at: string, key: string): string {
  const segment = /^[A-Za-z_$][\w$-]*$/.test(key) ? key : `[${JSON.stringify(key)}]`;
  return !at ? segment : segment.startsWith('[') ? `${at}${segment}` : `${at}.${segment}`;
}

function unsafe(path: string, what: string, cause?: unknown): ToolSearchError {
  return new ToolSearchError(
    GatewayErrors.GATEWAY_CONFIG_UNSAFE_FILE,
    `${path} is ${what}: the gateway tool reads and writes only a regular config file it opens itself`,
    { details: { path }, ...(cause ? { cause } : {}) },
  );
}

function unwritable(message: string, cause: unknown): ToolSearchError {
  return new ToolSearchError(GatewayErrors.GATEWAY_CONFIG_UNWRITABLE, `${message}: ${errorMessage(cause)}`, { cause });
}

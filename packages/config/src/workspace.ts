/**
 * The workspace is the agents' writable folder (the file tools, the sandboxed `exec`, MCP roots), so it must never hold
 * what the gateway later runs or trusts: the config file, plugin modules, session logs, the cron folder, state
 * folders, the embeddings cache. The default is a folder of its own, `<config folder>/workspace`; a workspace that is, or is an ancestor
 * of, any of those paths is CONFIG_INVALID (rule `workspaceContains`) naming both. Paths are compared as written and
 * through symlinks (the real path of their longest existing part), so a link cannot hide one inside the other.
 */
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '@tool-search/kernel';
import { mcpServersOf } from './mcp-servers.js';
import type { ToolSearchConfig } from './types.js';

/** The default workspace's name inside the config file's folder. */
export const DEFAULT_WORKSPACE_FOLDER = 'workspace';

/** A path the workspace must not contain, and what it is (for the error). */
export interface GuardedPath {
  readonly what: string;
  readonly path: string;
}

/** A workspace the config acts on as a writable root: where it is set (JSON pointer) and its absolute path. */
export interface ActedWorkspace {
  readonly pointer: string;
  readonly path: string;
}

/** The default workspace of a config whose relative paths mean `dir`. */
export function defaultWorkspace(dir: string): string {
  return join(resolve(dir), DEFAULT_WORKSPACE_FOLDER);
}

/**
 * The cron folder the gateway keeps beside its session logs (`gateway.sessions.dir`, else `session.logDir`; `logDir`
 * overrides both); undefined without one (the gateway then uses the state folder).
 */
export function cronDirBesideSessions(config: ToolSearchConfig, dir: string, logDir?: string): string | undefined {
  const logs = logDir ?? config.gateway?.sessions?.dir ?? config.session?.logDir;
  return logs === undefined ? undefined : join(dirname(resolve(dir, logs)), 'cron');
}

/**
 * The workspaces a config acts on: `plugins.core.workspace` (its default when `plugins.core` is set), else
 * `agents.defaults.workspace` when it is offered to MCP servers as their root. `agents.list[].workspace` is not acted on.
 */
export function actedWorkspaces(config: ToolSearchConfig, dir: string): ActedWorkspace[] {
  const core = config.plugins?.core;
  if (core)
    return [{ pointer: '/plugins/core/workspace', path: resolve(dir, core.workspace ?? DEFAULT_WORKSPACE_FOLDER) }];
  const agents = config.agents?.defaults?.['workspace'];
  if (typeof agents === 'string' && agents && Object.keys(mcpServersOf(config)).length > 0)
    return [{ pointer: '/agents/defaults/workspace', path: resolve(dir, agents) }];
  return [];
}

/** What the config itself says the workspace must not contain: its file, `./` plugin modules, session logs, cron. */
export function configGuardedPaths(config: ToolSearchConfig, dir: string, configPath?: string): GuardedPath[] {
  const guarded: GuardedPath[] = [];
  if (configPath !== undefined) guarded.push({ what: 'the config file', path: resolve(dir, configPath) });
  for (const id of Object.keys(config.plugins ?? {})) {
    const file = modulePath(id, dir);
    if (file) guarded.push({ what: `the plugin module "${id}"`, path: file });
  }
  const sessions = config.gateway?.sessions?.dir;
  if (sessions !== undefined)
    guarded.push({ what: 'the sessions folder (gateway.sessions.dir)', path: resolve(dir, sessions) });
  const logDir = config.session?.logDir;
  if (logDir !== undefined)
    guarded.push({ what: 'the session log folder (session.logDir)', path: resolve(dir, logDir) });
  const cron = cronDirBesideSessions(config, dir);
  if (cron !== undefined) guarded.push({ what: 'the cron folder', path: cron });
  // The gateway appends to `<cacheDir>/<hash of the model>.jsonl` as its own user: a name an agent could plant as a link.
  const toolSearch = config.tools?.toolSearch;
  const cacheDir = typeof toolSearch === 'object' ? toolSearch.embeddings?.cacheDir : undefined;
  if (cacheDir !== undefined)
    guarded.push({
      what: 'the embeddings cache folder (tools.toolSearch.embeddings.cacheDir)',
      path: resolve(cacheDir),
    });
  return guarded;
}

/**
 * Throws CONFIG_INVALID (rule `workspaceContains`) when a workspace the config acts on contains (is, or is an
 * ancestor of) the config file or any other guarded path; `extra` adds what only the front end knows.
 */
export function checkWorkspaces(
  config: ToolSearchConfig,
  dir: string,
  options: { readonly configPath?: string; readonly extra?: readonly GuardedPath[] } = {},
): void {
  const guarded = [...configGuardedPaths(config, dir, options.configPath), ...(options.extra ?? [])];
  for (const workspace of actedWorkspaces(config, dir)) {
    const found = guarded.find((entry) => workspaceContains(workspace.path, entry.path));
    if (found) throw containsError(workspace, found);
  }
}

/** `workspace` is `path` or an ancestor of it, as written or through symlinks. */
export function workspaceContains(workspace: string, path: string): boolean {
  const spaces = [resolve(workspace), realOf(resolve(workspace))];
  const paths = [resolve(path), realOf(resolve(path))];
  return spaces.some((space) => paths.some((candidate) => isWithin(space, candidate)));
}

function containsError(workspace: ActedWorkspace, found: GuardedPath): ConfigError {
  const key = workspace.pointer.slice(1).replace(/\//g, '.');
  return new ConfigError(
    workspace.pointer,
    'workspaceContains',
    `${key} ${workspace.path} contains ${found.what} ${found.path}: an agent that writes the workspace could change ` +
      `what the gateway runs or reads next; give the workspace a folder of its own (the default is ` +
      `<config folder>/${DEFAULT_WORKSPACE_FOLDER}) or move ${found.what} out of it`,
    { details: { workspace: workspace.path, contains: found.path, what: found.what } },
  );
}

/** A plugin module key that is a path (`./x.js`, `/abs/x.js`, `file:` URL), resolved; package names resolve later. */
function modulePath(id: string, dir: string): string | undefined {
  if (id.startsWith('file:')) return URL.canParse(id) ? fileURLToPath(id) : undefined;
  return id.startsWith('.') || isAbsolute(id) ? resolve(dir, id) : undefined;
}

function isWithin(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!isAbsolute(rel) && rel.split(sep)[0] !== '..');
}

/** The real path of `path`'s longest existing part (a dangling link followed), with the missing rest appended. */
function realOf(path: string, hops = 0): string {
  try {
    return realpathSync.native(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && hops < 40 && isSymlink(path))
      return realOf(resolve(dirname(path), readlinkSync(path)), hops + 1);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return path;
    const parent = dirname(path);
    return parent === path ? path : join(realOf(parent, hops), basename(path));
  }
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false; // not there: not a link
  }
}
